import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../helpers/databases.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { contentStatements } from '../helpers/auth-statements.js';

const ct = (singularName: string, pluralName: string, attributes: object, draftAndPublish = true) => ({
  kind: 'collectionType',
  collectionName: pluralName,
  info: { singularName, pluralName, displayName: singularName },
  options: { draftAndPublish },
  attributes,
});

/**
 * Strapi 5's polymorphic relations on its own tables: a morphToMany's `shops_items_mph` rows (owner row, linked row
 * and type, field, order), a morphToOne's `target_id`/`target_type` columns, the inverse sides (morphMany,
 * morphOne) read and written through them; populate with `__type`; the draft's links mapped to published rows on
 * publish; filters on a morph attribute refused as Strapi refuses them.
 */
describeEachDialect('morph relations in Strapi 5 tables', (dialect) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(dialect, {
      contentTypes: {
        product: ct('product', 'products', { name: { type: 'string' } }),
        note: ct('note', 'notes', { text: { type: 'string' } }, false),
        shop: ct('shop', 'shops', {
          name: { type: 'string' },
          items: { type: 'relation', relation: 'morphToMany' },
          featured: { type: 'relation', relation: 'morphToOne' },
          backlinks: { type: 'relation', relation: 'morphMany', target: 'api::shop.shop', morphBy: 'items' },
          featuredBy: { type: 'relation', relation: 'morphOne', target: 'api::shop.shop', morphBy: 'featured' },
        }),
      },
    });
  }, 120_000);
  afterAll(() => app?.close());

  const create = async (plural: string, data: object, query = '') => {
    const r = await app.request('POST', `/api/${plural}${query}`, { data });
    expect(r.status, r.raw).toBe(201);
    return r.body.data as { id: number; documentId: string };
  };
  const P = 'api::product.product';
  const N = 'api::note.note';
  const populate = 'populate[items]=true&populate[featured]=true';

  it('connects, orders, disconnects and sets a morphToMany of several types, each item with __type', async () => {
    const [p1, p2] = [await create('products', { name: 'p1' }), await create('products', { name: 'p2' })];
    const n1 = await create('notes', { text: 'n1' });
    const shop = await create('shops', {
      name: 's',
      items: { connect: [{ __type: P, documentId: p1.documentId }, { __type: N, id: n1.documentId }, { __type: P, documentId: p2.documentId, position: { start: true } }] },
      featured: { __type: N, documentId: n1.documentId },
    }, `?status=draft&${populate}`);
    let r = await app.request('GET', `/api/shops/${shop.documentId}?status=draft&${populate}`);
    expect(r.status, r.raw).toBe(200);
    expect(r.body.data.items.map((i: { __type: string; documentId: string }) => [i.__type, i.documentId])).toEqual([
      [P, p2.documentId],
      [P, p1.documentId],
      [N, n1.documentId],
    ]);
    expect(Object.keys(r.body.data.items[0]).at(-1)).toBe('__type');
    // Stored as Strapi stores them: the draft row's links, the linked draft rows, `field` NULL from a create, `order` 1..n.
    const q = (name: string) => app.cairn.db.quote(name);
    const stored = await app.cairn.db.query<Record<string, unknown>>(
      `SELECT shop_id, items_id, items_type, field, ${q('order')} AS o FROM shops_items_mph WHERE shop_id = ? ORDER BY ${q('order')}`,
      [shop.id],
    );
    const draftRow = async (table: string, documentId: string) =>
      Number((await app.cairn.db.query<{ id: number }>(`SELECT id FROM ${table} WHERE document_id = ? AND published_at IS NULL`, [documentId]))[0].id);
    expect(stored.map((row) => [Number(row.items_id), row.items_type, row.field, Number(row.o)])).toEqual([
      [await draftRow('products', p2.documentId), P, null, 1],
      [await draftRow('products', p1.documentId), P, null, 2],
      [n1.id, N, null, 3],
    ]);
    const [own] = await app.cairn.db.query<{ target_id: number; target_type: string }>('SELECT target_id, target_type FROM shops WHERE id = ?', [shop.id]);
    expect([Number(own.target_id), own.target_type]).toEqual([n1.id, N]);
    // One statement per read, whatever the types (besides the API token's lookup).
    const statements: string[] = [];
    const stop = app.cairn.db.onQuery((sql) => void statements.push(sql));
    const list = await app.request('GET', `/api/shops?status=draft&${populate}`);
    stop();
    expect(list.status, list.raw).toBe(200);
    expect(contentStatements(statements)).toHaveLength(1);
    expect(r.body.data.featured).toMatchObject({ documentId: n1.documentId, text: 'n1', __type: N });

    // on[uid] reads only the types it names.
    r = await app.request('GET', `/api/shops/${shop.documentId}?status=draft&populate[items][on][${N}]=true`);
    expect(r.body.data.items.map((i: { documentId: string }) => i.documentId)).toEqual([n1.documentId]);

    // after an anchor, then disconnect.
    r = await app.request('PUT', `/api/shops/${shop.documentId}?status=draft&${populate}`, {
      data: { items: { connect: [{ __type: P, documentId: p2.documentId, position: { after: p1.documentId } }], disconnect: [{ __type: N, documentId: n1.documentId }] } },
    });
    expect(r.status, r.raw).toBe(200);
    expect(r.body.data.items.map((i: { documentId: string }) => i.documentId)).toEqual([p1.documentId, p2.documentId]);

    // An anchor that is not in the list is a 400; nothing changed.
    r = await app.request('PUT', `/api/shops/${shop.documentId}?status=draft`, {
      data: { items: { connect: [{ __type: P, documentId: p1.documentId, position: { before: n1.documentId, __type: N } }] } },
    });
    expect(r.status, r.raw).toBe(400);

    r = await app.request('PUT', `/api/shops/${shop.documentId}?status=draft&${populate}`, { data: { items: [{ __type: N, documentId: n1.documentId }], featured: null } });
    expect(r.body.data.items.map((i: { documentId: string }) => i.documentId)).toEqual([n1.documentId]);
    expect(r.body.data.featured).toBeNull();
  });

  it('refuses bad morph values, unknown types and filters on a morph attribute', async () => {
    const p = await create('products', { name: 'p' });
    for (const items of [
      { connect: [{ documentId: p.documentId }] },
      { connect: [{ __type: 'api::nope.nope', documentId: p.documentId }] },
      { connect: [{ __type: P, documentId: p.documentId }, 'invalid'] },
      { connect: [{ __type: P, documentId: p.documentId }], invalid: 'fake' },
      { options: { strict: true, invalid: true }, connect: [] },
      { connect: [{ __type: P, documentId: 'missing-document' }] },
      'a-string',
    ]) {
      const r = await app.request('POST', '/api/shops', { data: { name: 'x', items } });
      expect(r.status, JSON.stringify(items)).toBe(400);
      expect(r.body.error.name).toBe('ValidationError');
    }
    const r = await app.request('GET', '/api/shops?filters[items][id][$eq]=1');
    expect(r.status).toBe(400);
    expect(r.body.error.message).toBe('Invalid key items');
  });

  it("takes an item's entry id as a number or its digits, answers each item with its row's id and documentId, and an emptied list as []", async () => {
    const [p1, p2] = [await create('products', { name: 'by id 1' }), await create('products', { name: 'by id 2' })];
    const n1 = await create('notes', { text: 'by id n' });
    const draftRow = async (documentId: string) =>
      Number((await app.cairn.db.query<{ id: number }>('SELECT id FROM products WHERE document_id = ? AND published_at IS NULL', [documentId]))[0].id);
    const [d1, d2] = [await draftRow(p1.documentId), await draftRow(p2.documentId)];
    // Strapi's Query Engine writes an item's `id` as the linked row's id: a number, or a string of its digits
    // (every database casts '12' to 12). A documentId goes in `documentId`.
    const shop = await create('shops', {
      name: 'by id',
      items: { connect: [{ __type: P, id: String(d1) }, { __type: N, id: n1.id }, { __type: P, documentId: p2.documentId }] },
    }, '?status=draft');
    let r = await app.request('GET', `/api/shops/${shop.documentId}?status=draft&${populate}`);
    expect(r.status, r.raw).toBe(200);
    // Each item is its row: the row's own id and its documentId (Strapi 5's answer; never the documentId as `id`).
    expect(r.body.data.items.map((i: { __type: string; id: number; documentId: string }) => [i.__type, i.id, i.documentId])).toEqual([
      [P, d1, p1.documentId],
      [N, n1.id, n1.documentId],
      [P, d2, p2.documentId],
    ]);
    r = await app.request('PUT', `/api/shops/${shop.documentId}?status=draft&${populate}`, {
      data: { items: { disconnect: [{ __type: P, id: String(d1) }, { __type: N, id: String(n1.id) }] } },
    });
    expect(r.status, r.raw).toBe(200);
    expect(r.body.data.items.map((i: { documentId: string }) => i.documentId)).toEqual([p2.documentId]);
    // A row id that names no entry, an item naming no entry at all: 400s (Strapi stores a link to no row, or fails
    // in its Query Engine with a 500); nothing changed.
    for (const items of [{ connect: [{ __type: P, id: '999999' }] }, { connect: [{ __type: P }] }, { disconnect: [{ __type: P, id: null }] }]) {
      r = await app.request('PUT', `/api/shops/${shop.documentId}?status=draft`, { data: { items } });
      expect(r.status, JSON.stringify(items)).toBe(400);
      expect(r.body.error.name).toBe('ValidationError');
    }
    r = await app.request('PUT', `/api/shops/${shop.documentId}?status=draft&${populate}`, {
      data: { items: { disconnect: [{ __type: P, documentId: p2.documentId }] } },
    });
    expect(r.status, r.raw).toBe(200);
    expect(r.body.data.items).toEqual([]);
  });

  it('publishes a draft with its links mapped to published rows, and reads the inverse sides', async () => {
    const p = await create('products', { name: 'pub' });
    const draftOnly = await create('products', { name: 'draft only' }, '?status=draft');
    const n = await create('notes', { text: 'n' });
    const target = await create('shops', { name: 'target' });
    const shop = await create('shops', {
      name: 'owner',
      items: [
        { __type: P, documentId: p.documentId },
        { __type: P, documentId: draftOnly.documentId },
        { __type: N, documentId: n.documentId },
        { __type: 'api::shop.shop', documentId: target.documentId },
      ],
      featured: { __type: 'api::shop.shop', documentId: target.documentId },
    });
    // The published shop links published rows (a product without a published version is dropped), a type without
    // Draft & Publish its one row.
    let r = await app.request('GET', `/api/shops/${shop.documentId}?${populate}`);
    expect(r.status, r.raw).toBe(200);
    expect(r.body.data.items.map((i: { documentId: string; publishedAt?: string | null }) => i.documentId)).toEqual([p.documentId, n.documentId, target.documentId]);
    expect(r.body.data.items[0].publishedAt).not.toBeNull();
    expect(r.body.data.featured).toMatchObject({ documentId: target.documentId, __type: 'api::shop.shop' });
    // The inverse sides of the target: the shops whose `items` / `featured` link it.
    r = await app.request('GET', `/api/shops/${target.documentId}?populate[backlinks]=true&populate[featuredBy]=true`);
    expect(r.status, r.raw).toBe(200);
    // Links written from the owner side carry no `field` of an inverse attribute (Strapi's reads filter on it).
    expect(r.body.data.backlinks).toEqual([]);
    expect(r.body.data.featuredBy).toMatchObject({ documentId: shop.documentId });

    // Written from the inverse side: a morphMany on the target.
    const other = await create('shops', { name: 'other' });
    r = await app.request('PUT', `/api/shops/${target.documentId}?populate[backlinks]=true`, { data: { backlinks: [{ __type: 'api::shop.shop', documentId: other.documentId }] } });
    expect(r.status, r.raw).toBe(200);
    expect(r.body.data.backlinks.map((s: { documentId: string }) => s.documentId)).toEqual([other.documentId]);
    r = await app.request('GET', `/api/shops/${other.documentId}?populate[items]=true`);
    expect(r.body.data.items.map((i: { documentId: string; __type: string }) => [i.__type, i.documentId])).toEqual([['api::shop.shop', target.documentId]]);
  });

  it('publishes a morph list in as many statements whatever its length (its rows mapped per linked type, not one by one)', async () => {
    const products: Array<{ id: number; documentId: string }> = [];
    for (let i = 0; i < 6; i++) products.push(await create('products', { name: `m${i}` }));
    const publishing = async (n: number) => {
      const items = products.slice(0, n).map((p) => ({ __type: P, documentId: p.documentId }));
      const shop = await create('shops', { name: `list of ${n}`, items }, '?status=draft');
      const statements: string[] = [];
      const stop = app.cairn.db.onQuery((sql) => void statements.push(sql));
      const r = await app.request('PUT', `/api/shops/${shop.documentId}?${populate}`, { data: { name: `published ${n}` } });
      stop();
      expect(r.status, r.raw).toBe(200);
      expect(r.body.data.items.map((i: { documentId: string }) => i.documentId)).toEqual(items.map((i) => i.documentId));
      return contentStatements(statements).length;
    };
    expect(await publishing(6)).toBe(await publishing(2));
  });

  it('serves a morphToMany in GraphQL as Strapi\'s GenericMorph union, each item by its __typename', async () => {
    const p = await create('products', { name: 'gq product' });
    const n = await create('notes', { text: 'gq note' });
    const shop = await create('shops', { name: 'gq', items: [{ __type: N, documentId: n.documentId }, { __type: P, documentId: p.documentId }], featured: { __type: P, documentId: p.documentId } });
    const query = `query($id: ID!) { shop(documentId: $id) { name items { __typename ... on Product { name } ... on Note { text } } featured { __typename ... on Product { documentId } } } }`;
    const r = await app.request('POST', '/graphql', { query, variables: { id: shop.documentId } });
    expect(r.status, r.raw).toBe(200);
    expect(r.body.errors, r.raw).toBeUndefined();
    expect(r.body.data.shop).toEqual({
      name: 'gq',
      items: [{ __typename: 'Note', text: 'gq note' }, { __typename: 'Product', name: 'gq product' }],
      featured: { __typename: 'Product', documentId: p.documentId },
    });
    const schema = await app.request('POST', '/graphql', { query: '{ __type(name: "GenericMorph") { kind possibleTypes { name } } }' });
    expect(schema.body.data.__type.kind).toBe('UNION');
    expect(schema.body.data.__type.possibleTypes.map((t: { name: string }) => t.name)).toEqual(expect.arrayContaining(['Product', 'Note', 'Shop']));
  });
});

describeEachDialect("morph relations in the seed's GraphQL shape (v4: data { attributes })", (dialect) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(dialect, {
      contentTypes: {
        product: ct('product', 'products', { name: { type: 'string' } }),
        shop: ct('shop', 'shops', {
          name: { type: 'string' },
          items: { type: 'relation', relation: 'morphToMany' },
          backlinks: { type: 'relation', relation: 'morphMany', target: 'api::shop.shop', morphBy: 'items' },
        }),
      },
      config: { plugins: { graphql: { config: { shape: 'v4' } } } },
    });
  }, 120_000);
  afterAll(() => app?.close());

  it('serves GenericMorph items as the types\' attributes, and a morphMany as a relation collection', async () => {
    const p = (await app.request('POST', '/api/products', { data: { name: 'v4 product' } })).body.data;
    const target = (await app.request('POST', '/api/shops', { data: { name: 'target' } })).body.data;
    const shop = (await app.request('POST', '/api/shops', { data: { name: 'v4', items: [{ __type: 'api::product.product', documentId: p.documentId }] } })).body.data;
    let r = await app.request('PUT', `/api/shops/${target.documentId}`, { data: { backlinks: [{ __type: 'api::shop.shop', documentId: shop.documentId }] } });
    expect(r.status, r.raw).toBe(200);
    r = await app.request('POST', '/graphql', {
      query: `{ shops(sort: "name") { data { attributes { name items { __typename ... on Product { name } } backlinks { data { attributes { name } } } } } } }`,
    });
    expect(r.body.errors, r.raw).toBeUndefined();
    expect(r.body.data.shops.data.map((s: { attributes: unknown }) => s.attributes)).toEqual([
      { name: 'target', items: [], backlinks: { data: [{ attributes: { name: 'v4' } }] } },
      // The link written from the target's morphMany is in the owner's list too (Strapi reads every row of it).
      { name: 'v4', items: [{ __typename: 'Product', name: 'v4 product' }, { __typename: 'Shop' }], backlinks: { data: [] } },
    ]);
  });
});
