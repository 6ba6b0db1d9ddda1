#!/usr/bin/env node
// `npm run test:strapi-suite -- <folder> [vitest args]`: runs every Strapi API test file under <folder> (laid out
// like strapi/strapi) against Cairn through the adapter, after building dist/ (the adapter starts Cairn from it).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';

const here = import.meta.dirname;
const repo = resolve(here, '../..');
const [folder, ...rest] = process.argv.slice(2);

if (!folder) {
  console.log('test:strapi-suite: no folder given, nothing to run.');
  console.log('Usage: npm run test:strapi-suite -- <folder laid out like strapi/strapi> [vitest arguments]');
  process.exit(0);
}
const suiteDir = resolve(folder);
if (!existsSync(suiteDir)) {
  console.error(`test:strapi-suite: ${suiteDir} does not exist`);
  process.exit(2);
}

const require = createRequire(join(repo, 'package.json'));
const run = (args, env = {}) =>
  spawnSync(process.execPath, args, { cwd: repo, stdio: 'inherit', env: { ...process.env, ...env } }).status ?? 1;

const tsc = join(dirname(require.resolve('typescript/package.json')), 'bin', 'tsc');
if (run([tsc, '-p', 'tsconfig.build.json']) !== 0) process.exit(1);

// vitest fails the run on any failed test, the ones out of scope or differing on purpose included: the reporter's
// totals decide instead. Exit 0 only when no test failed and the list of differences is right.
const vitest = join(dirname(require.resolve('vitest/package.json')), 'vitest.mjs');
const summaryDir = mkdtempSync(join(tmpdir(), 'cairn-strapi-suite-'));
const summaryFile = join(summaryDir, 'summary.json');
const status = run([vitest, 'run', '--config', join(here, 'vitest.config.ts'), ...rest], { STRAPI_SUITE_DIR: suiteDir, STRAPI_SUITE_SUMMARY: summaryFile });
const summary = existsSync(summaryFile) ? JSON.parse(readFileSync(summaryFile, 'utf8')) : undefined;
rmSync(summaryDir, { recursive: true, force: true });
if (!summary) {
  console.error(`test:strapi-suite: the run ended without the reporter's totals (vitest exit status ${status})`);
  process.exit(1);
}
if (summary.files === 0) {
  console.error(`test:strapi-suite: no *.test.api.(js|ts) file under ${suiteDir}`);
  process.exit(1);
}
const ok = summary.failed === 0 && summary.problems === 0;
console.log(`test:strapi-suite: ${ok ? 'ok' : 'FAILED'}: ${summary.passed} passed, ${summary.failed} failed, ${summary.differs} differ as the README explains (differences.ts), ${summary['out of scope']} out of scope, ${summary.skipped} skipped upstream, in ${summary.files} files`);
process.exit(ok ? 0 : 1);
