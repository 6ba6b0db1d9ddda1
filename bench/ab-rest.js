// A/B of two builds of Cairn on the same data, interleaved so that the machine's load (other processes on a shared
// machine) weighs on both alike: seeds test/fixtures/conformance's app once (SCALE=1) with build B, gives each build its
// own copy of the SQLite database, starts both, then for each round and scenario loads A and B in turn (the order
// alternating per round). Prints each build's median req/s per scenario and B/A.
// Usage: npm run build && node bench/ab-rest.js <dir of build A (a checkout with dist/)> [dir of build B, default: this one]
//        ROUNDS=5 DURATION=5 WARMUP=2; APP_INDEX=<file>: src/index.js for both apps (e.g. one registering a document middleware).
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { sleep, stop } from './lib.js';

const here = fileURLToPath(new URL('..', import.meta.url));
const [dirA, dirB = here] = process.argv.slice(2).map((d) => resolve(d));
if (!dirA) {
  console.error('usage: node bench/ab-rest.js <build A dir> [build B dir]');
  process.exit(2);
}
const ROUNDS = Number(process.env.ROUNDS ?? 5);
const DURATION = Number(process.env.DURATION ?? 5);
const WARMUP = Number(process.env.WARMUP ?? 2);
const kit = join(here, 'test', 'fixtures', 'conformance');
const work = mkdtempSync(join(tmpdir(), 'cairn-ab-'));
const env = { ...process.env, NODE_ENV: 'production', DATABASE_CLIENT: 'sqlite' };
const SCENARIOS = {
  a: '/api/articles',
  b: '/api/articles?populate=*',
  d: '/api/restaurants?filters[chef][name][$startsWith]=A',
  f: '/api/articles/{id}',
  e: 'POST /graphql',
};
const GRAPHQL_E = JSON.stringify({ query: '{ articles(pagination: { pageSize: 100 }) { documentId title views rating publishDate author { documentId name } categories { documentId name } } }' });

async function start(root, appDir, port) {
  const child = spawn(join(root, 'bin/cairn.js'), ['start', '--dir', appDir, '--port', String(port)], { env, stdio: ['ignore', 'ignore', 'inherit'] });
  for (;;) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/api/i18n/locales`)).status < 500) return child;
    } catch {}
    if (child.exitCode !== null) throw new Error(`${root}: server exited`);
    await sleep(50);
  }
}

const appA = join(work, 'a');
cpSync(join(kit, 'app'), appA, { recursive: true });
if (process.env.APP_INDEX) cpSync(process.env.APP_INDEX, join(appA, 'src', 'index.js'));
let server = await start(dirB, appA, 14610);
const token = spawnSync(process.execPath, [join(dirB, 'bin/cairn.js'), 'token', 'create', '--dir', appA, '--name', 'bench', '--type', 'full-access'], { env, encoding: 'utf8' }).stdout.trim();
const seed = spawnSync(process.execPath, [join(kit, 'seed.mjs')], { env: { ...env, BASE_URL: 'http://127.0.0.1:14610', TOKEN: token, QUIET: '1' }, encoding: 'utf8' });
if (seed.status !== 0) throw new Error(`seed failed: ${seed.stderr}`);
const { data: [first] } = await (await fetch('http://127.0.0.1:14610/api/articles?fields[0]=title&pagination[pageSize]=1')).json();
await stop(server);
const appB = join(work, 'b');
cpSync(appA, appB, { recursive: true });

const servers = { A: await start(dirA, appA, 14611), B: await start(dirB, appB, 14612) };
const ports = { A: 14611, B: 14612 };
const url = (build, id) => (id === 'e' ? `http://127.0.0.1:${ports[build]}/graphql` : `http://127.0.0.1:${ports[build]}${SCENARIOS[id].replace('{id}', first.documentId)}`);
// Both answer the same (a build that answers differently is not measured against the other).
for (const id of Object.keys(SCENARIOS)) {
  const get = async (build) => {
    const r = await fetch(url(build, id), id === 'e' ? { method: 'POST', body: GRAPHQL_E, headers: { 'content-type': 'application/json' } } : {});
    return r.text();
  };
  const [a, b] = [await get('A'), await get('B')];
  if (a !== b) console.warn(`note: scenario ${id}: the builds answer differently (${a.length} vs ${b.length} bytes)`);
}

async function load(build, id) {
  const request = id === 'e' ? { method: 'POST', body: GRAPHQL_E, headers: { 'content-type': 'application/json' } } : {};
  await autocannon({ url: url(build, id), connections: 10, duration: WARMUP, ...request });
  const r = await autocannon({ url: url(build, id), connections: 10, duration: DURATION, ...request });
  if (r.non2xx) throw new Error(`${build} ${id}: ${r.non2xx} non-2xx answers`);
  return r.requests.average;
}

const results = {};
for (let round = 0; round < ROUNDS; round++) {
  for (const id of Object.keys(SCENARIOS)) {
    const order = round % 2 ? ['B', 'A'] : ['A', 'B'];
    for (const build of order) ((results[id] ??= { A: [], B: [] })[build]).push(await load(build, id));
  }
}
await stop(servers.A);
await stop(servers.B);
rmSync(work, { recursive: true, force: true });

const median = (xs) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];
console.log(`A: ${dirA}\nB: ${dirB}\n${ROUNDS} rounds of ${DURATION} s per build and scenario, interleaved (req/s, median)`);
console.log('scenario  A        B        B/A');
for (const [id, r] of Object.entries(results)) {
  const [a, b] = [median(r.A), median(r.B)];
  console.log(`${id.padEnd(9)} ${a.toFixed(1).padEnd(8)} ${b.toFixed(1).padEnd(8)} ${(b / a).toFixed(3)}   (A: ${r.A.map((x) => x.toFixed(0)).join(' ')}; B: ${r.B.map((x) => x.toFixed(0)).join(' ')})`);
}
