// The bare baseline of bench/rest.js: Fastify + better-sqlite3, one hand-written prepared statement per scenario
// over Strapi 5's tables (what Cairn makes on an empty database): the published rows (published_at IS NOT NULL),
// their links (`*_lnk` rows joining row ids: a published row links to published rows, so only a link from a
// type without drafts, chef -> restaurants, needs the filter again) and components (`*_cmps`), datetimes stored as
// epoch milliseconds and answered as ISO text. SQLite builds the whole JSON, each chef's JSON built once (CTE) in
// scenario c. No validation, no permissions, no query parsing. Env: DB_FILE, PORT.
import Fastify from 'fastify';
import Database from 'better-sqlite3';

const db = new Database(process.env.DB_FILE, { readonly: true });
const bool = (c) => `CASE WHEN ${c} IS NULL THEN NULL WHEN ${c} THEN json('true') ELSE json('false') END`;
/** Epoch milliseconds as ISO text, exact to the millisecond (integer arithmetic, as Cairn does). */
const iso = (c) => `strftime('%Y-%m-%dT%H:%M:%S', ${c} / 1000, 'unixepoch') || printf('.%03dZ', ${c} % 1000)`;
const stamps = (t) => `'createdAt', ${iso(`${t}.created_at`)}, 'updatedAt', ${iso(`${t}.updated_at`)}, 'publishedAt', ${iso(`${t}.published_at`)}`;
const article = (t) =>
  `'id', ${t}.id, 'documentId', ${t}.document_id, 'title', ${t}.title, 'body', ${t}.body, 'publishDate', ${iso(`${t}.publish_date`)}, 'views', CAST(${t}.views AS TEXT), 'rating', ${t}.rating, ${stamps(t)}`;
const author = (t) => `'id', ${t}.id, 'documentId', ${t}.document_id, 'name', ${t}.name, 'email', ${t}.email, ${stamps(t)}`;
const category = (t) => `'id', ${t}.id, 'documentId', ${t}.document_id, 'name', ${t}.name, ${stamps(t)}`;
const chef = (t) => `'id', ${t}.id, 'documentId', ${t}.document_id, 'name', ${t}.name, 'email', ${t}.email, 'bio', ${t}.bio, ${stamps(t)}`;
const restaurant = (t) =>
  `'id', ${t}.id, 'documentId', ${t}.document_id, 'name', ${t}.name, 'slug', ${t}.slug, 'description', ${t}.description, 'stars', ${t}.stars, 'price', ${t}.price, 'open', ${bool(`${t}.open`)}, 'openedOn', ${t}.opened_on, 'category', ${t}.category, 'tags', json(${t}.tags), ${stamps(t)}, 'locale', ${t}.locale`;

const statements = {
  a: `SELECT json_object(${article('a')}) AS doc FROM articles a WHERE a.published_at IS NOT NULL ORDER BY a.id LIMIT 25`,
  aCount: `SELECT COUNT(*) AS n FROM articles WHERE published_at IS NOT NULL`,
  b: `SELECT json_object(${article('a')},
        'author', (SELECT json_object(${author('t')}) FROM articles_author_lnk l JOIN authors t ON t.id = l.author_id WHERE l.article_id = a.id LIMIT 1),
        'categories', (SELECT json_group_array(json_object(${category('t')}) ORDER BY l.category_ord, l.id) FROM articles_categories_lnk l JOIN categories t ON t.id = l.category_id WHERE l.article_id = a.id),
        'related', (SELECT json_group_array(json_object(${article('t')}) ORDER BY l.article_ord, l.id) FROM articles_related_lnk l JOIN articles t ON t.id = l.inv_article_id WHERE l.article_id = a.id)
      ) AS doc FROM articles a WHERE a.published_at IS NOT NULL ORDER BY a.id LIMIT 25`,
  c: `WITH page AS (SELECT * FROM restaurants r WHERE r.published_at IS NOT NULL AND r.locale = 'en' AND r.stars >= 3 ORDER BY r.name, r.id LIMIT 100),
      chef_json AS (
        SELECT c.id AS id, json_object(${chef('c')},
          'restaurants', (SELECT json_group_array(json_object(${restaurant('r2')}) ORDER BY l2.restaurant_ord, l2.id)
                          FROM restaurants_chef_lnk l2 JOIN restaurants r2 ON r2.id = l2.restaurant_id AND r2.published_at IS NOT NULL
                          WHERE l2.chef_id = c.id)) AS j
        FROM chefs c WHERE c.id IN (SELECT l.chef_id FROM restaurants_chef_lnk l JOIN page p ON p.id = l.restaurant_id))
      SELECT json_object(${restaurant('p')},
        'chef', (SELECT json(cj.j) FROM restaurants_chef_lnk l JOIN chef_json cj ON cj.id = l.chef_id WHERE l.restaurant_id = p.id LIMIT 1),
        'categories', (SELECT json_group_array(json_object(${category('t')}) ORDER BY l.category_ord, l.id) FROM restaurants_categories_lnk l JOIN categories t ON t.id = l.category_id WHERE l.restaurant_id = p.id),
        'address', (SELECT json_object('id', ad.id, 'street', ad.street, 'city', ad.city, 'zip', ad.zip,
                      'geo', (SELECT json_object('id', g.id, 'lat', g.lat, 'lng', g.lng) FROM components_location_addresses_cmps k2 JOIN components_location_geos g ON g.id = k2.cmp_id WHERE k2.entity_id = ad.id AND k2.field = 'geo' LIMIT 1))
                    FROM restaurants_cmps k JOIN components_location_addresses ad ON ad.id = k.cmp_id WHERE k.entity_id = p.id AND k.field = 'address' LIMIT 1)
      ) AS doc FROM page p ORDER BY p.name, p.id`,
  cCount: `SELECT COUNT(*) AS n FROM restaurants WHERE published_at IS NOT NULL AND locale = 'en' AND stars >= 3`,
  d: `SELECT json_object(${restaurant('r')}) AS doc FROM restaurants r
      WHERE r.published_at IS NOT NULL AND r.locale = 'en'
        AND EXISTS (SELECT 1 FROM restaurants_chef_lnk l JOIN chefs c ON c.id = l.chef_id WHERE l.restaurant_id = r.id AND substr(c.name, 1, 1) = 'A')
      ORDER BY r.id LIMIT 25`,
  dCount: `SELECT COUNT(*) AS n FROM restaurants r WHERE r.published_at IS NOT NULL AND r.locale = 'en'
        AND EXISTS (SELECT 1 FROM restaurants_chef_lnk l JOIN chefs c ON c.id = l.chef_id WHERE l.restaurant_id = r.id AND substr(c.name, 1, 1) = 'A')`,
  f: `SELECT json_object(${article('a')}) AS doc FROM articles a WHERE a.document_id = ? AND a.published_at IS NOT NULL LIMIT 1`,
  // (e) as GraphQL answers it: the selected fields only, views as a number.
  e: `SELECT json_group_array(json(doc)) AS docs FROM (SELECT json_object('documentId', a.document_id, 'title', a.title, 'views', a.views, 'rating', a.rating, 'publishDate', ${iso('a.publish_date')},
        'author', (SELECT json_object('documentId', t.document_id, 'name', t.name) FROM articles_author_lnk l JOIN authors t ON t.id = l.author_id WHERE l.article_id = a.id LIMIT 1),
        'categories', (SELECT json_group_array(json_object('documentId', t.document_id, 'name', t.name) ORDER BY l.category_ord, l.id) FROM articles_categories_lnk l JOIN categories t ON t.id = l.category_id WHERE l.article_id = a.id)
      ) AS doc FROM articles a WHERE a.published_at IS NOT NULL ORDER BY a.id LIMIT 100)`,
};
const prepared = Object.fromEntries(Object.entries(statements).map(([k, s]) => [k, db.prepare(s)]));
const list = (key, pageSize) => {
  const rows = prepared[key].all().map((r) => r.doc);
  const total = prepared[`${key}Count`].get().n;
  return `{"data":[${rows.join(',')}],"meta":{"pagination":{"page":1,"pageSize":${pageSize},"pageCount":${Math.ceil(total / pageSize)},"total":${total}}}}`;
};
const app = Fastify();
const send = (reply, body) => reply.type('application/json; charset=utf-8').send(body);
app.get('/a', (_q, r) => send(r, list('a', 25)));
app.get('/b', (_q, r) => send(r, (() => {
  const rows = prepared.b.all().map((x) => x.doc);
  const total = prepared.aCount.get().n;
  return `{"data":[${rows.join(',')}],"meta":{"pagination":{"page":1,"pageSize":25,"pageCount":${Math.ceil(total / 25)},"total":${total}}}}`;
})()));
app.get('/c', (_q, r) => send(r, list('c', 100)));
app.get('/d', (_q, r) => send(r, list('d', 25)));
app.get('/f/:id', (q, r) => send(r, `{"data":${prepared.f.get(q.params.id).doc},"meta":{}}`));
app.post('/e', (_q, r) => send(r, `{"data":{"articles":${prepared.e.get().docs}}}`));
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
