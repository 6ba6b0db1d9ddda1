import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../helpers/databases.js';
import { startTestApp, type TestApp, type TestSchemas } from '../helpers/app.js';

type Entry = Record<string, any>;

/**
 * `Strapi-Response-Format: v4`: Strapi 5 answers its Content API in v4's shape when a client sends it. The expected
 * forms are those Strapi 5.54.0 answered on the reference server: `{ id, documentId, attributes }`, relations and
 * media as `{ data }` (a count as `{ data: { attributes: { count } } }`), components and dynamic-zone items flat.
 */
const schemas: TestSchemas = {
  contentTypes: {
    dish: {
      kind: 'collectionType',
      collectionName: 'dishes',
      info: { singularName: 'dish', pluralName: 'dishes', displayName: 'dish' },
      options: { draftAndPublish: false },
      attributes: { name: { type: 'string' } },
    },
    place: {
      kind: 'collectionType',
      collectionName: 'places',
      info: { singularName: 'place', pluralName: 'places', displayName: 'place' },
      options: { draftAndPublish: true },
      pluginOptions: { i18n: { localized: true } },
      attributes: {
        name: { type: 'string', pluginOptions: { i18n: { localized: true } } },
        chef: { type: 'relation', relation: 'manyToOne', target: 'api::dish.dish' },
        dishes: { type: 'relation', relation: 'manyToMany', target: 'api::dish.dish' },
        cover: { type: 'media', multiple: false },
        address: { type: 'component', component: 'parts.address' },
        blocks: { type: 'dynamiczone', components: ['parts.menu', 'parts.address'] },
      },
    },
  },
  components: {
    'parts.address': { collectionName: 'components_parts_addresses', info: { displayName: 'address' }, attributes: { city: { type: 'string' } } },
    'parts.menu': {
      collectionName: 'components_parts_menus',
      info: { displayName: 'menu' },
      attributes: { title: { type: 'string' }, dishes: { type: 'relation', relation: 'oneToMany', target: 'api::dish.dish' } },
    },
  },
};

const V4 = { 'strapi-response-format': 'v4' };

describeEachDialect('Strapi-Response-Format: v4', (dialect) => {
  let app: TestApp;
  let dish: Entry;
  let file: Entry;
  let place: Entry;
  beforeAll(async () => {
    app = await startTestApp(dialect, schemas);
    dish = (await app.request('POST', '/api/dishes', { data: { name: 'Soup' } })).body.data;
    const form = new FormData();
    form.append('files', new Blob([new Uint8Array(Buffer.from('%PDF-1.4\n%%EOF\n'))], { type: 'application/pdf' }), 'menu.pdf');
    const multipart = new Response(form);
    const uploaded = await app.cairn.fastify.inject({
      method: 'POST',
      url: '/api/upload',
      payload: Buffer.from(await multipart.arrayBuffer()),
      headers: { 'content-type': multipart.headers.get('content-type')!, authorization: `Bearer ${app.token}` },
    });
    expect(uploaded.statusCode).toBe(201);
    file = JSON.parse(uploaded.body)[0];
    const res = await app.request('POST', '/api/places', {
      data: {
        name: 'Inn',
        dishes: [dish.documentId],
        cover: file.id,
        address: { city: 'Paris' },
        blocks: [{ __component: 'parts.menu', title: 'Lunch', dishes: [dish.documentId] }, { __component: 'parts.address', city: 'Lyon' }],
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    place = res.body.data;
  });
  afterAll(async () => app?.close());

  const populate = 'populate[chef]=true&populate[dishes][fields][0]=name&populate[cover][fields][0]=name&populate[address]=true&populate[blocks][populate]=*&populate[localizations][fields][0]=name';

  it('a list: entries as { id, documentId, attributes }, relations and media in data, components flat', async () => {
    const res = await app.request('GET', `/api/places?fields[0]=name&${populate}`, undefined, V4);
    expect(res.status).toBe(200);
    const named = { id: dish.id, documentId: dish.documentId, attributes: { name: 'Soup' } };
    expect(res.body).toEqual({
      data: [
        {
          id: place.id,
          documentId: place.documentId,
          attributes: {
            name: 'Inn',
            chef: { data: null },
            dishes: { data: [named] },
            cover: { data: { id: file.id, documentId: file.documentId, attributes: { name: 'menu.pdf' } } },
            address: { id: expect.any(Number), city: 'Paris' },
            blocks: [
              {
                id: expect.any(Number),
                __component: 'parts.menu',
                title: 'Lunch',
                dishes: { data: [{ ...named, attributes: expect.objectContaining({ name: 'Soup', createdAt: expect.any(String) }) }] },
              },
              { id: expect.any(Number), __component: 'parts.address', city: 'Lyon' },
            ],
            localizations: { data: [] },
          },
        },
      ],
      meta: { pagination: { page: 1, pageSize: 25, pageCount: 1, total: 1 } },
    });
  });

  it('one entry, and a count, as Strapi 5 shapes them', async () => {
    const one = await app.request('GET', `/api/places/${place.documentId}?populate[dishes][count]=true&fields[0]=name`, undefined, V4);
    expect(one.body).toEqual({
      data: { id: place.id, documentId: place.documentId, attributes: { name: 'Inn', dishes: { data: { attributes: { count: 1 } } } } },
      meta: {},
    });
  });

  it('writes answer in v4 shape too (create, update, publish action); errors and other routes keep theirs', async () => {
    const created = await app.request('POST', '/api/dishes', { data: { name: 'Tart' } }, V4);
    expect(created.status).toBe(201);
    expect(created.body.data).toEqual({
      id: expect.any(Number),
      documentId: expect.any(String),
      attributes: { name: 'Tart', createdAt: expect.any(String), updatedAt: expect.any(String), publishedAt: expect.any(String) },
    });
    const updated = await app.request('PUT', `/api/places/${place.documentId}?status=draft&fields[0]=name`, { data: { name: 'Inn 2' } }, V4);
    expect(updated.body.data).toEqual({ id: expect.any(Number), documentId: place.documentId, attributes: { name: 'Inn 2' } });
    const published = await app.request('POST', `/api/places/${place.documentId}/actions/publish`, undefined, V4);
    expect(published.body.data.attributes).toMatchObject({ name: 'Inn 2', locale: 'en' });
    const refused = await app.request('POST', '/api/dishes', { data: { name: {} } }, V4);
    expect(refused.body).toMatchObject({ data: null, error: { status: 400, name: 'ValidationError' } });
    const files = await app.request('GET', '/api/upload/files', undefined, V4);
    expect(files.body[0]).toMatchObject({ id: file.id, name: 'menu.pdf' });
    expect(files.body[0]).not.toHaveProperty('attributes');
  });

  it('only the exact value v4 asks for it', async () => {
    const res = await app.request('GET', `/api/dishes/${dish.documentId}`, undefined, { 'strapi-response-format': 'V4' });
    expect(res.body.data).toMatchObject({ id: dish.id, documentId: dish.documentId, name: 'Soup' });
  });
});
