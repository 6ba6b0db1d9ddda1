import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createDatabase, type Database } from '../../src/database/index.js';
import { holdsStrapiLayout } from '../../src/database/storage-layout.js';
import { hasLinks, linkFileRows, RowStore } from '../../src/database/store/index.js';
import { createStrapiTables } from '../../src/database/strapi-layout/create.js';
import { withStrapiNames } from '../../src/database/strapi-layout/named-model.js';
import { joinTableOf } from '../../src/database/strapi-layout/names.js';
import { planStrapiLayout } from '../../src/database/strapi-layout/plan.js';
import { isoDatetime } from '../../src/database/strapi-layout/rows.js';
import { storedColumns } from '../../src/database/strapi-store/version-copy.js';
import type { DialectName } from '../../src/database/types.js';
import { loadModel, type Component, type ContentType, type MediaAttribute, type Model, type RelationAttribute } from '../../src/model/index.js';
import { attachToEntry } from '../../src/upload/attach.js';
import { describeEachDialect } from '../helpers/databases.js';
import { CONFORMANCE_APP } from '../helpers/strapi-app.js';
import { loadStrapiFixture } from '../helpers/strapi-fixture.js';
import { writesDuring as writesDuringOn } from '../helpers/db-snapshot.js';

type Row = Record<string, unknown>;

/**
 * The conformance app with one relation more: categories (no Draft & Publish) own `featured`, a manyToMany to
 * articles (with it), read back from articles as `featuredIn`. Strapi links such an owner to both versions of an
 * article; the conformance model has no relation of that shape.
 */
async function modelWithFeatured(): Promise<{ raw: Model; named: Model }> {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-featured-'));
  try {
    cpSync(CONFORMANCE_APP, dir, { recursive: true });
    const patch = (path: string, attributes: Record<string, unknown>) => {
      const file = join(dir, path);
      const schema = JSON.parse(readFileSync(file, 'utf8')) as { attributes: Record<string, unknown> };
      Object.assign(schema.attributes, attributes);
      writeFileSync(file, JSON.stringify(schema));
    };
    patch('src/api/category/content-types/category/schema.json', {
      featured: { type: 'relation', relation: 'manyToMany', target: 'api::article.article', inversedBy: 'featuredIn' },
    });
    patch('src/api/article/content-types/article/schema.json', {
      featuredIn: { type: 'relation', relation: 'manyToMany', target: 'api::category.category', mappedBy: 'featured' },
    });
    const raw = await loadModel(dir);
    return { raw, named: withStrapiNames(raw) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describeEachDialect('RowStore on a database Strapi 5 made', (dialect: DialectName) => {
  let db: Database;
  let drop: () => Promise<void>;
  let model: Model;
  let store: RowStore;
  let restaurant: ContentType;
  let article: ContentType;
  let author: ContentType;

  const rows = (sql: string, params: unknown[] = []) => db.query<Row>(sql, params);
  const ids = async (sql: string, params: unknown[] = []) => (await rows(sql, params)).map((r) => Number(r.id));
  const count = async (sql: string, params: unknown[] = []) => Number((await rows(`SELECT COUNT(*) AS n FROM ${sql}`, params))[0]!.n);
  const q = (name: string) => db.quote(name);
  /** A row as the driver reads it, with SQLite's storage class of each column. */
  const stored = async (schema: ContentType | Component, id: number): Promise<Row | undefined> => {
    const columns = storedColumns(schema);
    const [row] = await rows(`SELECT ${columns.map(q).join(', ')} FROM ${q(schema.table)} WHERE id = ?`, [id]);
    if (!row || dialect !== 'sqlite') return row;
    const [types] = await rows(`SELECT ${columns.map((c) => `typeof(${q(c)}) AS ${q(`typeof ${c}`)}`).join(', ')} FROM ${q(schema.table)} WHERE id = ?`, [id]);
    return { ...row, ...types };
  };
  /** A row's components, every level: field, type, order, values, and (for menus) its dishes; ids left out. */
  const hasCmps = (schema: ContentType | Component) => [...schema.attributes.values()].some((a) => a.kind === 'component' || a.kind === 'dynamiczone');
  const componentTree = async (schema: ContentType | Component, id: number): Promise<unknown[]> => {
    if (!hasCmps(schema)) return [];
    const links = await rows(`SELECT cmp_id, component_type, field, ${q('order')} AS o FROM ${q(schema.componentsTable)} WHERE entity_id = ? ORDER BY field, ${q('order')}, id`, [
      id,
    ]);
    return Promise.all(
      links.map(async (link) => {
        const component = model.components.get(String(link.component_type))!;
        const cmpId = Number(link.cmp_id);
        const dishes =
          component.uid === 'sections.menu'
            ? await rows(`SELECT dish_id, dish_ord FROM components_sections_menus_dishes_lnk WHERE menu_id = ? ORDER BY dish_ord, dish_id`, [cmpId])
            : undefined;
        return {
          field: link.field,
          type: link.component_type,
          order: link.o === null ? null : Number(link.o),
          values: await stored(component, cmpId),
          children: await componentTree(component, cmpId),
          ...(dishes ? { dishes: dishes.map((d) => [Number(d.dish_id), Number(d.dish_ord)]) } : {}),
        };
      }),
    );
  };
  const componentIds = async (schema: ContentType | Component, id: number): Promise<Array<[string, number]>> => {
    if (!hasCmps(schema)) return [];
    const links = await rows(`SELECT cmp_id, component_type FROM ${q(schema.componentsTable)} WHERE entity_id = ?`, [id]);
    const nested = await Promise.all(links.map((l) => componentIds(model.components.get(String(l.component_type))!, Number(l.cmp_id))));
    return [...links.map((l): [string, number] => [String(l.component_type), Number(l.cmp_id)]), ...nested.flat()];
  };
  const media = async (type: string, id: number) =>
    (await rows(`SELECT file_id, field, ${q('order')} AS o FROM files_related_mph WHERE related_id = ? AND related_type = ? ORDER BY field, ${q('order')}, id`, [id, type])).map(
      (r) => [Number(r.file_id), r.field, Number(r.o)],
    );
  /** A list on one side of a join table: [member, order, other side's order], by order. */
  const list = async (table: string, key: string, member: string, order?: string, other?: string) => async (id: number) =>
    (
      await rows(
        `SELECT ${member} AS m${order ? `, ${order} AS o` : ''}${other ? `, ${other} AS x` : ''} FROM ${table} WHERE ${key} = ? ORDER BY ${order ?? member}, ${member}`,
        [id],
      )
    ).map((r) => [Number(r.m), order ? Number(r.o) : null, other ? Number(r.x) : null]);
  /** The version row of a document with the other status (undefined when there is none). */
  const counterpart = async (table: string, id: number, published: boolean) =>
    (
      await ids(
        `SELECT v.id FROM ${table} v JOIN ${table} s ON s.document_id = v.document_id AND (s.locale = v.locale OR (s.locale IS NULL AND v.locale IS NULL)) WHERE s.id = ? AND v.published_at IS ${published ? 'NOT ' : ''}NULL`,
        [id],
      )
    )[0];
  const writesDuring = (fn: () => Promise<unknown>) => writesDuringOn(db, fn);
  /** Rejects with an Error whose message contains `text`. */
  const refused = async (action: () => Promise<unknown>, text: string) => {
    await expect(action()).rejects.toThrow(text);
  };
  /** A datetime as this dialect stores it (Strapi's SQLite: epoch ms; elsewhere UTC wall-clock text). */
  const storedDatetime = (iso: string) =>
    dialect === 'sqlite' ? Date.parse(iso) : dialect === 'postgres' ? iso.replace('T', ' ').replace(/\.?0*Z$/, '') : iso.replace('T', ' ').replace('Z', '000');

  beforeAll(async () => {
    const fixture = await loadStrapiFixture(dialect);
    drop = fixture.drop;
    db = await createDatabase(fixture.config);
    model = withStrapiNames(await loadModel(CONFORMANCE_APP));
    store = new RowStore(db, model);
    restaurant = model.contentTypes.get('api::restaurant.restaurant')!;
    article = model.contentTypes.get('api::article.article')!;
    author = model.contentTypes.get('api::author.author')!;
  }, 120_000);
  afterAll(async () => {
    await db?.close();
    await drop?.();
  });

  it('opens the fixture in Strapi\'s layout, SQLite with foreign keys enforced', async () => {
    expect(await holdsStrapiLayout(db)).toBe(true);
    if (dialect === 'sqlite') expect(Number((await rows('PRAGMA foreign_keys'))[0]!.foreign_keys)).toBe(1);
  });

  it('inserts and updates values in the form Strapi stored them: datetimes, dates, booleans, JSON, numbers', async () => {
    for (const [schema, where] of [
      [restaurant, 'opened_on IS NOT NULL AND tags IS NOT NULL AND open IS NOT NULL AND published_at IS NOT NULL'],
      [article, 'publish_date IS NOT NULL AND views IS NOT NULL AND rating IS NOT NULL'],
    ] as const) {
      const [strapiId] = await ids(`SELECT id FROM ${schema.table} WHERE ${where} ORDER BY id LIMIT 1`);
      const strapiRow = (await stored(schema, strapiId!))!;
      // What a write carries: ISO datetimes, booleans, JSON values; the rest as read.
      const given: Row = {};
      for (const column of storedColumns(schema)) {
        const value = strapiRow[column];
        const attribute = [...schema.attributes.values()].find((a) => a.kind === 'scalar' && a.column === column);
        const type = attribute?.kind === 'scalar' ? attribute.type : ['created_at', 'updated_at', 'published_at'].includes(column) ? 'datetime' : 'other';
        given[column] =
          value === null
            ? null
            : type === 'datetime'
              ? isoDatetime(value)
              : type === 'boolean'
                ? Boolean(Number(value))
                : type === 'json'
                  ? typeof value === 'string'
                    ? JSON.parse(value)
                    : value
                  : value;
      }
      given.document_id = 'zzzzzzzzzzzzzzzzzzzzzzz1';
      const id = await store.insert(schema, given);
      expect(id).toBeGreaterThan(strapiId!);
      const written = (await stored(schema, id))!;
      expect({ ...written, document_id: null }).toEqual({ ...strapiRow, document_id: null });
      if (schema === restaurant) {
        await store.update(schema, [id], { open: false, published_at: '2026-01-02T03:04:05.678Z', opened_on: '2001-02-03', tags: { a: [1, 'é'] } });
        const updated = (await stored(schema, id))!;
        expect(updated.published_at).toEqual(storedDatetime('2026-01-02T03:04:05.678Z'));
        expect(updated.open).toEqual(dialect === 'postgres' ? false : 0);
        expect(updated.opened_on).toBe('2001-02-03');
        expect(typeof updated.tags === 'string' ? JSON.parse(updated.tags) : updated.tags).toEqual({ a: [1, 'é'] });
        if (dialect === 'sqlite') expect([updated['typeof published_at'], updated['typeof open'], updated['typeof opened_on']]).toEqual(['integer', 'integer', 'text']);
        // columnValues reads the stored form back, which insert takes as it is.
        const values = (await store.columnValues(schema, id, ['published_at', 'open', 'created_at']))!;
        expect(values).toEqual({ published_at: updated.published_at, open: updated.open, created_at: strapiRow.created_at });
        const again = await store.insert(schema, { created_at: values.created_at, published_at: values.published_at });
        expect((await stored(schema, again))!.published_at).toEqual(updated.published_at);
        expect(await store.columnValues(schema, 999_999, ['open'])).toBeUndefined();
      }
      await expect(store.insert(schema, { no_such_column: 1 })).rejects.toThrow();
      await expect(store.update(schema, [id], { no_such_column: 1 })).rejects.toThrow();
    }
  });

  it('attaches components with `_cmps.order` NULL for a single one and 1..n in a zone, and reads them back', async () => {
    const [fixtureRow] = await ids(
      `SELECT r.id FROM restaurants r WHERE EXISTS (SELECT 1 FROM restaurants_cmps c WHERE c.entity_id = r.id AND c.field = 'address') AND (SELECT COUNT(*) FROM restaurants_cmps c WHERE c.entity_id = r.id AND c.field = 'blocks') >= 2 ORDER BY r.id LIMIT 1`,
    );
    const read = await store.componentLinks(restaurant, fixtureRow!);
    expect(read.filter((l) => l.field === 'address').map((l) => l.ord)).toEqual([null]);
    const zone = read.filter((l) => l.field === 'blocks').map((l) => l.ord);
    expect(zone).toEqual(zone.map((_, i) => i + 1));

    const rowId = await store.insert(restaurant, { document_id: 'zzzzzzzzzzzzzzzzzzzzzzz2', name: 'cmps', locale: 'en' });
    const address = await store.insert(model.components.get('location.address')!, { street: 's', city: 'c', zip: 'z' });
    const geo = await store.insert(model.components.get('location.geo')!, { lat: 1.5, lng: 2.5 });
    await store.linkComponent(model.components.get('location.address')!, address, geo, 'location.geo', 'geo', null);
    await store.linkComponent(restaurant, rowId, address, 'location.address', 'address', null);
    const heroes = [
      await store.insert(model.components.get('sections.hero')!, { title: 'a' }),
      await store.insert(model.components.get('sections.hero')!, { title: 'b' }),
    ];
    await store.linkComponent(restaurant, rowId, heroes[1]!, 'sections.hero', 'blocks', 1);
    await store.linkComponent(restaurant, rowId, heroes[0]!, 'sections.hero', 'blocks', 2);
    const raw = await rows(`SELECT cmp_id, field, ${q('order')} AS o FROM restaurants_cmps WHERE entity_id = ? ORDER BY id`, [rowId]);
    expect(raw.map((r) => [Number(r.cmp_id), r.field, r.o === null ? null : Number(r.o)])).toEqual([
      [address, 'address', null],
      [heroes[1], 'blocks', 1],
      [heroes[0], 'blocks', 2],
    ]);
    const links = await store.componentLinks(restaurant, rowId);
    expect(links.filter((l) => l.field === 'blocks').map((l) => [Number(l.cmp_id), l.ord])).toEqual([
      [heroes[1], 1],
      [heroes[0], 2],
    ]);
    expect(links.filter((l) => l.field === 'address').map((l) => [Number(l.cmp_id), l.component_type, l.ord])).toEqual([[address, 'location.address', null]]);
    expect((await store.entryComponents(restaurant, rowId, 'blocks')).map((l) => Number(l.cmp_id)).sort()).toEqual([...heroes].sort());

    // Deleting one field's components takes the nested ones and their `_cmps` rows, and nothing of the other field.
    await store.deleteComponents(restaurant, [rowId], 'address');
    expect(await count(`components_location_addresses WHERE id = ?`, [address])).toBe(0);
    expect(await count(`components_location_geos WHERE id = ?`, [geo])).toBe(0);
    expect(await count(`components_location_addresses_cmps WHERE entity_id = ?`, [address])).toBe(0);
    expect((await store.componentLinks(restaurant, rowId)).map((l) => l.field)).toEqual(['blocks', 'blocks']);
  });

  it('deletes rows with their components (all levels), media rows and links on both sides, foreign keys off or on', async () => {
    const [rowId] = await ids(
      `SELECT r.id FROM restaurants r WHERE EXISTS (SELECT 1 FROM restaurants_cmps c WHERE c.entity_id = r.id AND c.component_type = 'sections.menu')
        AND EXISTS (SELECT 1 FROM restaurants_cmps c JOIN components_location_addresses_cmps g ON g.entity_id = c.cmp_id WHERE c.entity_id = r.id)
        AND EXISTS (SELECT 1 FROM files_related_mph m WHERE m.related_id = r.id AND m.related_type = 'api::restaurant.restaurant')
        AND EXISTS (SELECT 1 FROM restaurants_chef_lnk l WHERE l.restaurant_id = r.id)
        AND EXISTS (SELECT 1 FROM restaurants_categories_lnk l WHERE l.restaurant_id = r.id) ORDER BY r.id LIMIT 1`,
    );
    const components = await componentIds(restaurant, rowId!);
    const menus = components.filter(([type]) => type === 'sections.menu').map(([, id]) => id);
    expect(components.map(([type]) => type)).toEqual(expect.arrayContaining(['location.address', 'location.geo', 'sections.menu']));
    const dishLinks = await count(`components_sections_menus_dishes_lnk WHERE menu_id IN (${menus.join(', ')})`);
    expect(dishLinks).toBeGreaterThan(0);
    const tables = ['restaurants', 'restaurants_cmps', 'components_location_addresses_cmps', 'components_sections_menus_dishes_lnk', 'files_related_mph', 'restaurants_chef_lnk', 'restaurants_categories_lnk'];
    const before = Object.fromEntries(await Promise.all(tables.map(async (t) => [t, await count(t)] as const)));
    const own = {
      restaurants_cmps: await count(`restaurants_cmps WHERE entity_id = ?`, [rowId]),
      components_location_addresses_cmps: await count(
        `components_location_addresses_cmps WHERE entity_id IN (SELECT cmp_id FROM restaurants_cmps WHERE entity_id = ? AND field = 'address')`,
        [rowId],
      ),
      files_related_mph: await count(`files_related_mph WHERE related_id = ? AND related_type = 'api::restaurant.restaurant'`, [rowId]),
      restaurants_chef_lnk: await count(`restaurants_chef_lnk WHERE restaurant_id = ?`, [rowId]),
      restaurants_categories_lnk: await count(`restaurants_categories_lnk WHERE restaurant_id = ?`, [rowId]),
    };
    // Strapi's foreign keys would cascade the links: switched off, only the explicit deletes remove them.
    await withoutForeignKeys((trx) => new RowStore(trx, model).deleteRows(restaurant, [rowId!, 999_999]));
    expect(await count(`restaurants WHERE id = ?`, [rowId])).toBe(0);
    for (const [type, id] of components) expect(await count(`${q(model.components.get(type)!.table)} WHERE id = ?`, [id]), `${type} ${id}`).toBe(0);
    const after = Object.fromEntries(await Promise.all(tables.map(async (t) => [t, await count(t)] as const)));
    expect(after).toEqual({
      restaurants: before.restaurants! - 1,
      restaurants_cmps: before.restaurants_cmps! - own.restaurants_cmps,
      components_location_addresses_cmps: before.components_location_addresses_cmps! - own.components_location_addresses_cmps,
      components_sections_menus_dishes_lnk: before.components_sections_menus_dishes_lnk! - dishLinks,
      files_related_mph: before.files_related_mph! - own.files_related_mph,
      restaurants_chef_lnk: before.restaurants_chef_lnk! - own.restaurants_chef_lnk,
      restaurants_categories_lnk: before.restaurants_categories_lnk! - own.restaurants_categories_lnk,
    });

    // An article on both sides of `related`, owner of categories and author links.
    const [articleId] = await ids(
      `SELECT a.id FROM articles a WHERE EXISTS (SELECT 1 FROM articles_related_lnk l WHERE l.inv_article_id = a.id) AND EXISTS (SELECT 1 FROM articles_related_lnk l WHERE l.article_id = a.id)
        AND EXISTS (SELECT 1 FROM articles_categories_lnk l WHERE l.article_id = a.id) AND EXISTS (SELECT 1 FROM articles_author_lnk l WHERE l.article_id = a.id) ORDER BY a.id LIMIT 1`,
    );
    const linkCount = () =>
      Promise.all([
        count(`articles_related_lnk WHERE article_id = ? OR inv_article_id = ?`, [articleId, articleId]),
        count(`articles_categories_lnk WHERE article_id = ?`, [articleId]),
        count(`articles_author_lnk WHERE article_id = ?`, [articleId]),
      ]);
    expect((await linkCount()).every((n) => n > 0)).toBe(true);
    const others = await count(`articles_related_lnk WHERE article_id <> ? AND inv_article_id <> ?`, [articleId, articleId]);
    await withoutForeignKeys((trx) => new RowStore(trx, model).deleteRows(article, [articleId!]));
    expect(await linkCount()).toEqual([0, 0, 0]);
    expect(await count(`articles_related_lnk`)).toBe(others);

    // Targets without Draft & Publish: a category (from articles and restaurants), a dish (from a component).
    const [categoryId] = await ids(
      `SELECT c.id FROM categories c WHERE EXISTS (SELECT 1 FROM articles_categories_lnk l WHERE l.category_id = c.id) AND EXISTS (SELECT 1 FROM restaurants_categories_lnk l WHERE l.category_id = c.id) ORDER BY c.id LIMIT 1`,
    );
    const [dishId] = await ids(`SELECT dish_id AS id FROM components_sections_menus_dishes_lnk ORDER BY id LIMIT 1`);
    await withoutForeignKeys(async (trx) => {
      const trxStore = new RowStore(trx, model);
      await trxStore.deleteRows(model.contentTypes.get('api::category.category')!, [categoryId!]);
      await trxStore.deleteRows(model.contentTypes.get('api::dish.dish')!, [dishId!]);
    });
    expect(await count(`articles_categories_lnk WHERE category_id = ?`, [categoryId])).toBe(0);
    expect(await count(`restaurants_categories_lnk WHERE category_id = ?`, [categoryId])).toBe(0);
    expect(await count(`components_sections_menus_dishes_lnk WHERE dish_id = ?`, [dishId])).toBe(0);

    // Unknown ids, no ids: nothing goes.
    const total = await count('articles');
    await store.deleteRows(article, [999_998]);
    await store.deleteRows(article, []);
    expect(await count('articles')).toBe(total);
  });

  /** Runs `fn` in a transaction with foreign keys unenforced (SQLite: switched off around it). */
  async function withoutForeignKeys(fn: (trx: Database) => Promise<unknown>): Promise<void> {
    if (dialect === 'sqlite') {
      await db.execute('PRAGMA foreign_keys = OFF');
      try {
        expect(Number((await rows('PRAGMA foreign_keys'))[0]!.foreign_keys)).toBe(0);
        await db.transaction(fn);
      } finally {
        await db.execute('PRAGMA foreign_keys = ON');
      }
      return;
    }
    await db.transaction(async (trx) => {
      await trx.execute(dialect === 'postgres' ? 'SET LOCAL session_replication_role = replica' : 'SET FOREIGN_KEY_CHECKS = 0');
      try {
        await fn(trx);
      } finally {
        if (dialect === 'mysql') await trx.execute('SET FOREIGN_KEY_CHECKS = 1');
      }
    });
  }

  it('tells whether a row has links in a relation (either side, components too) or a media field', async () => {
    const rel = (schema: ContentType | Component, name: string) => schema.attributes.get(name) as RelationAttribute | MediaAttribute;
    const [withAvatar] = await ids(`SELECT related_id AS id FROM files_related_mph WHERE related_type = 'api::author.author' AND field = 'avatar' ORDER BY id LIMIT 1`);
    const [withoutAvatar] = await ids(
      `SELECT id FROM authors a WHERE NOT EXISTS (SELECT 1 FROM files_related_mph m WHERE m.related_id = a.id AND m.related_type = 'api::author.author') ORDER BY id LIMIT 1`,
    );
    expect(await hasLinks(db, model, author, rel(author, 'avatar'), withAvatar!)).toBe(true);
    expect(await hasLinks(db, model, author, rel(author, 'avatar'), withoutAvatar!)).toBe(false);
    // A restaurant with that id has no avatar: the type is part of the key.
    expect(await hasLinks(db, model, restaurant, rel(restaurant, 'cover'), withAvatar!)).toBe(
      (await count(`files_related_mph WHERE related_id = ? AND related_type = 'api::restaurant.restaurant' AND field = 'cover'`, [withAvatar])) > 0,
    );
    const [authorWithArticles] = await ids(`SELECT author_id AS id FROM articles_author_lnk ORDER BY id LIMIT 1`);
    const [authorWithout] = await ids(`SELECT id FROM authors a WHERE NOT EXISTS (SELECT 1 FROM articles_author_lnk l WHERE l.author_id = a.id) ORDER BY id LIMIT 1`);
    expect(await hasLinks(db, model, author, rel(author, 'articles'), authorWithArticles!)).toBe(true);
    if (authorWithout !== undefined) expect(await hasLinks(db, model, author, rel(author, 'articles'), authorWithout)).toBe(false);
    const [articleWithCategories] = await ids(`SELECT article_id AS id FROM articles_categories_lnk ORDER BY id LIMIT 1`);
    expect(await hasLinks(db, model, article, rel(article, 'categories'), articleWithCategories!)).toBe(true);
    expect(await hasLinks(db, model, article, rel(article, 'categories'), 999_999)).toBe(false);
    const menu = model.components.get('sections.menu')!;
    const [menuWithDishes] = await ids(`SELECT menu_id AS id FROM components_sections_menus_dishes_lnk ORDER BY id LIMIT 1`);
    expect(await hasLinks(db, model, menu, rel(menu, 'dishes'), menuWithDishes!)).toBe(true);
    expect(await hasLinks(db, model, menu, rel(menu, 'dishes'), 999_999)).toBe(false);
  });

  it('links files in files_related_mph: replace, append with MAX(order) + 1, unknown files left out; uploads attach there', async () => {
    const files = (await rows(`SELECT id, document_id FROM files ORDER BY id`)).map((r) => ({ id: Number(r.id), doc: String(r.document_id) }));
    expect(files.length).toBeGreaterThanOrEqual(3);
    const [f1, f2, f3] = files;
    const rowId = await store.insert(author, { document_id: 'zzzzzzzzzzzzzzzzzzzzzzz3', name: 'media' });
    const type = 'api::author.author';
    expect(await linkFileRows(db, type, rowId, 'avatar', [f1!.doc], 'replace')).toBe(1);
    expect(await media(type, rowId)).toEqual([[f1!.id, 'avatar', 1]]);
    expect(await linkFileRows(db, type, rowId, 'avatar', [f2!.doc, 'nosuchfileaaaaaaaaaaaaaa'], 'replace')).toBe(1);
    expect(await media(type, rowId)).toEqual([[f2!.id, 'avatar', 1]]);
    // A multiple field (the model has none: the rows are the same shape).
    expect(await linkFileRows(db, type, rowId, 'gallery', [f3!.doc, f1!.doc, f3!.doc], 'append')).toBe(2);
    expect(await linkFileRows(db, type, rowId, 'gallery', ['nosuchfileaaaaaaaaaaaaaa', f2!.doc], 'append')).toBe(1);
    expect(await media(type, rowId)).toEqual([
      [f2!.id, 'avatar', 1],
      [f3!.id, 'gallery', 1],
      [f1!.id, 'gallery', 2],
      [f2!.id, 'gallery', 3],
    ]);
    expect(await linkFileRows(db, type, rowId, 'gallery', [], 'replace')).toBe(0);
    expect(await media(type, rowId)).toEqual([[f2!.id, 'avatar', 1]]);
    // The same row id of another type is another row.
    expect(await media('api::restaurant.restaurant', rowId)).toEqual([]);

    // An upload with ref/refId/field: a single media field is replaced (by the last of the files, by id).
    await attachToEntry(db, { contentType: author, attribute: author.attributes.get('avatar') as MediaAttribute, rowId }, [f3!.id, f1!.id]);
    expect(await media(type, rowId)).toEqual([[f3!.id, 'avatar', 1]]);
    await expect(attachToEntry(db, { contentType: author, attribute: author.attributes.get('avatar') as MediaAttribute, rowId: 999_999 }, [f3!.id])).rejects.toThrow('No api::author.author entry');
  });

  it('copies a draft into a NEW published row: columns as stored, components afresh, media, own links mapped', async () => {
    // A restaurant document with everything: its published row goes first (as Strapi's publish deletes it).
    const [draftId] = await ids(
      `SELECT r.id FROM restaurants r WHERE r.published_at IS NULL AND EXISTS (SELECT 1 FROM restaurants_cmps c WHERE c.entity_id = r.id AND c.component_type = 'sections.menu')
        AND EXISTS (SELECT 1 FROM restaurants_cmps c WHERE c.entity_id = r.id AND c.field = 'address')
        AND EXISTS (SELECT 1 FROM files_related_mph m WHERE m.related_id = r.id AND m.related_type = 'api::restaurant.restaurant')
        AND EXISTS (SELECT 1 FROM restaurants_chef_lnk l WHERE l.restaurant_id = r.id)
        AND (SELECT COUNT(*) FROM restaurants_categories_lnk l WHERE l.restaurant_id = r.id) >= 2 ORDER BY r.id DESC LIMIT 1`,
    );
    const oldPublished = await counterpart('restaurants', draftId!, true);
    if (oldPublished !== undefined) await store.deleteRows(restaurant, [oldPublished]);
    const chefs = await list('restaurants_chef_lnk', 'restaurant_id', 'chef_id', undefined, 'restaurant_ord');
    const categories = await list('restaurants_categories_lnk', 'restaurant_id', 'category_id', 'category_ord', 'restaurant_ord');
    const draftRow = (await stored(restaurant, draftId!))!;
    const draftTree = await componentTree(restaurant, draftId!);
    const draftComponentIds = new Set((await componentIds(restaurant, draftId!)).map(([t, id]) => `${t}|${id}`));

    let newId = 0;
    const writes = await writesDuring(async () => {
      newId = await store.copyVersion(restaurant, draftId!, undefined, { published_at: '2026-03-04T05:06:07.089Z' }, 'published');
    });
    expect(newId).toBeGreaterThan(draftId!);
    expect(await stored(restaurant, newId)).toEqual({
      ...draftRow,
      published_at: storedDatetime('2026-03-04T05:06:07.089Z'),
      ...(dialect === 'sqlite' ? { 'typeof published_at': 'integer' } : {}),
    });
    expect(await componentTree(restaurant, newId)).toEqual(draftTree);
    const copiedIds = await componentIds(restaurant, newId);
    expect(copiedIds.length).toBe(draftComponentIds.size);
    for (const [t, id] of copiedIds) expect(draftComponentIds.has(`${t}|${id}`), `${t} ${id} is a fresh row`).toBe(false);
    expect(await media('api::restaurant.restaurant', newId)).toEqual(await media('api::restaurant.restaurant', draftId!));
    // Chefs and categories have no Draft & Publish: the same rows, with the draft links' orders (a first publish).
    expect(await chefs(newId)).toEqual(await chefs(draftId!));
    expect(await categories(newId)).toEqual(await categories(draftId!));
    // The row came by INSERT ... SELECT, links by one statement per join table.
    expect(writes.filter((w) => /^INSERT INTO ["`]restaurants["`] \(/.test(w))).toEqual([expect.stringMatching(/\) SELECT .* FROM ["`]restaurants["`] WHERE id = \?/)]);
    expect(writes.filter((w) => /INSERT INTO \S*restaurants_categories_lnk/.test(w))).toHaveLength(1);
    expect(writes.filter((w) => /INSERT INTO \S*restaurants_chef_lnk/.test(w))).toHaveLength(1);

    // An article whose related list names documents with and without a published version (the fixture's drafts
    // link published documents only: one link to a draft-only document is added).
    const [articleDraft] = await ids(
      `SELECT a.id FROM articles a WHERE a.published_at IS NULL AND (SELECT COUNT(*) FROM articles_related_lnk l WHERE l.article_id = a.id) >= 2 ORDER BY a.id LIMIT 1`,
    );
    const [draftOnly] = await ids(
      `SELECT a.id FROM articles a WHERE NOT EXISTS (SELECT 1 FROM articles p WHERE p.document_id = a.document_id AND p.published_at IS NOT NULL) ORDER BY a.id LIMIT 1`,
    );
    await db.execute(`INSERT INTO articles_related_lnk (article_id, inv_article_id, article_ord) VALUES (?, ?, ?)`, [articleDraft, draftOnly, 1.5]);
    const related = await list('articles_related_lnk', 'article_id', 'inv_article_id', 'article_ord');
    const draftRelated = await related(articleDraft!);
    const expected: unknown[] = [];
    for (const [member, order] of draftRelated) {
      const published = await counterpart('articles', member as number, true);
      if (published !== undefined) expected.push([published, order, null]);
    }
    expect(expected.length).toBe(draftRelated.length - 1);
    const oldArticle = await counterpart('articles', articleDraft!, true);
    if (oldArticle !== undefined) await store.deleteRows(article, [oldArticle]);
    const authors = await list('articles_author_lnk', 'article_id', 'author_id', undefined, 'article_ord');
    const publishedArticle = await store.copyVersion(article, articleDraft!, undefined, { published_at: '2026-03-04T05:06:07.089Z' }, 'published');
    expect(await related(publishedArticle)).toEqual(expected);
    expect(await authors(publishedArticle)).toEqual(await authors(articleDraft!));
  });

  it('copies into an EXISTING row: links equal to the mapped copy, kept members\' other-side order restored, new ones MAX + 1', async () => {
    const [pair] = await rows(
      `SELECT d.id AS d, p.id AS p FROM articles d JOIN articles p ON p.document_id = d.document_id AND p.published_at IS NOT NULL
        WHERE d.published_at IS NULL AND (SELECT COUNT(*) FROM articles_categories_lnk l WHERE l.article_id = p.id) >= 2
        AND EXISTS (SELECT 1 FROM articles_related_lnk l WHERE l.inv_article_id = p.id) ORDER BY d.id LIMIT 1`,
    );
    const [draftId, publishedId] = [Number(pair!.d), Number(pair!.p)];
    const categories = await list('articles_categories_lnk', 'article_id', 'category_id', 'category_ord', 'article_ord');
    const oldPublished = await categories(publishedId);
    // The draft drops the published row's first category and gains one the published row lacks.
    const [dropped] = oldPublished[0]! as number[];
    const [gained] = await ids(`SELECT id FROM categories WHERE id NOT IN (SELECT category_id FROM articles_categories_lnk WHERE article_id IN (?, ?)) ORDER BY id LIMIT 1`, [
      draftId,
      publishedId,
    ]);
    await db.execute(`DELETE FROM articles_categories_lnk WHERE article_id = ? AND category_id = ?`, [draftId, dropped]);
    await db.execute(`INSERT INTO articles_categories_lnk (article_id, category_id, category_ord, article_ord) VALUES (?, ?, ?, ?)`, [draftId, gained, 0.5, 7]);
    const draftList = await categories(draftId);
    const maxOf = async (category: number) => Number((await rows(`SELECT MAX(article_ord) AS m FROM articles_categories_lnk WHERE category_id = ?`, [category]))[0]!.m ?? 0);
    const expected = await Promise.all(
      draftList.map(async ([member, order]) => {
        const old = oldPublished.find(([m]) => m === member);
        return [member, order, old ? old[2] : (await maxOf(member as number)) + 1];
      }),
    );
    expect(expected.some(([m]) => m === gained)).toBe(true);
    const related = await list('articles_related_lnk', 'article_id', 'inv_article_id', 'article_ord');
    const expectedRelated: unknown[] = [];
    for (const [member, order] of await related(draftId)) {
      const published = await counterpart('articles', member as number, true);
      if (published !== undefined) expectedRelated.push([published, order, null]);
    }
    const incoming = await rows(`SELECT id, article_id, article_ord FROM articles_related_lnk WHERE inv_article_id = ? ORDER BY id`, [publishedId]);
    const authors = await list('articles_author_lnk', 'article_id', 'author_id', undefined, 'article_ord');
    const draftRow = (await stored(article, draftId))!;

    const returned = await store.copyVersion(article, draftId, publishedId, { published_at: '2026-05-06T07:08:09.010Z' }, 'published');
    expect(returned).toBe(publishedId);
    expect(await stored(article, publishedId)).toEqual({
      ...draftRow,
      published_at: storedDatetime('2026-05-06T07:08:09.010Z'),
      ...(dialect === 'sqlite' ? { 'typeof published_at': 'integer' } : {}),
    });
    expect(await categories(publishedId)).toEqual(expected);
    expect(await related(publishedId)).toEqual(expectedRelated);
    expect((await authors(publishedId)).map(([m]) => m)).toEqual((await authors(draftId)).map(([m]) => m));
    // Links from other documents' published rows to it are theirs: untouched.
    expect(await rows(`SELECT id, article_id, article_ord FROM articles_related_lnk WHERE inv_article_id = ? ORDER BY id`, [publishedId])).toEqual(incoming);

    // A restaurant's published row: its components replaced by fresh copies of the draft's, its media by the draft's.
    const [rpair] = await rows(
      `SELECT d.id AS d, p.id AS p FROM restaurants d JOIN restaurants p ON p.document_id = d.document_id AND p.locale = d.locale AND p.published_at IS NOT NULL
        WHERE d.published_at IS NULL AND EXISTS (SELECT 1 FROM restaurants_cmps c WHERE c.entity_id = p.id AND c.component_type = 'sections.menu') ORDER BY d.id LIMIT 1`,
    );
    const [rDraft, rPublished] = [Number(rpair!.d), Number(rpair!.p)];
    // The draft changes: a hero fewer, another cover.
    const [hero] = await rows(`SELECT id, cmp_id FROM restaurants_cmps WHERE entity_id = ? AND component_type = 'sections.hero' ORDER BY id LIMIT 1`, [rDraft]);
    if (hero) {
      await db.execute(`DELETE FROM restaurants_cmps WHERE id = ?`, [hero.id]);
      await db.execute(`DELETE FROM components_sections_heroes WHERE id = ?`, [hero.cmp_id]);
    }
    const [file] = await ids(`SELECT id FROM files ORDER BY id DESC LIMIT 1`);
    await db.execute(`DELETE FROM files_related_mph WHERE related_id = ? AND related_type = 'api::restaurant.restaurant'`, [rDraft]);
    await db.execute(`INSERT INTO files_related_mph (file_id, related_id, related_type, field, ${q('order')}) VALUES (?, ?, 'api::restaurant.restaurant', 'cover', 1)`, [file, rDraft]);
    const oldComponents = await componentIds(restaurant, rPublished);
    const oldMenus = oldComponents.filter(([t]) => t === 'sections.menu').map(([, id]) => id);
    await store.copyVersion(restaurant, rDraft, rPublished, { published_at: '2026-05-06T07:08:09.010Z' }, 'published');
    expect(await componentTree(restaurant, rPublished)).toEqual(await componentTree(restaurant, rDraft));
    for (const [type, id] of oldComponents) expect(await count(`${q(model.components.get(type)!.table)} WHERE id = ?`, [id]), `${type} ${id} deleted`).toBe(0);
    expect(await count(`components_sections_menus_dishes_lnk WHERE menu_id IN (${oldMenus.join(', ')})`)).toBe(0);
    expect(await media('api::restaurant.restaurant', rPublished)).toEqual([[file, 'cover', 1]]);

    // Discarding a draft: the published row copied back, related members mapped to their drafts.
    const [withRelated] = await rows(
      `SELECT d.id AS d, p.id AS p FROM articles d JOIN articles p ON p.document_id = d.document_id AND p.published_at IS NOT NULL
        WHERE d.published_at IS NULL AND (SELECT COUNT(*) FROM articles_related_lnk l WHERE l.article_id = p.id) >= 1 ORDER BY d.id DESC LIMIT 1`,
    );
    const [d2, p2] = [Number(withRelated!.d), Number(withRelated!.p)];
    const expectedDrafts: unknown[] = [];
    for (const [member, order] of await related(p2)) {
      const draft = await counterpart('articles', member as number, false);
      if (draft !== undefined) expectedDrafts.push([draft, order, null]);
    }
    expect(expectedDrafts.length).toBeGreaterThan(0);
    await store.copyVersion(article, p2, d2, { published_at: null }, 'draft');
    expect(await related(d2)).toEqual(expectedDrafts);
    expect((await stored(article, d2))!.published_at).toBeNull();
  });

  it('refuses bad input before writing anything', async () => {
    const [draftId] = await ids(`SELECT id FROM articles WHERE published_at IS NULL ORDER BY id LIMIT 1`);
    const before = await count('articles');
    await refused(() => store.copyVersion(article, 999_999, undefined, {}, 'published'), 'articles has no row 999999 to copy from');
    await refused(() => store.copyVersion(article, draftId!, 999_999, {}, 'published'), 'articles has no row 999999 to copy to');
    await refused(() => store.copyVersion(article, draftId!, draftId!, {}, 'published'), `row ${draftId} cannot be copied onto itself`);
    await refused(() => store.copyVersion(article, 0, undefined, {}, 'published'), 'the row copied from must be a row id');
    await refused(() => store.copyVersion(article, draftId!, 1.5, {}, 'published'), 'the row copied to must be a row id');
    await refused(() => store.copyVersion(article, draftId!, undefined, { no_such_column: 1 }, 'published'), 'articles has no column no_such_column to override');
    expect(await count('articles')).toBe(before);
  });

  it('makes the lists of owners without Draft & Publish equal on both versions when publishing', async () => {
    const featured = await modelWithFeatured();
    const category = featured.named.contentTypes.get('api::category.category')!;
    const join = joinTableOf(featured.named, category, category.attributes.get('featured') as RelationAttribute);
    expect(join).toMatchObject({ name: 'categories_featured_lnk', ownerColumn: 'category_id', targetColumn: 'article_id', orderColumn: 'article_ord', inverseOrderColumn: 'category_ord' });
    await createStrapiTables(
      db,
      planStrapiLayout(featured.raw, dialect).filter((t) => t.name === join.name),
    );
    const featuredStore = new RowStore(db, featured.named);
    const featuredArticle = featured.named.contentTypes.get('api::article.article')!;
    const [pair] = await rows(
      `SELECT d.id AS d, p.id AS p FROM articles d JOIN articles p ON p.document_id = d.document_id AND p.published_at IS NOT NULL WHERE d.published_at IS NULL ORDER BY d.id LIMIT 1`,
    );
    const [draftId, publishedId] = [Number(pair!.d), Number(pair!.p)];
    const [c1, c2, c3, c4] = await ids(`SELECT id FROM categories ORDER BY id LIMIT 4`);
    const [otherArticle] = await ids(`SELECT id FROM articles WHERE id NOT IN (?, ?) ORDER BY id LIMIT 1`, [draftId, publishedId]);
    const link = (owner: number, target: number, ord: number, inv: number) =>
      db.execute(`INSERT INTO categories_featured_lnk (category_id, article_id, article_ord, category_ord) VALUES (?, ?, ?, ?)`, [owner, target, ord, inv]);
    // c1 links both versions; c2 only the draft (after another article); c3 only the old published row; c4 neither.
    await link(c1!, draftId, 1, 2);
    await link(c1!, publishedId, 2, 5);
    await link(c2!, otherArticle!, 1, 1);
    await link(c2!, draftId, 2, 1);
    await link(c3!, publishedId, 1, 3);
    const owners = await list('categories_featured_lnk', 'article_id', 'category_id', 'category_ord', 'article_ord');
    const ownerList = await list('categories_featured_lnk', 'category_id', 'article_id', 'article_ord');

    await featuredStore.copyVersion(featuredArticle, draftId, publishedId, {}, 'published');
    // The published row's owners are the draft's, in the draft's order; c1 keeps its place in its own list, c2 gets
    // the published row last in its list, c3 loses it.
    expect(await owners(publishedId)).toEqual([
      [c2, 1, 3],
      [c1, 2, 2],
    ]);
    expect(await ownerList(c2!)).toEqual([
      [otherArticle, 1, null],
      [draftId, 2, null],
      [publishedId, 3, null],
    ]);
    expect(await ownerList(c3!)).toEqual([]);
    expect(await ownerList(c4!)).toEqual([]);
    // A new published row gets the same.
    const fresh = await featuredStore.copyVersion(featuredArticle, draftId, undefined, { published_at: '2026-01-01T00:00:00.000Z' }, 'published');
    expect((await owners(fresh)).map(([m, o]) => [m, o])).toEqual([
      [c2, 1],
      [c1, 2],
    ]);
    // Discarding a draft leaves the owners' links alone.
    await db.execute(`DELETE FROM categories_featured_lnk WHERE article_id = ? AND category_id = ?`, [publishedId, c2]);
    const draftOwners = await owners(draftId);
    await featuredStore.copyVersion(featuredArticle, publishedId, draftId, { published_at: null }, 'draft');
    expect(await owners(draftId)).toEqual(draftOwners);
    // And deleting the article removes the links from its owners (a relation of another type targeting it).
    await featuredStore.deleteRows(featuredArticle, [draftId]);
    expect(await count(`categories_featured_lnk WHERE article_id = ?`, [draftId])).toBe(0);
  });
});
