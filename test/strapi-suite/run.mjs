#!/usr/bin/env node
// `npm run test:strapi-suite -- <folder> [vitest args]`: runs every Strapi API test file under <folder> (laid out
// like strapi/strapi) against Cairn through the adapter, after building dist/ (the adapter starts Cairn from it).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
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

const vitest = join(dirname(require.resolve('vitest/package.json')), 'vitest.mjs');
process.exit(run([vitest, 'run', '--config', join(here, 'vitest.config.ts'), ...rest], { STRAPI_SUITE_DIR: suiteDir }));
