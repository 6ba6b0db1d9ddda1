// Two builds of Cairn compared on the read scenarios of bench/rest.js (a-f), by the server's CPU time per request:
// this checkout and another (BEFORE=<a checkout with dist/ built>), serving the same seeded SQLite database, in
// alternating rounds (ROUNDS, default 4; the order flips each round). On a small, shared machine req/s under
// autocannon swing by a third from run to run (the load generator competes for the same cores); the CPU a server
// spends per request does not, so this is the figure that shows whether a change made the hot path slower.
// Each round: start the build; per scenario a warm-up of WARMUP requests (default 300, 4 at a time), then batches of
// 100 until the server has spent CPU_SECONDS (default 1.5: /proc counts CPU in 10 ms ticks, so well over a second
// keeps the tick's error under 1%), CPU time over requests sent; stop. Prints the median per scenario and build.
// Usage: npm run build && BEFORE=../cairn-before node bench/builds.js
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SCENARIOS, cpuPerRequest, seed, startCairn } from './cpu-per-request.js';
import { median, stop } from './lib.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const before = process.env.BEFORE && resolve(process.env.BEFORE);
if (!before || !existsSync(join(before, 'dist'))) throw new Error('BEFORE=<path of another checkout with dist/ built> is required');
const ROUNDS = Number(process.env.ROUNDS ?? 4);
const WARMUP = Number(process.env.WARMUP ?? 300);
const CPU_SECONDS = Number(process.env.CPU_SECONDS ?? 1.5);
const kit = join(root, 'test', 'fixtures', 'conformance');
const work = mkdtempSync(join(tmpdir(), 'cairn-bench-builds-'));
const appDir = join(work, 'app');
cpSync(join(kit, 'app'), appDir, { recursive: true });
const env = { ...process.env, NODE_ENV: 'production', DATABASE_CLIENT: 'sqlite' };
const port = Number(process.env.PORT ?? 14900);

// Seed once with this checkout's build; both builds then serve that database.
let server = await startCairn(root, appDir, port, env);
const documentId = await seed(root, appDir, port, env);
await stop(server);

const builds = { before, after: root };
const cpu = { before: {}, after: {} };
for (let round = 0; round < ROUNDS; round++) {
  for (const name of round % 2 ? ['after', 'before'] : ['before', 'after']) {
    server = await startCairn(builds[name], appDir, port, env);
    const figures = await cpuPerRequest(server, port, documentId, { warmup: WARMUP, cpuSeconds: CPU_SECONDS });
    for (const [id, us] of Object.entries(figures)) (cpu[name][id] ??= []).push(us);
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
