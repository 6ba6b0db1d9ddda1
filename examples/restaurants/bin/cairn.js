#!/usr/bin/env node
'use strict';
// `npx cairn ...` in this app folder runs this file (package.json "bin"), which runs the Cairn the app uses:
// one installed into the app (`npm install <path to Cairn>`: node_modules/cairn here or in a folder above), else the
// Cairn repository this example ships in. There is no other: "cairn" on the npm registry is another package, so npx
// must never go looking for it there, and this file says what is missing instead.
const { spawn } = require('node:child_process');
const { readFileSync } = require('node:fs');
const { dirname, join, resolve } = require('node:path');

const app = resolve(__dirname, '..');
const repository = resolve(app, '..', '..');

function installedCairn() {
  try {
    return join(dirname(require.resolve('cairn/package.json', { paths: [app] })), 'bin', 'cairn.js');
  } catch {
    return undefined;
  }
}

function repositoryCairn() {
  try {
    const pkg = JSON.parse(readFileSync(join(repository, 'package.json'), 'utf8'));
    return pkg.name === 'cairn' && pkg.bin && pkg.bin.cairn ? join(repository, pkg.bin.cairn) : undefined;
  } catch {
    return undefined;
  }
}

const bin = installedCairn() || repositoryCairn();
if (!bin) {
  process.stderr.write(
    `cairn: Cairn is not installed for the app in ${app}\n` +
      `  looked for: node_modules/cairn in ${app} or a folder above it, and a Cairn repository two folders up (${repository})\n` +
      '  install it into the app from a Cairn checkout: npm install /path/to/cairn (not `npm install cairn`: that is another package)\n' +
      '  then: npx cairn start\n',
  );
  process.exit(1);
}

// Node flags Cairn's own launcher starts with (its `#!` line): the same process settings as `npx cairn` in Cairn's folder.
const shebang = readFileSync(bin, 'utf8').split('\n', 1)[0];
const flags = (/\bnode((?:\s+--[\w-]+(?:=\S+)?)*)\s*$/.exec(shebang)?.[1] ?? '').split(/\s+/).filter(Boolean);
const child = spawn(process.execPath, [...flags, bin, ...process.argv.slice(2)], { stdio: 'inherit' });
// A terminal's Ctrl-C reaches both processes; a signal sent to this one alone is passed on. Cairn finishes its
// in-flight requests and exits, and this process exits as it did.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => {
  if (signal) {
    process.removeAllListeners(signal);
    process.kill(process.pid, signal);
  } else process.exit(code ?? 1);
});
