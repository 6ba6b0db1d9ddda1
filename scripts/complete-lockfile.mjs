#!/usr/bin/env node
// npm 11's `npm ci` checks that every package named in an optionalDependencies map has a lock entry, but `npm
// install` on Linux does not write entries for the other platforms' builds (rollup, esbuild, sharp...): `npm ci`
// then fails with "Missing: @rollup/rollup-android-arm-eabi@ from lock file". This adds those entries (version,
// os, cpu, libc, optional) from the registry. Run after changing dependencies: node scripts/complete-lockfile.mjs
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';

const file = new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(file, 'utf8'));
const packages = lock.packages;
let added = 0;
for (const [path, entry] of Object.entries(packages)) {
  for (const [name, range] of Object.entries(entry.optionalDependencies ?? {})) {
    const parent = path === '' ? '' : `${path}/`;
    if (packages[`${parent}node_modules/${name}`] || packages[`node_modules/${name}`]) continue;
    const meta = registryMeta(name, range) ?? platformFromName(name, range);
    const record = { version: meta.version, optional: true };
    for (const key of ['os', 'cpu', 'libc']) if (meta[key]) record[key] = meta[key];
    packages[`node_modules/${name}`] = record;
    added++;
  }
}
/** os/cpu/libc as the registry states them; null when this registry (a mirror) does not carry the package. */
function registryMeta(name, range) {
  try {
    const info = JSON.parse(execFileSync('npm', ['view', `${name}@${range}`, 'version', 'os', 'cpu', 'libc', '--json'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }));
    const meta = Array.isArray(info) ? info[info.length - 1] : info;
    return typeof meta === 'string' ? { version: meta } : meta;
  } catch {
    return null;
  }
}

/** Platform builds are named after their platform: `@rollup/rollup-linux-arm64-musl`, `@esbuild/win32-ia32`. */
function platformFromName(name, range) {
  const parts = name.split('/').pop().split('-');
  const os = parts.find((p) => ['android', 'darwin', 'freebsd', 'linux', 'win32', 'openbsd', 'netbsd', 'sunos', 'aix', 'openharmony'].includes(p));
  const cpu = parts.find((p) => ['arm', 'arm64', 'x64', 'ia32', 'loong64', 'ppc64', 'riscv64', 's390x', 'mips64el', 'wasm32'].includes(p));
  const libc = parts.includes('musl') ? 'musl' : parts.includes('gnu') || parts.includes('gnueabihf') || parts.includes('musleabihf') ? (parts.includes('musleabihf') ? 'musl' : 'glibc') : undefined;
  const meta = { version: range.replace(/^[\^~=]/, '') };
  if (os) meta.os = [os];
  if (cpu) meta.cpu = [cpu];
  if (libc) meta.libc = [libc];
  return meta;
}

const sorted = Object.fromEntries(Object.entries(packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))));
lock.packages = sorted;
writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`added ${added} optional platform entries`);
