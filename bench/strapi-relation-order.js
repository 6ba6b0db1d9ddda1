// Issue 18: relation ordering at scale on Strapi 5's own tables. On a copy of the database real Strapi made
// (test/fixtures/strapi-db), links LIST articles into one list, then places OPS more one at a time with
// before/after/start/end positions through StrapiLinkList (src/database/strapi-store), and reports the time per
// operation over the first and the last 100 operations (it must stay flat: within 2x). Two lists:
// - owner: an article's `related` list (articles_related_lnk, article_id -> inv_article_id, ordered by article_ord);
// - inverse: a category's `articles` list (articles_categories_lnk read backwards by article_ord; each new link also
//   gets category_ord = MAX over the article's links + 1).
// Runs on SQLite and PostgreSQL (DIALECTS=sqlite,postgres; SIDES=owner,inverse; MODES=commit,shared; LIST, OPS).
// Usage: npm run build && node bench/strapi-relation-order.js
import { createDatabase } from '../dist/database/index.js';
import { joinTableNames } from '../dist/database/strapi-layout/names.js';
import { StrapiLinkList } from '../dist/database/strapi-store/index.js';
import { fixtureCopy } from './strapi-fixture.js';

const LIST = Number(process.env.LIST ?? 10_000);
const OPS = Number(process.env.OPS ?? 1_000);
const dialects = (process.env.DIALECTS ?? 'sqlite,postgres').split(',');
const sides = (process.env.SIDES ?? 'owner,inverse').split(',');
const modes = (process.env.MODES ?? 'commit,shared').split(',');
const article = { collectionName: 'articles', singularName: 'article' };
const category = { collectionName: 'categories', singularName: 'category' };

/** Inserts `rows` (arrays of values for `columns`) 500 at a time. */
async function insertMany(db, table, columns, rows) {
  for (let i = 0; i < rows.length; i += 500) {
    const part = rows.slice(i, i + 500);
    await db.execute(`INSERT INTO ${table} (${columns.join(', ')}) VALUES ${part.map((r) => `(${r.map(() => '?').join(', ')})`).join(', ')}`, part.flat());
  }
}

async function run(dialect, side, mode) {
  const fixture = await fixtureCopy(dialect);
  const db = await createDatabase(fixture.config);
  // Setup (not measured): LIST + OPS + 1 new draft articles, and one list of LIST links.
  const stamp = `b${Date.now().toString(36)}`;
  const ids = await db.transaction(async (trx) => {
    const rows = Array.from({ length: LIST + OPS + 1 }, (_, j) => [`${stamp}${String(j).padStart(23 - stamp.length, '0')}`.slice(0, 24), `Bench ${j}`]);
    await insertMany(trx, 'articles', ['document_id', 'title'], rows);
    return (await trx.query(`SELECT id FROM articles WHERE document_id LIKE ? ORDER BY id`, [`${stamp}%`])).map((r) => Number(r.id));
  });
  const [ownerRow, ...articles] = ids;
  const listed = articles.slice(0, LIST);
  const newcomers = articles.slice(LIST);
  let join;
  let row;
  if (side === 'owner') {
    const table = joinTableNames(article, { name: 'related', relation: 'manyToMany', bidirectional: false }, article);
    await db.transaction((trx) => insertMany(trx, table.name, ['article_id', 'inv_article_id', 'article_ord'], listed.map((id, j) => [ownerRow, id, j + 1])));
    [join, row] = [{ table, side: 'owner' }, ownerRow];
  } else {
    const table = joinTableNames(article, { name: 'categories', relation: 'manyToMany', bidirectional: true }, category);
    const [{ id: categoryRow }] = await db.query(`SELECT MIN(id) AS id FROM categories`);
    const [{ m }] = await db.query(`SELECT MAX(article_ord) AS m FROM articles_categories_lnk WHERE category_id = ?`, [categoryRow]);
    await db.transaction((trx) =>
      insertMany(trx, table.name, ['article_id', 'category_id', 'category_ord', 'article_ord'], listed.map((id, j) => [id, categoryRow, 1, Number(m ?? 0) + j + 1])),
    );
    [join, row] = [{ table, side: 'inverse' }, Number(categoryRow)];
  }
  if (dialect === 'postgres') await db.execute('ANALYZE');
  const anchor = (k) => listed[(k * 7919) % LIST];
  const positions = [(k) => ({ before: anchor(k) }), (k) => ({ after: anchor(k) }), () => ({ start: true }), () => ({ end: true })];
  const times = [];
  let renumbered = 0;
  const stopCounting = db.onQuery((sql) => {
    if (sql.startsWith('UPDATE')) renumbered++;
  });
  const place = async (list) => {
    for (let k = 0; k < OPS; k++) {
      const started = process.hrtime.bigint();
      await list.insert(newcomers[k], positions[k % 4](k));
      times.push(Number(process.hrtime.bigint() - started) / 1e6);
    }
  };
  // 'commit': each insert is its own transaction, as a request's would be (SQLite on a file Strapi made keeps its
  // rollback journal, so each commit syncs the disk); 'shared': all in one transaction, the list's own cost.
  if (mode === 'commit') await place(new StrapiLinkList(db, join, row));
  else await db.transaction((trx) => place(new StrapiLinkList(trx, join, row)));
  stopCounting();
  const list = new StrapiLinkList(db, join, row);
  const members = await list.members();
  await db.close();
  await fixture.drop();
  const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const first = mean(times.slice(0, 100));
  const last = mean(times.slice(-100));
  return { dialect, side, mode, renumbered, first, last, median: median(times), ratio: last / first, links: members.length };
}

console.log(`| dialect | list | transactions | ms/op, first 100 | ms/op, last 100 | median ms/op | last/first | renumberings | links at the end |`);
console.log(`| --- | --- | --- | --- | --- | --- | --- | --- | --- |`);
for (const dialect of dialects) {
  for (const side of sides) {
    for (const mode of modes) {
      const r = await run(dialect, side, mode);
      console.log(
        `| ${r.dialect} | ${r.side} | ${r.mode === 'commit' ? 'one per insert' : 'one for all'} | ${r.first.toFixed(2)} | ${r.last.toFixed(2)} | ${r.median.toFixed(2)} | ${r.ratio.toFixed(2)}x ${r.ratio <= 2 ? '(flat)' : '(NOT flat)'} | ${r.renumbered} | ${r.links} |`,
      );
    }
  }
}
