import { relative } from 'node:path';
import type { Reporter } from 'vitest/reporters';
import type { RunnerTask, RunnerTestFile } from 'vitest';

type Outcome = { status: 'passed' | 'failed' | 'out of scope' | 'skipped'; reason?: string };

const OUT_OF_SCOPE = 'Out of scope: ';

function firstLine(message: string | undefined): string {
  const line = (message ?? '').split('\n').find((l) => l.trim()) ?? '';
  return line.length > 200 ? `${line.slice(0, 197)}...` : line;
}

function classify(errors: Array<{ message?: string; name?: string }> | undefined): Outcome {
  const scoped = errors?.find((e) => e.message?.startsWith(OUT_OF_SCOPE));
  if (scoped) return { status: 'out of scope', reason: scoped.message!.slice(OUT_OF_SCOPE.length) };
  return { status: 'failed', reason: firstLine(errors?.[0]?.message) || 'failed' };
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

const ran = (test: RunnerTask) => test.result?.state === 'pass' || test.result?.state === 'fail';

function hookFailure(outcome: Outcome): Outcome {
  return outcome.status === 'failed' ? { status: 'failed', reason: `not run, a hook failed: ${outcome.reason}` } : outcome;
}

function testsOf(task: RunnerTask): RunnerTask[] {
  return 'tasks' in task && task.tasks ? task.tasks.flatMap(testsOf) : task.type === 'test' ? [task] : [];
}

function suitesOf(task: RunnerTask): RunnerTask[] {
  return 'tasks' in task && task.tasks ? [task, ...task.tasks.flatMap(suitesOf)] : [];
}

function nameOf(test: RunnerTask): string {
  const names: string[] = [];
  for (let t: RunnerTask | undefined = test; t && t.type !== undefined && t !== test.file; t = t.suite) names.unshift(t.name);
  return names.join(' > ');
}

/**
 * Prints, per upstream test file, how many tests passed, failed, were out of scope (with the reason, per test) or
 * skipped upstream; then every failed test with the first line of its error, and the totals.
 */
export default class StrapiSuiteReporter implements Reporter {
  constructor(private readonly root: string) {}

  onFinished(files: RunnerTestFile[] = []): void {
    const totals = { passed: 0, failed: 0, 'out of scope': 0, skipped: 0 };
    const rows: string[] = [];
    const details: string[] = [];
    for (const file of [...files].sort((a, b) => a.filepath.localeCompare(b.filepath))) {
      const path = relative(this.root, file.filepath);
      const counts = { passed: 0, failed: 0, 'out of scope': 0, skipped: 0 };
      const tests = testsOf(file);
      const lines: string[] = [];
      for (const test of tests) {
        const outcome = outcomeOf(test);
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
        const outcome = classify(file.result?.errors);
        counts[outcome.status] += 1;
        lines.push(`    ${outcome.status.padEnd(12)} (the file) — ${outcome.reason}`);
      }
      for (const key of Object.keys(totals) as Array<keyof typeof totals>) totals[key] += counts[key];
      rows.push(
        `${String(counts.passed).padStart(6)} ${String(counts.failed).padStart(6)} ${String(counts['out of scope']).padStart(6)} ${String(counts.skipped).padStart(6)}  ${path}`,
      );
      if (lines.length) details.push(`  ${path}`, ...lines);
    }
    const out = [
      '',
      'Strapi API tests against Cairn',
      '',
      ...(details.length ? ['Tests not passed:', ...details, ''] : []),
      'passed failed  scope   skip  file',
      ...rows,
      `${String(totals.passed).padStart(6)} ${String(totals.failed).padStart(6)} ${String(totals['out of scope']).padStart(6)} ${String(totals.skipped).padStart(6)}  total (${files.length} files)`,
      '',
    ];
    process.stdout.write(`${out.join('\n')}\n`);
  }
}
