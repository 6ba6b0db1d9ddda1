import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../helpers/databases.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { kitchen } from '../fixtures/kitchen.js';
import { contentStatements } from '../helpers/auth-statements.js';

type Entry = Record<string, any>;

/**
 * The compiled path (the statement builds the response JSON, no field resolvers) must answer exactly as field
 * resolvers do. A directive anywhere in a query sends it down the resolver path, so each query runs both ways and
 * the answers are compared; the statements show which path ran (only the resolver path reads entries in REST's
 * form, which starts with the row's numeric `id`: `'id', t0."id"` in json_object/JSON_OBJECT, `(SELECT t0."id"
 * AS "id"` in PostgreSQL's row_to_json sub-select).
 */
const REST_FORM = /'id', t0\.["`]id["`]|\(SELECT t0\."id" AS "id"/;
const V4_QUERIES: Record<string, string> = {
  'relations, components, dynamic zones, meta': `{
    restaurants(sort: "name:asc", pagination: { page: 1, pageSize: 4 }) {
      data { id attributes {
        name stars locale publishedAt createdAt
        chef { data { id attributes { name age big active born shift hiredAt tags kind rating salary address { id city geo { lat lng } } } } }
        categories(sort: "name:desc") { data { id attributes { name restaurants(pagination: { limit: 2 }, sort: "name:desc") { data { attributes { name } } } } } }
        blocks { __typename ... on ComponentSectionsHero { id title } ... on ComponentSectionsMenu { title items { lat lng } } }
      } }
      meta { pagination { total pageCount page pageSize } }
    }
  }`,
  'aliases, __typename at every level, fragments': `
    fragment Names on Restaurant { name first: categories(sort: "name:asc", pagination: { limit: 1 }) { __typename data { __typename id } } }
    query Named {
      __typename
      list: restaurants(sort: "name:desc") { __typename data { __typename id attributes { __typename ...Names chef { __typename data { id } } } } }
      more: chefs(sort: "age:desc", pagination: { start: 1, limit: 2 }) { meta { __typename pagination { __typename total } } data { attributes { name } } }
    }`,
  'single entries, localizations, nested publication states, empty relations': `query($id: ID) {
    restaurant(id: $id) { data { id attributes { name locale localizations { data { attributes { name locale } } } } } }
    missing: restaurant(id: "nope") { data { id } }
    chefs(sort: "name:asc") { data { attributes { name live: restaurants(sort: "name:asc") { data { attributes { name } } } preview: restaurants(sort: "name:asc", publicationState: PREVIEW) { data { attributes { name publishedAt } } } } } }
    preview: restaurants(publicationState: PREVIEW, locale: "fr", sort: "name:asc") { data { attributes { name publishedAt chef { data { id } } categories { data { id } } } } }
  }`,
  'nothing found': `{ restaurants(filters: { name: { eq: "nobody" } }) { data { id attributes { name } } meta { pagination { total pageCount } } } }`,
  'single entries: __typename at every level': `query($id: ID) {
    restaurant(id: $id) { __typename data { __typename id attributes { __typename name chef { __typename data { __typename id attributes { __typename name address { __typename city geo { __typename lat } } } } } categories { __typename data { __typename } } blocks { __typename } } } }
    only: restaurant(id: $id) { data { __typename } }
    aliased: restaurant(id: $id) { data { kind: __typename ... on RestaurantEntity { again: __typename } } }
    missing: restaurant(id: "nope") { __typename data { __typename } }
  }`,
};

const V5_QUERIES: Record<string, string> = {
  'relations, components, dynamic zones': `{
    restaurants(sort: "name:asc", pagination: { page: 1, pageSize: 4 }) {
      name documentId stars locale publishedAt
      chef { documentId name age big active born shift hiredAt tags kind rating salary address { id city geo { lat lng } } }
      categories(sort: "name:desc") { name restaurants(pagination: { limit: 2 }, sort: "name:desc") { name } }
      blocks { __typename ... on ComponentSectionsHero { id title } ... on ComponentSectionsMenu { title items { lat lng } } }
    }
  }`,
  'connections, aliases, __typename, fragments': `
    fragment Names on Restaurant { name first: categories(sort: "name:asc", pagination: { limit: 1 }) { __typename name } }
    query Named {
      __typename
      list: restaurants(sort: "name:desc") { __typename ...Names chef { __typename documentId } }
      page: restaurants_connection(sort: "name:asc", pagination: { page: 2, pageSize: 2 }) { __typename nodes { name categories_connection(sort: "name:asc") { nodes { name } } } pageInfo { __typename total pageCount page pageSize } }
    }`,
  'single documents and statuses': `query($id: ID!) {
    restaurant(documentId: $id) { name locale localizations { name locale } }
    draft: restaurant(documentId: $id, status: DRAFT, locale: "fr") { name publishedAt }
    missing: restaurant(documentId: "nope") { name }
    drafts: restaurants(status: DRAFT, sort: "name:asc") { name chef { name } }
  }`,
  'single entries: __typename at every level': `query($id: ID!) {
    restaurant(documentId: $id) { __typename name chef { __typename name address { __typename city geo { __typename lat } } } categories { __typename } blocks { __typename } }
    only: restaurant(documentId: $id) { __typename }
    aliased: restaurant(documentId: $id) { kind: __typename ... on Restaurant { again: __typename } }
    missing: restaurant(documentId: "nope") { __typename }
  }`,
};

/**
 * Strapi 5 with `v4CompatibilityMode: true`: its operations, and the deprecated v4-style fields leading back to
 * the same values (an entry's `data` and `attributes` are the entry, its `id` the row's; a collection's `data` is
 * its `nodes`, `meta` its `pageInfo`), at every level, mixed with the flat fields.
 */
const COMPAT_QUERIES: Record<string, string> = {
  'relations, components, dynamic zones, meta, through data and attributes': `{
    restaurants_connection(sort: "name:asc", pagination: { page: 1, pageSize: 4 }) {
      data { id documentId attributes {
        name stars locale publishedAt
        chef { data { id attributes { name age big active born hiredAt tags kind address { id attributes { city } data { geo { data { lat } lng } } } } } }
        categories_connection(sort: "name:desc") { data { attributes { name restaurants(pagination: { limit: 2 }, sort: "name:desc") { data { attributes { name } } } } } }
        blocks { __typename ... on ComponentSectionsHero { id data { title } } ... on ComponentSectionsMenu { attributes { title items { attributes { lat } lng } } } }
      } }
      meta { pagination { total pageCount page pageSize } }
    }
  }`,
  'a relation read outside and inside data, with other arguments and fields': `{
    restaurants(sort: "name:asc") {
      name
      categories(sort: "name:asc") { name }
      data { name categories(sort: "name:desc", pagination: { limit: 1 }) { documentId } chef { name } }
      attributes { data { categories(sort: "name:asc") { slug } } }
      chef { age }
    }
  }`,
  'aliases of data and attributes, __typename, fragments': `
    fragment Names on Restaurant { name first: categories_connection(sort: "name:asc", pagination: { limit: 1 }) { __typename data { __typename id name } } }
    query Named {
      __typename
      list: restaurants(sort: "name:desc") { __typename d1: data { __typename ...Names } d2: data { chef { a1: attributes { name } a2: attributes { age } } } }
      page: restaurants_connection(sort: "name:asc", pagination: { page: 2, pageSize: 2 }) { __typename data { id } meta { __typename pagination { __typename total pageCount } } }
    }`,
  'single entries and statuses': `query($id: ID!) {
    restaurant(documentId: $id) { data { id name locale localizations_connection { data { attributes { name locale } } } } }
    draft: restaurant(documentId: $id, status: DRAFT, locale: "fr") { attributes { name publishedAt } }
    missing: restaurant(documentId: "nope") { data { name } }
  }`,
  'single entries: __typename at every level': `query($id: ID!) {
    restaurant(documentId: $id) { __typename name data { __typename } chef { __typename name attributes { __typename } address { __typename city geo { __typename lat } } } categories { __typename } blocks { __typename } }
    only: restaurant(documentId: $id) { __typename }
    aliased: restaurant(documentId: $id) { kind: __typename ... on Restaurant { again: __typename } }
    missing: restaurant(documentId: "nope") { __typename }
  }`,
};

const withGraphql = (config: Record<string, unknown>) => ({ ...kitchen, config: { plugins: { ...kitchen.config!.plugins, graphql: { config } } } });
const SHAPES = [
  { shape: "seed (v4, shape: 'v4')", queries: V4_QUERIES, model: withGraphql({ shape: 'v4' }) },
  { shape: 'Strapi v5', queries: V5_QUERIES, model: withGraphql({}) },
  { shape: 'Strapi v5 with v4CompatibilityMode', queries: COMPAT_QUERIES, model: withGraphql({ v4CompatibilityMode: true }) },
];

for (const { shape, queries, model } of SHAPES) describeEachDialect(`GraphQL ${shape} shape: the compiled path answers as field resolvers do`, (dialect) => {
  let app: TestApp;
  let first = '';
  beforeAll(async () => {
    app = await startTestApp(dialect, model);
    const chefs: string[] = [];
    const chefData = [
      { name: 'Ann', age: 30, big: '9007199254740993', active: true, born: '1990-01-02', shift: '08:30:00.000', hiredAt: '2020-01-01T10:00:00.000Z', tags: { a: [1, 2] }, kind: 'head', rating: 4.5, salary: 12.5, address: { city: 'Lyon', geo: { lat: 45.7, lng: 4.8 } } },
      { name: 'Bob', age: 40 },
    ];
    for (const data of chefData) chefs.push((await app.request('POST', '/api/chefs', { data })).body.data.documentId);
    const categories: string[] = [];
    for (const name of ['Pizza', 'Sushi', 'Tapas']) categories.push((await app.request('POST', '/api/categories', { data: { name } })).body.data.documentId);
    for (const [i, name] of ['Alpha', 'Beta', 'Gamma', 'Delta', 'Eps'].entries()) {
      const data = {
        name,
        stars: i,
        chef: i < 4 ? chefs[i % 2] : null,
        categories: categories.slice(0, i % 4),
        blocks: i % 2 ? [{ __component: 'sections.hero', title: `Hero ${name}` }, { __component: 'sections.menu', title: 'Menu', items: [{ lat: i, lng: -i }] }] : [],
      };
      const created = await app.request('POST', `/api/restaurants${i === 4 ? '?status=draft' : ''}`, { data });
      if (i === 0) first = created.body.data.documentId;
    }
    await app.request('PUT', `/api/restaurants/${first}?locale=fr&status=draft`, { data: { name: 'Alpha fr' } });
  });
  afterAll(async () => app?.close());

  const run = async (query: string, variables: Entry) => {
    const statements: string[] = [];
    const stop = app.cairn.db.onQuery((sql) => statements.push(sql));
    const res = await app.request('POST', '/graphql', { query, variables });
    stop();
    return { body: res.body as { data?: Entry; errors?: unknown[] }, compiled: !statements.some((s) => REST_FORM.test(s)) };
  };

  it.each(Object.entries(queries))('%s', async (_label, query) => {
    const compiled = await run(query, { id: first });
    expect(compiled.body.errors).toBeUndefined();
    expect(compiled.compiled).toBe(true);
    // `@include(if: true)` changes nothing in the answer but takes the resolver path.
    const withDirective = query.replace(/([{\s])name(?=[\s}])/, '$1name @include(if: true)');
    expect(withDirective).not.toBe(query);
    const resolved = await run(withDirective, { id: first });
    expect(resolved.compiled).toBe(false);
    expect(JSON.stringify(compiled.body)).toBe(JSON.stringify(resolved.body));
  });

  it('every object type answers __typename, on a single entry as on lists, on both paths', async () => {
    const query = queries['single entries: __typename at every level'];
    const v4 = shape.startsWith('seed');
    for (const text of [query, query.replace(/([{\s])name(?=[\s}])/, '$1name @include(if: true)')]) {
      const { data, errors } = (await run(text, { id: first })).body;
      expect(errors).toBeUndefined();
      const typenames: unknown[] = [];
      JSON.stringify(data, (key, value) => (key === '__typename' || key === 'kind' || key === 'again' ? typenames.push(value) : 0, value));
      expect(typenames.length).toBeGreaterThan(6);
      expect(typenames.every((t) => typeof t === 'string' && t.length > 0), JSON.stringify(data)).toBe(true);
      if (v4) {
        expect(data!.restaurant.data.__typename).toBe('RestaurantEntity');
        expect(data!.restaurant.data.attributes.chef).toMatchObject({ __typename: 'ChefEntityResponse', data: { __typename: 'ChefEntity', attributes: { __typename: 'Chef', address: { __typename: 'ComponentLocationAddress' } } } });
        expect(data!.only).toEqual({ data: { __typename: 'RestaurantEntity' } });
        expect(data!.aliased).toEqual({ data: { kind: 'RestaurantEntity', again: 'RestaurantEntity' } });
        expect(data!.missing).toEqual({ __typename: 'RestaurantEntityResponse', data: null });
      } else {
        expect(data!.restaurant).toMatchObject({ __typename: 'Restaurant', chef: { __typename: 'Chef', address: { __typename: 'ComponentLocationAddress' } } });
        expect(data!.only).toEqual({ __typename: 'Restaurant' });
        expect(data!.aliased).toEqual({ kind: 'Restaurant', again: 'Restaurant' });
        expect(data!.missing).toBeNull();
      }
    }
  });

  it('bad input or a denied caller takes the resolver path, which answers it', async () => {
    const bad = await run('{ restaurants(pagination: { page: 1, limit: 2 }) { __typename } }', {});
    expect(bad.body.errors).toHaveLength(1);
    expect((bad.body.errors as Entry[])[0].extensions.code).toBe('STRAPI_PAGINATION_ERROR');
    const forbidden = await app.request('POST', '/graphql', { query: '{ restaurants { __typename } }' }, { authorization: '' });
    expect((forbidden.body.errors as Entry[])[0].extensions.code).toBe('FORBIDDEN');
  });
});

describeEachDialect('GraphQL seed shape: one statement for 100 entries with nested lists', (dialect) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(dialect, withGraphql({ shape: 'v4' }));
    const categories: string[] = [];
    for (const name of ['Pizza', 'Sushi', 'Tapas']) categories.push((await app.request('POST', '/api/categories', { data: { name } })).body.data.documentId);
    const chef = (await app.request('POST', '/api/chefs', { data: { name: 'Ann' } })).body.data.documentId;
    for (let i = 0; i < 100; i++) {
      await app.request('POST', '/api/restaurants', { data: { name: `R${String(i).padStart(3, '0')}`, chef, categories: [categories[i % 3], categories[(i + 1) % 3]] } });
    }
  });
  afterAll(async () => app?.close());

  it("100 restaurants with chef, categories and each category's restaurants: one SQL statement", async () => {
    const statements: string[] = [];
    const stop = app.cairn.db.onQuery((sql) => statements.push(sql));
    const res = await app.request('POST', '/graphql', {
      query: `{ restaurants(pagination: { pageSize: 100 }, sort: "name:asc") { data { id attributes { name
        chef { data { id attributes { name } } }
        categories { data { id attributes { name restaurants(sort: "name:asc") { data { id attributes { name } } } } } }
      } } } }`,
    });
    stop();
    const data = res.body.data.restaurants.data as Entry[];
    expect(data).toHaveLength(100);
    expect(data[99].attributes.name).toBe('R099');
    expect(data[0].attributes.categories.data.map((c: Entry) => c.attributes.name)).toEqual(['Pizza', 'Sushi']);
    // Nested lists have GraphQL's default page size (10).
    expect(data[0].attributes.categories.data[0].attributes.restaurants.data).toHaveLength(10);
    const own = contentStatements(statements);
    expect(own, own.join('\n---\n')).toHaveLength(1);
  });
});
