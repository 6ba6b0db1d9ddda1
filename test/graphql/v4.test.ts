import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../helpers/databases.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { kitchen } from '../fixtures/kitchen.js';
import { contentStatements } from '../helpers/auth-statements.js';

type Entry = Record<string, any>;

// The seed's shape: Cairn's `shape: 'v4'`.
const model = {
  ...kitchen,
  config: {
    plugins: {
      ...kitchen.config!.plugins,
      graphql: { config: { shape: 'v4', depthLimit: 7, amountLimit: 4 } },
      'users-permissions': { config: { jwtSecret: 'gql4-secret' } },
    },
    permissions: { roles: { public: { permissions: ['api::restaurant.restaurant.find', 'api::chef.chef.find'] } } },
  },
};

const names = (list: { data: Entry[] }) => list.data.map((e) => e.attributes.name);

describeEachDialect('GraphQL, the seed shape (Strapi v4: data { id attributes })', (dialect) => {
  let app: TestApp;
  const gql = async (query: string, variables?: Entry, headers?: Record<string, string>) => {
    const res = await app.request('POST', '/graphql', { query, variables }, headers);
    return { status: res.status, body: res.body as { data?: Entry; errors?: Entry[] } };
  };
  const chefs: string[] = [];
  const restaurants: Record<string, string> = {};
  beforeAll(async () => {
    app = await startTestApp(dialect, model);
    for (const [name, age] of [['Ann', 30], ['Bob', 45], ['Cid', 60]] as const) {
      chefs.push((await app.request('POST', '/api/chefs', { data: { name, age, address: { city: `${name}ville`, geo: { lat: 1, lng: 2 } } } })).body.data.documentId);
    }
    const cats = [];
    for (const name of ['Pizza', 'Sushi']) cats.push((await app.request('POST', '/api/categories', { data: { name } })).body.data.documentId);
    for (const [name, stars, chef] of [['R1', 5, 0], ['R2', 3, 0], ['R3', 4, 1]] as const) {
      const res = await app.request('POST', '/api/restaurants', {
        data: { name, stars, chef: chefs[chef], categories: cats, blocks: [{ __component: 'sections.hero', title: `Hero ${name}` }, { __component: 'sections.menu', title: 'Menu', items: [{ lat: 1, lng: 1 }] }] },
      });
      restaurants[name] = res.body.data.documentId;
    }
    // R1 gets a newer draft; "Draft" exists only as a draft (Ann's too); R1 has a French version.
    await app.request('PUT', `/api/restaurants/${restaurants.R1}?status=draft`, { data: { name: 'R1 (edit)' } });
    restaurants.Draft = (await app.request('POST', '/api/restaurants?status=draft', { data: { name: 'Draft', stars: 1, chef: chefs[0] } })).body.data.documentId;
    await app.request('PUT', `/api/restaurants/${restaurants.R1}?locale=fr`, { data: { name: 'R1 fr' } });
  });
  afterAll(async () => app?.close());

  it('lists answer { data: [{ id, attributes }], meta: { pagination } }; id is the documentId', async () => {
    const res = await gql('{ chefs(sort: "name:asc", pagination: { page: 2, pageSize: 2 }) { data { id attributes { name age } } meta { pagination { page pageSize pageCount total } } } }');
    expect(res.body).toEqual({
      data: { chefs: { data: [{ id: chefs[2], attributes: { name: 'Cid', age: 60 } }], meta: { pagination: { page: 2, pageSize: 2, pageCount: 2, total: 3 } } } },
    });
    const offset = await gql('{ chefs(sort: ["age:desc"], pagination: { start: 1, limit: 1 }) { data { attributes { name } } meta { pagination { page pageSize total } } } }');
    expect(offset.body.data!.chefs).toEqual({ data: [{ attributes: { name: 'Bob' } }], meta: { pagination: { page: 2, pageSize: 1, total: 3 } } });
    const capped = await gql('{ restaurants(pagination: { pageSize: 50 }, publicationState: PREVIEW) { data { id } meta { pagination { pageSize } } } }');
    expect(capped.body.data!.restaurants.data).toHaveLength(4);
    expect(capped.body.data!.restaurants.meta.pagination.pageSize).toBe(4);
  });

  it('filters: every family of operator, `id` as the documentId, deep through relations and components', async () => {
    const chefNames = async (filters: string, variables?: Entry) =>
      names((await gql(`query${variables ? '($id: ID)' : ''} { chefs(filters: ${filters}, sort: "name:asc") { data { attributes { name } } } }`, variables)).body.data!.chefs);
    expect(await chefNames('{ name: { eqi: "ann" } }')).toEqual(['Ann']);
    expect(await chefNames('{ age: { between: [40, 70] } }')).toEqual(['Bob', 'Cid']);
    expect(await chefNames('{ id: { eq: $id } }', { id: chefs[1] })).toEqual(['Bob']);
    expect(await chefNames('{ or: [{ name: { startsWith: "A" } }, { not: { age: { lt: 50 } } }] }')).toEqual(['Ann', 'Cid']);
    expect(await chefNames('{ restaurants: { stars: { eq: 4 } } }')).toEqual(['Bob']);
    expect(await chefNames('{ address: { geo: { lat: { gt: 0 } }, city: { endsWith: "ville" } } }')).toEqual(['Ann', 'Bob', 'Cid']);
    expect(await chefNames('{ restaurants: { id: { null: true } } }')).toEqual(['Cid']);
    const bad = await gql('{ chefs(sort: "nope:asc") { data { id } } }');
    expect(bad.status).toBe(200);
    expect(bad.body.errors![0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', error: { name: 'ValidationError' } });
    expect(bad.body.data).toEqual({ chefs: null });
    const unknown = await gql('{ chefs(filters: { nope: { eq: 1 } }) { data { id } } }');
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors![0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
  });

  it('nested relations (aliases with their own sort and pagination), components and dynamic zones in one statement', async () => {
    const statements: string[] = [];
    const stop = app.cairn.db.onQuery((sql) => statements.push(sql));
    const res = await gql(`{
      restaurants(sort: "name:asc") { data { id attributes {
        name
        chef { data { id attributes { name address { city } } } }
        categories(sort: "name:desc") { data { attributes { name } } }
        firstCategory: categories(sort: "name:asc", pagination: { limit: 1 }) { data { attributes { name } } }
        blocks { __typename ... on ComponentSectionsHero { title } ... on ComponentSectionsMenu { title items { lat } } }
      } } }
    }`);
    stop();
    expect(res.body.errors).toBeUndefined();
    const [r1, r2] = res.body.data!.restaurants.data;
    expect(r1.id).toBe(restaurants.R1);
    expect(r1.attributes).toEqual({
      name: 'R1',
      chef: { data: { id: chefs[0], attributes: { name: 'Ann', address: { city: 'Annville' } } } },
      categories: { data: [{ attributes: { name: 'Sushi' } }, { attributes: { name: 'Pizza' } }] },
      firstCategory: { data: [{ attributes: { name: 'Pizza' } }] },
      blocks: [
        { __typename: 'ComponentSectionsHero', title: 'Hero R1' },
        { __typename: 'ComponentSectionsMenu', title: 'Menu', items: [{ lat: 1 }] },
      ],
    });
    expect(r2.attributes.name).toBe('R2');
    const component = await gql('query($id: ID) { chefs(filters: { id: { eq: $id } }) { data { attributes { address { city geo { lat lng } } } } } }', { id: chefs[1] });
    expect(component.body.data!.chefs.data[0].attributes.address).toEqual({ city: 'Bobville', geo: { lat: 1, lng: 2 } });
    expect(contentStatements(statements)).toHaveLength(1);
  });

  it('publicationState: LIVE the published versions, PREVIEW the latest content with publishedAt when published', async () => {
    const live = await gql('{ restaurants(sort: "name:asc") { data { attributes { name publishedAt } } meta { pagination { total } } } }');
    expect(names(live.body.data!.restaurants)).toEqual(['R1', 'R2', 'R3']);
    expect(live.body.data!.restaurants.data.every((e: Entry) => typeof e.attributes.publishedAt === 'string')).toBe(true);
    const preview = await gql('{ restaurants(publicationState: PREVIEW, sort: "name:asc") { data { attributes { name publishedAt } } } }');
    const byName = Object.fromEntries(preview.body.data!.restaurants.data.map((e: Entry) => [e.attributes.name, e.attributes.publishedAt]));
    expect(Object.keys(byName)).toEqual(['Draft', 'R1 (edit)', 'R2', 'R3']);
    expect(byName.Draft).toBeNull();
    expect(byName['R1 (edit)']).toEqual(expect.any(String));
    // Nested lists of Draft & Publish types default to LIVE and take their own publicationState.
    const nested = await gql(`query($id: ID) { chefs(filters: { id: { eq: $id } }) { data { attributes {
      live: restaurants(sort: "name:asc") { data { attributes { name } } }
      preview: restaurants(sort: "name:asc", publicationState: PREVIEW) { data { attributes { name publishedAt } } }
    } } } }`, { id: chefs[0] });
    const ann = nested.body.data!.chefs.data[0].attributes;
    expect(names(ann.live)).toEqual(['R1', 'R2']);
    expect(ann.preview.data.map((e: Entry) => [e.attributes.name, e.attributes.publishedAt === null])).toEqual([
      ['Draft', true],
      ['R1 (edit)', false],
      ['R2', false],
    ]);
  });

  it('locale and localizations; a single entry is { data } and null when missing', async () => {
    const fr = await gql('{ restaurants(locale: "fr") { data { id attributes { name locale localizations { data { attributes { name locale } } } } } } }');
    expect(fr.body.data!.restaurants.data).toEqual([
      { id: restaurants.R1, attributes: { name: 'R1 fr', locale: 'fr', localizations: { data: [{ attributes: { name: 'R1', locale: 'en' } }] } } },
    ]);
    const one = await gql('query($id: ID) { restaurant(id: $id) { data { id attributes { name publishedAt } } } }', { id: restaurants.Draft });
    expect(one.body.data!.restaurant).toEqual({ data: { id: restaurants.Draft, attributes: { name: 'Draft', publishedAt: null } } });
    const missing = await gql('{ restaurant(id: "nope") { data { id } } }');
    expect(missing.body).toEqual({ data: { restaurant: { data: null } } });
    const badLocale = await gql('{ restaurants(locale: "de") { data { id } } }');
    expect(badLocale.body.errors![0].extensions.code).toBe('BAD_USER_INPUT');
  });

  it('mutations: create makes a draft unless publishedAt is given, update publishes, delete returns the entry once', async () => {
    const draft = await gql('mutation { createRestaurant(data: { name: "New", stars: 2, chef: "' + chefs[2] + '" }) { data { id attributes { name publishedAt chef { data { attributes { name } } } } } } }');
    expect(draft.body.data!.createRestaurant.data.attributes).toEqual({ name: 'New', publishedAt: null, chef: { data: { attributes: { name: 'Cid' } } } });
    const id = draft.body.data!.createRestaurant.data.id;
    expect((await app.request('GET', `/api/restaurants/${id}`)).status).toBe(404);
    const published = await gql(`mutation { updateRestaurant(id: "${id}", data: { publishedAt: "2024-01-01T00:00:00.000Z" }) { data { attributes { name publishedAt } } } }`);
    expect(published.body.data!.updateRestaurant.data.attributes).toEqual({ name: 'New', publishedAt: expect.any(String) });
    expect((await app.request('GET', `/api/restaurants/${id}`)).status).toBe(200);
    // An update without publishedAt keeps a published entry published, with the new content.
    await gql(`mutation { updateRestaurant(id: "${id}", data: { name: "Newer" }) { data { id } } }`);
    expect((await app.request('GET', `/api/restaurants/${id}`)).body.data.name).toBe('Newer');
    const created = await gql('mutation { createChef(data: { name: "Dee", age: 40 }) { data { id attributes { name } } } }');
    expect(created.body.data!.createChef.data.attributes).toEqual({ name: 'Dee' });
    const invalid = await gql('mutation { createChef(data: { name: "x" }) { data { id } } }');
    expect(invalid.body.errors![0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', error: { name: 'ValidationError' } });
    expect(invalid.body.data).toEqual({ createChef: null });
    const deleted = await gql(`mutation { deleteRestaurant(id: "${id}") { data { id attributes { name chef { data { id } } cook: chef { data { id } } } } } }`);
    expect(deleted.body.data!.deleteRestaurant).toEqual({ data: { id, attributes: { name: 'Newer', chef: { data: null }, cook: { data: null } } } });
    expect((await gql(`mutation { deleteRestaurant(id: "${id}") { data { id } } }`)).body.data!.deleteRestaurant).toEqual({ data: null });
    expect((await gql('mutation { updateChef(id: "nope", data: { age: 20 }) { data { id } } }')).body.data!.updateChef).toEqual({ data: null });
  });

  it('permissions and me: FORBIDDEN without the action, on a relation to a type the caller may not find, or without credentials', async () => {
    const none = { authorization: '' };
    const forbidden = await gql('mutation { createChef(data: { name: "Eve" }) { data { id } } }', undefined, none);
    expect(forbidden.body.errors![0].extensions).toMatchObject({ code: 'FORBIDDEN', error: { name: 'ForbiddenError' } });
    const populated = await gql('{ restaurants(sort: "name:asc") { data { attributes { name chef { data { attributes { name } } } categories { data { id } } } } } }', undefined, none);
    // Strapi v4's type builder gives each relation field its target's `find` scope: the public role may not find
    // categories, so that field is a FORBIDDEN error and null (a nullable RelationResponseCollection).
    expect(populated.body.data!.restaurants.data[0].attributes).toEqual({ name: 'R1', chef: { data: { attributes: { name: 'Ann' } } }, categories: null });
    expect(populated.body.errors![0]).toMatchObject({ message: 'Forbidden access', path: ['restaurants', 'data', 0, 'attributes', 'categories'], extensions: { code: 'FORBIDDEN' } });
    const me = await gql('{ me { id username } }', undefined, none);
    expect(me.body.errors![0].extensions.code).toBe('FORBIDDEN');
    const mixed = await gql('{ chefs(pagination: { page: 1, limit: 2 }) { data { id } } }');
    expect(mixed.body.errors![0].extensions).toMatchObject({ code: 'STRAPI_PAGINATION_ERROR', error: { name: 'PaginationError' } });
  });

  it('depthLimit counts the wrappers: one level deeper than the limit is rejected before running', async () => {
    const atLimit = await gql('{ chefs { data { attributes { restaurants { data { attributes { name } } } } } } }');
    expect(atLimit.body.errors).toBeUndefined();
    const deep = await gql('{ chefs { data { attributes { restaurants { data { attributes { chef { data { id } } } } } } } } }');
    expect(deep.status).toBe(400);
    expect(deep.body.errors![0].message).toContain('exceeds maximum operation depth of 7');
  });
});
