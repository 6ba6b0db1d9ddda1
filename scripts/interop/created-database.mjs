// Interop test 2 (issue 18): Cairn creates the database (`cairn db create` on an empty one), real Strapi starts on it
// as on its own and writes content through its REST API, then Cairn serves that content. Per dialect:
//   1. `cairn db create --dir <conformance app>` on a fresh database;
//   2. the layout is dumped; Strapi starts on the database (no error in its log), its bootstrap issues a token and the
//      writes below go through its REST API; the answers to READS are recorded; Strapi stops;
//   3. the layout is dumped again: Strapi must neither add a table (Cairn creates its admin's too) nor change one,
//      nor change a row Cairn wrote (it adds rows of its own: its stored schema, settings, the app's grants);
//   4. Cairn starts on the database (now Strapi's: its layout check passes) and must answer READS as Strapi did.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { freshDatabase } from './databases.mjs';
import { freePort, startCairn, startStrapi, stop } from './servers.mjs';

/** Content written through Strapi: a category, a published article that links it, a draft, a localized restaurant. */
const WRITES = [
  { name: 'category', method: 'POST', path: '/api/categories', body: { data: { name: 'Interop' } } },
  { name: 'article', method: 'POST', path: '/api/articles?status=published', body: (ids) => ({ data: { title: 'Made by Cairn, written by Strapi', views: 3, categories: [ids.category] } }) },
  { name: 'draft', method: 'POST', path: '/api/articles', body: { data: { title: 'Only a draft' } } },
  { name: 'restaurant', method: 'POST', path: '/api/restaurants?status=published', body: { data: { name: 'Chez Cairn', slug: 'chez-cairn' } } },
];

/** What both servers must answer alike (with Strapi's full-access token, and without a token as Public). */
const READS = [
  '/api/articles?populate=categories&sort=title',
  '/api/articles?status=draft&sort=title',
  '/api/categories?populate=articles',
  '/api/restaurants?locale=en',
  '/api/i18n/locales',
  { path: '/api/articles?fields[0]=title', auth: false },
];

/**
 * Runs the test for one dialect in `work` (an empty folder holding `strapi-app` and `cairn-app`, made by the caller).
 * `step(label, fn)` times and logs a step; `cleanups` collects what to undo. Returns { tablesAdded, tablesChanged,
 * rowsChanged, different, strapiErrors } (all empty when all is well); throws when a step fails.
 */
export async function createdDatabaseCase({ dialect, work, repo, secrets, layout, step, cleanups, keep }) {
  const strapiApp = join(work, 'strapi-app');
  const cairnApp = join(work, 'cairn-app');
  const db = await step('database', () => freshDatabase(dialect, work, '_created'));
  cleanups.add(() => (keep ? console.log(`kept database ${db.layoutTarget}`) : db.drop()));
  const env = { ...process.env, ...secrets, ...db.env };

  await step('cairn db create', () => {
    const run = spawnSync(process.execPath, [join(repo, 'bin', 'cairn.js'), 'db', 'create', '--dir', cairnApp], { env, encoding: 'utf8' });
    if (run.status !== 0) throw new Error(`cairn db create failed (exit ${run.status}):\n${run.stdout}${run.stderr}`);
  });
  const before = await step('layout before', () => layout(dialect, db.layoutTarget, join(work, 'layout-created.json')));
  const rowsBefore = await step('rows before', () => createdRows(repo, dialect, db));

  const tokenFile = join(work, 'token.txt');
  let server = await step('strapi start', async () => startStrapi({ appDir: strapiApp, env, port: await freePort(), tokenFile }));
  cleanups.add(() => server && stop(server));
  const token = readFileSync(tokenFile, 'utf8').trim();
  await step('strapi writes', () => write(server.url, token));
  const strapiAnswers = await step('strapi record', () => record(server.url, token));
  await step('strapi stop', () => stop(server));
  const strapiErrors = server.log.split('\n').filter((line) => /\berror\b/i.test(line));
  server = undefined;

  const after = await step('layout after', () => layout(dialect, db.layoutTarget, join(work, 'layout-after-strapi.json')));
  const { added: tablesAdded, changed: tablesChanged } = tableChanges(before, after);
  const rowsAfter = await step('rows after', () => createdRows(repo, dialect, db));
  const rowsChanged = Object.entries(rowsBefore).flatMap(([table, rows]) => {
    const kept = new Set(rowsAfter[table]);
    return rows.filter((row) => !kept.has(row)).map((row) => `${table} ${row}`);
  });

  server = await step('cairn start', async () => startCairn({ repoDir: repo, appDir: cairnApp, env, port: await freePort() }));
  const cairnAnswers = await step('cairn record', () => record(server.url, token));
  await step('cairn stop', () => stop(server));
  server = undefined;

  const different = [];
  for (const [name, answer] of Object.entries(strapiAnswers)) {
    // Key order is not part of an answer (Strapi's own differs between dialects).
    if (canonical(answer) !== canonical(cairnAnswers[name])) {
      different.push(`${name}: Strapi ${JSON.stringify(answer).slice(0, 400)} / Cairn ${JSON.stringify(cairnAnswers[name]).slice(0, 400)}`);
    }
  }
  return { tablesAdded, tablesChanged, rowsChanged, different, strapiErrors, compared: Object.keys(strapiAnswers).length };
}

/** JSON with every object's keys sorted. */
function canonical(value) {
  return JSON.stringify(value, (_, v) => (v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : v));
}

async function write(base, token) {
  const ids = {};
  for (const w of WRITES) {
    const body = typeof w.body === 'function' ? w.body(ids) : w.body;
    const res = await fetch(`${base}${w.path}`, { method: w.method, headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    const json = await res.json().catch(() => null);
    if (res.status !== 200 && res.status !== 201) throw new Error(`Strapi ${w.method} ${w.path}: ${res.status} ${JSON.stringify(json).slice(0, 600)}`);
    ids[w.name] = json.data.documentId;
  }
}

/** Each read's status and body, by its path (`public ` in front for the ones made without a token). */
async function record(base, token) {
  const answers = {};
  for (const read of READS) {
    const { path, auth = true } = typeof read === 'string' ? { path: read } : read;
    const res = await fetch(`${base}${path}`, { headers: auth ? { Authorization: `Bearer ${token}` } : {} });
    answers[`${auth ? '' : 'public '}${path}`] = { status: res.status, body: await res.json().catch(() => null) };
  }
  return answers;
}

/** The tables `cairn db create` writes rows into. */
const CREATED_ROWS = ['strapi_migrations_internal', 'strapi_core_store_settings', 'i18n_locale', 'up_roles', 'up_permissions', 'up_permissions_role_lnk'];

/** Each row of those tables as JSON text, read through Cairn's database layer (dist/, read-only). */
async function createdRows(repo, dialect, db) {
  const { createDatabase } = await import(pathToFileURL(join(repo, 'dist', 'database', 'index.js')).href);
  const connection =
    dialect === 'sqlite'
      ? { client: 'sqlite', connection: { filename: db.layoutTarget } }
      : { client: db.env.DATABASE_CLIENT, connection: { host: db.env.DATABASE_HOST, port: Number(db.env.DATABASE_PORT), user: db.env.DATABASE_USERNAME, password: db.env.DATABASE_PASSWORD, database: db.env.DATABASE_NAME } };
  const reader = await createDatabase({ connection }, { readOnly: true });
  try {
    const rows = {};
    for (const table of CREATED_ROWS) {
      const found = await reader.query(`SELECT * FROM ${reader.quote(table)} ORDER BY id`);
      rows[table] = found.map((row) => JSON.stringify(row, (_, v) => (typeof v === 'bigint' ? String(v) : v)));
    }
    return rows;
  } finally {
    await reader.close();
  }
}

/** Tables only `after` has, and tables both have that differ (db-layout.mjs's native dump). */
function tableChanges(before, after) {
  const was = new Map(JSON.parse(before).tables.map((t) => [t.name, JSON.stringify(t)]));
  const now = JSON.parse(after).tables;
  return {
    added: now.filter((t) => !was.has(t.name)).map((t) => t.name),
    changed: [
      ...now.filter((t) => was.has(t.name) && was.get(t.name) !== JSON.stringify(t)).map((t) => t.name),
      ...[...was.keys()].filter((name) => !now.some((t) => t.name === name)).map((name) => `${name} (dropped)`),
    ],
  };
}
