/**
 * Tests of Strapi's files that read what an earlier test of the same file makes: the state a migration that test runs
 * leaves, or rows a repair it calls removes. When that earlier test is out of scope in a run (it needs what Cairn
 * does not have), it made nothing, and such a test's failure is out of scope too, naming it. When the earlier test
 * ran, an entry changes nothing: a failure is a failure. Each entry says what the test reads.
 */
export interface Cascade {
  /** The test file, relative to the suite's folder. */
  file: string;
  /** The test, as the reporter names it (describe blocks and name joined with ' > '). */
  test: string;
  /** The earlier test of the file whose work it reads. */
  after: string;
  /** What it reads of that work. */
  reads: string;
}

const DISCARD_DRAFTS = 'tests/api/core/strapi/migrations/discard-drafts-comprehensive.test.api.js';
const MIGRATION = 'Discard Drafts Migration - Comprehensive Test > Migration execution > ';
const REPAIR = 'tests/api/core/strapi/repairs/unidirectional-join-table-repair.test.api.ts';
const REPAIR_SUITE = 'Unidirectional join-table repair (components) > ';

export const CASCADES: Cascade[] = [
  ...['should handle complex content types with multiple attributes', 'should handle multi-locale content correctly'].map((name) => ({
    file: DISCARD_DRAFTS,
    test: `${MIGRATION}${name}`,
    after: `${MIGRATION}should create draft entries for all content types with D&P enabled`,
    reads: 'the draft versions that test\'s migration makes (it turns Draft & Publish on through the admin\'s content-type builder and restarts)',
  })),
  ...[
    "Does not delete when component's parent does not support D&P (safety)",
    'Cleans duplicates across multiple component instances in a single run',
    'Only removes per-document published duplicates; different documents remain linked',
  ].map((name) => ({
    file: REPAIR,
    test: `${REPAIR_SUITE}${name}`,
    after: `${REPAIR_SUITE}Removes duplicate published row when both draft and published exist for one component instance`,
    reads:
      "the join table after that test's repair (strapi.db.repair) removed the duplicate row it inserted: it copies the first row linking the draft tag, and its insert meets that duplicate (each of these tests calls strapi.db.repair too)",
  })),
];
