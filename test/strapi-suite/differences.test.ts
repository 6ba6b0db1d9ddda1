import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DIFFERENCES, differenceRows, type Difference } from './differences.js';
import { listedOutcome } from './reporter.js';

/**
 * The Strapi suite's list of tests that differ on purpose (differences.ts): every entry is explained by a row of the
 * README's table, and the reporter counts a listed test as differing only when it fails the listed way.
 */
const readme = readFileSync(resolve(import.meta.dirname, '../../README.md'), 'utf8');

describe('Strapi suite: differences on purpose', () => {
  it("every listed difference names a row of the README's table of differences", () => {
    const rows = differenceRows(readme);
    expect(rows.length).toBeGreaterThan(20);
    for (const d of DIFFERENCES) expect(rows.some((row) => row.startsWith(d.readme)), d.test).toBe(true);
  });

  it('rows outside the table of differences are not rows of it', () => {
    expect(differenceRows('| a | b |\n## Where Cairn differs from Strapi (on purpose)\n\n| x | y | z |\n| --- | --- | --- |\n| first | s | w |\n\n## Next\n| after | b | c |')).toEqual(['x', 'first']);
  });

  const listed: Difference = { file: 'f.test.api.js', test: 'A > b', readme: 'row', failure: ['→ 400', 'Invalid key filter'] };

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

  it('a listed test out of scope or skipped upstream stays so', () => {
    expect(listedOutcome({ status: 'skipped', reason: 'skipped upstream' }, listed).status).toBe('skipped');
  });
});
