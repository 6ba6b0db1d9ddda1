// Issue 18: a positioned connect into a long list, on a database that real Strapi 5 made (test/fixtures/strapi-db),
// through the Document Service as `PUT /api/articles/:id` runs it: the draft's list gets the new link, then the
// draft is published. Median over OPS connects (before/after/start/end in turn) into an article's `categories` list
// of each size in SIZES, published (PUT) and draft-only (`?status=draft`), and the publish of a draft edited apart
// (the whole list copied again: up to 30 of them); the baseline is a transaction inserting one link
// row (and deleting it, to keep the list as it is), on the same pool. The figure that matters: the published connect stays flat as the list
// grows (10,000 vs 1,000 within 2x).
// Runs on SQLite and PostgreSQL (DIALECTS=sqlite,postgres; SIZES=1000,10000; OPS=100; WARMUP=10 unmeasured connects
// before each list's measures).
// Usage: npm run build && node bench/strapi-writes.js
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createCairn } from '../dist/app/cairn.js';
import { createLogger } from '../dist/app/logger.js';
import { median } from './lib.js';
import { fixtureCopy } from './strapi-fixture.js';

const OPS = Number(process.env.OPS ?? 100);
/** Connects made, unmeasured, before each list's measures: the first statements of a run plan and prepare them. */
const WARMUP = Number(process.env.WARMUP ?? 10);
const SIZES = (process.env.SIZES ?? '1000,10000').split(',').map(Number);
const dialects = (process.env.DIALECTS ?? 'sqlite,postgres').split(',');
const repo = join(import.meta.dirname, '..');
const secrets = JSON.parse(readFileSync(join(repo, 'test', 'fixtures', 'strapi-db', 'secrets.json'), 'utf8'));
const config = {
  admin: { apiToken: { salt: secrets.apiTokenSalt }, secrets: { encryptionKey: secrets.encryptionKey } },
  plugins: { 'users-permissions': { config: { jwtSecret: secrets.jwtSecret } } },
};

const timed = async (fn) => {
  const started = process.hrtime.bigint();
  await fn();
  return Number(process.hrtime.bigint() - started) / 1e6;
};

/** `count` new categories, inserted as Strapi stores them (500 a time); returns their documentIds. */
async function newCategories(db, prefix, count) {
  const now = db.dialect === 'sqlite' ? Date.now() : new Date().toISOString().replace('T', ' ').replace('Z', '');
  const documentIds = Array.from({ length: count }, (_, i) => `${prefix}${String(i).padStart(24 - prefix.length, '0')}`);
  await db.transaction(async (trx) => {
    for (let i = 0; i < count; i += 500) {
      const part = documentIds.slice(i, i + 500);
      await trx.execute(
        `INSERT INTO categories (document_id, name, created_at, updated_at, published_at) VALUES ${part.map(() => '(?, ?, ?, ?, ?)').join(', ')}`,
        part.flatMap((d) => [d, d, now, now, now]),
      );
    }
  });
  return documentIds;
}

async function run(dialect) {
  const fixture = await fixtureCopy(dialect);
  const cairn = await createCairn({ dir: join(repo, 'test', 'fixtures', 'conformance', 'app'), config: { ...config, database: fixture.config }, log: createLogger({ write: () => undefined }) });
  const articles = cairn.documents('api::article.article');
  const results = [];
  try {
    for (const size of SIZES) {
      const prefix = `z${size.toString(36)}`;
      const members = await newCategories(cairn.db, prefix, size + 2 * OPS + WARMUP);
      const { documentId } = await articles.create({ data: { title: `list of ${size}` } });
      await articles.update({ documentId, data: { categories: members.slice(0, size) } });
      // A database in use has planner statistics; a copy just filled has none until autovacuum runs, mid-measure.
      if (dialect === 'postgres') await cairn.db.execute('ANALYZE');
      const [draftRow] = await cairn.db.query('SELECT id FROM articles WHERE document_id = ? AND published_at IS NULL', [documentId]);
      const [category] = await cairn.db.query('SELECT MIN(id) AS id FROM categories');
      const positions = [(k) => ({ before: members[(k * 7919) % size] }), (k) => ({ after: members[(k * 104729) % size] }), () => ({ start: true }), () => ({ end: true })];
      const measure = async (status, offset) => {
        const ms = [];
        for (let k = 0; k < OPS; k++) {
          const data = { categories: { connect: [{ documentId: members[size + offset + k], position: positions[k % 4](k) }] } };
          ms.push(await timed(() => articles.update({ documentId, data, ...(status ? { status } : {}) })));
        }
        return median(ms);
      };
      for (let k = 0; k < WARMUP; k++) {
        await articles.update({ documentId, data: { categories: { connect: [{ documentId: members[size + 2 * OPS + k], position: positions[k % 4](k) }] } } });
      }
      const published = await measure(undefined, 0);
      const draft = await measure('draft', OPS);
      const baseline = [];
      for (let k = 0; k < OPS; k++) {
        baseline.push(
          await timed(() =>
            cairn.db.transaction((trx) =>
              trx.execute('INSERT INTO articles_categories_lnk (article_id, category_id, category_ord, article_ord) VALUES (?, ?, ?, ?)', [Number(draftRow.id), Number(category.id), 1e6 + k, 1]).then(() =>
                trx.execute('DELETE FROM articles_categories_lnk WHERE category_ord = ?', [1e6 + k]),
              ),
            ),
          ),
        );
      }
      results.push({ dialect, size, documentId, published, draft, baseline: median(baseline) });
    }
    // A publish after a draft-only edit: the published row is no longer the draft's copy, so its whole list is
    // copied again (set-based statements, O(list)). Measured after every size's connects: the rows these publishes
    // rewrite would slow the connects measured after them.
    for (const result of results) {
      const republish = [];
      for (let k = 0; k < Math.min(OPS, 30); k++) {
        await articles.update({ documentId: result.documentId, data: { title: `edit ${k}` }, status: 'draft' });
        republish.push(await timed(() => articles.publish({ documentId: result.documentId })));
      }
      result.republish = median(republish);
    }
  } finally {
    await cairn.close();
    await fixture.drop();
  }
  return results;
}

console.log(`median of ${OPS} positioned connects into an article's categories (Strapi's tables), published (PUT) and draft-only`);
console.log('| dialect | list | PUT ms | ?status=draft ms | publish of an edited draft ms | baseline ms (INSERT+DELETE a link) | PUT/baseline |');
console.log('| --- | --- | --- | --- | --- | --- | --- |');
for (const dialect of dialects) {
  const results = await run(dialect);
  for (const r of results) {
    console.log(`| ${r.dialect} | ${r.size} | ${r.published.toFixed(2)} | ${r.draft.toFixed(2)} | ${r.republish.toFixed(2)} | ${r.baseline.toFixed(2)} | ${(r.published / r.baseline).toFixed(2)}x |`);
  }
  const [small, large] = [results[0], results.at(-1)];
  console.log(`| ${dialect} | ${large.size} vs ${small.size} | ${(large.published / small.published).toFixed(2)}x | ${(large.draft / small.draft).toFixed(2)}x | ${(large.republish / small.republish).toFixed(2)}x | | |`);
}
