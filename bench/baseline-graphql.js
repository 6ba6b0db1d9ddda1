// The bare baseline of bench/graphql.js: Fastify + better-sqlite3, one hand-written prepared statement per GraphQL
// scenario over Strapi 5's tables (what Cairn makes on an empty database: published rows, `*_lnk` links by row id,
// SQLite datetimes as epoch milliseconds answered as ISO text), SQLite building the whole response JSON in the seed's GraphQL shape (data/attributes);
// each category's JSON built once (materialized CTE) in the nested scenario, nested lists cut at GraphQL's default
// page size (10). No GraphQL engine, no validation, no
// permissions. Env: DB_FILE, PORT.
import Fastify from 'fastify';
import Database from 'better-sqlite3';

const db = new Database(process.env.DB_FILE, { readonly: true });
const iso = (c) => `strftime('%Y-%m-%dT%H:%M:%S', ${c} / 1000, 'unixepoch') || printf('.%03dZ', ${c} % 1000)`;
const entity = (t, attributes) => `json_object('id', ${t}.document_id, 'attributes', json_object(${attributes}))`;
const author = (a) =>
  `'author', json_object('data', (SELECT ${entity('t', `'name', t.name`)} FROM articles_author_lnk l JOIN authors t ON t.id = l.author_id WHERE l.article_id = ${a}.id LIMIT 1))`;
const body = (rows) => `SELECT json_object('data', json_object('articles', json_object('data', json_group_array(json(doc))))) AS body FROM (${rows})`;

const statements = {
  // { articles(pagination: { pageSize: 100 }) { data { id attributes { title views rating publishDate author {...} categories {...} } } } }
  e: body(`SELECT ${entity('a', `'title', a.title, 'views', a.views, 'rating', a.rating, 'publishDate', ${iso('a.publish_date')}, ${author('a')},
        'categories', json_object('data', (SELECT json_group_array(${entity('t', `'name', t.name`)} ORDER BY l.category_ord, l.id) FROM articles_categories_lnk l JOIN categories t ON t.id = l.category_id WHERE l.article_id = a.id))`)} AS doc
      FROM articles a WHERE a.published_at IS NOT NULL ORDER BY a.id LIMIT 100`),
  // 100 articles with author, categories and each category's (published) restaurants.
  n: `WITH page AS MATERIALIZED (SELECT * FROM articles a WHERE a.published_at IS NOT NULL ORDER BY a.id LIMIT 100),
      cats AS MATERIALIZED (
        SELECT c.id AS k, ${entity('c', `'name', c.name, 'restaurants', json_object('data',
          (SELECT json_group_array(json(x.j)) FROM (SELECT ${entity('r', `'name', r.name`)} AS j
           FROM restaurants_categories_lnk l2 JOIN restaurants r ON r.id = l2.restaurant_id AND r.published_at IS NOT NULL
           WHERE l2.category_id = c.id ORDER BY l2.restaurant_ord, l2.id LIMIT 10) x))`)} AS j
        FROM categories c WHERE c.id IN (SELECT l.category_id FROM articles_categories_lnk l JOIN page p ON p.id = l.article_id))
      ${body(`SELECT ${entity('p', `'title', p.title, ${author('p')},
        'categories', json_object('data', (SELECT json_group_array(json(cats.j) ORDER BY l.category_ord, l.id) FROM articles_categories_lnk l JOIN cats ON cats.k = l.category_id WHERE l.article_id = p.id))`)} AS doc
      FROM page p ORDER BY p.id`)}`,
};
const prepared = Object.fromEntries(Object.entries(statements).map(([k, s]) => [k, db.prepare(s)]));
const app = Fastify();
for (const id of Object.keys(prepared)) {
  app.post(`/${id}`, (_q, reply) => reply.type('application/json; charset=utf-8').send(prepared[id].get().body));
}
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
