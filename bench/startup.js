// Start-up: time from spawn to the first 200 of `GET /api/restaurants` on the example app's (already seeded)
// database, for a bare Fastify + better-sqlite3 server answering that list from the same file, for Cairn started as
// users start it (`node bin/cairn.js start --dir examples/restaurants`) and through `npm start`, alternating, RUNS
// times each (default 5). Then the resident memory of each after 1,000 list requests. Prints medians and ratios;
// exits 1 when Cairn's median (the CLI's) is over 1.5x the bare server's.
// Usage: npm run build && node bench/startup.js         (needs nothing beside the repo)
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { median, rssMb, sleep } from './lib.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const RUNS = Number(process.env.RUNS ?? 5);
const TARGET = 1.5;
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

if (!existsSync(join(root, 'dist/cli/index.js'))) {
  console.error('dist/ is missing: run `npm run build` first');
  process.exit(2);
}
const work = mkdtempSync(join(tmpdir(), 'cairn-startup-'));
const DB_FILE = join(work, 'data.db');
// The environment users start with (no NODE_ENV: development); the secret is given so nothing is written into
// examples/restaurants/.tmp, and the database is this run's own file.
const env = { ...process.env, DATABASE_FILENAME: DB_FILE, JWT_SECRET: 'bench-secret' };
delete env.NODE_ENV;

const CONTENDERS = {
  bare: (port) => [process.execPath, [join(root, 'bench/baseline-server.js')], { DB_FILE, PORT: String(port) }],
  // bin/cairn.js through its `#!` line, which passes Cairn's V8 flags: `./bin/cairn.js start` or `npx cairn start`.
  cairn: (port) => [join(root, 'bin/cairn.js'), ['start', '--dir', join(root, 'examples/restaurants'), '--port', String(port)], {}],
  // package.json's `start` script, as the README's first command runs it (npm itself is part of the cost).
  'npm start': (port) => [npm, ['start', '--silent', '--', '--port', String(port)], {}],
};

/** Spawns a server (in a process group of its own, so npm's child goes too) and times its first 200. */
async function start(name, port) {
  const [command, args, extra] = CONTENDERS[name](port);
  const url = `http://127.0.0.1:${port}/api/restaurants`;
  const started = process.hrtime.bigint();
  const child = spawn(command, args, { cwd: root, env: { ...env, ...extra }, stdio: ['ignore', 'ignore', 'pipe'], detached: true });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${name} exited (${child.exitCode}): ${stderr}`);
    const status = await get(url);
    if (status === 200) return { child, url, ms: Number(process.hrtime.bigint() - started) / 1e6 };
    if (status !== undefined) throw new Error(`${name}: GET /api/restaurants answered ${status}: ${stderr}`);
    await sleep(2);
  }
}

/** The status of a GET, or undefined while nothing listens. */
async function get(url) {
  try {
    const res = await fetch(url);
    await res.arrayBuffer();
    return res.status;
  } catch {
    return undefined;
  }
}

/** SIGTERM to the whole group, then wait for the leader. */
async function stop(child) {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  process.kill(-child.pid, 'SIGTERM');
  await exited;
  await sleep(100); // npm's child may outlive npm by a moment: let the port go
}

/** The pid of the process that answers (npm's child, for `npm start`). */
function serverPid(child, name) {
  if (name !== 'npm start') return child.pid;
  const find = (pid) => {
    const kids = readChildren(pid);
    for (const kid of kids) {
      const found = find(kid);
      if (found) return found;
    }
    return kids.length ? undefined : pid;
  };
  return find(child.pid);
}

function readChildren(pid) {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}
try {
  await get('http://127.0.0.1:1/'); // the first fetch loads undici: not part of anyone's start
  // Seeds the example's demo data into this run's database (not timed).
  await stop((await start('cairn', 14300)).child);

  const times = Object.fromEntries(Object.keys(CONTENDERS).map((name) => [name, []]));
  const rss = {};
  for (let run = 0; run < RUNS; run++) {
    for (const [i, name] of Object.keys(CONTENDERS).entries()) {
      const { child, url, ms } = await start(name, 14310 + run * 10 + i);
      times[name].push(ms);
      if (run === RUNS - 1) {
        for (let n = 0; n < 1000; n++) await get(url);
        rss[name] = rssMb(serverPid(child, name));
      }
      await stop(child);
    }
  }

  const medians = Object.fromEntries(Object.entries(times).map(([name, xs]) => [name, median(xs)]));
  const ms = (x) => `${x.toFixed(0)} ms`;
  console.log(`\nSpawn to the first 200 of GET /api/restaurants (seeded example database), median of ${RUNS} alternating runs\n`);
  console.log('| | first 200 (median) | all runs | vs bare | RSS after 1,000 lists |');
  console.log('| --- | --- | --- | --- | --- |');
  for (const [name, xs] of Object.entries(times)) {
    const ratio = `${(medians[name] / medians.bare).toFixed(2)}x`;
    console.log(`| ${name} | ${ms(medians[name])} | ${xs.map((x) => x.toFixed(0)).join(', ')} | ${ratio} | ${rss[name].toFixed(1)} MB |`);
  }
  console.log(`\nnpm's own share of \`npm start\`: ${ms(medians['npm start'] - medians.cairn)}`);
  const ratio = medians.cairn / medians.bare;
  const met = ratio <= TARGET;
  console.log(`target: cairn within ${TARGET}x of the bare server: ${met ? 'met' : 'MISSED'} (${ratio.toFixed(2)}x)`);
  process.exitCode = met ? 0 : 1;
} finally {
  rmSync(work, { recursive: true, force: true });
}
