#!/usr/bin/env node
// The interop tests (issue 18, "Tests that use real Strapi"), per dialect, on fresh databases; Strapi is installed from
// npm into a cache outside the repository and runs the fixture app test/interop/strapi-app plus the conformance model;
// its bootstrap issues a full-access API token that both servers accept (the same secrets). Steps: scripts/interop/.
//
// Test 1 (`served`), Strapi writes, Cairn reads: Strapi makes and seeds the database (seed.mjs), every read request of
// queries.json is recorded; Strapi stops; the layout is dumped; Cairn starts on the same database, answers the same
// requests, stops; compare.mjs compares the two recordings; the layout is dumped again and must be unchanged.
//
// Test 2 (`created`, interop/created-database.mjs): Cairn creates the database (`cairn db create`), Strapi starts on it
// without adding or changing a table or changing a row Cairn wrote, writes content, and Cairn serves it as Strapi does.
//
// Test 3 (`written`), Cairn writes, Strapi reads: Strapi makes the tables of a fresh database and stops unseeded;
// Cairn starts on it and seed.mjs writes everything through Cairn's REST API; Cairn records the reads and stops; the
// layout must be unchanged; Strapi starts again and records the same reads. Compared: Strapi's reads with Cairn's
// (both read the same rows), and Strapi's reads of this Cairn-seeded database, and its rows per table, with test 1's
// of the Strapi-seeded one (equal but for what test/interop/write-deviations.json lists, with its reason).
//
// Test 4 (`concurrent`, interop/concurrent.mjs), PostgreSQL only (skipped with its reason on the others): Strapi makes
// the tables of a fresh database and keeps running; Cairn starts beside it on the same database; in turns each writes
// through its REST API (entries with relations, a component, a draft-only edit, a publish, a locale, positioned
// connects, deletes) and right after both answer the same reads; compare.mjs compares Cairn's answers with Strapi's.
// Both run users-permissions' "refresh" mode: a session opened on one is refreshed, listed, revoked and logged out on
// the other (interop/concurrent.mjs sessionsExchange), each status checked and the session lists compared.
//
//   npm run test:strapi [-- --dialect sqlite|postgres|mysql ...] [--test served|created|written|concurrent ...]
//                       [--jobs n] [--keep] [--no-build]
//
// --dialect (repeatable, or a comma list; default all three), --test (the same; default all four; `written` without
// `served` skips its comparisons with the Strapi-seeded database), --jobs (how many dialects run at once, default 1;
// each has its own databases, folders and ports; with more than one, every line names its dialect), --keep (keep the
// temp folders and databases and print where), --no-build (use dist/ as it is). Env: CAIRN_STRAPI_CACHE (the install
// cache's root, default ~/.cache/cairn-strapi). Exits 1 when any answer differs, a write is refused, a layout or row
// changed or Strapi's log says error (tests 2 and 4), 2 when a step fails.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { strapiInstallOrExit } from './interop/install.mjs';
import { FIXTURE_APP } from './interop/strapi-app.mjs';
import { fmt, InteropRun, readRequests, repo } from './interop/steps.mjs';
import { CONCURRENT_ONLY_ON, CONCURRENT_SKIP_REASON } from './interop/concurrent.mjs';
import { cairnCreatesStrapiWrites, cairnWritesStrapiReads, strapiAndCairnAtOnce, strapiWritesCairnReads, WRITE_DEVIATIONS } from './interop/tests.mjs';

const DIALECTS = ['sqlite', 'postgres', 'mysql'];
// Test 1 is `served` (Cairn serves what Strapi wrote), test 2 `created` (Strapi starts on a database Cairn created),
// test 3 `written` (Strapi reads what Cairn wrote), test 4 `concurrent` (both run at once on one database).
const TESTS = ['served', 'created', 'written', 'concurrent'];

const options = parseArgs(process.argv.slice(2));
const started = Date.now();
process.on('SIGINT', () => void abort('interrupted'));
process.on('SIGTERM', () => void abort('terminated'));

if (options.build) {
  const t0 = Date.now();
  const tsc = join(dirname(createRequire(join(repo, 'package.json')).resolve('typescript/package.json')), 'bin', 'tsc');
  const result = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: repo, stdio: 'inherit' });
  if (result.status !== 0) fail('npm run build failed');
  console.log(`Cairn built (dist/) in ${fmt(Date.now() - t0)}`);
}
const install = strapiInstallOrExit(FIXTURE_APP, fmt);

const reads = readRequests();
console.log(`${reads.length} read requests of queries.json (GET and GraphQL queries that need no earlier write or user JWT)`);

const results = options.dialects.map((dialect) => ({ dialect }));
const running = new Set(); // the runs under way and their dialects' folders, for an interruption to clean up
// --jobs dialects at once (each its own databases, folders and ports); results stay in dialect order
const queue = [...results];
await Promise.all(Array.from({ length: Math.min(options.jobs, queue.length) }, async () => {
  while (queue.length) await runDialect(queue.shift());
}));

if (options.tests.includes('served')) summaryTest1(results.map((r) => ({ dialect: r.dialect, ...r.t1 })));
if (options.tests.includes('created')) summaryTest2(results.map((r) => ({ dialect: r.dialect, ...r.t2 })));
if (options.tests.includes('written')) summaryTest3(results.map((r) => ({ dialect: r.dialect, ...r.t3 })));
if (options.tests.includes('concurrent')) summaryTest4(results.map((r) => ({ dialect: r.dialect, ...r.t4 })));
console.log(`\ntotal ${fmt(Date.now() - started)}${install.installed ? ` (of which npm ci ${fmt(install.ms)})` : ''}`);
const all = results.flatMap((r) => [r.t1, r.t2, r.t3, r.t4]).filter(Boolean);
const differs = (t) =>
  t.seedRefused ||
  t.writeRefused ||
  t.layoutUnchanged === false ||
  t.reads?.different.length ||
  t.seeds?.different.length ||
  t.rows?.different.length ||
  // test 2's
  t.tablesAdded?.length ||
  t.tablesChanged?.length ||
  t.rowsChanged?.length ||
  t.strapiErrors?.length ||
  t.sessions?.failures.length ||
  t.different?.length;
process.exit(all.some((t) => t.error) ? 2 : all.some(differs) ? 1 : 0);

/** The tests of one dialect, in order (test 3 compares with test 1's database), into `result`. */
async function runDialect(result) {
  const { dialect } = result;
  // with more than one dialect at once, every line says whose it is
  const log = options.jobs > 1 ? (text) => console.log(text.replace(/^/gm, `[${dialect}] `)) : console.log;
  const work = mkdtempSync(join(tmpdir(), `cairn-interop-${dialect}-`));
  const entry = { work };
  running.add(entry);
  const test = (key, title, dbSuffix, fn) => async () => {
    log(`\n=== ${dialect}: ${title} ===`);
    result[key] = await runTest({ dialect, dir: join(work, key), dbSuffix, log, entry }, fn);
  };
  if (options.tests.includes('served')) await test('t1', 'test 1 (served), Strapi writes, Cairn reads', '', strapiWritesCairnReads)();
  if (options.tests.includes('created')) await test('t2', 'test 2 (created), Cairn creates the database, Strapi starts on it', '', cairnCreatesStrapiWrites)();
  if (options.tests.includes('written')) await test('t3', 'test 3 (written), Cairn writes, Strapi reads', '_writes', (run) => cairnWritesStrapiReads(run, result.t1))();
  if (options.tests.includes('concurrent')) {
    if (dialect === CONCURRENT_ONLY_ON) await test('t4', 'test 4 (concurrent), Strapi and Cairn at once on one database', '_concurrent', strapiAndCairnAtOnce)();
    else {
      result.t4 = { skipped: CONCURRENT_SKIP_REASON };
      log(`\n=== ${dialect}: test 4 (concurrent) skipped: ${CONCURRENT_SKIP_REASON} ===`);
    }
  }
  if (options.keep) log(`kept ${work}`);
  else rmSync(work, { recursive: true, force: true });
  running.delete(entry);
}

/** One test on one dialect, start to end; never throws: a failed step is the result's `error`. */
async function runTest({ dialect, dir, dbSuffix, log, entry }, test) {
  mkdirSync(dir, { recursive: true });
  const run = new InteropRun({ dialect, dir, install, reads, keep: options.keep, dbSuffix, log });
  entry.run = run;
  const t0 = Date.now();
  let result;
  try {
    result = await test(run);
  } catch (error) {
    result = { error: error.message };
    log(`  FAILED: ${error.message.slice(0, 6000)}`);
  } finally {
    await run.close();
    entry.run = undefined;
  }
  result.times = { ...run.times, total: Date.now() - t0 };
  log(`  ${'total'.padEnd(22)} ${fmt(result.times.total)}`);
  printOutcome(result, log);
  return result;
}

function printOutcome(r, log) {
  if (r.seedRefused) log(`  seed through Cairn REFUSED: ${r.seedRefused}`);
  if (r.writeRefused) log(`  write through Cairn REFUSED: ${r.writeRefused}`);
  for (const [what, c] of [['reads', r.reads], ['Strapi-seeded vs Cairn-seeded', r.seeds], ['rows per table, Strapi-seeded vs Cairn-seeded', r.rows]]) {
    if (!c) continue;
    const asOnSqlite = c.asOnSqlite ? ` (${c.asOnSqlite} of them as Strapi answers on SQLite: test/strapi-db/deviations.json)` : '';
    const accepted = c.accepted ? `, ${c.accepted.length} listed in write-deviations.json` : '';
    log(`  ${what}: ${c.compared} compared, ${c.equal} equal${asOnSqlite}${accepted}, ${c.different.length} different`);
  }
  if (r.layoutUnchanged !== undefined) log(`  layout unchanged: ${r.layoutUnchanged ? 'yes' : 'NO'}`);
  for (const line of (r.layoutDiff ?? []).slice(0, 40)) log(`    ${line}`);
}

function summaryTest1(rows) {
  console.log('\n=== interop test 1 (served): Strapi makes and seeds the database, Cairn serves it ===');
  table(['dialect', 'compared', 'equal', 'different', 'layout unchanged', 'Strapi start+seed+record', 'Cairn start+record', 'total'], rows.map((r) => [
    r.dialect,
    r.reads?.compared ?? '-',
    r.reads ? `${r.reads.equal}${r.reads.asOnSqlite ? ` (${r.reads.asOnSqlite} as on SQLite)` : ''}` : '-',
    r.error ? `error: ${r.error.split('\n')[0]}` : r.reads?.different.length ?? '-',
    yesNo(r.layoutUnchanged),
    sum(r.times, 'strapi start', 'strapi seed', 'strapi record'),
    sum(r.times, 'cairn start', 'cairn record'),
    sum(r.times, 'total'),
  ]));
  differences(rows, 'reads', 'Cairn vs Strapi');
}

function summaryTest2(created) {
  console.log('\n=== interop test 2 (created): Cairn creates the database, Strapi starts on it and writes, Cairn serves it ===');
  table(['dialect', 'tables Strapi added', 'tables Strapi changed', "Cairn's rows Strapi changed", 'errors in Strapi log', 'compared', 'different', 'total'], created.map((r) => [
    r.dialect,
    r.tablesAdded?.length ?? '-',
    r.error ? `error: ${r.error.split('\n')[0]}` : r.tablesChanged.length ? r.tablesChanged.join(', ') : 'none',
    r.rowsChanged?.length ?? '-',
    r.strapiErrors?.length ?? '-',
    r.compared ?? '-',
    r.different?.length ?? '-',
    sum(r.times, 'total'),
  ]));
  for (const r of created) {
    if (r.tablesAdded?.length) console.log(`  ${r.dialect} tables Strapi added: ${r.tablesAdded.join(', ')}`);
    for (const line of r.rowsChanged ?? []) console.log(`  ${r.dialect} row changed or gone: ${line.slice(0, 300)}`);
    for (const line of r.strapiErrors ?? []) console.log(`  ${r.dialect} Strapi log: ${line.slice(0, 300)}`);
    for (const line of r.different ?? []) console.log(`  ${r.dialect} different: ${line}`);
  }
}

function summaryTest3(rows) {
  console.log('\n=== interop test 3 (written): Cairn seeds a database Strapi made, Strapi reads it ===');
  table(['dialect', 'seed through Cairn', 'Cairn vs Strapi (same db): equal/compared', 'Strapi: Cairn-seeded vs Strapi-seeded: equal/listed/compared', 'tables with as many rows: equal/listed/compared', 'different', 'layout unchanged', 'Strapi tables', 'Cairn start+seed+record', 'Strapi restart+record', 'total'], rows.map((r) => [
    r.dialect,
    r.error ? `error: ${r.error.split('\n')[0]}` : r.seedRefused ? `REFUSED: ${r.seedRefused.slice(0, 160)}` : 'ok',
    r.reads ? `${r.reads.equal}/${r.reads.compared}` : '-',
    r.seeds ? `${r.seeds.equal}/${r.seeds.accepted.length}/${r.seeds.compared}` : r.reads ? 'skipped (no served)' : '-',
    r.rows ? `${r.rows.equal}/${r.rows.accepted.length}/${r.rows.compared}` : r.reads ? 'skipped (no served)' : '-',
    r.reads ? r.reads.different.length + (r.seeds?.different.length ?? 0) + (r.rows?.different.length ?? 0) : '-',
    yesNo(r.layoutUnchanged),
    sum(r.times, 'strapi start (tables)', 'strapi stop'),
    sum(r.times, 'cairn start', 'cairn seed', 'cairn record'),
    sum(r.times, 'strapi restart', 'strapi record'),
    sum(r.times, 'total'),
  ]));
  differences(rows, 'reads', 'Cairn vs Strapi on the Cairn-seeded database');
  differences(rows, 'seeds', 'Strapi on the Cairn-seeded database vs Strapi on the Strapi-seeded one');
  differences(rows, 'rows', 'rows per table after the Strapi seed vs after the Cairn seed');
  for (const key of ['seeds', 'rows']) {
    for (const r of rows.filter((x) => x[key]?.accepted.length)) {
      console.log(`\n${r.dialect}: ${r[key].accepted.length} listed in ${WRITE_DEVIATIONS.slice(repo.length)} (deliberate Cairn differences)`);
      for (const line of r[key].accepted) console.log(`  ${line}`);
    }
    for (const r of rows.filter((x) => x[key]?.stale.length)) {
      console.log(`\n${r.dialect}: ${r[key].stale.length} listed in write-deviations.json but not seen (stale: remove them)`);
      for (const line of r[key].stale) console.log(`  ${line}`);
    }
  }
}

function summaryTest4(rows) {
  console.log('\n=== interop test 4 (concurrent): Strapi and Cairn run at once on one database, each reads what the other wrote ===');
  for (const r of rows) {
    if (r.skipped) console.log(`test 4 (concurrent) ${r.dialect}: skipped: ${r.skipped}`);
    else if (r.error) console.log(`test 4 (concurrent) ${r.dialect}: error: ${r.error.split('\n')[0]}`);
    else if (r.writeRefused) console.log(`test 4 (concurrent) ${r.dialect}: write through Cairn REFUSED: ${r.writeRefused}`);
    else {
      console.log(`test 4 (concurrent) ${r.dialect}: ${r.reads.compared} reads compared, ${r.reads.different.length} differ, ${r.strapiErrors.length} errors in Strapi's log (${sum(r.times, 'total')})`);
      console.log(`test 4 (concurrent) ${r.dialect}: sessions ("refresh" mode) across the servers: ${r.sessions.checks} statuses checked, ${r.sessions.failures.length} wrong`);
    }
    for (const line of r.strapiErrors ?? []) console.log(`  ${r.dialect} Strapi log: ${line.slice(0, 300)}`);
    for (const line of r.sessions?.failures ?? []) console.log(`  ${r.dialect} sessions: ${line}`);
  }
  differences(rows, 'reads', "Cairn's answer vs Strapi's to the same read, both servers running");
}

function differences(rows, key, what) {
  for (const r of rows.filter((x) => x[key]?.different.length)) {
    console.log(`\n${r.dialect}: ${r[key].different.length} different, ${what}`);
    for (const line of r[key].different) console.log(`  ${line}`);
  }
}

function table(head, rows) {
  console.log(head.join(' | '));
  for (const row of rows) console.log(row.join(' | '));
}

function yesNo(v) {
  return v === undefined ? '-' : v ? 'yes' : 'NO';
}

/** The summed durations of some steps, as printed. */
function sum(times, ...labels) {
  return times ? fmt(labels.reduce((n, l) => n + (times[l] ?? 0), 0)) : '-';
}

function parseArgs(args) {
  const parsed = { dialects: [], tests: [], keep: false, build: true, jobs: 1 };
  const list = (name, value) => parsed[name].push(...(value ?? '').split(','));
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === '--dialect' || arg === '--test') list(arg === '--test' ? 'tests' : 'dialects', args[++i]);
    else if (arg.startsWith('--dialect=')) list('dialects', arg.slice('--dialect='.length));
    else if (arg.startsWith('--test=')) list('tests', arg.slice('--test='.length));
    else if (arg === '--jobs' || arg.startsWith('--jobs=')) parsed.jobs = Number(arg === '--jobs' ? args[++i] : arg.slice('--jobs='.length));
    else if (arg === '--keep') parsed.keep = true;
    else if (arg === '--no-build') parsed.build = false;
    else fail(`unknown argument ${arg}\nusage: npm run test:strapi [-- --dialect sqlite|postgres|mysql ...] [--test served|created|written|concurrent ...] [--jobs n] [--keep] [--no-build]`);
  }
  if (parsed.dialects.length === 0) parsed.dialects = [...DIALECTS];
  if (parsed.tests.length === 0) parsed.tests = [...TESTS];
  for (const d of parsed.dialects) if (!DIALECTS.includes(d)) fail(`unknown dialect ${d} (sqlite, postgres or mysql)`);
  if (!Number.isInteger(parsed.jobs) || parsed.jobs < 1) fail('--jobs takes a whole number, 1 or more');
  for (const t of parsed.tests) if (!TESTS.includes(t)) fail(`unknown test ${t} (served: Strapi writes, Cairn reads; created: Cairn creates the database, Strapi starts on it; written: Cairn writes, Strapi reads; concurrent: both at once on one PostgreSQL database)`);
  return parsed;
}

async function abort(why) {
  console.log(`\n${why}: cleaning up`);
  await Promise.all([...running].map(async ({ run, work }) => {
    try {
      await run?.close();
      if (!options.keep) rmSync(work, { recursive: true, force: true });
    } catch {
      // best effort on the way out
    }
  }));
  process.exit(130);
}

function fail(message) {
  console.error(message);
  process.exit(2);
}
