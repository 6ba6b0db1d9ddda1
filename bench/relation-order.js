// Issue 3 of 7: relation ordering at scale. Connects 1,000 entries one at a time, with before/after/start/end
// positions, into a list that already holds 10,000, and reports the time per operation over the first and the
// last 100 operations (it must stay flat: within 2x). Runs on SQLite and PostgreSQL (DIALECTS=sqlite,postgres).
// Usage: npm run build && node bench/relation-order.js
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { createCairn } from '../dist/app/cairn.js';

const LIST = Number(process.env.LIST ?? 10_000);
const OPS = Number(process.env.OPS ?? 1_000);
const dialects = (process.env.DIALECTS ?? 'sqlite,postgres').split(',');

function appFolder() {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-order-'));
  const folder = join(dir, 'src/api/note/content-types/note');
  mkdirSync(folder, { recursive: true });
  writeFileSync(
    join(folder, 'schema.json'),
    JSON.stringify({
      kind: 'collectionType',
      collectionName: 'notes',
      info: { singularName: 'note', pluralName: 'notes', displayName: 'Note' },
      attributes: { title: { type: 'string' }, related: { type: 'relation', relation: 'manyToMany', target: 'api::note.note' } },
    }),
  );
  return dir;
}

async function databaseConfig(dialect, dir) {
  if (dialect === 'sqlite') return { connection: { client: 'sqlite', connection: { filename: join(dir, 'data.db') } } };
  const name = `cairn_order_${Date.now()}`;
  const admin = new pg.Client({ host: '127.0.0.1', user: 'postgres', database: 'postgres' });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  return { connection: { client: 'postgres', connection: { host: '127.0.0.1', user: 'postgres', database: name } }, drop: name };
}

async function run(dialect) {
  const dir = appFolder();
  const database = await databaseConfig(dialect, dir);
  const cairn = await createCairn({ dir, config: { database } });
  const db = cairn.db;
  const now = new Date().toISOString().replace('T', ' ').replace('Z', '');
  // Setup (not measured): LIST + OPS + 1 notes, and the first note's list of LIST entries, by direct inserts.
  const total = LIST + OPS + 1;
  await db.transaction(async (trx) => {
    for (let i = 0; i < total; i += 500) {
      const rows = [];
      const params = [];
      for (let j = i; j < Math.min(total, i + 500); j++) {
        rows.push('(?, ?, ?, ?, ?)');
        params.push(`note${String(j).padStart(20, '0')}`, `Note ${j}`, now, now, now);
      }
      await trx.execute(`INSERT INTO notes (document_id, title, created_at, updated_at, published_at) VALUES ${rows.join(', ')}`, params);
    }
    const [{ id: owner }] = await trx.query(`SELECT id FROM notes WHERE document_id = ?`, ['note' + '0'.repeat(20)]);
    for (let i = 0; i < LIST; i += 500) {
      const rows = [];
      const params = [];
      for (let j = i; j < Math.min(LIST, i + 500); j++) {
        rows.push("(?, ?, '', ?, 1)");
        params.push(owner, `note${String(j + 1).padStart(20, '0')}`, j + 1);
      }
      await trx.execute(`INSERT INTO notes_related_lnk (entity_id, target_document_id, target_locale, ord, inv_ord) VALUES ${rows.join(', ')}`, params);
    }
  });
  const documents = cairn.documents('api::note.note');
  const ownerId = 'note' + '0'.repeat(20);
  const anchor = (k) => `note${String(1 + ((k * 7919) % LIST)).padStart(20, '0')}`;
  const positions = [(k) => ({ before: anchor(k) }), (k) => ({ after: anchor(k) }), () => ({ start: true }), () => ({ end: true })];
  const times = [];
  for (let k = 0; k < OPS; k++) {
    const documentId = `note${String(LIST + 1 + k).padStart(20, '0')}`;
    const started = process.hrtime.bigint();
    await documents.updateDocument({ documentId: ownerId, data: { related: { connect: [{ documentId, position: positions[k % 4](k) }] } } });
    times.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  const count = (await db.query(`SELECT COUNT(*) AS n FROM notes_related_lnk`))[0].n;
  await cairn.close();
  if (database.drop) {
    const admin = new pg.Client({ host: '127.0.0.1', user: 'postgres', database: 'postgres' });
    await admin.connect();
    await admin.query(`DROP DATABASE ${database.drop} WITH (FORCE)`);
    await admin.end();
  }
  rmSync(dir, { recursive: true, force: true });
  const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const first = mean(times.slice(0, 100));
  const last = mean(times.slice(-100));
  return { dialect, first, last, ratio: last / first, links: Number(count) };
}

console.log(`| dialect | ms/op, first 100 | ms/op, last 100 | last/first | links at the end |`);
console.log(`| --- | --- | --- | --- | --- |`);
for (const dialect of dialects) {
  const r = await run(dialect);
  console.log(`| ${r.dialect} | ${r.first.toFixed(2)} | ${r.last.toFixed(2)} | ${r.ratio.toFixed(2)}x ${r.ratio <= 2 ? '(flat)' : '(NOT flat)'} | ${r.links} |`);
}
