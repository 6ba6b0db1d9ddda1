#!/usr/bin/env node
// Records what real Strapi answers on the fixture databases that Strapi made (test/fixtures/strapi-db): the
// "goldens" that Cairn's answers on the same databases are compared with. Not run by tests: it needs an installed
// Strapi app made from the repository (`node scripts/interop/strapi-app.mjs <dir>`), given as STRAPI_APP_DIR.
//
//   STRAPI_APP_DIR=/path/to/strapi-app node scripts/record-strapi-goldens.mjs               # reads, 3 dialects
//   STRAPI_APP_DIR=... node scripts/record-strapi-goldens.mjs --dialects sqlite,postgres      # some dialects
//   STRAPI_APP_DIR=... node scripts/record-strapi-goldens.mjs --after-writes                  # SQLite: writes, then reads
//
// Per dialect: a copy of the fixture database (SQLite: a gunzipped copy in $STRAPI_APP_DIR/.tmp; PostgreSQL and
// MariaDB: a database `strapi_golden_<dialect>` loaded from the dump, dropped at the end), the fixture's uploads in
// $STRAPI_APP_DIR/public/uploads and its `anchor-full-access` key in .tmp/token.txt (the reference app's bootstrap
// re-issues that token when the file is missing; whatever was there is put back at the end), Strapi started with
// NODE_ENV=production on a free port, then test/fixtures/conformance/record.mjs on the read requests of
// queries.json, with that token. Every table's rows are fingerprinted before Strapi starts and after it stops, and
// the tables whose rows changed are printed.
//
// Reads: GET requests and GraphQL queries (not mutations) that use no value saved by a write (`{{$...}}`). The
// ones sent with a user's JWT get the JWT of the fixture's registered user (a login first, not recorded). Besides,
// three reads again with a wrong token (`badtoken.<name>`) and without a token (`notoken.<name>`).
// --after-writes: on a fresh copy of the SQLite fixture, every request of queries.json from the first write on, in
// order (they depend on each other), into goldens/sqlite-after-writes/, then the reads again into its reads/ folder,
// and the database's layout (scripts/db-layout.mjs) into layout.sqlite.after-writes.json.
// Then compare.mjs between the dialects and with the fresh-seed goldens (test/fixtures/conformance/goldens).
// Env: STRAPI_APP_DIR (required), OUT (default test/fixtures/strapi-db/goldens), PG_URL / MYSQL_URL (server URLs,
// default postgres://postgres@127.0.0.1:5432 and mysql://root@127.0.0.1:3306), KEEP=1 keeps the work folder.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import Database from 'better-sqlite3';
import mysql from 'mysql2/promise';
import pg from 'pg';

const root = fileURLToPath(new URL('..', import.meta.url));
const FIX = join(root, 'test', 'fixtures', 'strapi-db');
const KIT = join(root, 'test', 'fixtures', 'conformance');
const OUT = process.env.OUT ? join(process.cwd(), process.env.OUT) : join(FIX, 'goldens');
const PG_URL = process.env.PG_URL ?? 'postgres://postgres@127.0.0.1:5432';
const MYSQL_URL = process.env.MYSQL_URL ?? 'mysql://root@127.0.0.1:3306';
/** The fixture's user registered by extra-writes.mjs: its JWT for the reads sent with `auth: "jwt"`. */
const FIXTURE_USER = { identifier: 'fixture-user@example.com', password: 'Fixture-passw0rd' };
/**
 * The write sequence was made for a fresh seed: on the fixture, article 0011 no longer exists (extra-writes.mjs
 * deleted it) and record.mjs stops on a placeholder it cannot resolve. Replayed with article 0021 instead (published,
 * used nowhere else in the sequence); the replayed list is saved beside the answers as _queries.json.
 */
const WRITE_SUBSTITUTIONS = { '{{article:11}}': '{{article:21}}' };
/** Reads also recorded with a wrong token and with none (public role). */
const AUTH_VARIANTS = ['rest-articles-default', 'rest-one-restaurant', 'gql-articles-default'];

const args = process.argv.slice(2);
const afterWrites = args.includes('--after-writes');
const dialectArg = args.indexOf('--dialects');
const dialects = afterWrites ? ['sqlite'] : dialectArg >= 0 ? args[dialectArg + 1].split(',') : ['sqlite', 'postgres', 'mysql'];
for (const d of dialects) if (!['sqlite', 'postgres', 'mysql'].includes(d)) fail(`unknown dialect ${d}`, 2);

const APP = process.env.STRAPI_APP_DIR;
const SECRETS = JSON.parse(readFileSync(join(FIX, 'secrets.json'), 'utf8'));
const strapiPackage = APP && join(APP, 'node_modules', '@strapi', 'strapi', 'package.json');
if (!APP || !existsSync(strapiPackage)) {
  fail(`STRAPI_APP_DIR (${APP ?? 'unset'}) holds no Strapi install (no node_modules/@strapi/strapi): install the reference server first ` +
    '(node scripts/interop/strapi-app.mjs <dir outside the repository>)', 2);
}
const STRAPI_VERSION = JSON.parse(readFileSync(strapiPackage, 'utf8')).version;
const tokens = JSON.parse(readFileSync(join(FIX, 'tokens.json'), 'utf8'));
const queries = JSON.parse(readFileSync(join(KIT, 'queries.json'), 'utf8'));
const work = mkdtempSync(join(tmpdir(), 'strapi-goldens-'));
log(`Strapi ${STRAPI_VERSION} in ${APP}; work folder ${work}; goldens into ${relative(process.cwd(), OUT) || '.'}`);

const isMutation = (q) => q.path.startsWith('/graphql') && /^\s*mutation\b/.test(q.body?.query ?? '');
const usesSavedValue = (q) => `${q.path} ${JSON.stringify(q.body ?? '')}`.includes('{{$');
const isRead = (q) => (q.method === 'GET' || (q.method === 'POST' && q.path.startsWith('/graphql') && !isMutation(q))) && !usesSavedValue(q);
const reads = queries.filter(isRead);
const firstWrite = queries.findIndex((q) => !isRead(q));
const login = { name: '_login', method: 'POST', path: '/api/auth/local', auth: 'none', body: FIXTURE_USER, save: { jwt: 'jwt' } };
const variants = AUTH_VARIANTS.flatMap((name) => {
  const q = queries.find((x) => x.name === name);
  if (!q) fail(`no query ${name} in queries.json`, 1);
  return [{ ...q, name: `badtoken.${name}`, auth: 'badtoken' }, { ...q, name: `notoken.${name}`, auth: 'none' }];
});

const restore = [];
let status = 0;
try {
  preserve(join(APP, 'public', 'uploads'));
  preserve(join(APP, '.tmp', 'token.txt'));
  if (afterWrites) {
    await withStrapi('sqlite', async (base, token, dbFile) => {
      const dir = join(OUT, 'sqlite-after-writes');
      const sequence = queries.slice(firstWrite).map((q) => {
        let text = JSON.stringify(q);
        for (const [from, to] of Object.entries(WRITE_SUBSTITUTIONS)) {
          if (text.includes(from)) log(`  ${q.name}: ${from} replaced by ${to}`);
          text = text.split(from).join(to);
        }
        return JSON.parse(text);
      });
      log(`replaying ${sequence.length} requests of queries.json from the first write (${queries[firstWrite].name}) on, in order`);
      record(sequence, dir, base, token);
      writeFileSync(join(dir, '_queries.json'), `${JSON.stringify(sequence, null, 2)}\n`);
      log(`then the ${reads.length} reads again`);
      record([login, ...reads], join(dir, 'reads'), base, token);
      const layoutFile = join(FIX, 'layout.sqlite.after-writes.json');
      run(process.execPath, [join(root, 'scripts', 'db-layout.mjs'), '--client', 'sqlite', dbFile, '--out', layoutFile]);
      const same = readFileSync(layoutFile, 'utf8') === readFileSync(join(FIX, 'layout.sqlite.json'), 'utf8');
      log(`layout after the writes ${same ? 'equals' : 'DIFFERS FROM'} layout.sqlite.json (${relative(root, layoutFile)})`);
    });
  } else {
    for (const dialect of dialects) {
      await withStrapi(dialect, async (base, token) => {
        log(`recording ${reads.length} reads + ${variants.length} wrong/absent-token variants`);
        record([login, ...reads, ...variants], join(OUT, dialect), base, token);
      });
    }
    compareAll();
  }
} catch (error) {
  console.error(`[goldens] ${error.stack ?? error}`);
  status = 1;
} finally {
  for (const undo of restore.reverse()) undo();
  if (process.env.KEEP) log(`kept ${work}`);
  else rmSync(work, { recursive: true, force: true });
}
process.exit(status);

/** Loads a copy of the fixture database of `dialect`, starts Strapi on it, runs `fn`, stops Strapi, drops the copy. */
async function withStrapi(dialect, fn) {
  const db = await loadFixture(dialect);
  try {
    const uploads = join(APP, 'public', 'uploads');
    rmSync(uploads, { recursive: true, force: true });
    cpSync(join(FIX, 'uploads', dialect), uploads, { recursive: true });
    const token = tokens[dialect]['anchor-full-access'];
    mkdirSync(join(APP, '.tmp'), { recursive: true });
    writeFileSync(join(APP, '.tmp', 'token.txt'), token);
    log(`${dialect}: copied uploads/${dialect} into ${uploads}, the fixture's anchor-full-access key into .tmp/token.txt`);
    const before = await fingerprint(db);
    await runStrapi(dialect, db, (base) => fn(base, token, db.file));
    const after = await fingerprint(db);
    const changed = Object.keys({ ...before, ...after }).sort().filter((t) => before[t]?.hash !== after[t]?.hash);
    log(`${dialect}: tables whose rows changed while Strapi ran: ${changed.length ? changed.map((t) => `${t} (${before[t]?.rows ?? '-'} -> ${after[t]?.rows ?? '-'} rows)`).join(', ') : 'none'}`);
    for (const t of changed) for (const line of rowChanges(before[t]?.lines ?? [], after[t]?.lines ?? [])) log(`  ${t}: ${line}`);
  } finally {
    await db.drop();
    log(`${dialect}: dropped ${db.label}`);
  }
}

/** Strapi started on `db` (as the reference server's start.sh starts it), `fn(baseUrl)`, Strapi stopped. */
async function runStrapi(dialect, db, fn) {
  const port = await freePort();
  const logFile = join(work, `strapi-${dialect}.log`);
  const env = {
    ...withoutDatabaseEnv(process.env), NODE_ENV: 'production', STRAPI_TELEMETRY_DISABLED: 'true', BROWSER: 'none',
    HOST: '127.0.0.1', PORT: String(port), DATABASE_CLIENT: dialect, ...db.env,
    // The secrets the fixture databases were made with: their tokens, JWTs and encrypted keys stay valid.
    API_TOKEN_SALT: SECRETS.apiTokenSalt, JWT_SECRET: SECRETS.jwtSecret, ENCRYPTION_KEY: SECRETS.encryptionKey,
  };
  log(`${dialect}: starting Strapi on port ${port} (NODE_ENV=production, ${Object.entries(db.env).map(([k, v]) => `${k}=${v}`).join(' ')}), log ${logFile} (KEEP=1 keeps it)`);
  const strapi = spawn(process.execPath, ['node_modules/@strapi/strapi/bin/strapi.js', 'start'], { cwd: APP, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  strapi.stdout.on('data', (d) => (output += d));
  strapi.stderr.on('data', (d) => (output += d));
  const base = `http://127.0.0.1:${port}`;
  try {
    const t0 = Date.now();
    for (;;) {
      if (strapi.exitCode !== null) throw new Error(`Strapi exited (${strapi.exitCode}):\n${output.slice(-3000)}`);
      if (Date.now() - t0 > 300_000) throw new Error(`Strapi did not answer within 5 minutes:\n${output.slice(-3000)}`);
      const res = await fetch(`${base}/_health`).catch(() => null);
      if (res) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    log(`${dialect}: Strapi answers after ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    await fn(base);
  } finally {
    if (strapi.exitCode === null) {
      const exited = new Promise((r) => strapi.once('exit', r));
      strapi.kill('SIGTERM');
      await exited;
    }
    writeFileSync(logFile, output);
    log(`${dialect}: Strapi stopped`);
  }
}

/** A copy of the fixture database: its Strapi env, a fingerprinting reader and a drop. */
async function loadFixture(dialect) {
  if (dialect === 'sqlite') {
    // database.js joins DATABASE_FILENAME to the app folder: a relative name
    const name = '.tmp/golden-sqlite.db';
    const file = join(APP, name);
    mkdirSync(join(APP, '.tmp'), { recursive: true });
    writeFileSync(file, gunzipSync(readFileSync(join(FIX, 'strapi.sqlite.db.gz'))));
    log(`sqlite: gunzipped strapi.sqlite.db.gz into ${file}`);
    return {
      label: file, file, env: { DATABASE_FILENAME: name },
      rows: async () => {
        const db = new Database(file, { readonly: true });
        try {
          const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").pluck().all();
          return Object.fromEntries(tables.map((t) => [t, db.prepare(`SELECT * FROM "${t}"`).all()]));
        } finally {
          db.close();
        }
      },
      drop: async () => { for (const f of [file, `${file}-wal`, `${file}-shm`, `${file}-journal`]) rmSync(f, { force: true }); },
    };
  }
  const name = `strapi_golden_${dialect}`;
  if (dialect === 'postgres') {
    await pgAdmin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await pgAdmin(`CREATE DATABASE ${name}`);
    // pg_dump's `\restrict` / `\unrestrict` lines are psql meta-commands, not SQL
    const sql = gunzipSync(readFileSync(join(FIX, 'strapi.postgres.sql.gz'))).toString('utf8').replace(/^\\(un)?restrict .*$/gm, '');
    await withPg(name, (c) => c.query(sql));
    log(`postgres: created ${name}, loaded strapi.postgres.sql.gz`);
    const u = new URL(PG_URL);
    return {
      label: `database ${name}`,
      env: { DATABASE_HOST: u.hostname, DATABASE_PORT: u.port || '5432', DATABASE_NAME: name, DATABASE_USERNAME: decodeURIComponent(u.username), DATABASE_PASSWORD: decodeURIComponent(u.password) },
      // a connection of its own: the dump's session empties search_path
      rows: () => withPg(name, async (c) => {
        const tables = (await c.query("SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'")).rows.map((r) => r.table_name);
        const out = {};
        for (const t of tables) out[t] = (await c.query(`SELECT * FROM "${t}"`)).rows;
        return out;
      }),
      drop: () => pgAdmin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
    };
  }
  await withMysql(null, (c) => c.query(`DROP DATABASE IF EXISTS ${name}`));
  await withMysql(null, (c) => c.query(`CREATE DATABASE ${name}`));
  await withMysql(name, (c) => c.query(gunzipSync(readFileSync(join(FIX, 'strapi.mysql.sql.gz'))).toString('utf8')));
  log(`mysql: created ${name}, loaded strapi.mysql.sql.gz`);
  const u = new URL(MYSQL_URL);
  return {
    label: `database ${name}`,
    env: { DATABASE_HOST: u.hostname, DATABASE_PORT: u.port || '3306', DATABASE_NAME: name, DATABASE_USERNAME: decodeURIComponent(u.username), DATABASE_PASSWORD: decodeURIComponent(u.password) },
    rows: () => withMysql(name, async (c) => {
      const [tables] = await c.query("SELECT table_name AS t FROM information_schema.tables WHERE table_schema = DATABASE() AND table_type = 'BASE TABLE'");
      const out = {};
      for (const { t } of tables) out[t] = (await c.query(`SELECT * FROM \`${t}\``))[0];
      return out;
    }),
    drop: () => withMysql(null, (c) => c.query(`DROP DATABASE IF EXISTS ${name}`)),
  };
}

/** Each table's rows (as sorted JSON lines), their count and hash. */
async function fingerprint(db) {
  const tables = await db.rows();
  const out = {};
  for (const [t, rows] of Object.entries(tables)) {
    const lines = rows.map((r) => JSON.stringify(r, (_k, v) => (typeof v === 'bigint' ? String(v) : v))).sort();
    out[t] = { rows: rows.length, lines, hash: createHash('sha256').update(lines.join('\n')).digest('hex') };
  }
  return out;
}

/** What changed between two lists of rows (JSON lines): rows keyed by `id`, changed columns named. */
function rowChanges(beforeLines, afterLines) {
  const byId = (lines) => new Map(lines.map((l, i) => { const row = JSON.parse(l); return [row.id ?? `#${i}`, row]; }));
  const was = byId(beforeLines);
  const now = byId(afterLines);
  const cut = (v) => { const s = JSON.stringify(v) ?? 'undefined'; return s.length > 160 ? `${s.slice(0, 160)}…` : s; };
  const out = [];
  for (const [id, row] of was) {
    const next = now.get(id);
    if (!next) { out.push(`- id ${id}: ${cut(row)}`); continue; }
    const cols = Object.keys({ ...row, ...next }).filter((k) => JSON.stringify(row[k]) !== JSON.stringify(next[k]));
    for (const k of cols) out.push(`~ id ${id}: ${k} ${cut(row[k])} -> ${cut(next[k])}`);
  }
  for (const [id, row] of now) if (!was.has(id)) out.push(`+ id ${id}: ${cut(row)}`);
  const shown = out.length > 40 ? [...out.slice(0, 40), `… and ${out.length - 40} more`] : out;
  const columns = {};
  for (const line of out) { const m = /^~ id [^:]+: (\S+)/.exec(line); if (m) columns[m[1]] = (columns[m[1]] ?? 0) + 1; }
  const count = (sign) => out.filter((l) => l.startsWith(sign)).length;
  return [...shown, `in all: ${count('+')} added, ${count('-')} removed, changed values: ${Object.entries(columns).map(([c, n]) => `${c}×${n}`).join(', ') || 'none'}`];
}

/** record.mjs on `list` into `dir` (emptied first); the `_login` entry runs but is not kept. */
function record(list, dir, base, token) {
  rmSync(dir, { recursive: true, force: true });
  const file = join(work, 'queries.json');
  writeFileSync(file, JSON.stringify(list));
  run(process.execPath, [join(KIT, 'record.mjs')], { BASE_URL: base, TOKEN: token, OUT_DIR: dir, QUERIES: file, ONLY: '^(?!_login$)' });
  // _index.json (name -> status, the login included) only repeats the files' statuses
  rmSync(join(dir, '_index.json'), { force: true });
  const files = readdirSync(dir).filter((f) => f.endsWith('.json'));
  const statuses = {};
  for (const f of files) { const s = JSON.parse(readFileSync(join(dir, f), 'utf8')).status; statuses[s] = (statuses[s] ?? 0) + 1; }
  log(`  ${files.length} answers in ${relative(root, dir)} (statuses: ${Object.entries(statuses).map(([s, n]) => `${s}×${n}`).join(', ')})`);
}

/** compare.mjs: each dialect against SQLite's goldens (all files), and each against the fresh-seed goldens (the reads). */
function compareAll() {
  const names = join(work, 'read-names.txt');
  writeFileSync(names, reads.map((q) => q.name).join('\n'));
  const pairs = [];
  if (dialects.includes('sqlite')) for (const d of dialects.filter((x) => x !== 'sqlite')) pairs.push([join(OUT, 'sqlite'), join(OUT, d), `sqlite vs ${d}`]);
  for (const d of dialects) pairs.push([join(KIT, 'goldens'), join(OUT, d), `fresh-seed goldens vs ${d}`, names]);
  for (const [golden, actual, label, only] of pairs) {
    const r = spawnSync(process.execPath, [join(KIT, 'compare.mjs')], { env: { ...withoutCompareEnv(process.env), GOLDEN_DIR: golden, ACTUAL_DIR: actual, ...(only ? { NAMES: only } : {}), VERBOSE: '1' }, encoding: 'utf8' });
    log(`compare ${label}:\n${r.stdout}${r.stderr}`);
  }
}

function run(cmd, argv, extraEnv = {}) {
  const r = spawnSync(cmd, argv, { env: { ...process.env, ...extraEnv }, encoding: 'utf8', maxBuffer: 64 << 20 });
  if (r.status !== 0) throw new Error(`${argv[0]} failed (${r.status}):\n${(r.stdout + r.stderr).slice(-3000)}`);
  if (r.stdout.trim()) log(`  ${r.stdout.trim()}`);
}

/** Moves `path` aside now and puts it back at the end. */
function preserve(path) {
  if (!existsSync(path)) { restore.push(() => rmSync(path, { recursive: true, force: true })); return; }
  const aside = `${path}.goldens-aside`; // beside it: a rename across file systems fails
  renameSync(path, aside);
  restore.push(() => { rmSync(path, { recursive: true, force: true }); renameSync(aside, path); });
}

async function withPg(database, fn) {
  const c = new pg.Client({ connectionString: `${PG_URL}/${database}` });
  await c.connect();
  try { return await fn(c); } finally { await c.end(); }
}
function pgAdmin(sql) { return withPg('postgres', (c) => c.query(sql)); }
async function withMysql(database, fn) {
  const c = await mysql.createConnection({ uri: database ? `${MYSQL_URL}/${database}` : MYSQL_URL, multipleStatements: true, supportBigNumbers: true, bigNumberStrings: true });
  try { return await fn(c); } finally { await c.end(); }
}

function withoutCompareEnv(env) {
  return Object.fromEntries(Object.entries(env).filter(([k]) => !['NAMES', 'DEVIATIONS'].includes(k)));
}

function withoutDatabaseEnv(env) {
  return Object.fromEntries(Object.entries(env).filter(([k]) => !k.startsWith('DATABASE_')));
}

function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => { const { port } = s.address(); s.close(() => resolve(port)); });
  });
}

function log(message) { console.log(`[goldens] ${message}`); }
function fail(message, code) { console.error(`[goldens] ${message}`); process.exit(code); }
