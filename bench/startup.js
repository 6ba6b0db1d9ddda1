// Start-up: time from spawn to the first 200 of `GET /api/restaurants` on the example app's (already seeded)
// database, for a bare Fastify + better-sqlite3 server answering that list from the same file, for Cairn started as
// users start it (`node bin/cairn.js start --dir examples/restaurants`) and through `npm start`, alternating, RUNS
// times each (default 5); after each Cairn start, the first request with a query string and the first GraphQL
// request (what the start left for later). Then the resident memory of each after 1,000 list requests. Prints
// medians and ratios; exits 1 when Cairn's median (the CLI's) is over 1.5x the bare server's.
// Usage: npm run build && node bench/startup.js         (needs nothing beside the repo)
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createServer } from 'node:net';
import { median, rssMb, sleep, treeCpuSeconds } from './lib.js';

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
  // `node bin/cairn.js start`, as the issue measures it.
  cairn: (port) => [process.execPath, [join(root, 'bin/cairn.js'), 'start', '--dir', join(root, 'examples/restaurants'), '--port', String(port)], {}],
  // package.json's `start` script, as the README's first command runs it (npm itself is part of the cost; the script
  // passes Cairn's V8 flags, as bin/cairn.js's `#!` line does).
  'npm start': (port) => [npm, ['start', '--silent', '--', '--port', String(port)], {}],
};

/** A port nothing listens on now (other work on the machine may hold fixed ones). */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

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
    if (status === 200) return { child, url, ms: Number(process.hrtime.bigint() - started) / 1e6, cpuMs: treeCpuSeconds(child.pid) * 1000 };
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

/**
 * What a start leaves for later, timed right after Cairn's first 200 (then again, the same request warm): the first
 * request with a query string (loads qs) and the first GraphQL request (loads graphql-js and builds the schema).
 */
const FIRST_USE = {
  'GET /api/restaurants?populate=*': (base) => [`${base}?populate=*`],
  'POST /graphql': (base) => [
    new URL('/graphql', base).href,
    { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: '{ restaurants { data { id attributes { name } } } }' }) },
  ],
};

/** Milliseconds of a first request and of the same one again, which must answer 200. */
async function timed(base, request) {
  const times = [];
  for (let i = 0; i < 2; i++) {
    const started = process.hrtime.bigint();
    const res = await fetch(...request(base));
    const body = await res.text();
    if (res.status !== 200 || body.includes('"errors"')) throw new Error(`${request(base)[0]}: ${res.status} ${body.slice(0, 300)}`);
    times.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  return times;
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
  await stop((await start('cairn', await freePort())).child);

  const times = Object.fromEntries(Object.keys(CONTENDERS).map((name) => [name, []]));
  const cpu = Object.fromEntries(Object.keys(CONTENDERS).map((name) => [name, []]));
  const deferred = Object.fromEntries(Object.keys(FIRST_USE).map((what) => [what, []]));
  const rss = {};
  for (let run = 0; run < RUNS; run++) {
    for (const name of Object.keys(CONTENDERS)) {
      const { child, url, ms, cpuMs } = await start(name, await freePort());
      times[name].push(ms);
      cpu[name].push(cpuMs);
      if (name === 'cairn') for (const [what, request] of Object.entries(FIRST_USE)) deferred[what].push(await timed(url, request));
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
  // CPU time (user + system, the process and its children, 10 ms ticks) is what a start costs when the machine is
  // busy with other work: wall-clock times then stretch, CPU times much less.
  console.log('| | first 200 (median) | all runs | vs bare | CPU to first 200 (median) | RSS after 1,000 lists |');
  console.log('| --- | --- | --- | --- | --- | --- |');
  for (const [name, xs] of Object.entries(times)) {
    const ratio = `${(medians[name] / medians.bare).toFixed(2)}x`;
    console.log(`| ${name} | ${ms(medians[name])} | ${xs.map((x) => x.toFixed(0)).join(', ')} | ${ratio} | ${ms(median(cpu[name]))} | ${rss[name].toFixed(1)} MB |`);
  }
  console.log(`\nAfter Cairn's first 200 (median of ${RUNS}): what the start deferred, paid by the first request that needs it`);
  for (const [what, pairs] of Object.entries(deferred)) {
    console.log(`- ${what}: first ${ms(median(pairs.map((p) => p[0])))}, then ${ms(median(pairs.map((p) => p[1])))}`);
  }
  console.log(`\nnpm's own share of \`npm start\`: ${ms(medians['npm start'] - medians.cairn)} (CPU: ${ms(median(cpu['npm start']) - median(cpu.cairn))})`);
  console.log(`machine load (1 min): ${loadavg()[0].toFixed(1)} on ${availableParallelism()} cores: other work stretches every wall-clock figure`);
  const ratio = medians.cairn / medians.bare;
  const met = ratio <= TARGET;
  console.log(`target: cairn within ${TARGET}x of the bare server: ${met ? 'met' : 'MISSED'} (${ratio.toFixed(2)}x)`);
  process.exitCode = met ? 0 : 1;
} finally {
  rmSync(work, { recursive: true, force: true });
}
