/**
 * Strapi's tests that expect what Cairn refuses on purpose. Each names the row of the README's table of differences
 * ("Where Cairn differs from Strapi (on purpose)") that says why, and what its failure must show: the reporter
 * counts such a test as "differs" only when it fails that way (every `failure` string is in its failure's first line
 * or its last request and answer). A listed test that passes, or fails any other way, is a failure: the list cannot
 * hide a regression, and it shrinks when a difference goes. The README row is looked up in README.md at the start.
 */
export interface Difference {
  /** The test file, relative to the suite's folder (as strapi/strapi lays it out). */
  file: string;
  /** The test's describe blocks and name, joined with ' > ' (as the reporter prints them). */
  test: string;
  /** The start of the first cell of the README's row that explains the difference. */
  readme: string;
  /** Strings the failure must contain: Cairn's answer, as the README describes it. */
  failure: string[];
}

const FILTERING = 'tests/api/core/strapi/filtering.test.api.js';
const NULL_ROW = '`$null`/`$notNull` take `true`, `t`, `1` or `false`, `f`, `0`, empty';
const nullValues = ["'anything'", "[ 'anything' ]", "{ anything: 'anything' }"];

const SORT = 'tests/api/core/strapi/api/sort/sort.test.api.ts';
const UNKNOWN_PARAMETER_ROW = 'unknown query parameters → 400';

export const DIFFERENCES: Difference[] = [
  // `filters[price][$null]=anything`: Strapi reads any value but false's spellings as true; a typo turns the filter around.
  ...nullValues.map((value) => ({
    file: FILTERING,
    test: `Filtering API > Basic filters > Filter null > Should return only matching items ({ 'undefined': ${value} })`,
    readme: NULL_ROW,
    failure: ['→ 400', '$null at price takes true or false'],
  })),
  ...nullValues.map((value) => ({
    file: FILTERING,
    test: `Filtering API > Basic filters > Filter null > Should return three matches ({ 'undefined': ${value} })`,
    readme: NULL_ROW,
    failure: ['→ 400', '$notNull at price takes true or false'],
  })),
  // `?filter[title]=...` (a typo of `filters`) on a PUT and a DELETE: Strapi ignores it.
  ...['Update + Deep sort (1st level) should ignore the sort', 'Delete + Deep sort (1st level) should ignore the sort'].map((name) => ({
    file: SORT,
    test: `Sort > ${name}`,
    readme: UNKNOWN_PARAMETER_ROW,
    failure: ['→ 400', 'Invalid key filter'],
  })),
  // A browser at /graphql: Strapi serves Apollo's landing page, loaded from a CDN; Cairn serves GraphiQL offline.
  {
    file: 'tests/api/plugins/graphql/utils.test.api.js',
    test: 'Test Graphql Utils > Load Graphql playground',
    readme: 'GraphQL: a browser opening the endpoint gets GraphiQL',
    failure: ["to contain '<title>Apollo Server</title>'"],
  },
];

/** The README's rows of differences: the first cell of each table row under the differences heading. */
export function differenceRows(readme: string): string[] {
  const start = readme.indexOf('## Where Cairn differs from Strapi (on purpose)');
  if (start === -1) return [];
  const section = readme.slice(start).split(/\n## /)[0];
  return section
    .split('\n')
    .filter((line) => line.startsWith('| ') && !line.startsWith('| ---'))
    .map((line) => line.slice(2).split(' | ')[0]);
}
