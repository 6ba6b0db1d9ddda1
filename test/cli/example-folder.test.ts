import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ensureBuilt, root } from './build.js';

beforeAll(ensureBuilt);
const example = join(root, 'examples', 'restaurants');
const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** The example app copied to a folder outside the repository, as a user would copy it (no database, no uploads). */
function copyOfExample(): string {
  const parent = mkdtempSync(join(tmpdir(), 'cairn-copy-'));
  dirs.push(parent);
  const copy = join(parent, 'restaurants');
  cpSync(example, copy, { recursive: true, filter: (source) => !/^(\.tmp|node_modules|public)(\/|$)/.test(relative(example, source)) });
  return copy;
}

const node = (args: string[], cwd: string) => spawnSync(process.execPath, args, { cwd, encoding: 'utf8', timeout: 60_000 });

it('npx cairn runs Cairn from the repository root and from inside the example folder', () => {
  // --no-install: npx must find Cairn locally; it must never fetch "cairn" from the registry (another package).
  for (const cwd of [root, example]) {
    const result = spawnSync('npx', ['--no-install', 'cairn', '--version'], { cwd, encoding: 'utf8', timeout: 60_000 });
    expect(result.stdout, `npx cairn in ${cwd}: ${result.stderr}`).toBe(`${version}\n`);
    expect(result.status).toBe(0);
  }
}, 120_000);

it('a copy of the example elsewhere says exactly what is missing, and runs once Cairn and its packages are installed', () => {
  const copy = copyOfExample();
  const launcher = join(copy, 'bin', 'cairn.js');
  const missing = node([launcher, 'start'], copy);
  expect(missing.status).toBe(1);
  expect(missing.stderr).toBe(
    `cairn: Cairn is not installed for the app in ${copy}\n` +
      `  looked for: node_modules/cairn in ${copy} or a folder above it, and a Cairn repository two folders up (${join(copy, '..', '..')})\n` +
      '  install it into the app from a Cairn checkout: npm install /path/to/cairn (not `npm install cairn`: that is another package)\n' +
      '  then: npx cairn start\n',
  );

  // What `npm install /path/to/cairn` makes: node_modules/cairn, a link to the checkout.
  mkdirSync(join(copy, 'node_modules'));
  symlinkSync(root, join(copy, 'node_modules', 'cairn'), 'dir');
  expect(node([launcher, '--version'], copy).stdout).toBe(`${version}\n`);
  // The example's own package (its seed's progress bar, required when the first start seeds) is named, with the
  // command that installs it.
  const withoutPackage = node([launcher, 'start', '--port', '0'], copy);
  expect(withoutPackage.status).toBe(1);
  expect(withoutPackage.stderr).toBe(
    `cairn: the package "cli-progress" is not installed (required by ${join(copy, 'src', 'seed.js')}): ` +
      'install it in the app folder (npm install cli-progress)\n',
  );
  symlinkSync(join(root, 'node_modules', 'cli-progress'), join(copy, 'node_modules', 'cli-progress'), 'dir');
  const runs = node([launcher, 'permissions', 'list', '--role', 'public'], copy);
  expect(runs.stderr).toBe('');
  expect(runs.stdout).toContain('api::restaurant.restaurant.find\n');
}, 120_000);
