#!/usr/bin/env node
// Interop test 1 (issue 18, "Tests that use real Strapi"): real Strapi 5 makes and seeds a database, Cairn serves it.
// Per dialect: a fresh database; Strapi (installed from npm into a cache outside the repository, from the fixture
// app test/interop/strapi-app plus the conformance model) starts on it, its bootstrap issues a full-access API token,
// seed.mjs fills it and every read request of queries.json is recorded; Strapi stops; the database's layout is dumped;
// Cairn starts on the same database with the same secrets, answers the same requests with Strapi's token, stops;
// compare.mjs compares the two recordings; the layout is dumped again and must be unchanged.
// Interop test 2 (interop/created-database.mjs): Cairn creates the database (`cairn db create`), Strapi starts on it
// without adding or changing a table or changing a row Cairn wrote, writes content, and Cairn serves it as Strapi does.
//
//   npm run test:strapi [-- --dialect sqlite|postgres|mysql ...] [--test served|created ...] [--keep] [--no-build]
//
// --dialect (repeatable, or a comma list; default all three), --test (which of the two, default both), --keep (keep the temp folders and databases and print
// where), --no-build (use dist/ as it is). Env: CAIRN_STRAPI_CACHE (the install cache's root, default
// ~/.cache/cairn-strapi). Exits 1 when any answer differs or a layout changed, 2 when a step fails.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createdDatabaseCase } from './interop/created-database.mjs';
import { freshDatabase } from './interop/databases.mjs';
import { ensureStrapiInstall } from './interop/install.mjs';
import { FIXTURE_APP as fixtureApp, prepareStrapiApp } from './interop/strapi-app.mjs';
import { freePort, startCairn, startStrapi, stop } from './interop/servers.mjs';

const repo = fileURLToPath(new URL('..', import.meta.url));
const kit = join(repo, 'test', 'fixtures', 'conformance');
const DIALECTS = ['sqlite', 'postgres', 'mysql'];

// Both apps read these (the fixture app's config/admin.js and plugins.js, the conformance app's too): Cairn must
// accept the API token Strapi issued (its hash is salted with API_TOKEN_SALT) and the JWTs either side signs.
const SECRETS = {
  API_TOKEN_SALT: 'interop-api-token-salt',
  JWT_SECRET: 'interop-users-permissions-jwt-secret',
  ADMIN_JWT_SECRET: 'interop-admin-jwt-secret',
  APP_KEYS: 'interopAppKey1,interopAppKey2,interopAppKey3,interopAppKey4',
};

const options = parseArgs(process.argv.slice(2));
const started = Date.now();
const cleanups = new Set();
process.on('SIGINT', () => void abort('interrupted'));
process.on('SIGTERM', () => void abort('terminated'));

const fmt = (ms) => `${(ms / 1000).toFixed(1)} s`;
async function timed(label, times, fn) {
  const t0 = Date.now();
  try {
    return await fn();
  } finally {
    times[label] = Date.now() - t0;
  }
}

const setup = {};
if (options.build) {
  await timed('build', setup, () => {
    const tsc = join(dirname(createRequire(join(repo, 'package.json')).resolve('typescript/package.json')), 'bin', 'tsc');
    const result = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: repo, stdio: 'inherit' });
    if (result.status !== 0) fail('npm run build failed');
  });
  console.log(`Cairn built (dist/) in ${fmt(setup.build)}`);
}
let install;
try {
  install = ensureStrapiInstall(fixtureApp);
} catch (error) {
  fail(error.message);
}
console.log(install.installed ? `Strapi installed into ${install.dir} in ${fmt(install.ms)}` : `Strapi install reused: ${install.dir}`);

const reads = readRequests(JSON.parse(readFileSync(join(kit, 'queries.json'), 'utf8')));
console.log(`${reads.length} read requests of queries.json (GET and GraphQL queries that need no earlier write or user JWT)`);

const results = [];
const created = [];
for (const dialect of options.dialects) {
  if (options.tests.includes('served')) {
    console.log(`\n=== ${dialect}: Strapi makes the database, Cairn serves it ===`);
    results.push(await runDialect(dialect));
  }
  if (options.tests.includes('created')) {
    console.log(`\n=== ${dialect}: Cairn creates the database, Strapi starts on it ===`);
    created.push(await runCreated(dialect));
  }
}

if (results.length) {
  console.log('\n=== interop test 1: Strapi makes and seeds the database, Cairn serves it ===');
  console.log(['dialect', 'compared', 'equal', 'different', 'layout unchanged', 'Strapi start+seed+record', 'Cairn start+record', 'total'].join(' | '));
  for (const r of results) {
    const t = r.times;
    console.log([
      r.dialect,
      r.compared ?? '-',
      r.asOnSqlite ? `${r.equal} (${r.asOnSqlite} as on SQLite)` : r.equal ?? '-',
      r.error ? `error: ${r.error.split('\n')[0]}` : r.different.length,
      r.layoutUnchanged === undefined ? '-' : r.layoutUnchanged ? 'yes' : 'NO',
      fmt((t['strapi start'] ?? 0) + (t.seed ?? 0) + (t['strapi record'] ?? 0)),
      fmt((t['cairn start'] ?? 0) + (t['cairn record'] ?? 0)),
      fmt(t.total ?? 0),
    ].join(' | '));
  }
  for (const r of results.filter((x) => x.different?.length)) {
    console.log(`\n${r.dialect}: ${r.different.length} different`);
    for (const line of r.different) console.log(`  ${line}`);
  }
}
if (created.length) {
  console.log('\n=== interop test 2: Cairn creates the database, Strapi starts on it and writes, Cairn serves it ===');
  console.log(['dialect', 'tables Strapi added', 'tables Strapi changed', "Cairn's rows Strapi changed", 'errors in Strapi log', 'compared', 'different', 'total'].join(' | '));
  for (const r of created) {
    console.log([
      r.dialect,
      r.tablesAdded?.length ?? '-',
      r.error ? `error: ${r.error.split('\n')[0]}` : r.tablesChanged.length ? r.tablesChanged.join(', ') : 'none',
      r.rowsChanged?.length ?? '-',
      r.strapiErrors?.length ?? '-',
      r.compared ?? '-',
      r.different?.length ?? '-',
      fmt(r.times.total ?? 0),
    ].join(' | '));
  }
  for (const r of created) {
    if (r.tablesAdded?.length) console.log(`  ${r.dialect} tables Strapi added: ${r.tablesAdded.join(', ')}`);
    for (const line of r.rowsChanged ?? []) console.log(`  ${r.dialect} row changed or gone: ${line.slice(0, 300)}`);
    for (const line of r.strapiErrors ?? []) console.log(`  ${r.dialect} Strapi log: ${line.slice(0, 300)}`);
    for (const line of r.different ?? []) console.log(`  ${r.dialect} different: ${line}`);
  }
}
console.log(`\ntotal ${fmt(Date.now() - started)}${install.installed ? ` (of which npm ci ${fmt(install.ms)})` : ''}`);
const failedCreated = (r) => r.tablesAdded.length || r.tablesChanged.length || r.rowsChanged.length || r.strapiErrors.length || r.different.length;
const failed = [...results, ...created].some((r) => r.error) ? 2 : results.some((r) => r.different.length || !r.layoutUnchanged) || created.some(failedCreated) ? 1 : 0;
process.exit(failed);

/** Interop test 2 for one dialect (interop/created-database.mjs); never throws: a failed step is in the result. */
async function runCreated(dialect) {
  const times = {};
  const result = { dialect, times };
  const t0 = Date.now();
  const work = mkdtempSync(join(tmpdir(), `cairn-interop-created-${dialect}-`));
  cleanups.add(() => (options.keep ? console.log(`kept ${work}`) : rmSync(work, { recursive: true, force: true })));
  const step = async (label, fn) => {
    const value = await timed(label, times, fn);
    console.log(`  ${label.padEnd(16)} ${fmt(times[label])}`);
    return value;
  };
  try {
    prepareApps(join(work, 'strapi-app'), join(work, 'cairn-app'));
    Object.assign(
      result,
      await createdDatabaseCase({ dialect, work, repo, secrets: SECRETS, layout: (d, target, out) => layout(d, target, out, { native: true }), step, cleanups, keep: options.keep }),
    );
    console.log(`  tables Strapi added: ${result.tablesAdded.length}, changed: ${result.tablesChanged.length ? result.tablesChanged.join(', ') : 'none'}; rows of Cairn's it changed: ${result.rowsChanged.length}; errors in Strapi's log: ${result.strapiErrors.length}; ${result.compared} reads compared, ${result.different.length} different`);
  } catch (error) {
    result.error = error.message;
    console.log(`  FAILED: ${error.message.slice(0, 6000)}`);
  } finally {
    for (const cleanup of [...cleanups].reverse()) {
      try {
        await cleanup();
      } catch (error) {
        console.log(`  cleanup: ${error.message}`);
      }
    }
    cleanups.clear();
    times.total = Date.now() - t0;
    console.log(`  ${'total'.padEnd(16)} ${fmt(times.total)}`);
  }
  return result;
}

/** One dialect, start to end; never throws: a failed step is reported in the result. */
async function runDialect(dialect) {
  const times = {};
  const result = { dialect, times, different: [] };
  const t0 = Date.now();
  const work = mkdtempSync(join(tmpdir(), `cairn-interop-${dialect}-`));
  const keepWork = () => (options.keep ? console.log(`kept ${work}`) : rmSync(work, { recursive: true, force: true }));
  cleanups.add(keepWork);
  let db;
  let server;
  const step = async (label, fn) => {
    const value = await timed(label, times, fn);
    console.log(`  ${label.padEnd(16)} ${fmt(times[label])}`);
    return value;
  };
  try {
    const strapiApp = join(work, 'strapi-app');
    const cairnApp = join(work, 'cairn-app');
    prepareApps(strapiApp, cairnApp);
    db = await step('database', () => freshDatabase(dialect, work));
    const dropDb = () => (options.keep ? console.log(`kept database ${db.layoutTarget}`) : db.drop());
    cleanups.add(dropDb);
    cleanups.add(() => server && stop(server));
    const env = { ...process.env, ...SECRETS, ...db.env };
    const queriesFile = join(work, 'queries.json');
    writeFileSync(queriesFile, JSON.stringify(reads));
    writeFileSync(join(work, 'names.txt'), reads.map((q) => q.name).join('\n'));

    const tokenFile = join(work, 'token.txt');
    server = await step('strapi start', async () => startStrapi({ appDir: strapiApp, env, port: await freePort(), tokenFile }));
    const token = readFileSync(tokenFile, 'utf8').trim();
    await step('seed', () => kitScript('seed.mjs', { ...env, BASE_URL: server.url, TOKEN: token, QUIET: '1' }));
    await step('strapi record', () => kitScript('record.mjs', { ...env, BASE_URL: server.url, TOKEN: token, QUERIES: queriesFile, OUT_DIR: join(work, 'strapi') }));
    await step('strapi stop', () => stop(server));
    server = undefined;

    const before = await step('layout before', () => layout(dialect, db.layoutTarget, join(work, 'layout-before.json')));
    server = await step('cairn start', async () => startCairn({ repoDir: repo, appDir: cairnApp, env, port: await freePort() }));
    await step('cairn record', () => kitScript('record.mjs', { ...env, BASE_URL: server.url, TOKEN: token, QUERIES: queriesFile, OUT_DIR: join(work, 'cairn') }));
    await step('cairn stop', () => stop(server));
    server = undefined;
    const after = await step('layout after', () => layout(dialect, db.layoutTarget, join(work, 'layout-after.json')));
    result.layoutUnchanged = before === after;
    if (!result.layoutUnchanged) result.layoutDiff = lineDiff(before, after);

    const compare = await step('compare', () => compareRecordings(work, dialect));
    Object.assign(result, compare);
    const asOnSqlite = result.asOnSqlite ? ` (${result.asOnSqlite} of them as Strapi answers on SQLite: test/strapi-db/deviations.json)` : '';
    console.log(`  ${result.compared} compared, ${result.equal} equal${asOnSqlite}, ${result.different.length} different; layout unchanged: ${result.layoutUnchanged ? 'yes' : 'NO'}`);
    if (result.layoutDiff) for (const line of result.layoutDiff.slice(0, 40)) console.log(`    ${line}`);
  } catch (error) {
    result.error = error.message;
    console.log(`  FAILED: ${error.message.slice(0, 6000)}`);
  } finally {
    for (const cleanup of [...cleanups].reverse()) {
      try {
        await cleanup();
      } catch (error) {
        console.log(`  cleanup: ${error.message}`);
      }
    }
    cleanups.clear();
    times.total = Date.now() - t0;
    console.log(`  ${'total'.padEnd(16)} ${fmt(times.total)}`);
  }
  return result;
}

/**
 * The fixture Strapi app (package.json, config/, src/index.js) with the conformance model copied into its src/ and
 * node_modules linking to the install cache; beside it a copy of the conformance app for Cairn (the repository's
 * copy is never written to). Both sit in the same folder, so a relative SQLite file name is the same file for both.
 */
function prepareApps(strapiApp, cairnApp) {
  prepareStrapiApp(strapiApp, install);
  cpSync(join(kit, 'app'), cairnApp, { recursive: true });
}

/**
 * The requests of queries.json that only read and need nothing an earlier write made: GETs and GraphQL queries
 * (not mutations), without a saved variable ({{$…}}) or a user's JWT, which only the write part creates.
 */
function readRequests(queries) {
  return queries.filter((q) => {
    const graphql = q.path.startsWith('/graphql');
    const reads = q.method === 'GET' || (graphql && q.method === 'POST' && !/^\s*mutation\b/.test(q.body?.query ?? ''));
    return reads && (q.auth ?? 'token') !== 'jwt' && !JSON.stringify(q).includes('{{$');
  });
}

/** Runs a script of the conformance kit; throws with its output's tail when it fails. */
function kitScript(script, env) {
  const result = spawnSync(process.execPath, [join(kit, script)], { env, encoding: 'utf8', maxBuffer: 64 << 20 });
  if (result.status !== 0) throw new Error(`${script} failed (exit ${result.status}):\n${`${result.stdout}${result.stderr}`.slice(-3000)}`);
  return result.stdout;
}

/** The database's layout as db-layout.mjs prints it (also written to `out`); `native`: with each column's native type. */
function layout(dialect, target, out, { native = false } = {}) {
  const args = [join(repo, 'scripts', 'db-layout.mjs'), '--client', dialect, target, ...(native ? ['--native'] : []), '--out', out];
  const result = spawnSync(process.execPath, args, { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`db-layout.mjs failed:\n${result.stdout}${result.stderr}`);
  return readFileSync(out, 'utf8');
}

/**
 * compare.mjs with Strapi's recordings as the reference and Cairn's as the actual, under the deviations
 * scripts/conformance.mjs uses for REST (the kit's and test/conformance/rest's: where Cairn differs on purpose), and
 * test/strapi-db/deviations.json's for this dialect: where Strapi's answer depends on the database (NULL order, a 500
 * on PostgreSQL) and Cairn's does not, Cairn answers what Strapi answers on SQLite, which for a fresh seed is the kit's
 * golden (recorded by Strapi on SQLite).
 */
function compareRecordings(work, dialect) {
  const merged = { ...readJson(join(kit, 'deviations.json')), ...readJson(join(repo, 'test', 'conformance', 'rest', 'deviations.json')) };
  for (const dir of [join(kit, 'overrides'), join(repo, 'test', 'conformance', 'rest', 'overrides')]) {
    if (existsSync(dir)) cpSync(dir, join(work, 'overrides'), { recursive: true });
  }
  const byDatabase = readJson(join(repo, 'test', 'strapi-db', 'deviations.json'))[dialect] ?? {};
  mkdirSync(join(work, 'overrides'), { recursive: true });
  for (const [name, { sameAs }] of Object.entries(byDatabase)) {
    if (sameAs !== 'sqlite') throw new Error(`test/strapi-db/deviations.json: ${name} is the same as Strapi on ${sameAs}; only SQLite's fresh-seed answers are recorded (the kit's goldens)`);
    cpSync(join(kit, 'goldens', `${name}.json`), join(work, 'overrides', `${name}.json`));
    merged[name] = { override: true };
  }
  writeFileSync(join(work, 'deviations.json'), JSON.stringify(merged));
  const result = spawnSync(process.execPath, [join(kit, 'compare.mjs')], {
    env: { ...process.env, GOLDEN_DIR: join(work, 'strapi'), ACTUAL_DIR: join(work, 'cairn'), DEVIATIONS: join(work, 'deviations.json'), NAMES: join(work, 'names.txt'), VERBOSE: '1' },
    encoding: 'utf8',
  });
  const summary = /(\d+) of (\d+) match the reference/.exec(result.stdout);
  if (!summary || result.status === null || result.status > 1) throw new Error(`compare.mjs failed (exit ${result.status}):\n${result.stdout}${result.stderr}`);
  const different = result.stdout.split('\n').filter((line) => line.startsWith('  ')).map((line) => line.trim());
  const names = new Set(readFileSync(join(work, 'names.txt'), 'utf8').split('\n'));
  const asOnSqlite = Object.keys(byDatabase).filter((name) => names.has(name)).length;
  return { compared: Number(summary[2]), equal: Number(summary[1]), different, asOnSqlite };
}

function readJson(file) {
  return JSON.parse(readFileSync(file, 'utf8'));
}

/** The lines only one of two dumps has (db-layout.mjs puts one column, index or key per line). */
function lineDiff(before, after) {
  const a = new Set(before.split('\n'));
  const b = new Set(after.split('\n'));
  return [...[...a].filter((l) => !b.has(l)).map((l) => `- ${l.trim()}`), ...[...b].filter((l) => !a.has(l)).map((l) => `+ ${l.trim()}`)];
}

function parseArgs(args) {
  const parsed = { dialects: [], tests: [], keep: false, build: true };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === '--dialect') parsed.dialects.push(...(args[++i] ?? '').split(','));
    else if (arg.startsWith('--dialect=')) parsed.dialects.push(...arg.slice('--dialect='.length).split(','));
    else if (arg === '--test') parsed.tests.push(...(args[++i] ?? '').split(','));
    else if (arg.startsWith('--test=')) parsed.tests.push(...arg.slice('--test='.length).split(','));
    else if (arg === '--keep') parsed.keep = true;
    else if (arg === '--no-build') parsed.build = false;
    else fail(`unknown argument ${arg}\nusage: npm run test:strapi [-- --dialect sqlite|postgres|mysql ...] [--test served|created ...] [--keep] [--no-build]`);
  }
  if (parsed.dialects.length === 0) parsed.dialects = [...DIALECTS];
  for (const d of parsed.dialects) if (!DIALECTS.includes(d)) fail(`unknown dialect ${d} (sqlite, postgres or mysql)`);
  if (parsed.tests.length === 0) parsed.tests = ['served', 'created'];
  for (const t of parsed.tests) if (!['served', 'created'].includes(t)) fail(`unknown test ${t} (served: Strapi makes the database, Cairn serves it; created: Cairn creates it, Strapi starts on it)`);
  return parsed;
}

async function abort(why) {
  console.log(`\n${why}: cleaning up`);
  for (const cleanup of [...cleanups].reverse()) {
    try {
      await cleanup();
    } catch {
      // best effort on the way out
    }
  }
  process.exit(130);
}

function fail(message) {
  console.error(message);
  process.exit(2);
}
