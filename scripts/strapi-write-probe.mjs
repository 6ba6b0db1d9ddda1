#!/usr/bin/env node
// Measures how real Strapi 5 writes its own tables: runs a fixed list of REST writes against a running Strapi (the
// app of `node scripts/interop/strapi-app.mjs <dir>`, on an EMPTY database) and, after each request, reads the database
// and prints which rows were added, removed or changed (ids, document_id, locale, published_at, timestamps as stored,
// every *_lnk row with its *_ord values, *_cmps rows, component rows, files_related_mph rows). The evidence behind
// docs/strapi-5-writes.md. The database is only read (SQLite opened read-only; PostgreSQL: SELECTs only).
//
//   BASE_URL=http://127.0.0.1:1420 TOKEN_FILE=$STRAPI_APP_DIR/.tmp/token.txt \
//     node scripts/strapi-write-probe.mjs --sqlite $STRAPI_APP_DIR/.tmp/data.db > probe.sqlite.txt
//   BASE_URL=... TOKEN_FILE=... node scripts/strapi-write-probe.mjs --postgres postgres://postgres@127.0.0.1:5432/strapi_probe_pg
//
// Case 5 (unpublish, discard draft): Strapi's Content API has no route for them. `--write-actions-api <app dir>`
// writes a two-file custom API into a Strapi app (src/api/probe-actions/, before Strapi starts) that calls
// strapi.documents(uid).unpublish()/discardDraft(); when it is there, case 5 measures those too.
// Rows are labelled with the names this script gives documents (`art1/D` = article 1's draft row, `/P` published,
// `/fr` a locale), so that the ids in a link row can be read without looking them up.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const args = process.argv.slice(2);
const opt = (name) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};

if (opt('--write-actions-api')) {
  writeActionsApi(opt('--write-actions-api'));
  process.exit(0);
}

const BASE = (process.env.BASE_URL || 'http://127.0.0.1:1420').replace(/\/$/, '');
const TOKEN = process.env.TOKEN || (process.env.TOKEN_FILE ? fs.readFileSync(process.env.TOKEN_FILE, 'utf8').trim() : '');
if (!TOKEN) fail('TOKEN or TOKEN_FILE required');
if (!opt('--sqlite') && !opt('--postgres')) fail('--sqlite <file> or --postgres <url> required');
const db = await (opt('--sqlite') ? openSqlite(opt('--sqlite')) : openPostgres(opt('--postgres'))).catch((error) => fail(`cannot open the database: ${error.message}`));

function fail(message) {
  console.error(`${message}\nusage: BASE_URL=... TOKEN_FILE=... strapi-write-probe.mjs --sqlite <file> | --postgres <url> | --write-actions-api <strapi app dir>`);
  process.exit(2);
}

// ---------- reading the database (read-only) ----------

async function openSqlite(file) {
  const { default: Database } = await import('better-sqlite3');
  const conn = new Database(file, { readonly: true, fileMustExist: true });
  return {
    dialect: 'sqlite',
    rows: async (table) => conn.prepare(`SELECT * FROM "${table}" ORDER BY id`).all(),
    close: async () => conn.close(),
  };
}

async function openPostgres(url) {
  const { default: pg } = await import('pg');
  // values as PostgreSQL prints them (timestamp without time zone, date, numeric): no conversion to Date or Number
  for (const oid of [1082, 1114, 1184, 1700]) pg.types.setTypeParser(oid, (value) => value);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return {
    dialect: 'postgres',
    rows: async (table) => (await client.query(`SELECT * FROM "${table}" ORDER BY id`)).rows,
    close: async () => client.end(),
  };
}

// Content tables: the columns shown (a label column first), and the link/component tables with what their id columns
// point at. A link column named <x>_id points at the table below; cmp_id/related_id depend on the row.
const CONTENT = {
  articles: 'title',
  authors: 'name',
  categories: 'name',
  chefs: 'name',
  dishes: 'name',
  restaurants: 'name',
  files: 'name',
};
const COMPONENT_TABLES = {
  'location.address': 'components_location_addresses',
  'location.geo': 'components_location_geos',
  'sections.hero': 'components_sections_heroes',
  'sections.menu': 'components_sections_menus',
};
const COMPONENT_LABEL = {
  components_location_addresses: 'street',
  components_location_geos: 'lat',
  components_sections_heroes: 'title',
  components_sections_menus: 'title',
};
const LINKS = [
  'articles_author_lnk',
  'articles_categories_lnk',
  'articles_related_lnk',
  'restaurants_categories_lnk',
  'restaurants_chef_lnk',
  'components_sections_menus_dishes_lnk',
  'restaurants_cmps',
  'components_location_addresses_cmps',
  'files_related_mph',
];
const ID_COLUMN_TABLE = {
  article_id: 'articles',
  inv_article_id: 'articles',
  author_id: 'authors',
  category_id: 'categories',
  restaurant_id: 'restaurants',
  chef_id: 'chefs',
  dish_id: 'dishes',
  menu_id: 'components_sections_menus',
  file_id: 'files',
};
const CONTENT_COLUMNS = ['id', 'document_id', 'locale', 'published_at', 'created_at', 'updated_at', 'created_by_id', 'updated_by_id'];
const TABLES = [...Object.keys(CONTENT), ...Object.values(COMPONENT_TABLES), ...LINKS];

/** document_id -> the name this script gave the document */
const docNames = new Map();
/** `${table}:${id}` -> label, remembered across snapshots (a deleted row keeps its label) */
const rowLabels = new Map();

async function snapshot() {
  const snap = {};
  for (const table of TABLES) snap[table] = await db.rows(table);
  for (const [table, field] of Object.entries(CONTENT)) {
    for (const row of snap[table]) {
      const doc = docNames.get(row.document_id) ?? `${table}:${row[field]}`;
      const version = row.published_at == null ? 'D' : 'P';
      rowLabels.set(`${table}:${row.id}`, `${doc}/${version}${row.locale ? `/${row.locale}` : ''}`);
    }
  }
  for (const [table, field] of Object.entries(COMPONENT_LABEL)) {
    for (const row of snap[table]) rowLabels.set(`${table}:${row.id}`, `${table.replace('components_', '')}(${row[field]})`);
  }
  return snap;
}

const label = (table, id) => (id == null ? '' : rowLabels.get(`${table}:${id}`) ?? '?');

function targetTable(table, column, row) {
  if (ID_COLUMN_TABLE[column]) return ID_COLUMN_TABLE[column];
  if (column === 'entity_id') return table === 'restaurants_cmps' ? 'restaurants' : 'components_location_addresses';
  if (column === 'cmp_id') return COMPONENT_TABLES[row.component_type];
  if (column === 'related_id') return { 'api::restaurant.restaurant': 'restaurants', 'api::author.author': 'authors', 'api::article.article': 'articles' }[row.related_type];
  return undefined;
}

function formatValue(value) {
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'number' && value > 1e12 && value < 1e13) return `${value}(${new Date(value).toISOString()})`;
  if (typeof value === 'string' && value.length > 40) return JSON.stringify(value.slice(0, 37) + '...');
  return JSON.stringify(value);
}

function formatRow(table, row) {
  if (CONTENT[table]) {
    const parts = [`${label(table, row.id)}`, ...CONTENT_COLUMNS.map((c) => `${c}=${formatValue(row[c])}`)];
    if (row.first_published_at !== undefined) parts.push(`first_published_at=${formatValue(row.first_published_at)}`);
    return parts.join(' ');
  }
  return Object.entries(row)
    .map(([column, value]) => {
      const target = targetTable(table, column, row);
      return target && value != null ? `${column}=${value}[${label(target, value)}]` : `${column}=${formatValue(value)}`;
    })
    .join(' ');
}

function printDiff(before, after) {
  let changed = false;
  for (const table of TABLES) {
    const old = new Map(before[table].map((r) => [String(r.id), r]));
    const cur = new Map(after[table].map((r) => [String(r.id), r]));
    const lines = [];
    for (const [id, row] of old) if (!cur.has(id)) lines.push(`    - ${formatRow(table, row)}`);
    for (const [id, row] of cur) {
      const was = old.get(id);
      if (!was) {
        lines.push(`    + ${formatRow(table, row)}`);
        continue;
      }
      const diffs = Object.keys(row).filter((c) => formatValue(row[c]) !== formatValue(was[c]));
      if (diffs.length) lines.push(`    ~ id=${id} ${CONTENT[table] ? label(table, row.id) + ' ' : ''}${diffs.map((c) => `${c}: ${formatValue(was[c])} -> ${formatValue(row[c])}`).join(', ')}`);
    }
    if (lines.length) {
      changed = true;
      console.log(`  ${table}`);
      for (const line of lines) console.log(line);
    }
  }
  if (!changed) console.log('  (no row changed)');
}

/** Prints the current rows of a table that match `keep`, sorted by `sortBy` columns. */
function show(snap, table, keep, sortBy = ['id']) {
  const rows = snap[table].filter(keep).sort((a, b) => {
    for (const c of sortBy) {
      if (a[c] === b[c]) continue;
      if (typeof a[c] === 'string' || typeof b[c] === 'string') return String(a[c]).localeCompare(String(b[c]));
      return Number(a[c]) - Number(b[c]);
    }
    return 0;
  });
  console.log(`  now in ${table} (by ${sortBy.join(', ')}):`);
  for (const row of rows) console.log(`    ${formatRow(table, row)}`);
}

// ---------- HTTP ----------

async function api(method, urlPath, body, { form } = {}) {
  const headers = { Authorization: `Bearer ${TOKEN}` };
  let payload;
  if (form) payload = form;
  else if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  const res = await fetch(BASE + urlPath, { method, headers, body: payload });
  const text = await res.text();
  let json;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = text;
  }
  return { status: res.status, json };
}

let current;
/** One write: prints the request, the answer, and the rows it changed. */
async function step(title, method, urlPath, body, options) {
  console.log(`\n### ${title}`);
  console.log(`  ${method} ${urlPath}${body !== undefined ? ` ${JSON.stringify(body)}` : ''}`);
  const res = await api(method, urlPath, body, options);
  const data = res.json?.data ?? res.json;
  const summary = Array.isArray(data) ? data.map((d) => d?.id) : data && typeof data === 'object' ? { id: data.id, documentId: data.documentId, error: res.json?.error?.message } : data;
  console.log(`  -> ${res.status} ${JSON.stringify(summary)}`);
  const next = await snapshot();
  printDiff(current, next);
  current = next;
  return res;
}

function name(documentId, short) {
  docNames.set(documentId, short);
  return documentId;
}

async function create(plural, short, data, qs = '') {
  const res = await api('POST', `/api/${plural}${qs}`, { data });
  if (res.status !== 201 && res.status !== 200) throw new Error(`POST ${plural} -> ${res.status} ${JSON.stringify(res.json)}`);
  return name(res.json.data.documentId, short);
}

/** A valid one-colour PNG (Strapi's upload checks images with sharp). */
function png(w, h) {
  const crc = (buf) => {
    let c = 0xffffffff;
    for (const b of buf) {
      c ^= b;
      for (let k = 0; k < 8; k++) c = (c >>> 1) ^ (0xedb88320 & -(c & 1));
    }
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type, data) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type), data]);
    const sum = Buffer.alloc(4);
    sum.writeUInt32BE(crc(body));
    return Buffer.concat([length, body, sum]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(h, 4);
  ihdr[8] = 8;
  ihdr[9] = 2;
  const raw = Buffer.alloc((w * 3 + 1) * h, 90);
  for (let y = 0; y < h; y++) raw[y * (w * 3 + 1)] = 0;
  return Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk('IHDR', ihdr), chunk('IDAT', zlib.deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
}

async function upload(fileName) {
  const form = new FormData();
  form.append('files', new Blob([png(8, 8)], { type: 'image/png' }), fileName);
  const res = await api('POST', '/api/upload', undefined, { form });
  if (res.status !== 201 && res.status !== 200) throw new Error(`upload -> ${res.status} ${JSON.stringify(res.json)}`);
  name(res.json[0].documentId, `file:${fileName}`);
  return res.json[0];
}

const isArticleLink = (snap, docShort) => {
  const ids = new Set(snap.articles.filter((r) => docNames.get(r.document_id) === docShort).map((r) => r.id));
  return (row) => ids.has(row.article_id);
};
const rowsOf = (snap, table, short) => snap[table].filter((r) => docNames.get(r.document_id) === short);

// ---------- the cases ----------

async function main() {
  console.log(`# Strapi write probe: ${BASE}, ${db.dialect}, ${new Date().toISOString()}`);
  current = await snapshot();
  if (current.articles.length || current.categories.length) console.log('WARNING: the database is not empty; labels and ids will be harder to read');

  console.log('\n## Setup (no D&P types: one row per document)');
  const cat = {};
  for (const n of ['Pizza', 'Sushi', 'Tacos', 'Bistro', 'Vegan', 'Seafood', 'Ramen', 'Tapas']) cat[n] = await create('categories', `cat:${n}`, { name: n });
  const au1 = await create('authors', 'au1', { name: 'Author One' });
  const au2 = await create('authors', 'au2', { name: 'Author Two' });
  const dish = [];
  for (let i = 1; i <= 4; i++) dish.push(await create('dishes', `dish${i}`, { name: `Dish ${i}`, price: 10 + i }));
  const chef1 = await create('chefs', 'chef1', { name: 'Chef One' });
  const file1 = await upload('one.png');
  const file2 = await upload('two.png');
  const prior = await snapshot();
  printDiff(current, prior);
  current = prior;

  console.log('\n## Case 1: POST an article (REST default status=published: draft created, then published)');
  await step('1. POST art1 with author (connect) and categories (connect Pizza, Sushi, Tacos)', 'POST', '/api/articles', {
    data: { title: 'Article one', author: { connect: [au1] }, categories: { connect: [cat.Pizza, cat.Sushi, cat.Tacos] } },
  }).then((r) => name(r.json.data.documentId, 'art1'));
  // the labels are given after the answer: print the rows again, now labelled
  await snapshot();
  show(current, 'articles', (r) => docNames.get(r.document_id) === 'art1');
  show(current, 'articles_categories_lnk', isArticleLink(current, 'art1'), ['article_id', 'category_ord']);
  show(current, 'articles_author_lnk', () => true, ['author_id', 'article_ord']);
  const art2 = await step('1b. POST art2 (author au1, categories Pizza, related -> art1)', 'POST', '/api/articles', {
    data: { title: 'Article two', author: au1, categories: [cat.Pizza], related: [docIdOf('art1')] },
  }).then((r) => name(r.json.data.documentId, 'art2'));
  current = await snapshot();
  show(current, 'articles_author_lnk', () => true, ['author_id', 'article_ord']);
  show(current, 'articles_categories_lnk', (r) => r.category_id === rowsOf(current, 'categories', 'cat:Pizza')[0].id, ['article_ord']);
  show(current, 'articles_related_lnk', () => true);
  await step('1c. POST art3 with status=draft (draft only)', 'POST', '/api/articles?status=draft', {
    data: { title: 'Article three (draft only)', author: au1, related: [docIdOf('art1')] },
  }).then((r) => name(r.json.data.documentId, 'art3'));
  current = await snapshot();
  show(current, 'articles_related_lnk', () => true);

  console.log('\n## Case 2: PUT art1 again (re-publish): the published row is replaced');
  const art1 = docIdOf('art1');
  await step('2. PUT art1 title (default status=published)', 'PUT', `/api/articles/${art1}`, { data: { title: 'Article one v2' } });
  show(current, 'articles', (r) => docNames.get(r.document_id) === 'art1');
  show(current, 'articles_related_lnk', () => true);
  show(current, 'articles_author_lnk', () => true, ['author_id', 'article_ord']);
  show(current, 'articles_categories_lnk', () => true, ['category_id', 'article_ord']);
  await step('2b. PUT art2 with no data change ({}): re-publish of the source of a related link', 'PUT', `/api/articles/${art2}`, { data: {} });
  show(current, 'articles_related_lnk', () => true);
  show(current, 'articles_author_lnk', () => true, ['author_id', 'article_ord']);
  await step('2c. PUT art3?status=published: first publish of a draft-only document that links to art1', 'PUT', `/api/articles/${docIdOf('art3')}?status=published`, { data: {} });
  show(current, 'articles_related_lnk', () => true);

  await create('articles', 'art5', { title: 'Article five (draft only)' }, '?status=draft');
  current = await snapshot();
  await step('2d. PUT art3 related connect art5 (art5 has no published version yet)', 'PUT', `/api/articles/${docIdOf('art3')}`, { data: { related: { connect: [docIdOf('art5')] } } });
  show(current, 'articles_related_lnk', () => true, ['article_id', 'article_ord']);
  await step('2e. PUT art5?status=published: first publish of the TARGET of a draft link (does art3/P gain a link?)', 'PUT', `/api/articles/${docIdOf('art5')}?status=published`, { data: {} });
  show(current, 'articles_related_lnk', () => true, ['article_id', 'article_ord']);

  const art8 = await create('articles', 'art8', { title: 'Article eight', related: [art1, docIdOf('art5')] });
  current = await snapshot();
  await step('2f. PUT art8?status=draft related set [art5, art1] (the draft order now differs from the published one)', 'PUT', `/api/articles/${art8}?status=draft`, { data: { related: { set: [docIdOf('art5'), art1] } } });
  show(current, 'articles_related_lnk', (r) => isArticleLink(current, 'art8')(r), ['article_id', 'article_ord']);
  await step('2g. PUT art1 {} (re-publish the TARGET): which article_ord does art8/P -> art1/P get?', 'PUT', `/api/articles/${art1}`, { data: {} });
  show(current, 'articles_related_lnk', (r) => isArticleLink(current, 'art8')(r), ['article_id', 'article_ord']);

  console.log('\n## Case 3: draft-only edit of links, then publish');
  await step('3. PUT art1?status=draft categories set [Bistro, Vegan]', 'PUT', `/api/articles/${art1}?status=draft`, { data: { title: 'Article one draft edit', categories: { set: [cat.Bistro, cat.Vegan] } } });
  show(current, 'articles_categories_lnk', isArticleLink(current, 'art1'), ['article_id', 'category_ord']);
  await step('3b. PUT art1?status=published with data {} (publish)', 'PUT', `/api/articles/${art1}?status=published`, { data: {} });
  show(current, 'articles_categories_lnk', isArticleLink(current, 'art1'), ['article_id', 'category_ord']);
  show(current, 'articles_categories_lnk', () => true, ['category_id', 'article_ord']);

  console.log('\n## Case 4: positioned connects, disconnect, set (articles.categories: category_ord, article_ord)');
  const art4 = await create('articles', 'art4', { title: 'Article four', categories: [cat.Pizza, cat.Sushi, cat.Tacos, cat.Bistro, cat.Vegan] });
  current = await snapshot();
  const showArt4 = (snap) => show(snap, 'articles_categories_lnk', isArticleLink(snap, 'art4'), ['article_id', 'category_ord']);
  console.log('  art4 created with categories [Pizza, Sushi, Tacos, Bistro, Vegan] (array shorthand):');
  showArt4(current);
  await step('4a. connect Seafood before Sushi', 'PUT', `/api/articles/${art4}`, { data: { categories: { connect: [{ documentId: cat.Seafood, position: { before: cat.Sushi } }] } } });
  showArt4(current);
  await step('4b. status=draft: connect Ramen at start (draft only: does the draft keep fractions?)', 'PUT', `/api/articles/${art4}?status=draft`, { data: { categories: { connect: [{ documentId: cat.Ramen, position: { start: true } }] } } });
  showArt4(current);
  await step('4c. status=draft: connect Tapas after Tacos, move Pizza to the end', 'PUT', `/api/articles/${art4}?status=draft`, {
    data: { categories: { connect: [{ documentId: cat.Tapas, position: { after: cat.Tacos } }, { documentId: cat.Pizza, position: { end: true } }] } },
  });
  showArt4(current);
  await step('4d. publish (PUT {} status=published)', 'PUT', `/api/articles/${art4}`, { data: {} });
  showArt4(current);
  await step('4e. disconnect Sushi and Tacos', 'PUT', `/api/articles/${art4}`, { data: { categories: { disconnect: [cat.Sushi, cat.Tacos] } } });
  showArt4(current);
  await step('4f. set [Vegan, Pizza, Ramen]', 'PUT', `/api/articles/${art4}`, { data: { categories: { set: [cat.Vegan, cat.Pizza, cat.Ramen] } } });
  showArt4(current);
  await step('4g. connect Sushi (no position) and Bistro before Pizza', 'PUT', `/api/articles/${art4}`, { data: { categories: { connect: [cat.Sushi, { documentId: cat.Bistro, position: { before: cat.Pizza } }] } } });
  showArt4(current);
  await step('4h. connect with position only (plain connect of an existing one: Vegan at end)', 'PUT', `/api/articles/${art4}`, { data: { categories: { connect: [{ documentId: cat.Vegan, position: { end: true } }] } } });
  showArt4(current);
  await step('4h2. connect Bistro again, no position (already connected: moved to the end, or left?)', 'PUT', `/api/articles/${art4}`, { data: { categories: { connect: [cat.Bistro] } } });
  showArt4(current);
  show(current, 'articles_categories_lnk', () => true, ['category_id', 'article_ord']);
  await step('4i. self relation: art4 related connect art1 at start, art2 at end', 'PUT', `/api/articles/${art4}`, { data: { related: { connect: [{ documentId: art1, position: { start: true } }, { documentId: art2, position: { end: true } }] } } });
  show(current, 'articles_related_lnk', () => true, ['article_id', 'article_ord']);

  await step('4j. POST art6 with positioned connects (create path)', 'POST', '/api/articles', {
    data: { title: 'Article six', categories: { connect: [cat.Pizza, { documentId: cat.Sushi, position: { start: true } }, { documentId: cat.Tacos, position: { before: cat.Pizza } }, { documentId: cat.Ramen, position: { end: true } }] } },
  }).then((r) => name(r.json.data.documentId, 'art6'));
  current = await snapshot();
  show(current, 'articles_categories_lnk', isArticleLink(current, 'art6'), ['article_id', 'category_ord']);
  await step('4k. POST art7?status=draft with categories set [Tacos, Pizza] (create path, set)', 'POST', '/api/articles?status=draft', { data: { title: 'Article seven', categories: { set: [cat.Tacos, cat.Pizza] } } }).then((r) => name(r.json.data.documentId, 'art7'));
  current = await snapshot();
  show(current, 'articles_categories_lnk', isArticleLink(current, 'art7'), ['article_id', 'category_ord']);

  console.log('\n## Case 5: unpublish / discard draft');
  for (const [method, p] of [
    ['POST', `/api/articles/${art1}/actions/unpublish`],
    ['POST', `/api/articles/${art1}/unpublish`],
    ['PUT', `/api/articles/${art1}/actions/discard`],
  ]) {
    const res = await api(method, p, {});
    console.log(`  ${method} ${p} -> ${res.status} ${JSON.stringify(res.json?.error?.name ?? res.json)}`);
  }
  await step('5a. DELETE art2?status=draft (delete only the draft?)', 'DELETE', `/api/articles/${art2}?status=draft`);
  await step('5b. DELETE art2?status=published (delete only the published row?)', 'DELETE', `/api/articles/${art2}?status=published`);
  const probe = await api('GET', '/api/probe-actions/ping');
  if (probe.status === 200) {
    await step('5c. [custom route] unpublish art1 (strapi.documents().unpublish)', 'POST', `/api/probe-actions/unpublish/article/${art1}`, {});
    show(current, 'articles_related_lnk', () => true);
    await step('5d. [custom route] publish art1 again (PUT {})', 'PUT', `/api/articles/${art1}`, { data: {} });
    show(current, 'articles_related_lnk', () => true);
    await step('5e. PUT art1?status=draft title (draft differs)', 'PUT', `/api/articles/${art1}?status=draft`, { data: { title: 'to be discarded', categories: { set: [cat.Tapas] } } });
    await step('5f. [custom route] discardDraft art1 (strapi.documents().discardDraft)', 'POST', `/api/probe-actions/discard/article/${art1}`, {});
    show(current, 'articles', (r) => docNames.get(r.document_id) === 'art1');
    show(current, 'articles_categories_lnk', isArticleLink(current, 'art1'), ['article_id', 'category_ord']);
    show(current, 'articles_related_lnk', () => true);
  } else {
    console.log('  (no custom probe-actions API in this Strapi app: unpublish/discardDraft not measured; see --write-actions-api)');
  }

  console.log('\n## Case 6: relation written from a type without D&P (authors.articles, mappedBy) to one with D&P');
  show(current, 'articles_author_lnk', () => true, ['author_id', 'article_ord']);
  await step('6. PUT au2 articles connect [art1, art4]', 'PUT', `/api/authors/${au2}`, { data: { articles: { connect: [art1, art4] } } });
  show(current, 'articles_author_lnk', () => true, ['author_id', 'article_ord']);
  await step('6b. PUT au2 articles connect art3 before art1 (positioned on the inverse side)', 'PUT', `/api/authors/${au2}`, { data: { articles: { connect: [{ documentId: docIdOf('art3'), position: { before: art1 } }] } } });
  show(current, 'articles_author_lnk', () => true, ['author_id', 'article_ord']);
  await step('6c. PUT au2 articles disconnect art4', 'PUT', `/api/authors/${au2}`, { data: { articles: { disconnect: [art4] } } });
  show(current, 'articles_author_lnk', () => true, ['author_id', 'article_ord']);
  await step('6d. PUT art1?status=draft author au1 (draft side only)', 'PUT', `/api/articles/${art1}?status=draft`, { data: { author: au1 } });
  show(current, 'articles_author_lnk', () => true, ['author_id', 'article_ord']);
  await step('6e. publish art1', 'PUT', `/api/articles/${art1}`, { data: {} });
  show(current, 'articles_author_lnk', () => true, ['author_id', 'article_ord']);

  console.log('\n## Case 7: components and a dynamic zone (restaurants: address + nested geo, blocks; sections.menu.dishes)');
  const rest1 = await step('7. POST rest1 with address+geo, blocks [hero, menu(dish1, dish2), hero], chef, categories, cover', 'POST', '/api/restaurants', {
    data: {
      name: 'Rest one', slug: 'rest-one', chef: chef1, categories: [cat.Pizza, cat.Sushi], cover: file1.id,
      address: { street: '1 First St', city: 'Paris', zip: '75001', geo: { lat: 48.1, lng: 2.1 } },
      blocks: [
        { __component: 'sections.hero', title: 'Hero A', subtitle: 'a' },
        { __component: 'sections.menu', title: 'Menu B', dishes: [dish[0], dish[1]] },
        { __component: 'sections.hero', title: 'Hero C', subtitle: 'c' },
      ],
    },
  }).then((r) => name(r.json.data.documentId, 'rest1'));
  current = await snapshot();
  show(current, 'restaurants_cmps', () => true, ['entity_id', 'field', 'order']);
  const draftOf = (short, locale = 'en') => rowsOf(current, 'restaurants', short).find((r) => r.published_at == null && (r.locale ?? 'en') === locale);
  const cmpIds = (entityId, field) => current.restaurants_cmps.filter((r) => r.entity_id === entityId && r.field === field).sort((a, b) => a.order - b.order);
  await step('7b. PUT rest1 (publish) with no data: are components copied again (new ids)?', 'PUT', `/api/restaurants/${rest1}`, { data: {} });
  show(current, 'restaurants_cmps', () => true, ['entity_id', 'field', 'order']);
  {
    const d = draftOf('rest1');
    const address = cmpIds(d.id, 'address')[0];
    const blocks = cmpIds(d.id, 'blocks');
    await step('7c. PUT rest1?status=draft: address with its id (update in place?), blocks reordered keeping ids [C, B] (A dropped) + new hero D', 'PUT', `/api/restaurants/${rest1}?status=draft`, {
      data: {
        address: { id: address.cmp_id, street: '1 First St (edited)', city: 'Paris', zip: '75001', geo: { lat: 48.2, lng: 2.2 } },
        blocks: [
          { __component: 'sections.hero', id: blocks[2].cmp_id, title: 'Hero C', subtitle: 'c' },
          { __component: 'sections.menu', id: blocks[1].cmp_id, title: 'Menu B', dishes: { connect: [{ documentId: dish[2], position: { start: true } }] } },
          { __component: 'sections.hero', title: 'Hero D', subtitle: 'd' },
        ],
      },
    });
    show(current, 'restaurants_cmps', () => true, ['entity_id', 'field', 'order']);
    show(current, 'components_sections_menus_dishes_lnk', () => true, ['menu_id', 'dish_ord']);
  }
  await step('7d. PUT rest1?status=draft address without id (replace)', 'PUT', `/api/restaurants/${rest1}?status=draft`, { data: { address: { street: '2 Second St', city: 'Lyon', zip: '69001' } } });
  show(current, 'components_location_addresses_cmps', () => true);
  await step('7e. publish rest1', 'PUT', `/api/restaurants/${rest1}`, { data: {} });
  show(current, 'restaurants_cmps', () => true, ['entity_id', 'field', 'order']);
  show(current, 'components_sections_menus_dishes_lnk', () => true, ['menu_id', 'dish_ord']);
  show(current, 'restaurants_categories_lnk', () => true, ['restaurant_id', 'category_ord']);
  show(current, 'restaurants_chef_lnk', () => true);

  console.log('\n## Case 8: media (files_related_mph)');
  show(current, 'files_related_mph', () => true);
  await step('8. PUT rest1?status=draft cover: file2', 'PUT', `/api/restaurants/${rest1}?status=draft`, { data: { cover: file2.id } });
  await step('8b. publish rest1', 'PUT', `/api/restaurants/${rest1}`, { data: {} });
  show(current, 'files_related_mph', () => true);
  await step('8c. PUT au1 avatar: file1 (type without D&P)', 'PUT', `/api/authors/${au1}`, { data: { avatar: file1.id } });
  await step('8d. PUT rest1?status=draft cover: null', 'PUT', `/api/restaurants/${rest1}?status=draft`, { data: { cover: null } });

  console.log('\n## Case 9: a second locale (fr) of rest1');
  await step('9. PUT rest1?locale=fr (creates the fr draft, then publishes it)', 'PUT', `/api/restaurants/${rest1}?locale=fr`, {
    data: { name: 'Resto un', slug: 'resto-un', chef: chef1, categories: [cat.Tapas], cover: file1.id, address: { street: '1 rue Un', city: 'Lyon', geo: { lat: 1, lng: 2 } }, blocks: [{ __component: 'sections.hero', title: 'Héros', subtitle: 'fr' }] },
  });
  show(current, 'restaurants', (r) => docNames.get(r.document_id) === 'rest1');
  await step('9b. POST /api/restaurants?locale=fr (a new document that exists only in fr)', 'POST', '/api/restaurants?locale=fr', { data: { name: 'Seulement fr', slug: 'seulement-fr' } }).then((r) => name(r.json.data.documentId, 'rest2'));
  current = await snapshot();
  show(current, 'restaurants', () => true);

  console.log('\n## Case 10: deletes');
  await step('10. DELETE art4 (both versions)', 'DELETE', `/api/articles/${art4}`);
  show(current, 'articles_related_lnk', () => true);
  await step('10b. DELETE rest1?locale=fr (one locale)', 'DELETE', `/api/restaurants/${rest1}?locale=fr`);
  await step('10c. DELETE rest1 (default locale en)', 'DELETE', `/api/restaurants/${rest1}`);
  show(current, 'articles_categories_lnk', () => true, ['article_id', 'category_ord']);
  await step('10d. DELETE cat:Bistro (target of links from art1 draft and published; no D&P)', 'DELETE', `/api/categories/${cat.Bistro}`);
  show(current, 'articles_categories_lnk', () => true, ['article_id', 'category_ord']);
  await step('10e. DELETE au2', 'DELETE', `/api/authors/${au2}`);

  console.log('\n## Case 11: values');
  const all = await snapshot();
  const docIds = [...new Set(Object.keys(CONTENT).flatMap((t) => all[t].map((r) => r.document_id)))];
  console.log(`  document_id lengths: ${[...new Set(docIds.map((d) => d.length))].join(', ')}; all match /^[a-z][a-z0-9]{23}$/: ${docIds.every((d) => /^[a-z][a-z0-9]{23}$/.test(d))}`);
  console.log(`  examples: ${docIds.slice(0, 4).join(' ')}`);
  for (const table of Object.keys(CONTENT)) {
    const rows = all[table];
    const types = (c) => [...new Set(rows.map((r) => (r[c] === null ? 'null' : r[c] instanceof Date ? 'Date' : typeof r[c])))].join('/');
    console.log(`  ${table}: created_at ${types('created_at')}, published_at ${types('published_at')}, locale ${distinct(rows, 'locale')}, created_by_id ${distinct(rows, 'created_by_id')}, updated_by_id ${distinct(rows, 'updated_by_id')}`);
  }
  for (const table of ['articles', 'restaurants']) {
    const byVersion = new Map();
    for (const r of all[table]) byVersion.set(`${r.document_id}:${r.locale}:${r.published_at == null ? 'D' : 'P'}`, r);
    let pairs = 0;
    let sameCreated = 0;
    for (const [key, draft] of byVersion) {
      if (!key.endsWith(':D')) continue;
      const published = byVersion.get(key.slice(0, -1) + 'P');
      if (!published) continue;
      pairs++;
      if (formatValue(published.created_at) === formatValue(draft.created_at)) sameCreated++;
    }
    console.log(`  ${table}: ${pairs} draft/published pairs, ${sameCreated} with equal created_at`);
  }
  console.log('\n# done');
  await db.close();
}

function distinct(rows, column) {
  return [...new Set(rows.map((r) => JSON.stringify(r[column])))].join('/');
}

function docIdOf(short) {
  for (const [id, s] of docNames) if (s === short) return id;
  throw new Error(`no document named ${short}`);
}

function writeActionsApi(appDir) {
  const dir = path.join(appDir, 'src', 'api', 'probe-actions');
  fs.mkdirSync(path.join(dir, 'routes'), { recursive: true });
  fs.mkdirSync(path.join(dir, 'controllers'), { recursive: true });
  const route = (method, p, handler) => `    { method: '${method}', path: '${p}', handler: 'probe-actions.${handler}', config: { auth: false } },`;
  fs.writeFileSync(
    path.join(dir, 'routes', 'probe-actions.js'),
    `'use strict';\n// Written by Cairn's scripts/strapi-write-probe.mjs: document-service actions the Content API has no route for.\nmodule.exports = {\n  routes: [\n${[
      route('GET', '/probe-actions/ping', 'ping'),
      route('POST', '/probe-actions/unpublish/:type/:documentId', 'unpublish'),
      route('POST', '/probe-actions/discard/:type/:documentId', 'discard'),
    ].join('\n')}\n  ],\n};\n`,
  );
  fs.writeFileSync(
    path.join(dir, 'controllers', 'probe-actions.js'),
    `'use strict';
const uid = (ctx) => \`api::\${ctx.params.type}.\${ctx.params.type}\`;
module.exports = {
  async ping(ctx) { ctx.body = { data: 'ok' }; },
  async unpublish(ctx) {
    const r = await strapi.documents(uid(ctx)).unpublish({ documentId: ctx.params.documentId, locale: ctx.query.locale });
    ctx.body = { data: { documentId: r.documentId, count: r.entries.length } };
  },
  async discard(ctx) {
    const r = await strapi.documents(uid(ctx)).discardDraft({ documentId: ctx.params.documentId, locale: ctx.query.locale });
    ctx.body = { data: { documentId: r.documentId, count: r.entries.length } };
  },
};
`,
  );
  console.log(`wrote ${dir}`);
}

await main();
