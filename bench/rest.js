// Issue 2 of 7: REST throughput. Starts Cairn on test/fixtures/conformance's model, seeds it (SCALE=1), runs autocannon
// (10 connections, 3 s warm-up, 10 s measured) on the REST scenarios of test/fixtures/conformance/bench.md against Cairn
// and, in the same run, against a bare baseline (bench/baseline-rest.js: one hand-written statement per scenario,
// checked to answer the same JSON), then (a) and (c) with 2 workers. Prints req/s, p50, p99, RSS and the ratios.
// Usage: npm run build && node bench/rest.js        (SQLite; DATABASE_CLIENT=postgres for PostgreSQL: bench/baseline-rest-pg.js)
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { availableParallelism, loadavg } from 'node:os';
import { rssMb, sleep, stop, treeCpuSeconds } from './lib.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const kit = join(root, 'test', 'fixtures', 'conformance');
const work = mkdtempSync(join(tmpdir(), 'cairn-bench-'));
const appDir = join(work, 'app');
cpSync(join(kit, 'app'), appDir, { recursive: true });
const client = process.env.DATABASE_CLIENT ?? 'sqlite';
const DURATION = Number(process.env.DURATION ?? 10);
const WARMUP = Number(process.env.WARMUP ?? 3);
const dbName = `cairn_bench_${Date.now()}`;
const env = { ...process.env, NODE_ENV: 'production', DATABASE_CLIENT: client, DATABASE_NAME: dbName };
if (client === 'postgres') spawnSync('psql', ['-h', '127.0.0.1', '-U', 'postgres', '-c', `CREATE DATABASE ${dbName}`], { stdio: 'ignore' });

// Reference figures from bench.md (Strapi 5 on this machine), req/s.
const REFERENCE = { sqlite: { a: 285.5, b: 120.5, c: 14.3, d: 162.5, e: 10.2, f: 483 }, postgres: { a: 148, b: 67, c: 11.2, d: 100, e: 3.0, f: 283 } }[client];
const TARGET_VS_REFERENCE = { a: 10, b: 6, c: 6, d: 8, e: 10, f: 20 };
const SCENARIOS = {
  a: '/api/articles',
  b: '/api/articles?populate=*',
  c: '/api/restaurants?populate[chef][populate][0]=restaurants&populate[categories]=true&populate[address][populate]=*&filters[stars][$gte]=3&sort=name:asc&pagination[pageSize]=100',
  d: '/api/restaurants?filters[chef][name][$startsWith]=A',
  e: 'POST /graphql',
  f: '/api/articles/{id}',
};
const GRAPHQL_E = JSON.stringify({ query: '{ articles(pagination: { pageSize: 100 }) { documentId title views rating publishDate author { documentId name } categories { documentId name } } }' });

async function startServer(args, port, extraEnv = {}) {
  // Cairn runs as its users run it: bin/cairn.js through its `#!` line (which passes Cairn's V8 flags).
  const [command, ...rest] = args[0].endsWith('bin/cairn.js') ? args : [process.execPath, ...args];
  const child = spawn(command, rest, { env: { ...env, ...extraEnv }, stdio: ['ignore', 'ignore', 'inherit'] });
  for (;;) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/api/i18n/locales`)).status < 500) return child;
    } catch {}
    try {
      if ((await fetch(`http://127.0.0.1:${port}/a`)).status === 200) return child;
    } catch {}
    if (child.exitCode !== null) throw new Error('server exited');
    await sleep(50);
  }
}

/** req/s from wrk (1 thread, 10 connections), after the same warm-up as autocannon's runs. */
async function wrkLoad(url) {
  const run = (seconds) => new Promise((done, fail) => {
    const child = spawn('wrk', ['-t1', '-c10', `-d${seconds}s`, url], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.on('exit', () => {
      const rps = /Requests\/sec:\s+([\d.]+)/.exec(out);
      if (rps) done(Number(rps[1]));
      else fail(new Error(`wrk: ${out}`));
    });
  });
  await run(WARMUP);
  return run(DURATION);
}

/** Load on `url`; with `serverPid`, also the cores the server (with its workers) and autocannon itself used. */
async function load(url, post, serverPid) {
  const request = post ? { method: 'POST', body: post, headers: { 'content-type': 'application/json' } } : {};
  await autocannon({ url, connections: 10, duration: WARMUP, ...request });
  const [mine, theirs, started] = [process.cpuUsage(), serverPid ? treeCpuSeconds(serverPid) : 0, performance.now()];
  const r = await autocannon({ url, connections: 10, duration: DURATION, ...request });
  const seconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(mine);
  const cores = { generator: (used.user + used.system) / 1e6 / seconds, server: serverPid ? (treeCpuSeconds(serverPid) - theirs) / seconds : undefined };
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, errors: r.non2xx + r.errors, cores };
}

const cairnPort = 14500;
const cairnArgs = (port, workers) => [join(root, 'bin/cairn.js'), 'start', '--dir', appDir, '--port', String(port), ...(workers ? ['--workers', String(workers)] : [])];
let cairn = await startServer(cairnArgs(cairnPort), cairnPort);
const token = spawnSync(process.execPath, [join(root, 'bin/cairn.js'), 'token', 'create', '--dir', appDir, '--name', 'bench', '--type', 'full-access'], { env, encoding: 'utf8' }).stdout.trim();
const seed = spawnSync(process.execPath, [join(kit, 'seed.mjs')], { env: { ...env, BASE_URL: `http://127.0.0.1:${cairnPort}`, TOKEN: token, QUIET: '1' }, encoding: 'utf8' });
if (seed.status !== 0) throw new Error(`seed failed: ${seed.stderr}`);
// A freshly loaded PostgreSQL database has no planner statistics until autovacuum gets to it; without them every
// CTE and join is estimated at one row and nested loops take (c) from ~10 ms to ~1 s, for Cairn and baseline alike.
if (client === 'postgres') spawnSync('psql', ['-h', '127.0.0.1', '-U', 'postgres', '-d', dbName, '-c', 'ANALYZE'], { stdio: 'ignore' });
const { data: [first] } = await (await fetch(`http://127.0.0.1:${cairnPort}/api/articles?fields[0]=title&pagination[pageSize]=1`)).json();
const path = (p) => p.replace('{id}', first.documentId);

const results = {};
const cairnUrl = (id, p) => (id === 'e' ? `http://127.0.0.1:${cairnPort}/graphql` : `http://127.0.0.1:${cairnPort}${path(p)}`);
const loadBefore = loadavg()[0];
for (const [id, p] of Object.entries(SCENARIOS)) results[id] = { cairn: await load(cairnUrl(id, p), id === 'e' ? GRAPHQL_E : undefined, cairn.pid) };
const cairnRss = rssMb(cairn.pid);
await stop(cairn);

let baselineRss;
const BASELINES = { sqlite: 'bench/baseline-rest.js', postgres: 'bench/baseline-rest-pg.js' };
if (BASELINES[client]) {
  const basePort = 14600;
  const baseline = await startServer([join(root, BASELINES[client])], basePort, { DB_FILE: join(appDir, '.tmp', 'data.db'), PORT: String(basePort) });
  cairn = await startServer(cairnArgs(cairnPort), cairnPort);
  for (const [id, p] of Object.entries(SCENARIOS)) {
    const baseUrl = `http://127.0.0.1:${basePort}/${id}${id === 'f' ? `/${first.documentId}` : ''}`;
    const post = id === 'e' ? { method: 'POST', body: GRAPHQL_E, headers: { 'content-type': 'application/json' } } : {};
    const [mine, theirs] = await Promise.all([fetch(cairnUrl(id, p), post).then((r) => r.json()), fetch(baseUrl, post).then((r) => r.json())]);
    const [a, b] = [JSON.stringify(mine), JSON.stringify(theirs)];
    if (a !== b) {
      const at = [...a].findIndex((c, i) => c !== b[i]);
      console.warn(`note: scenario ${id}: baseline JSON differs from Cairn's at ${at}: Cairn ${a.slice(at - 80, at + 80)} / baseline ${b.slice(at - 80, at + 80)}`);
    }
    results[id].baseline = await load(baseUrl, id === 'e' ? GRAPHQL_E : undefined);
  }
  baselineRss = rssMb(baseline.pid);
  await stop(baseline);
  await stop(cairn);
}

// Every core: 2 workers sharing the port, scenarios (a) and (c).
const clusterPort = 14700;
const cluster = await startServer(cairnArgs(clusterPort, 2), clusterPort);
const two = { a: await load(`http://127.0.0.1:${clusterPort}${SCENARIOS.a}`, undefined, cluster.pid), c: await load(`http://127.0.0.1:${clusterPort}${SCENARIOS.c}`, undefined, cluster.pid) };
await stop(cluster);

// autocannon takes a third of a core for (a) (it parses every 10 KB answer in JavaScript): on 2 cores that is
// taken from the 2 workers. wrk (C, `apt-get install wrk`), when installed, measures the same gain with a load
// generator that leaves the workers nearly both cores: one process, then 2 workers, same load.
const hasWrk = spawnSync('wrk', ['--version']).error === undefined;
const scaling = {};
if (hasWrk) {
  for (const workers of [1, 2]) {
    const port = 14800 + workers;
    const server = await startServer(cairnArgs(port, workers > 1 ? workers : undefined), port);
    for (const id of ['a', 'c']) (scaling[id] ??= {})[workers] = await wrkLoad(`http://127.0.0.1:${port}${path(SCENARIOS[id])}`);
    await stop(server);
  }
}

const f = (n) => (n >= 100 ? n.toFixed(0) : n.toFixed(1));
console.log(`\nREST on ${client}, conformance data at SCALE=1, autocannon 10 connections, ${WARMUP} s warm-up + ${DURATION} s\n`);
console.log('| scenario | Cairn req/s | p50 / p99 ms | baseline req/s | p50 / p99 ms | Cairn / baseline | reference req/s | Cairn / reference (target) |');
console.log('| --- | --- | --- | --- | --- | --- | --- | --- |');
for (const [id, r] of Object.entries(results)) {
  const base = r.baseline;
  const ratio = r.cairn.rps / REFERENCE[id];
  console.log(
    `| ${id} | ${f(r.cairn.rps)} | ${r.cairn.p50} / ${r.cairn.p99} | ${base ? f(base.rps) : '-'} | ${base ? `${base.p50} / ${base.p99}` : '-'} | ${base ? `${(r.cairn.rps / base.rps).toFixed(2)}x` : '-'} | ${REFERENCE[id]} | ${ratio.toFixed(1)}x (${TARGET_VS_REFERENCE[id]}x) |`,
  );
}
console.log(`\nRSS at the end: Cairn ${cairnRss.toFixed(0)} MB${baselineRss ? `, baseline ${baselineRss.toFixed(0)} MB` : ''} (reference: 485-611 MB)`);
console.log(`2 workers: (a) ${f(two.a.rps)} req/s = ${(two.a.rps / results.a.cairn.rps).toFixed(2)}x one process; (c) ${f(two.c.rps)} req/s = ${(two.c.rps / results.c.cairn.rps).toFixed(2)}x`);
if (hasWrk) {
  const gain = (id) => `${f(scaling[id][1])} -> ${f(scaling[id][2])} req/s = ${(scaling[id][2] / scaling[id][1]).toFixed(2)}x`;
  console.log(`2 workers, measured with wrk (1 thread, 10 connections): (a) ${gain('a')}; (c) ${gain('c')}`);
} else console.log('2 workers with wrk: not measured (wrk is not installed; apt-get install wrk)');
// Cores in use while measuring: on 2 cores, what autocannon (this process) takes, 2 workers cannot have.
const cores = (r) => `server ${r.cores.server.toFixed(2)}, autocannon ${r.cores.generator.toFixed(2)}`;
console.log(`cores used (of ${availableParallelism()}): one process (a) ${cores(results.a.cairn)}, (c) ${cores(results.c.cairn)}; 2 workers (a) ${cores(two.a)}, (c) ${cores(two.c)}`);
console.log(`load average (1 min) before the Cairn runs ${loadBefore.toFixed(1)}, at the end ${loadavg()[0].toFixed(1)}: other work on this machine skews every figure`);
const errors = Object.values(results).reduce((n, r) => n + r.cairn.errors, 0);
if (errors) console.log(`errors or non-2xx answers during the Cairn runs: ${errors}`);
if (client === 'postgres') spawnSync('psql', ['-h', '127.0.0.1', '-U', 'postgres', '-c', `DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`], { stdio: 'ignore' });
rmSync(work, { recursive: true, force: true });
