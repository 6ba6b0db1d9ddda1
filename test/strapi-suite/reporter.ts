import { readFileSync, writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import type { Reporter } from 'vitest/reporters';
import type { RunnerTask, RunnerTestFile } from 'vitest';
import { DIFFERENCES, explained, type Difference } from './differences.js';
import { CASCADES, type Cascade } from './cascades.js';

type Status = 'passed' | 'failed' | 'differs' | 'out of scope' | 'skipped';
export type Outcome = { status: Status; reason?: string; diff?: string };

const OUT_OF_SCOPE = 'Out of scope: ';

function firstLine(message: string | undefined): string {
  const line = (message ?? '').split('\n').find((l) => l.trim()) ?? '';
  return line.length > 200 ? `${line.slice(0, 197)}...` : line;
}

function classify(errors: Array<{ message?: string; name?: string; diff?: string }> | undefined): Outcome {
  const scoped = errors?.find((e) => e.message?.startsWith(OUT_OF_SCOPE));
  if (scoped) return { status: 'out of scope', reason: scoped.message!.slice(OUT_OF_SCOPE.length) };
  return { status: 'failed', reason: firstLine(errors?.[0]?.message) || 'failed', diff: errors?.[0]?.diff };
}

/**
 * Whether a failed assertion's diff changes only lines holding one of `allowed` (vitest's diff: `- Expected`,
 * `+ Received`, then each line prefixed with `-`, `+` or two spaces; colours stripped). No diff: not shown.
 */
export function diffChangesOnly(diff: string | undefined, allowed: string[]): boolean {
  if (!diff) return false;
  const lines = diff.replace(/\u001b\[[0-9;]*m/g, '').split('\n');
  const changed = lines.filter((line) => /^[-+] /.test(line) && !/^- Expected|^\+ Received/.test(line));
  return changed.length > 0 && changed.every((line) => allowed.some((text) => line.includes(text)));
}

/** A test's outcome; one that did not run because a hook of its suite failed takes that hook's error. */
function outcomeOf(test: RunnerTask): Outcome {
  if (test.result?.state === 'pass') return { status: 'passed' };
  if (test.result?.state === 'fail') {
    const outcome = classify(test.result.errors);
    const last = (test.meta as { lastExchange?: string }).lastExchange;
    return last && outcome.status === 'failed' ? { ...outcome, reason: `${outcome.reason} [last: ${last}]` } : outcome;
  }
  // Vitest marks the tests of a suite whose beforeAll failed as skipped: they count as that hook's failure. (A
  // suite some tests of which ran failed in an afterAll: its skipped tests are skipped upstream.)
  for (let suite: RunnerTask | undefined = test.suite ?? test.file; suite; suite = suite.suite ?? (suite === test.file ? undefined : test.file)) {
    if (suite.result?.errors?.length && !testsOf(suite).some(ran)) return hookFailure(classify(suite.result.errors));
  }
  if (test.mode === 'skip' || test.mode === 'todo') return { status: 'skipped', reason: 'skipped upstream (test.skip)' };
  return { status: 'failed', reason: 'did not run' };
}

/**
 * Strapi's tests share state from test to test: a folder one test makes through the admin API, the next reads. A
 * failed test that sent Cairn nothing and failed reading a property of undefined, after a test of its file that was
 * out of scope, reads what that test would have made: Cairn had no part in it, so it is out of scope too, naming
 * that test. (One that sent a request, or failed any other way, stays a failure.)
 */
export function afterOutOfScope(outcome: Outcome, sentRequest: boolean, earlierOutOfScope: string | undefined): Outcome {
  if (outcome.status !== 'failed' || sentRequest || !earlierOutOfScope || !/^Cannot read properties of (undefined|null)/.test(outcome.reason ?? '')) return outcome;
  return { status: 'out of scope', reason: `sent Cairn nothing and read what "${earlierOutOfScope}" (out of scope) would have made: ${outcome.reason}` };
}

const ran = (test: RunnerTask) => test.result?.state === 'pass' || test.result?.state === 'fail';

const HOOK_FAILED = 'not run, a hook failed: ';

function hookFailure(outcome: Outcome): Outcome {
  return outcome.status === 'failed' ? { status: 'failed', reason: `${HOOK_FAILED}${outcome.reason}` } : outcome;
}

function testsOf(task: RunnerTask): RunnerTask[] {
  return 'tasks' in task && task.tasks ? task.tasks.flatMap(testsOf) : task.type === 'test' ? [task] : [];
}

function suitesOf(task: RunnerTask): RunnerTask[] {
  return 'tasks' in task && task.tasks ? [task, ...task.tasks.flatMap(suitesOf)] : [];
}

function countsRow(counts: Record<Status, number>): string {
  return [counts.passed, counts.failed, counts.differs, counts['out of scope'], counts.skipped].map((n, i) => String(n).padStart(i === 2 ? 7 : 6)).join(' ');
}

function nameOf(test: RunnerTask): string {
  const names: string[] = [];
  for (let t: RunnerTask | undefined = test; t && t.type !== undefined && t !== test.file; t = t.suite) names.unshift(t.name);
  return names.join(' > ');
}

/**
 * A failed test listed in cascades.ts: out of scope when the earlier test it reads was out of scope in this run
 * (`afterOutcome`), else as it is.
 */
export function cascadeOutcome(outcome: Outcome, cascade: Cascade, afterOutcome: Outcome | undefined): Outcome {
  if (outcome.status !== 'failed' || afterOutcome?.status !== 'out of scope') return outcome;
  return { status: 'out of scope', reason: `reads ${cascade.reads}; "${cascade.after}" was out of scope (${outcome.reason})` };
}

/**
 * The key of differences.ts's entry that decides a test (`file\ntest`): the file's own (`(the file)`) for a test not
 * run because a hook of its file failed, when the list has one; else the test's.
 */
export function listingKey(path: string, test: string, outcome: Outcome, listed: ReadonlyMap<string, unknown>): string {
  const fileKey = `${path}\n(the file)`;
  const notRun = outcome.status === 'failed' && outcome.reason?.startsWith(HOOK_FAILED) && listed.has(fileKey);
  return notRun ? fileKey : `${path}\n${test}`;
}

/**
 * A test listed in differences.ts: "differs" when it failed the way its entry says; a failure when it passed or
 * failed otherwise (the list must not hide anything else). A test whose outcome depends on random values
 * (`random`) may pass too.
 */
export function listedOutcome(outcome: Outcome, difference: Difference): Outcome {
  if (outcome.status === 'passed') {
    return difference.random ? outcome : { status: 'failed', reason: `passed, but differences.ts lists it (${difference.kind}, "${difference.readme}"): remove it from the list` };
  }
  const failedAsListed =
    difference.failure.every((text) => outcome.reason?.includes(text)) && (!difference.diffOnly || diffChangesOnly(outcome.diff, difference.diffOnly));
  if (outcome.status === 'failed' && failedAsListed) {
    return { status: 'differs', reason: `${difference.kind}, README: "${difference.readme}" (${outcome.reason})` };
  }
  const listed = [...difference.failure, ...(difference.diffOnly ? [`a diff of only ${difference.diffOnly.join(', ')}`] : [])].join(', ');
  return outcome.status === 'failed' ? { status: 'failed', reason: `not the listed difference (${listed}): ${outcome.reason}` } : outcome;
}

/**
 * Prints, per upstream test file, how many tests passed, failed, differ on purpose (differences.ts), were out of
 * scope (with the reason, per test) or skipped upstream; then every test not passed with its reason, and the totals.
 * The totals go to `summaryFile` too, from which run.mjs takes its exit status.
 */
export default class StrapiSuiteReporter implements Reporter {
  constructor(
    private readonly root: string,
    private readonly readmePath: string,
    private readonly summaryFile?: string,
  ) {}

  onFinished(files: RunnerTestFile[] = []): void {
    const totals = { passed: 0, failed: 0, differs: 0, 'out of scope': 0, skipped: 0 };
    const rows: string[] = [];
    const details: string[] = [];
    const readme = readFileSync(this.readmePath, 'utf8');
    const problems = DIFFERENCES.filter((d) => !explained(readme, d)).map((d) => `differences.ts: "${d.test}" names README text that is not there (${d.kind}): "${d.readme}"`);
    const listed = new Map(DIFFERENCES.map((d) => [`${d.file}\n${d.test}`, d]));
    const cascades = new Map(CASCADES.map((c) => [`${c.file}\n${c.test}`, c]));
    const seen = new Set<string>();
    for (const file of [...files].sort((a, b) => a.filepath.localeCompare(b.filepath))) {
      const path = relative(this.root, file.filepath);
      const counts = { passed: 0, failed: 0, differs: 0, 'out of scope': 0, skipped: 0 };
      const tests = testsOf(file);
      const lines: string[] = [];
      let earlierOutOfScope: string | undefined;
      const outcomes = new Map<string, Outcome>();
      const fileKey = `${path}\n(the file)`;
      for (const test of tests) {
        const own = outcomeOf(test);
        const key = listingKey(path, nameOf(test), own, listed);
        const difference = listed.get(key);
        if (difference) seen.add(key);
        const sentRequest = Boolean((test.meta as { lastExchange?: string }).lastExchange);
        const cascade = cascades.get(`${path}\n${nameOf(test)}`);
        const outcome = difference
          ? listedOutcome(own, difference)
          : cascade
            ? cascadeOutcome(own, cascade, outcomes.get(cascade.after))
            : afterOutOfScope(own, sentRequest, earlierOutOfScope);
        outcomes.set(nameOf(test), outcome);
        if (outcome.status === 'out of scope') earlierOutOfScope ??= nameOf(test);
        counts[outcome.status] += 1;
        if (outcome.status !== 'passed') lines.push(`    ${outcome.status.padEnd(12)} ${nameOf(test)} — ${outcome.reason}`);
      }
      for (const suite of suitesOf(file)) {
        if (suite.result?.errors?.length && testsOf(suite).some(ran)) {
          const outcome = classify(suite.result.errors);
          lines.push(`    ${'(hook)'.padEnd(12)} ${suite === file ? 'the file' : nameOf(suite)}: an afterAll failed — ${outcome.status}: ${outcome.reason}`);
        }
      }
      if (tests.length === 0) {
        // A file that cannot load counts once, as `(the file)` (a listed difference when differences.ts names it so).
        const difference = listed.get(fileKey);
        if (difference) seen.add(fileKey);
        const outcome = difference ? listedOutcome(classify(file.result?.errors), difference) : classify(file.result?.errors);
        counts[outcome.status] += 1;
        lines.push(`    ${outcome.status.padEnd(12)} (the file) — ${outcome.reason}`);
      }
      for (const key of Object.keys(totals) as Array<keyof typeof totals>) totals[key] += counts[key];
      rows.push(`${countsRow(counts)}  ${path}`);
      if (lines.length) details.push(`  ${path}`, ...lines);
    }
    // A listed test of a file that ran but has no such test any more (renamed upstream): the list is out of date. (A
    // file that could not load has no tests to look in: its row says why.)
    const ranFiles = new Set(files.filter((f) => testsOf(f).length > 0 || !f.result?.errors?.length).map((f) => relative(this.root, f.filepath)));
    for (const d of DIFFERENCES) {
      if (ranFiles.has(d.file) && !seen.has(`${d.file}\n${d.test}`)) problems.push(`differences.ts: no test "${d.test}" in ${d.file}`);
    }
    const testsOfFile = new Map(files.map((f) => [relative(this.root, f.filepath), new Set(testsOf(f).map(nameOf))]));
    for (const c of CASCADES) {
      const names = testsOfFile.get(c.file);
      if (!ranFiles.has(c.file) || !names) continue;
      for (const name of [c.test, c.after]) if (!names.has(name)) problems.push(`cascades.ts: no test "${name}" in ${c.file}`);
    }
    const out = [
      '',
      'Strapi API tests against Cairn',
      '',
      ...(details.length ? ['Tests not passed:', ...details, ''] : []),
      ...(problems.length ? ['Problems with the list of differences:', ...problems.map((p) => `  ${p}`), ''] : []),
      'passed failed differs scope   skip  file',
      ...rows,
      `${countsRow(totals)}  total (${files.length} files)`,
      '',
    ];
    process.stdout.write(`${out.join('\n')}\n`);
    if (this.summaryFile) writeFileSync(this.summaryFile, JSON.stringify({ ...totals, files: files.length, problems: problems.length }));
  }
}
