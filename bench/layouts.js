// The two table layouts compared on the read scenarios of bench/rest.js (a-f) and GraphQL's (e), by the server's CPU
// time per request (see bench/builds.js for why CPU and not req/s): ONE build (this checkout) serves two databases
// seeded alike, one made with CAIRN_EMPTY_DATABASE_LAYOUT=cairn (the former layout: links by document id, cairn_*
// tables) and one with the default (Strapi 5's: a row per version, `*_lnk` links by row id, on SQLite epoch-ms
// datetimes), in alternating rounds (ROUNDS, default 4; the order flips each round). Each round per layout: start,
// per scenario WARMUP requests (default 300) then batches of 100 until the server has spent CPU_SECONDS (default
// 1.5), stop. Prints per scenario the median µs and the ratio Strapi / former, and the machine's load. On PostgreSQL
// the CPU of the database's backends serving the server's connections counts too (the statements run there).
// Usage: npm run build && node bench/layouts.js        (SQLite; DATABASE_CLIENT=postgres for PostgreSQL; PORT, default 14950)
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SCENARIOS, cpuPerRequest, seed, startCairn } from './cpu-per-request.js';
import { median, stop } from './lib.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const client = process.env.DATABASE_CLIENT ?? 'sqlite';
const ROUNDS = Number(process.env.ROUNDS ?? 4);
const WARMUP = Number(process.env.WARMUP ?? 300);
const CPU_SECONDS = Number(process.env.CPU_SECONDS ?? 1.5);
const kit = join(root, 'test', 'fixtures', 'conformance');
const work = mkdtempSync(join(tmpdir(), 'cairn-bench-layouts-'));
const port = Number(process.env.PORT ?? 14950);
const psql = (db, sql) => spawnSync('psql', ['-h', '127.0.0.1', '-U', 'postgres', ...(db ? ['-d', db] : []), '-c', sql], { stdio: 'ignore' });

/** On PostgreSQL, the backends connected to `database` (the server's pool; not this query's own). */
function backends(database) {
  if (client !== 'postgres') return [];
  const sql = `SELECT pid FROM pg_stat_activity WHERE datname = '${database}' AND pid <> pg_backend_pid()`;
  const out = spawnSync('psql', ['-h', '127.0.0.1', '-U', 'postgres', '-d', database, '-At', '-c', sql], { encoding: 'utf8' }).stdout;
  return out.split('\n').filter(Boolean).map(Number);
}

// Each layout: its own app folder (SQLite file) or PostgreSQL database; the environment it is seeded and served with.
const layouts = {};
for (const name of ['former', 'strapi']) {
  const appDir = join(work, name);
  cpSync(join(kit, 'app'), appDir, { recursive: true });
  const env = { ...process.env, NODE_ENV: 'production', DATABASE_CLIENT: client, DATABASE_NAME: `cairn_bench_layout_${name}_${Date.now()}` };
  if (name === 'former') env.CAIRN_EMPTY_DATABASE_LAYOUT = 'cairn';
  else delete env.CAIRN_EMPTY_DATABASE_LAYOUT;
  if (client === 'postgres') psql(undefined, `CREATE DATABASE ${env.DATABASE_NAME}`);
  const server = await startCairn(root, appDir, port, env);
  const documentId = await seed(root, appDir, port, env);
  await stop(server);
  // A freshly loaded PostgreSQL database has no planner statistics until autovacuum runs (see bench/rest.js).
  if (client === 'postgres') psql(env.DATABASE_NAME, 'ANALYZE');
  layouts[name] = { appDir, env, documentId };
}

const cpu = { former: {}, strapi: {} };
const loads = [loadavg()[0]];
for (let round = 0; round < ROUNDS; round++) {
  for (const name of round % 2 ? ['strapi', 'former'] : ['former', 'strapi']) {
    const { appDir, env, documentId } = layouts[name];
    const server = await startCairn(root, appDir, port, env);
    const figures = await cpuPerRequest(server, port, documentId, { warmup: WARMUP, cpuSeconds: CPU_SECONDS, helpers: () => backends(env.DATABASE_NAME) });
    for (const [id, us] of Object.entries(figures)) (cpu[name][id] ??= []).push(us);
    await stop(server);
  }
  loads.push(loadavg()[0]);
  console.error(`[bench/layouts] round ${round + 1} of ${ROUNDS}`);
}
if (client === 'postgres') for (const { env } of Object.values(layouts)) psql(undefined, `DROP DATABASE IF EXISTS ${env.DATABASE_NAME} WITH (FORCE)`);
rmSync(work, { recursive: true, force: true });

console.log(`\nServer CPU per request (µs${client === 'postgres' ? ', PostgreSQL backends included' : ''}, median of ${ROUNDS} rounds, each over ${CPU_SECONDS} s of server CPU), ${client}, conformance data at SCALE=1, one build: ${root}\n`);
console.log('| scenario | former µs | Strapi µs | Strapi / former | rounds (former; Strapi) |');
console.log('| --- | --- | --- | --- | --- |');
for (const id of Object.keys(SCENARIOS)) {
  const [f, s] = [median(cpu.former[id]), median(cpu.strapi[id])];
  const all = (xs) => xs.map((x) => x.toFixed(0)).join(', ');
  console.log(`| ${id}${id === 'e' ? ' (GraphQL)' : ''} | ${f.toFixed(0)} | ${s.toFixed(0)} | ${(s / f).toFixed(3)} | ${all(cpu.former[id])}; ${all(cpu.strapi[id])} |`);
}
console.log(`\nload average (1 min) at the start and after each round: ${loads.map((l) => l.toFixed(1)).join(', ')} (2 cores; other work skews every figure)`);
