// Issue 18's read bound: reads on Strapi 5's tables within 10% of the former layout's, measured in the same run.
// The former layout's code is gone from this checkout, so BASE=<a checkout at f4885ba with dist/ built> serves it
// (CAIRN_EMPTY_DATABASE_LAYOUT=cairn, seeded by that build) while this checkout serves Strapi's layout (seeded by this
// build); BEFORE=<another checkout with dist/ built> (optional) serves the same Strapi-layout database too, so a change
// shows its before and after ratios in one run. Same seed (the conformance kit's, SCALE=1), same scenarios and
// measure as bench/builds.js (the server's CPU per request; on PostgreSQL its backends' CPU counts too), in
// alternating rounds (ROUNDS, default 4; the order rotates each round). Prints per scenario the median µs and the
// ratio to the former layout.
// Usage: npm run build && BASE=/work/wt-base [BEFORE=/work/wt-before] node bench/read-bound.js   (DATABASE_CLIENT=postgres too)
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SCENARIOS, cpuPerRequest, seed, startCairn } from './cpu-per-request.js';
import { median, stop } from './lib.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const checkout = (path) => path && resolve(path);
const base = checkout(process.env.BASE);
const before = checkout(process.env.BEFORE);
if (!base || !existsSync(join(base, 'dist'))) {
  console.log('bench/read-bound: skipped: BASE=<a checkout at f4885ba (the last with the former layout) with dist/ built> is not given');
  process.exit(0);
}
if (before && !existsSync(join(before, 'dist'))) throw new Error(`BEFORE=${before}: no dist/ there (npm run build)`);

const client = process.env.DATABASE_CLIENT ?? 'sqlite';
const ROUNDS = Number(process.env.ROUNDS ?? 4);
const WARMUP = Number(process.env.WARMUP ?? 300);
const CPU_SECONDS = Number(process.env.CPU_SECONDS ?? 1.5);
const port = Number(process.env.PORT ?? 14960);
const work = mkdtempSync(join(tmpdir(), 'cairn-bench-read-bound-'));
const psql = (db, sql) => spawnSync('psql', ['-h', '127.0.0.1', '-U', 'postgres', ...(db ? ['-d', db] : []), '-c', sql], { stdio: 'ignore' });

/** On PostgreSQL, the backends connected to `database` (the server's pool; not this query's own). */
function backends(database) {
  if (client !== 'postgres') return [];
  const sql = `SELECT pid FROM pg_stat_activity WHERE datname = '${database}' AND pid <> pg_backend_pid()`;
  const out = spawnSync('psql', ['-h', '127.0.0.1', '-U', 'postgres', '-d', database, '-At', '-c', sql], { encoding: 'utf8' }).stdout;
  return out.split('\n').filter(Boolean).map(Number);
}

/** A database in one layout, made and seeded by `build` (its own kit's app and seed). */
async function database(name, build, layoutEnv) {
  const appDir = join(work, name);
  cpSync(join(build, 'test', 'fixtures', 'conformance', 'app'), appDir, { recursive: true });
  const env = { ...process.env, NODE_ENV: 'production', DATABASE_CLIENT: client, DATABASE_NAME: `cairn_read_bound_${name}_${Date.now()}`, ...layoutEnv };
  if (!layoutEnv.CAIRN_EMPTY_DATABASE_LAYOUT) delete env.CAIRN_EMPTY_DATABASE_LAYOUT;
  if (client === 'postgres') psql(undefined, `CREATE DATABASE ${env.DATABASE_NAME}`);
  const server = await startCairn(build, appDir, port, env);
  const documentId = await seed(build, appDir, port, env);
  await stop(server);
  // A freshly loaded PostgreSQL database has no planner statistics until autovacuum runs (see bench/rest.js).
  if (client === 'postgres') psql(env.DATABASE_NAME, 'ANALYZE');
  return { appDir, env, documentId };
}

const former = await database('former', base, { CAIRN_EMPTY_DATABASE_LAYOUT: 'cairn' });
const strapi = await database('strapi', root, {});
const runs = { former: { build: base, ...former }, ...(before && { before: { build: before, ...strapi } }), strapi: { build: root, ...strapi } };
const names = Object.keys(runs);
const cpu = Object.fromEntries(names.map((name) => [name, {}]));
const loads = [loadavg()[0]];
for (let round = 0; round < ROUNDS; round++) {
  for (const name of [...names.slice(round % names.length), ...names.slice(0, round % names.length)]) {
    const { build, appDir, env, documentId } = runs[name];
    const server = await startCairn(build, appDir, port, env);
    const figures = await cpuPerRequest(server, port, documentId, { warmup: WARMUP, cpuSeconds: CPU_SECONDS, helpers: () => backends(env.DATABASE_NAME) });
    for (const [id, us] of Object.entries(figures)) (cpu[name][id] ??= []).push(us);
    await stop(server);
  }
  loads.push(loadavg()[0]);
  console.error(`[bench/read-bound] round ${round + 1} of ${ROUNDS}`);
}
if (client === 'postgres') for (const { env } of [former, strapi]) psql(undefined, `DROP DATABASE IF EXISTS ${env.DATABASE_NAME} WITH (FORCE)`);
rmSync(work, { recursive: true, force: true });

const label = { former: 'former (BASE)', before: 'Strapi (BEFORE)', strapi: 'Strapi (this)' };
console.log(`\nServer CPU per request (µs${client === 'postgres' ? ', PostgreSQL backends included' : ''}, median of ${ROUNDS} rounds, each over ${CPU_SECONDS} s of server CPU), ${client}, conformance data at SCALE=1`);
console.log(`BASE (former layout): ${base}\n${before ? `BEFORE (Strapi layout): ${before}\n` : ''}this (Strapi layout): ${root}\n`);
// Medians, and the ratio of the fastest rounds too: on a loaded machine a round is only ever slowed down.
const others = names.slice(1);
console.log(`| scenario | ${names.map((n) => `${label[n]} µs`).join(' | ')} | ${others.map((n) => `${n} / former (fastest)`).join(' | ')} | rounds (${names.join('; ')}) |`);
console.log(`| --- |${' --- |'.repeat(names.length + others.length + 1)}`);
for (const id of Object.keys(SCENARIOS)) {
  const [f, fMin] = [median(cpu.former[id]), Math.min(...cpu.former[id])];
  const all = (xs) => xs.map((x) => x.toFixed(0)).join(', ');
  const ratio = (n) => `${(median(cpu[n][id]) / f).toFixed(3)} (${(Math.min(...cpu[n][id]) / fMin).toFixed(3)})`;
  const cells = [...names.map((n) => median(cpu[n][id]).toFixed(0)), ...others.map(ratio)];
  console.log(`| ${id}${id === 'e' ? ' (GraphQL)' : ''} | ${cells.join(' | ')} | ${names.map((n) => all(cpu[n][id])).join('; ')} |`);
}
console.log(`\nload average (1 min) at the start and after each round: ${loads.map((l) => l.toFixed(1)).join(', ')} (2 cores; other work skews every figure)`);
