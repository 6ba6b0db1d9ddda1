import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../helpers/databases.js';
import { openStrapiFixtureApp, type StrapiFixtureApp } from '../helpers/strapi-app.js';

/**
 * Strapi's link tables do not stop a to-one from holding several rows (its unique index is on (owner, target)):
 * Cairn reads the first link by id (media: by `order`, then id), among the links whose target passes the populate's
 * filters. On SQLite the row's id is chosen first and its object built outside that ORDER BY (SqlDialect.oneRowById):
 * the same row, and an object, not the text of one (a sorter drops json_object's JSON subtype).
 */
describeEachDialect('A to-one holding several links in the database Strapi made', (dialect) => {
  let app: StrapiFixtureApp;
  let restaurant: { id: number; documentId: string };
  let chefs: Array<{ id: number; name: string }>;
  beforeAll(async () => {
    app = await openStrapiFixtureApp(dialect);
    const db = app.cairn.db;
    const q = (name: string) => db.quote(name);
    // A published restaurant with a chef and a cover; a second published chef it does not link.
    const [row] = await db.query<{ id: number; document_id: string; chef_id: number }>(
      `SELECT r.${q('id')}, r.${q('document_id')}, l.${q('chef_id')} FROM ${q('restaurants')} r JOIN ${q('restaurants_chef_lnk')} l ON l.${q('restaurant_id')} = r.${q('id')} JOIN ${q('files_related_mph')} m ON m.${q('related_id')} = r.${q('id')} AND m.${q('related_type')} = 'api::restaurant.restaurant' AND m.${q('field')} = 'cover' WHERE r.${q('published_at')} IS NOT NULL ORDER BY r.${q('id')}`,
    );
    restaurant = { id: Number(row.id), documentId: row.document_id };
    const [linked] = await db.query<{ id: number; name: string }>(`SELECT ${q('id')}, ${q('name')} FROM ${q('chefs')} WHERE ${q('id')} = ?`, [row.chef_id]);
    const [other] = await db.query<{ id: number; name: string }>(
      `SELECT ${q('id')}, ${q('name')} FROM ${q('chefs')} WHERE ${q('published_at')} IS NOT NULL AND ${q('id')} <> ? AND ${q('name')} <> ? ORDER BY ${q('id')}`,
      [row.chef_id, linked.name],
    );
    chefs = [linked, other].map((c) => ({ id: Number(c.id), name: c.name }));
    // A later link to the other chef: the first by id stays the one read.
    await db.execute(`INSERT INTO ${q('restaurants_chef_lnk')} (${q('restaurant_id')}, ${q('chef_id')}, ${q('restaurant_ord')}) VALUES (?, ?, 1)`, [restaurant.id, other.id]);
  }, 60_000);
  afterAll(() => app?.close());

  const chef = async (query: string) => {
    const answer = await app.get(`/api/restaurants/${restaurant.documentId}?populate[chef][fields][0]=name${query}`);
    expect(answer.statusCode, answer.body).toBe(200);
    return answer.json().data.chef;
  };

  it('reads the first link by id, as an object', async () => {
    expect(await chef('')).toMatchObject({ id: chefs[0].id, name: chefs[0].name });
  });

  it('with filters, the first link whose target matches them; none matching reads null', async () => {
    expect(await chef(`&populate[chef][filters][name][$eq]=${encodeURIComponent(chefs[1].name)}`)).toMatchObject({ id: chefs[1].id, name: chefs[1].name });
    expect(await chef('&populate[chef][filters][name][$eq]=nobody')).toBeNull();
  });

  it('a single media field reads its link first by order (a sort no index serves), as an object', async () => {
    const db = app.cairn.db;
    const q = (name: string) => db.quote(name);
    const [file] = await db.query<{ id: number; name: string }>(`SELECT ${q('id')}, ${q('name')} FROM ${q('files')} ORDER BY ${q('id')} DESC`);
    await db.execute(
      `INSERT INTO ${q('files_related_mph')} (${q('file_id')}, ${q('related_id')}, ${q('related_type')}, ${q('field')}, ${q('order')}) VALUES (?, ?, 'api::restaurant.restaurant', 'cover', 0)`,
      [file.id, restaurant.id],
    );
    const answer = await app.get(`/api/restaurants/${restaurant.documentId}?populate[cover][fields][0]=name`);
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json().data.cover).toMatchObject({ id: Number(file.id), name: file.name });
  });
});
