// Two builds of Cairn compared on the read scenarios of bench/rest.js (a-f), by the server's CPU time per request:
// this checkout and another (BEFORE=<a checkout with dist/ built>), serving the same seeded SQLite database, in
// alternating rounds (ROUNDS, default 4; the order flips each round). On a small, shared machine req/s under
// autocannon swing by a third from run to run (the load generator competes for the same cores); the CPU a server
// spends per request does not, so this is the figure that shows whether a change made the hot path slower.
// Each round: start the build; per scenario a warm-up of WARMUP requests (default 300, 4 at a time), then batches of
// 100 until the server has spent CPU_SECONDS (default 1.5: /proc counts CPU in 10 ms ticks, so well over a second
// keeps the tick's error under 1%), CPU time over requests sent; stop. Prints the median per scenario and build.
// Usage: npm run build && BEFORE=../cairn-before node bench/builds.js
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { median, sleep, stop, treeCpuSeconds } from './lib.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const before = process.env.BEFORE && resolve(process.env.BEFORE);
if (!before || !existsSync(join(before, 'dist'))) throw new Error('BEFORE=<path of another checkout with dist/ built> is required');
const ROUNDS = Number(process.env.ROUNDS ?? 4);
const WARMUP = Number(process.env.WARMUP ?? 300);
const CPU_SECONDS = Number(process.env.CPU_SECONDS ?? 1.5);
const CONCURRENCY = 4;
const kit = join(root, 'test', 'fixtures', 'conformance');
const work = mkdtempSync(join(tmpdir(), 'cairn-bench-builds-'));
const appDir = join(work, 'app');
cpSync(join(kit, 'app'), appDir, { recursive: true });
const env = { ...process.env, NODE_ENV: 'production', DATABASE_CLIENT: 'sqlite' };
const port = 14900;
const base = `http://127.0.0.1:${port}`;

const SCENARIOS = {
  a: { path: '/api/articles' },
  b: { path: '/api/articles?populate=*' },
  c: { path: '/api/restaurants?populate[chef][populate][0]=restaurants&populate[categories]=true&populate[address][populate]=*&filters[stars][$gte]=3&sort=name:asc&pagination[pageSize]=100' },
  d: { path: '/api/restaurants?filters[chef][name][$startsWith]=A' },
  e: { path: '/graphql', body: JSON.stringify({ query: '{ articles(pagination: { pageSize: 100 }) { documentId title views rating publishDate author { documentId name } categories { documentId name } } }' }) },
  f: { path: '/api/articles/{id}' },
};

async function start(checkout) {
  const child = spawn(join(checkout, 'bin', 'cairn.js'), ['start', '--dir', appDir, '--port', String(port)], { env, stdio: ['ignore', 'ignore', 'inherit'] });
  for (;;) {
    try {
      if ((await fetch(`${base}/api/i18n/locales`)).status < 500) return child;
    } catch {}
    if (child.exitCode !== null) throw new Error(`${checkout}: the server exited`);
    await sleep(50);
  }
}

/** `count` requests, `CONCURRENCY` at a time; each must answer 200 (a failing scenario measures nothing). */
async function send(scenario, path, count) {
  let left = count;
  const worker = async () => {
    while (left-- > 0) {
      const response = await fetch(`${base}${path}`, scenario.body ? { method: 'POST', body: scenario.body, headers: { 'content-type': 'application/json' } } : undefined);
      await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`${path}: ${response.status}`);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
}

// Seed once with this checkout's build; both builds then serve that database.
let server = await start(root);
const token = spawnSync(process.execPath, [join(root, 'bin/cairn.js'), 'token', 'create', '--dir', appDir, '--name', 'bench', '--type', 'full-access'], { env, encoding: 'utf8' }).stdout.trim();
const seed = spawnSync(process.execPath, [join(kit, 'seed.mjs')], { env: { ...env, BASE_URL: base, TOKEN: token, QUIET: '1' }, encoding: 'utf8' });
if (seed.status !== 0) throw new Error(`seed failed: ${seed.stderr}`);
const { data: [first] } = await (await fetch(`${base}/api/articles?fields[0]=title&pagination[pageSize]=1`)).json();
await stop(server);

const builds = { before, after: root };
const cpu = { before: {}, after: {} };
for (let round = 0; round < ROUNDS; round++) {
  for (const name of round % 2 ? ['after', 'before'] : ['before', 'after']) {
    server = await start(builds[name]);
    for (const [id, scenario] of Object.entries(SCENARIOS)) {
      const path = scenario.path.replace('{id}', first.documentId);
      await send(scenario, path, WARMUP);
      const from = treeCpuSeconds(server.pid);
      let sent = 0;
      while (treeCpuSeconds(server.pid) - from < CPU_SECONDS) {
        await send(scenario, path, 100);
        sent += 100;
      }
      (cpu[name][id] ??= []).push(((treeCpuSeconds(server.pid) - from) / sent) * 1e6);
    }
    await stop(server);
  }
  console.error(`[bench/builds] round ${round + 1} of ${ROUNDS}`);
}
rmSync(work, { recursive: true, force: true });

console.log(`\nServer CPU per request (µs, median of ${ROUNDS} rounds, each over ${CPU_SECONDS} s of server CPU), SQLite, conformance data at SCALE=1`);
console.log(`before: ${before}\nafter:  ${root}\n`);
console.log('| scenario | before µs | after µs | after / before | rounds (before; after) |');
console.log('| --- | --- | --- | --- | --- |');
for (const id of Object.keys(SCENARIOS)) {
  const [b, a] = [median(cpu.before[id]), median(cpu.after[id])];
  const all = (xs) => xs.map((x) => x.toFixed(0)).join(', ');
  console.log(`| ${id} | ${b.toFixed(0)} | ${a.toFixed(0)} | ${(a / b).toFixed(3)} | ${all(cpu.before[id])}; ${all(cpu.after[id])} |`);
}
