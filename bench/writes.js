// Write throughput and relation-write latency, each as a ratio to a baseline measured in the same run.
//
// - throughput: WORKERS concurrent writers, each updating its own documents (a title and a tag connected at the
//   end of an ordered list, then published: Cairn's PUT), for OPS writes in all. Baseline: the same rows changed
//   by hand-written statements in one transaction each, on the same driver (no model, no validation, no locks).
// - latency: one writer connecting one entry at a given position into a list of LIST links (median of OPS).
//   Baseline: the one INSERT of a link in a transaction.
// Runs in-process on dist/ (npm run build first) on each of DIALECTS (sqlite,postgres,mysql by default).
// Usage: npm run build && node bench/writes.js
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import mysql from 'mysql2/promise';
import { createCairn } from '../dist/app/cairn.js';
import { median } from './lib.js';

const OPS = Number(process.env.OPS ?? 2_000);
const WORKERS = Number(process.env.WORKERS ?? 8);
const LIST = Number(process.env.LIST ?? 1_000);
const dialects = (process.env.DIALECTS ?? 'sqlite,postgres,mysql').split(',');

const schema = (name, plural, attributes, draftAndPublish) => ({
  kind: 'collectionType',
  collectionName: plural,
  info: { singularName: name, pluralName: plural, displayName: name },
  options: { draftAndPublish },
  attributes,
});

function appFolder() {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-writes-'));
  const types = {
    article: schema('article', 'articles', { title: { type: 'string' }, tags: { type: 'relation', relation: 'manyToMany', target: 'api::tag.tag' } }, true),
    tag: schema('tag', 'tags', { name: { type: 'string' } }, false),
  };
  for (const [name, type] of Object.entries(types)) {
    const folder = join(dir, `src/api/${name}/content-types/${name}`);
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'schema.json'), JSON.stringify(type));
  }
  return dir;
}

const PG = { host: '127.0.0.1', user: 'postgres' };
const MY = { host: '127.0.0.1', user: 'root', password: '' };

async function freshDatabase(dialect, dir) {
  const name = `cairn_writes_${Date.now()}`;
  if (dialect === 'sqlite') return { config: { connection: { client: 'sqlite', connection: { filename: join(dir, 'data.db') } } }, drop: async () => {} };
  if (dialect === 'postgres') {
    const admin = new pg.Client({ ...PG, database: 'postgres' });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    return {
      config: { connection: { client: 'postgres', connection: { ...PG, database: name } } },
      drop: async () => {
        const c = new pg.Client({ ...PG, database: 'postgres' });
        await c.connect();
        await c.query(`DROP DATABASE ${name} WITH (FORCE)`);
        await c.end();
      },
    };
  }
  const admin = await mysql.createConnection(MY);
  await admin.query(`CREATE DATABASE ${name} CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  await admin.end();
  return {
    config: { connection: { client: 'mysql', connection: { ...MY, database: name } } },
    drop: async () => {
      const c = await mysql.createConnection(MY);
      await c.query(`DROP DATABASE ${name}`);
      await c.end();
    },
  };
}

/** The baseline's transaction: BEGIN, the statements, COMMIT, on the database's own driver through Cairn's pool. */
async function rawTransaction(db, statements) {
  await db.transaction(async (trx) => {
    for (const [sql, params] of statements) await trx.execute(sql, params);
  });
}

/** Tag rows inserted as Strapi stores them, 200 a statement. */
async function insertTags(db, documentIds) {
  await db.transaction(async (trx) => {
    const now = new Date().toISOString().replace('T', ' ').replace('Z', '');
    for (let i = 0; i < documentIds.length; i += 200) {
      const chunk = documentIds.slice(i, i + 200);
      await trx.execute(
        `INSERT INTO tags (document_id, name, created_at, updated_at, published_at) VALUES ${chunk.map(() => '(?, ?, ?, ?, ?)').join(', ')}`,
        chunk.flatMap((m) => [m, m, now, now, now]),
      );
    }
  });
}

/** `count` new tag rows (documentIds `<prefix>000...`); returns their row ids in order. */
async function spareTags(db, prefix, count) {
  const documentIds = Array.from({ length: count }, (_, i) => `${prefix}${String(i).padStart(23, '0')}`);
  await insertTags(db, documentIds);
  const rows = await db.query(`SELECT id, document_id FROM tags WHERE document_id LIKE ? ORDER BY document_id`, [`${prefix}%`]);
  const wanted = new Set(documentIds); // a document Cairn made may start with the prefix too
  return rows.filter((r) => wanted.has(r.document_id)).map((r) => Number(r.id));
}

async function run(dialect) {
  const dir = appFolder();
  const database = await freshDatabase(dialect, dir);
  const cairn = await createCairn({ dir, config: { database: database.config } });
  const articles = cairn.documents('api::article.article');
  const tags = cairn.documents('api::tag.tag');
  try {
    const tagIds = [];
    for (let i = 0; i < 50; i++) tagIds.push((await tags.create({ data: { name: `t${i}` } })).documentId);
    const owned = [];
    for (let w = 0; w < WORKERS; w++) owned.push((await articles.create({ data: { title: `w${w}` } })).documentId);
    const rowOf = async (documentId) =>
      (await cairn.db.query(`SELECT id FROM articles WHERE document_id = ? AND published_at IS NULL`, [documentId]))[0].id;
    const draftRows = await Promise.all(owned.map(rowOf));
    // The baselines link tag rows of their own, each once: Strapi's link table references tags.id and keeps one
    // link per pair.
    const baselineTags = await spareTags(cairn.db, 'b', OPS + 200);
    const linkSql = 'INSERT INTO articles_tags_lnk (article_id, tag_id, tag_ord) VALUES (?, ?, ?)';

    // Throughput: WORKERS writers at once, each on its own document, OPS writes in all.
    const throughput = async (write) => {
      let next = 0;
      const started = process.hrtime.bigint();
      await Promise.all(
        owned.map(async (_, w) => {
          while (next < OPS) {
            const k = next++;
            await write(w, k);
          }
        }),
      );
      return OPS / (Number(process.hrtime.bigint() - started) / 1e9);
    };
    const cairnOps = await throughput((w, k) =>
      articles.updateDocument({
        documentId: owned[w],
        data: { title: `w${w}-${k}`, tags: { connect: [{ documentId: tagIds[k % 50], position: { end: true } }] } },
      }),
    );
    const baselineOps = await throughput((w, k) =>
      rawTransaction(cairn.db, [
        ['UPDATE articles SET title = ?, updated_at = CURRENT_TIMESTAMP WHERE id = ?', [`w${w}-${k}`, draftRows[w]]],
        [linkSql, [draftRows[w], baselineTags[k], 1e6 + k]],
      ]),
    );

    // Latency: positioned connects into one list of LIST links.
    const list = (await articles.create({ data: { title: 'list' } })).documentId;
    const listRow = await rowOf(list);
    const members = [];
    for (let i = 0; i < LIST + 200; i++) members.push(`m${String(i).padStart(21, '0')}`);
    await insertTags(cairn.db, members);
    await articles.updateDocument({ documentId: list, status: 'draft', data: { tags: members.slice(0, LIST) } });
    const positions = [(k) => ({ before: members[(k * 7919) % LIST] }), (k) => ({ after: members[(k * 104729) % LIST] }), () => ({ start: true }), () => ({ end: true })];
    const timed = async (fn) => {
      const started = process.hrtime.bigint();
      await fn();
      return Number(process.hrtime.bigint() - started) / 1e6;
    };
    const cairnMs = [];
    const baselineMs = [];
    for (let k = 0; k < 200; k++) {
      const member = members[LIST + k];
      cairnMs.push(
        await timed(() => articles.updateDocument({ documentId: list, status: 'draft', data: { tags: { connect: [{ documentId: member, position: positions[k % 4](k) }] } } })),
      );
      baselineMs.push(
        await timed(() =>
          rawTransaction(cairn.db, [[linkSql, [listRow, baselineTags[OPS + k], 2e6 + k]]]),
        ),
      );
    }
    return { dialect, cairnOps, baselineOps, cairnMs: median(cairnMs), baselineMs: median(baselineMs) };
  } finally {
    await cairn.close();
    await database.drop();
    rmSync(dir, { recursive: true, force: true });
  }
}

console.log(`${WORKERS} writers, ${OPS} writes; latency: median of 200 positioned connects into a list of ${LIST}`);
console.log('| dialect | writes/s Cairn | writes/s baseline | Cairn/baseline | connect ms Cairn | connect ms baseline | Cairn/baseline |');
console.log('| --- | --- | --- | --- | --- | --- | --- |');
for (const dialect of dialects) {
  const r = await run(dialect);
  console.log(
    `| ${r.dialect} | ${r.cairnOps.toFixed(0)} | ${r.baselineOps.toFixed(0)} | ${(r.cairnOps / r.baselineOps).toFixed(2)} | ${r.cairnMs.toFixed(2)} | ${r.baselineMs.toFixed(2)} | ${(r.cairnMs / r.baselineMs).toFixed(2)}x |`,
  );
}
