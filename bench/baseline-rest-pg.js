// The bare PostgreSQL baseline of bench/rest.js: Fastify + pg (a pool of 10), one hand-written named prepared
// statement per scenario over Strapi 5's tables (what Cairn makes on an empty database: the published rows, their
// `*_lnk` links by row id, components through `*_cmps`) that answers the whole page (entries and total) in one round trip.
// PostgreSQL builds compact JSON (row_to_json, string_agg, nested text spliced in); in scenario c each chef's JSON
// and each chef's restaurant list are built once (CTEs with one join + GROUP BY), not once per restaurant.
// No validation, no permissions, no query parsing. Env: DATABASE_NAME, PORT.
import Fastify from 'fastify';
import pg from 'pg';

const pool = new pg.Pool({ host: '127.0.0.1', user: 'postgres', database: process.env.DATABASE_NAME, max: 10, options: '-c timezone=UTC' });
const ts = (c) => `to_char(${c}, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
const stamps = (t) => `${ts(`${t}.created_at`)} AS "createdAt", ${ts(`${t}.updated_at`)} AS "updatedAt", ${ts(`${t}.published_at`)} AS "publishedAt"`;
const article = (t) =>
  `${t}.id, ${t}.document_id AS "documentId", ${t}.title, ${t}.body, ${ts(`${t}.publish_date`)} AS "publishDate", ${t}.views::text AS views, ${t}.rating, ${stamps(t)}`;
const author = (t) => `${t}.id, ${t}.document_id AS "documentId", ${t}.name, ${t}.email, ${stamps(t)}`;
const category = (t) => `${t}.id, ${t}.document_id AS "documentId", ${t}.name, ${stamps(t)}`;
const chef = (t) => `${t}.id, ${t}.document_id AS "documentId", ${t}.name, ${t}.email, ${t}.bio, ${stamps(t)}`;
const restaurant = (t) =>
  `${t}.id, ${t}.document_id AS "documentId", ${t}.name, ${t}.slug, ${t}.description, ${t}.stars, ${t}.price::float8 AS price, ${t}.open, ${t}.opened_on::text AS "openedOn", ${t}.category, ${t}.tags, ${stamps(t)}, ${t}.locale`;
/** A JSON array of `row_to_json(s)` texts, in `orderBy`, '[]' when no rows. */
const array = (orderBy) => `('[' || COALESCE(string_agg(row_to_json(s)::text, ',' ORDER BY ${orderBy}), '') || ']')::json`;
/** The page as `total` and `docs` (the entries' JSON texts joined by commas). */
const page = (count, docs) => `SELECT (${count}) AS total, (${docs}) AS docs`;

const publishedArticles = `SELECT count(*) FROM articles WHERE published_at IS NOT NULL`;
const cFilter = `r.published_at IS NOT NULL AND r.locale = 'en' AND r.stars >= 3`;
const dFilter = `r.published_at IS NOT NULL AND r.locale = 'en'
  AND EXISTS (SELECT 1 FROM restaurants_chef_lnk l JOIN chefs c ON c.id = l.chef_id WHERE l.restaurant_id = r.id AND c.name LIKE 'A%')`;

const statements = {
  a: page(
    publishedArticles,
    `SELECT string_agg(row_to_json(s)::text, ',' ORDER BY s.id) FROM (SELECT ${article('a')} FROM articles a WHERE a.published_at IS NOT NULL ORDER BY a.id LIMIT 25) s`,
  ),
  b: page(
    publishedArticles,
    `SELECT string_agg(row_to_json(s)::text, ',' ORDER BY a.id)
     FROM (SELECT * FROM articles a WHERE a.published_at IS NOT NULL ORDER BY a.id LIMIT 25) a,
     LATERAL (SELECT ${article('a')},
       (SELECT row_to_json(s) FROM articles_author_lnk l JOIN authors t ON t.id = l.author_id, LATERAL (SELECT ${author('t')}) s WHERE l.article_id = a.id LIMIT 1) AS author,
       (SELECT ${array('l.category_ord, l.id')} FROM articles_categories_lnk l JOIN categories t ON t.id = l.category_id, LATERAL (SELECT ${category('t')}) s WHERE l.article_id = a.id) AS categories,
       (SELECT ${array('l.article_ord, l.id')} FROM articles_related_lnk l JOIN articles t ON t.id = l.inv_article_id, LATERAL (SELECT ${article('t')}) s WHERE l.article_id = a.id) AS related
     ) s`,
  ),
  c: `WITH page AS (SELECT * FROM restaurants r WHERE ${cFilter} ORDER BY r.name COLLATE "C", r.id LIMIT 100),
    page_chef AS (SELECT l.restaurant_id, l.chef_id FROM restaurants_chef_lnk l JOIN page p ON p.id = l.restaurant_id),
    chef_restaurants AS (
      SELECT l2.chef_id, ${array('l2.restaurant_ord, l2.id')} AS j
      FROM restaurants_chef_lnk l2 JOIN restaurants r2 ON r2.id = l2.restaurant_id AND r2.published_at IS NOT NULL, LATERAL (SELECT ${restaurant('r2')}) s
      WHERE l2.chef_id IN (SELECT chef_id FROM page_chef) GROUP BY l2.chef_id),
    chef_json AS (
      SELECT c.id, row_to_json(s) AS j
      FROM chefs c LEFT JOIN chef_restaurants cr ON cr.chef_id = c.id, LATERAL (SELECT ${chef('c')}, COALESCE(cr.j, '[]'::json) AS restaurants) s
      WHERE c.id IN (SELECT chef_id FROM page_chef))
    ${page(
      `SELECT count(*) FROM restaurants r WHERE ${cFilter}`,
      `SELECT string_agg(row_to_json(s)::text, ',' ORDER BY p.name COLLATE "C", p.id)
       FROM page p LEFT JOIN page_chef pc ON pc.restaurant_id = p.id LEFT JOIN chef_json cj ON cj.id = pc.chef_id,
       LATERAL (SELECT ${restaurant('p')}, cj.j AS chef,
         (SELECT ${array('l.category_ord, l.id')} FROM restaurants_categories_lnk l JOIN categories t ON t.id = l.category_id, LATERAL (SELECT ${category('t')}) s WHERE l.restaurant_id = p.id) AS categories,
         (SELECT row_to_json(s) FROM restaurants_cmps k JOIN components_location_addresses ad ON ad.id = k.cmp_id,
            LATERAL (SELECT ad.id, ad.street, ad.city, ad.zip,
              (SELECT row_to_json(s) FROM components_location_addresses_cmps k2 JOIN components_location_geos g ON g.id = k2.cmp_id, LATERAL (SELECT g.id, g.lat, g.lng) s
               WHERE k2.entity_id = ad.id AND k2.field = 'geo' LIMIT 1) AS geo) s
          WHERE k.entity_id = p.id AND k.field = 'address' LIMIT 1) AS address) s`,
    )}`,
  d: page(
    `SELECT count(*) FROM restaurants r WHERE ${dFilter}`,
    `SELECT string_agg(row_to_json(s)::text, ',' ORDER BY s.id) FROM (SELECT ${restaurant('r')} FROM restaurants r WHERE ${dFilter} ORDER BY r.id LIMIT 25) s`,
  ),
  f: `SELECT row_to_json(s)::text AS doc FROM (SELECT ${article('a')} FROM articles a WHERE a.document_id = $1 AND a.published_at IS NOT NULL LIMIT 1) s`,
  // (e) as GraphQL answers it: the selected fields only, views as a number.
  e: `SELECT ${array('a.id')}::text AS docs
      FROM (SELECT * FROM articles a WHERE a.published_at IS NOT NULL ORDER BY a.id LIMIT 100) a,
      LATERAL (SELECT a.document_id AS "documentId", a.title, a.views, a.rating, ${ts('a.publish_date')} AS "publishDate",
        (SELECT row_to_json(s) FROM articles_author_lnk l JOIN authors t ON t.id = l.author_id, LATERAL (SELECT t.document_id AS "documentId", t.name) s WHERE l.article_id = a.id LIMIT 1) AS author,
        (SELECT ${array('l.category_ord, l.id')} FROM articles_categories_lnk l JOIN categories t ON t.id = l.category_id, LATERAL (SELECT t.document_id AS "documentId", t.name) s WHERE l.article_id = a.id) AS categories) s`,
};
const run = (key, values = []) => pool.query({ name: `baseline_${key}`, text: statements[key], values });
const list = async (key, pageSize) => {
  const { total, docs } = (await run(key)).rows[0];
  const n = Number(total);
  return `{"data":[${docs ?? ''}],"meta":{"pagination":{"page":1,"pageSize":${pageSize},"pageCount":${Math.ceil(n / pageSize)},"total":${n}}}}`;
};
const app = Fastify();
const send = (reply, body) => reply.type('application/json; charset=utf-8').send(body);
app.get('/a', async (_q, r) => send(r, await list('a', 25)));
app.get('/b', async (_q, r) => send(r, await list('b', 25)));
app.get('/c', async (_q, r) => send(r, await list('c', 100)));
app.get('/d', async (_q, r) => send(r, await list('d', 25)));
app.get('/f/:id', async (q, r) => send(r, `{"data":${(await run('f', [q.params.id])).rows[0].doc},"meta":{}}`));
app.post('/e', async (_q, r) => send(r, `{"data":{"articles":${(await run('e')).rows[0].docs}}}`));
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
