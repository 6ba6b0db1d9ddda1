import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DIFFERENCES, differenceRows, explained, type Difference } from './differences.js';
import { afterOutOfScope, cascadeOutcome, diffChangesOnly, listedOutcome, listingKey } from './reporter.js';

/**
 * The Strapi suite's list of tests that differ on purpose (differences.ts): every entry is explained by a row of the
 * README's table, and the reporter counts a listed test as differing only when it fails the listed way.
 */
const readme = readFileSync(resolve(import.meta.dirname, '../../README.md'), 'utf8');

describe('Strapi suite: differences on purpose', () => {
  it("every listed difference is explained in the README: on purpose by a row of its table of differences", () => {
    expect(differenceRows(readme).length).toBeGreaterThan(20);
    for (const d of DIFFERENCES) expect(explained(readme, d), d.test).toBe(true);
    const onPurpose = DIFFERENCES.filter((d) => d.kind === 'on purpose');
    expect(onPurpose.length).toBeGreaterThan(0);
    // A phrase found elsewhere in the README does not explain a difference on purpose.
    expect(explained(readme, { ...onPurpose[0], readme: 'npm run test:strapi-suite' })).toBe(false);
    expect(explained(readme, { ...onPurpose[0], kind: 'not Strapi 5.54', readme: 'npm run test:strapi-suite' })).toBe(true);
  });

  it('rows outside the table of differences are not rows of it', () => {
    expect(differenceRows('| a | b |\n## Where Cairn differs from Strapi (on purpose)\n\n| x | y | z |\n| --- | --- | --- |\n| first | s | w |\n\n## Next\n| after | b | c |')).toEqual(['x', 'first']);
  });

  const listed: Difference = { kind: 'on purpose', file: 'f.test.api.js', test: 'A > b', readme: 'row', failure: ['→ 400', 'Invalid key filter'] };

  it('a listed test failing the listed way differs on purpose, with the README row as its reason', () => {
    const outcome = listedOutcome({ status: 'failed', reason: 'expected 400 to be 200 [last: GET /api/x?filter[a]=1 → 400 {"message":"Invalid key filter"}]' }, listed);
    expect(outcome.status).toBe('differs');
    expect(outcome.reason).toContain('README: "row"');
  });

  it('a listed test failing another way is a failure', () => {
    const outcome = listedOutcome({ status: 'failed', reason: 'expected 500 to be 200 [last: GET /api/x → 500 {}]' }, listed);
    expect(outcome.status).toBe('failed');
    expect(outcome.reason).toContain('not the listed difference');
  });

  it('a listed test that passes is a failure: the list must shrink', () => {
    expect(listedOutcome({ status: 'passed' }, listed)).toMatchObject({ status: 'failed', reason: expect.stringContaining('remove it from the list') });
  });

  it('a listed test whose outcome depends on random values passes when it passes, and differs only the listed way', () => {
    const random: Difference = { ...listed, random: 'documentIds drawn at random' };
    expect(listedOutcome({ status: 'passed' }, random)).toEqual({ status: 'passed' });
    expect(listedOutcome({ status: 'failed', reason: 'expected 400 to be 200 [last: GET /api/x?filter[a]=1 → 400 {"message":"Invalid key filter"}]' }, random).status).toBe('differs');
    expect(listedOutcome({ status: 'failed', reason: 'expected 500 to be 200 [last: GET /api/x → 500 {}]' }, random).status).toBe('failed');
  });

  it('a failed test that sent nothing and read undefined state after an out-of-scope test of its file is out of scope; any other failure stays one', () => {
    const missing = { status: 'failed' as const, reason: "Cannot read properties of undefined (reading 'id')" };
    expect(afterOutOfScope(missing, false, 'Folder > create > Can create a folder')).toEqual({
      status: 'out of scope',
      reason: `sent Cairn nothing and read what "Folder > create > Can create a folder" (out of scope) would have made: Cannot read properties of undefined (reading 'id')`,
    });
    // No out-of-scope test before it, a request sent, or another failure: still a failure.
    expect(afterOutOfScope(missing, false, undefined)).toBe(missing);
    expect(afterOutOfScope(missing, true, 'A > b')).toBe(missing);
    const assertion = { status: 'failed' as const, reason: 'expected 404 to be 200' };
    expect(afterOutOfScope(assertion, false, 'A > b')).toBe(assertion);
    expect(afterOutOfScope({ status: 'passed' }, false, 'A > b')).toEqual({ status: 'passed' });
  });

  it("a test not run because its file's hook failed is decided by the file's entry when the list has one; any other by its own", () => {
    const notRun = { status: 'failed' as const, reason: 'not run, a hook failed: The singular name "user" is taken' };
    const withFile = new Map([['f.test.api.js\n(the file)', listed]]);
    expect(listingKey('f.test.api.js', 'A > b', notRun, withFile)).toBe('f.test.api.js\n(the file)');
    expect(listingKey('f.test.api.js', 'A > b', notRun, new Map())).toBe('f.test.api.js\nA > b');
    expect(listingKey('f.test.api.js', 'A > b', { status: 'failed', reason: 'expected 1 to be 2' }, withFile)).toBe('f.test.api.js\nA > b');
    expect(listingKey('f.test.api.js', 'A > b', { status: 'passed' }, withFile)).toBe('f.test.api.js\nA > b');
  });

  it('a failed test that reads what an earlier test makes is out of scope only when that test was out of scope in the run', () => {
    const cascade = { file: 'f.test.api.js', test: 'A > c', after: 'A > b', reads: 'the drafts its migration makes' };
    const failed = { status: 'failed' as const, reason: 'expected [] to have a length of 4 but got +0' };
    expect(cascadeOutcome(failed, cascade, { status: 'out of scope', reason: 'the admin API' })).toEqual({
      status: 'out of scope',
      reason: 'reads the drafts its migration makes; "A > b" was out of scope (expected [] to have a length of 4 but got +0)',
    });
    // The earlier test ran (passed or failed), or is not there: the failure stays one; a pass stays a pass.
    expect(cascadeOutcome(failed, cascade, { status: 'passed' })).toBe(failed);
    expect(cascadeOutcome(failed, cascade, { status: 'failed', reason: 'x' })).toBe(failed);
    expect(cascadeOutcome(failed, cascade, undefined)).toBe(failed);
    expect(cascadeOutcome({ status: 'passed' }, cascade, { status: 'out of scope', reason: 'the admin API' })).toEqual({ status: 'passed' });
  });

  it('a listed test out of scope or skipped upstream stays so', () => {
    expect(listedOutcome({ status: 'skipped', reason: 'skipped upstream' }, listed).status).toBe('skipped');
  });

  const sortDiff = (extra: string) =>
    ['- Expected', '+ Received', '', '  Array [', '    Object {', '      "id": 1,', '-     "locale": "en",', '      "title": "Article A",', extra, '    },', '  ]'].join('\n');

  it('a diff changing only the allowed lines is the listed difference; one changing anything else is not', () => {
    expect(diffChangesOnly(sortDiff(''), ['"locale": "en",'])).toBe(true);
    expect(diffChangesOnly(`\u001b[32m${sortDiff('')}\u001b[39m`, ['"locale": "en",'])).toBe(true);
    expect(diffChangesOnly(sortDiff('-     "id": 4,\n+     "id": 3,'), ['"locale": "en",'])).toBe(false);
    expect(diffChangesOnly(undefined, ['"locale": "en",'])).toBe(false);
    const withDiff: Difference = { ...listed, failure: ['to match object'], diffOnly: ['"locale": "en",'] };
    expect(listedOutcome({ status: 'failed', reason: 'expected [] to match object []', diff: sortDiff('') }, withDiff).status).toBe('differs');
    expect(listedOutcome({ status: 'failed', reason: 'expected [] to match object []', diff: sortDiff('+     "id": 3,') }, withDiff).status).toBe('failed');
  });
});
