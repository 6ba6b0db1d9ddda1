// Real Strapi for the interop tests, installed from npm into a cache folder outside the repository: once per
// package-lock (and Node.js ABI: better-sqlite3 is built for one), then reused by every dialect and every run.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

const READY = '.cairn-interop-ready';

/**
 * ensureStrapiInstall for a command line: prints where the install is, or the reason it failed and exits with 2.
 */
export function strapiInstallOrExit(fixtureDir, fmt) {
  try {
    const install = ensureStrapiInstall(fixtureDir);
    console.log(install.installed ? `Strapi installed into ${install.dir} in ${fmt(install.ms)}` : `Strapi install reused: ${install.dir}`);
    return install;
  } catch (error) {
    console.error(error.message);
    process.exit(2);
  }
}

/**
 * The folder holding Strapi's node_modules for the fixture app in `fixtureDir`: `$CAIRN_STRAPI_CACHE` (or
 * ~/.cache/cairn-strapi) / <hash of package-lock.json and the Node.js ABI>. `npm ci` runs only when it is absent.
 * Returns { dir, installed: boolean, ms }.
 */
export function ensureStrapiInstall(fixtureDir, log = console.log) {
  const lock = readFileSync(join(fixtureDir, 'package-lock.json'));
  return ensureNpmInstall({
    root: process.env.CAIRN_STRAPI_CACHE || join(homedir(), '.cache', 'cairn-strapi'),
    keyData: lock,
    files: { 'package.json': readFileSync(join(fixtureDir, 'package.json')), 'package-lock.json': lock },
    npmArgs: ['ci'],
    what: 'Strapi (npm ci)',
    log,
  });
}

/**
 * The folder `root`/<hash of `keyData` and the Node.js ABI> holding an npm install of `files` (name -> content, written
 * into it first: package.json and maybe a lock), made by `npm <npmArgs>` when absent, in a staging folder renamed into
 * place once done. Returns { dir, installed: boolean, ms }.
 */
export function ensureNpmInstall({ root, keyData, files, npmArgs, what, log = console.log }) {
  const key = createHash('sha256')
    .update(keyData)
    .update(`\0${process.platform}-${process.arch}-abi${process.versions.modules}`)
    .digest('hex')
    .slice(0, 16);
  const dir = join(root, key);
  if (existsSync(join(dir, READY))) return { dir, installed: false, ms: 0 };

  const t0 = Date.now();
  // Installed beside the final folder and renamed into place, so a run that dies half-way leaves nothing that looks ready.
  const staging = `${dir}.partial-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  for (const [name, content] of Object.entries(files)) writeFileSync(join(staging, name), content);
  log(`installing ${what} into ${dir} ...`);
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const result = spawnSync(npm, [...npmArgs, '--no-audit', '--no-fund', '--loglevel=error'], { cwd: staging, stdio: 'inherit' });
  if (result.status !== 0) {
    rmSync(staging, { recursive: true, force: true });
    throw new Error(`npm ${npmArgs.join(' ')} of ${what} failed (exit ${result.status})`);
  }
  writeFileSync(join(staging, READY), `${new Date().toISOString()} node ${process.version}\n`);
  rmSync(dir, { recursive: true, force: true });
  renameSync(staging, dir);
  return { dir, installed: true, ms: Date.now() - t0 };
}
