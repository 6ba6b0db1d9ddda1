// The bare baseline for cold start and memory: Fastify + better-sqlite3 answering the same list route with one
// hand-written statement over Strapi 5's tables, what Cairn makes on an empty database (the published rows; SQLite
// datetimes as epoch milliseconds, answered as ISO text). No model, no validation. What Node itself costs.
import Fastify from 'fastify';
import Database from 'better-sqlite3';

const db = new Database(process.env.DB_FILE, { readonly: true });
const iso = (c) => `strftime('%Y-%m-%dT%H:%M:%S', ${c} / 1000, 'unixepoch') || printf('.%03dZ', ${c} % 1000)`;
const list = db.prepare(
  `SELECT json_object('id', id, 'documentId', document_id, 'name', name, 'slug', slug, 'description', description,
     'stars', stars, 'price', price, 'open', CASE WHEN open IS NULL THEN NULL WHEN open THEN json('true') ELSE json('false') END,
     'openedOn', opened_on, 'category', category, 'tags', json(tags), 'createdAt', ${iso('created_at')}, 'updatedAt', ${iso('updated_at')},
     'publishedAt', ${iso('published_at')}, 'locale', locale) AS doc
   FROM restaurants WHERE published_at IS NOT NULL AND locale = 'en' ORDER BY id LIMIT 25`,
);
const count = db.prepare(`SELECT COUNT(*) AS n FROM restaurants WHERE published_at IS NOT NULL AND locale = 'en'`);
const app = Fastify();
app.get('/api/restaurants', (_req, reply) => {
  const rows = list.all().map((r) => r.doc);
  const total = count.get().n;
  reply.type('application/json; charset=utf-8');
  return `{"data":[${rows.join(',')}],"meta":{"pagination":{"page":1,"pageSize":25,"pageCount":${Math.ceil(total / 25)},"total":${total}}}}`;
});
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
