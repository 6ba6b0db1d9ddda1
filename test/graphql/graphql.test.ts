import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachDialect } from '../helpers/databases.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { kitchen } from '../fixtures/kitchen.js';
import { contentStatements } from '../helpers/auth-statements.js';

type Entry = Record<string, any>;

const model = {
  ...kitchen,
  config: {
    plugins: {
      ...kitchen.config!.plugins,
      graphql: { config: { v4CompatibilityMode: false, depthLimit: 5, amountLimit: 3 } },
      'users-permissions': { config: { jwtSecret: 'gql-secret' } },
    },
    permissions: { roles: { public: { permissions: ['api::restaurant.restaurant.find', 'api::chef.chef.find', 'api::chef.chef.findOne'] } } },
  },
};

describeEachDialect('GraphQL (Strapi v5 shape)', (dialect) => {
  let app: TestApp;
  const gql = async (query: string, variables?: Entry, headers?: Record<string, string>) => {
    const res = await app.request('POST', '/graphql', { query, variables }, headers);
    return { status: res.status, body: res.body as { data?: Entry; errors?: Entry[] } };
  };
  let chefs: string[] = [];
  beforeAll(async () => {
    app = await startTestApp(dialect, model);
    for (const [name, age] of [['Ann', 30], ['Bob', 45], ['Cid', 60]] as const) {
      chefs.push((await app.request('POST', '/api/chefs', { data: { name, age, address: { city: `${name}ville`, geo: { lat: 1, lng: 2 } } } })).body.data.documentId);
    }
    const cats = [];
    for (const name of ['Pizza', 'Sushi']) cats.push((await app.request('POST', '/api/categories', { data: { name } })).body.data.documentId);
    for (const [name, stars, chef] of [['R1', 5, 0], ['R2', 3, 0], ['R3', 4, 1]] as const) {
      await app.request('POST', '/api/restaurants', {
        data: { name, stars, chef: chefs[chef], categories: cats, blocks: [{ __component: 'sections.hero', title: `Hero ${name}` }, { __component: 'sections.menu', title: 'Menu', items: [{ lat: 1, lng: 1 }] }] },
      });
    }
    await app.request('POST', '/api/restaurants?status=draft', { data: { name: 'Draft', stars: 1 } });
    chefs = [...chefs];
  });
  afterAll(async () => app?.close());

  it('lists with filters (every family of operator), sort and pagination', async () => {
    const names = async (filters: string) => (await gql(`{ chefs(filters: ${filters}, sort: "name:asc") { name } }`)).body.data!.chefs.map((c: Entry) => c.name);
    expect(await names('{ name: { eq: "Ann" } }')).toEqual(['Ann']);
    expect(await names('{ name: { containsi: "B" } }')).toEqual(['Bob']);
    expect(await names('{ age: { gte: 45 } }')).toEqual(['Bob', 'Cid']);
    expect(await names('{ age: { between: [40, 50] } }')).toEqual(['Bob']);
    expect(await names('{ age: { in: [30, 60] } }')).toEqual(['Ann', 'Cid']);
    expect(await names('{ or: [{ name: { eq: "Ann" } }, { age: { gt: 50 } }] }')).toEqual(['Ann', 'Cid']);
    expect(await names('{ not: { name: { startsWith: "A" } } }')).toEqual(['Bob', 'Cid']);
    expect(await names('{ restaurants: { stars: { eq: 4 } } }')).toEqual(['Bob']);
    expect(await names('{ address: { city: { eq: "Cidville" } } }')).toEqual(['Cid']);
    const page = await gql('{ chefs_connection(pagination: { page: 2, pageSize: 2 }, sort: "name:asc") { nodes { name } pageInfo { page pageSize pageCount total } } }');
    expect(page.body.data!.chefs_connection).toEqual({ nodes: [{ name: 'Cid' }], pageInfo: { page: 2, pageSize: 2, pageCount: 2, total: 3 } });
    const offset = await gql('{ chefs(pagination: { start: 1, limit: 1 }, sort: ["age:desc"]) { name } }');
    expect(offset.body.data!.chefs).toEqual([{ name: 'Bob' }]);
  });

  it('nested relations, components and dynamic zones in one query, compiled to one statement', async () => {
    const statements: string[] = [];
    const stop = app.cairn.db.onQuery((sql) => statements.push(sql));
    const res = await gql(`{
      restaurants(sort: "name:asc") {
        name stars
        chef { name address { city geo { lat } } }
        categories(sort: "name:desc") { name restaurants { name } }
        blocks { __typename ... on ComponentSectionsHero { title } ... on ComponentSectionsMenu { title items { lat } } }
      }
    }`);
    stop();
    expect(res.body.errors).toBeUndefined();
    const [r1] = res.body.data!.restaurants;
    expect(r1).toMatchObject({ name: 'R1', stars: 5, chef: { name: 'Ann', address: { city: 'Annville', geo: { lat: 1 } } } });
    expect(r1.categories.map((c: Entry) => c.name)).toEqual(['Sushi', 'Pizza']);
    expect(r1.categories[0].restaurants.map((r: Entry) => r.name)).toEqual(['R1', 'R2', 'R3']);
    expect(r1.blocks).toEqual([
      { __typename: 'ComponentSectionsHero', title: 'Hero R1' },
      { __typename: 'ComponentSectionsMenu', title: 'Menu', items: [{ lat: 1 }] },
    ]);
    expect(contentStatements(statements)).toHaveLength(1);
  });

  it('status and single documents', async () => {
    const drafts = await gql('{ restaurants(status: DRAFT, sort: "name:asc") { name publishedAt } }');
    expect(drafts.body.data!.restaurants.map((r: Entry) => r.name)).toEqual(['Draft', 'R1', 'R2']);
    const one = await gql('query($id: ID!) { chef(documentId: $id) { name restaurants_connection(pagination: { limit: 1 }, sort: "name:desc") { nodes { name } } } }', { id: chefs[0] });
    expect(one.body.data!.chef).toEqual({ name: 'Ann', restaurants_connection: { nodes: [{ name: 'R2' }] } });
    expect((await gql('{ chef(documentId: "doesnotexist0000000000000") { name } }')).body.data!.chef).toBeNull();
  });

  it('mutations create, update and delete; a bad enum value is a validation error', async () => {
    const created = await gql('mutation($data: ChefInput!) { createChef(data: $data) { documentId name kind } }', { data: { name: 'Dee', kind: 'head' } });
    const id = created.body.data!.createChef.documentId;
    expect(created.body.data!.createChef).toMatchObject({ name: 'Dee', kind: 'head' });
    const updated = await gql(`mutation { updateChef(documentId: "${id}", data: { age: 33 }) { name age } }`);
    expect(updated.body.data!.updateChef).toEqual({ name: 'Dee', age: 33 });
    const bad = await gql(`mutation { updateChef(documentId: "${id}", data: { kind: chef }) { name } }`);
    expect(bad.status).toBe(400);
    expect(bad.body.errors![0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
    const invalid = await gql(`mutation { updateChef(documentId: "${id}", data: { age: 3 }) { name } }`);
    expect(invalid.status).toBe(200);
    expect(invalid.body.errors![0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', error: { name: 'ValidationError' } });
    expect((await gql(`mutation { deleteChef(documentId: "${id}") { documentId } }`)).body.data!.deleteChef).toEqual({ documentId: id });
    expect((await app.request('GET', `/api/chefs/${id}`)).status).toBe(404);
  });

  it('limits: depth over depthLimit is rejected before running; page sizes are capped by amountLimit', async () => {
    const deep = await gql('{ chefs { restaurants { chef { restaurants { chef { restaurants { name } } } } } } }');
    expect(deep.status).toBe(400);
    expect(deep.body.errors![0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
    expect(deep.body.errors![0].message).toContain('exceeds maximum operation depth of 5');
    const capped = await gql('{ restaurants(pagination: { pageSize: 50 }, status: DRAFT) { name } }');
    expect(capped.body.data!.restaurants).toHaveLength(3);
    const syntax = await gql('{ chefs { name ');
    expect(syntax.status).toBe(400);
    expect(syntax.body.errors![0].extensions.code).toBe('GRAPHQL_PARSE_FAILED');
  });

  it('permissions: FORBIDDEN without the action, on a root field or on a relation field to a type the caller may not find', async () => {
    const none = { authorization: '' };
    const forbidden = await gql('mutation { createCategory(data: { name: "x" }) { name } }', undefined, none);
    expect(forbidden.status).toBe(200);
    expect(forbidden.body.errors![0].extensions).toMatchObject({ code: 'FORBIDDEN', error: { name: 'ForbiddenError' } });
    expect(forbidden.body.data).toEqual({ createCategory: null });
    // The public role may find restaurants and chefs, not categories: Strapi's relation fields carry their
    // target's `find` scope. `categories` is `[Category!]!`, so its null climbs to the (nullable) list item.
    const populated = await gql('{ restaurants(sort: "name:asc") { name chef { name } categories { name } } }', undefined, none);
    expect(populated.status).toBe(200);
    expect(populated.body.data).toEqual({ restaurants: [null, null, null] });
    expect(populated.body.errors).toHaveLength(3);
    expect(populated.body.errors![0]).toMatchObject({ message: 'Forbidden access', path: ['restaurants', 0, 'categories'], extensions: { code: 'FORBIDDEN' } });
    // The connection twin is nullable: the entry stays, the field is null.
    const connection = await gql('{ restaurants(sort: "name:asc") { name categories_connection { nodes { name } } } }', undefined, none);
    expect(connection.body.data!.restaurants[0]).toEqual({ name: 'R1', categories_connection: null });
    expect(connection.body.errors![0]).toMatchObject({ message: 'Forbidden access', path: ['restaurants', 0, 'categories_connection'] });
    // A relation to a type the caller may find, and the same query with a user who may find categories.
    const allowed = await gql('{ restaurants(sort: "name:asc") { name chef { name } } }', undefined, none);
    expect(allowed.body).toEqual({ data: { restaurants: [{ name: 'R1', chef: { name: 'Ann' } }, { name: 'R2', chef: { name: 'Ann' } }, { name: 'R3', chef: { name: 'Bob' } }] } });
    const full = await gql('{ restaurants(sort: "name:asc") { name categories(sort: "name:asc") { name } } }');
    expect(full.body.data!.restaurants[0]).toEqual({ name: 'R1', categories: [{ name: 'Pizza' }, { name: 'Sushi' }] });
    // A bad credential is the request's 401, before the operation runs (Strapi's answer, test/strapi-db goldens).
    const bad = await gql('{ chefs { name } }', undefined, { authorization: 'Bearer nope' });
    expect(bad.status).toBe(401);
    expect(bad.body).toEqual({ data: null, error: { status: 401, name: 'UnauthorizedError', message: 'Missing or invalid credentials', details: {} } });
  });

  it('register, login and me', async () => {
    const none = { authorization: '' };
    const reg = await gql('mutation { register(input: { username: "gqluser", email: "gql@example.com", password: "secret12" }) { jwt user { username email confirmed } } }', undefined, none);
    expect(reg.body.data!.register.user).toEqual({ username: 'gqluser', email: 'gql@example.com', confirmed: true });
    const login = await gql('mutation { login(input: { identifier: "gql@example.com", password: "secret12" }) { jwt } }', undefined, none);
    const me = await gql('{ me { username role { name type } } }', undefined, { authorization: `Bearer ${login.body.data!.login.jwt}` });
    expect(me.body.data!.me).toEqual({ username: 'gqluser', role: { name: 'Authenticated', type: 'authenticated' } });
    const wrong = await gql('mutation { login(input: { identifier: "gql@example.com", password: "nope" }) { jwt } }', undefined, none);
    expect(wrong.status).toBe(200);
    expect(wrong.body.errors![0].extensions.code).toBe('BAD_USER_INPUT');
  });

  it('introspection is on in development, GET serves queries but not mutations', async () => {
    const introspection = await gql('{ __type(name: "Chef") { name } }');
    expect(introspection.body.data!.__type).toEqual({ name: 'Chef' });
    const get = await app.request('GET', `/graphql?query=${encodeURIComponent('{ chefs(sort: "name:asc") { name } }')}`);
    expect(get.body.data.chefs[0]).toEqual({ name: 'Ann' });
    const mutation = await app.request('GET', `/graphql?query=${encodeURIComponent('mutation { deleteChef(documentId: "x") { documentId } }')}`);
    expect(mutation.status).toBe(405);
  });

  it('GET refuses every mutation, however the document is written; nothing is changed', async () => {
    const before = (await gql('{ chefs(sort: "name:asc") { documentId name } }')).body.data!.chefs;
    const del = `deleteChef(documentId: "${before[0].documentId}") { documentId }`;
    const get = (query: string, operationName?: string) =>
      app.request('GET', `/graphql?query=${encodeURIComponent(query)}${operationName ? `&operationName=${operationName}` : ''}`);
    for (const [query, operationName] of [
      [`# a comment first\nmutation { ${del} }`, undefined],
      [`mutation Named { ${del} }`, undefined],
      [`query A { chefs { name } } mutation B { ${del} }`, 'B'],
    ] as const) {
      const res = await get(query, operationName);
      expect(res.status, query).toBe(405);
      expect(res.body.errors[0]).toMatchObject({ message: 'Mutations need POST', extensions: { code: 'BAD_REQUEST' } });
    }
    expect((await gql('{ chefs(sort: "name:asc") { documentId name } }')).body.data!.chefs).toEqual(before);
    // The query of the same document is served over GET.
    expect((await get(`query A { chefs(sort: "name:asc") { name } } mutation B { ${del} }`, 'A')).body.data.chefs[0]).toEqual({ name: before[0].name });
  });

  it('an operation name that names nothing, or none among several operations → 400', async () => {
    const unknown = await app.request('POST', '/graphql', { query: 'query A { chefs { name } }', operationName: 'B' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors[0]).toMatchObject({ message: 'Unknown operation named "B".', extensions: { code: 'BAD_REQUEST' } });
    const ambiguous = await app.request('POST', '/graphql', { query: 'query A { chefs { name } } query B { chefs { age } }' });
    expect(ambiguous.status).toBe(400);
    expect(ambiguous.body.errors[0].message).toBe('Must provide operation name if query contains multiple operations.');
  });

  it('a subscription is a validation error (400), over POST and GET, whatever it selects', async () => {
    for (const query of ['subscription { x }', 'subscription OnChef { chefs { name } }']) {
      for (const res of [await app.request('POST', '/graphql', { query }), await app.request('GET', `/graphql?query=${encodeURIComponent(query)}`)]) {
        expect(res.status, query).toBe(400);
        expect(res.body.errors, query).toHaveLength(1);
        expect(res.body.errors[0], query).toMatchObject({
          message: 'Subscriptions are not supported: Cairn serves queries and mutations only',
          extensions: { code: 'GRAPHQL_VALIDATION_FAILED' },
        });
      }
    }
    expect(app.logs().filter((line) => line.level >= 50)).toEqual([]);
  });
});

describe('GraphQL configuration', () => {
  it('introspection is off in production unless configured on', async () => {
    const previous = process.env.NODE_ENV;
    process.env.NODE_ENV = 'production';
    const app = await startTestApp('sqlite', {
      ...model,
      config: { ...model.config, admin: { apiToken: { salt: 'x' } } },
    });
    try {
      const res = await app.request('POST', '/graphql', { query: '{ __schema { types { name } } }' });
      expect(res.status).toBe(400);
      expect(res.body.errors).toHaveLength(1);
      expect(res.body.errors[0].extensions).toMatchObject({ code: 'GRAPHQL_VALIDATION_FAILED', validationErrorCode: 'INTROSPECTION_DISABLED' });
    } finally {
      process.env.NODE_ENV = previous;
      await app.close();
    }
  });

  it("the config means what it means in Strapi 5: v4CompatibilityMode unset or false, Strapi 5's schema; true, its compatibility mode; Cairn's shape: 'v4', the seed's", async () => {
    const v5 = '{ chefs { name } chefs_connection { nodes { name } } }';
    const compat = '{ chefs_connection { data { documentId attributes { name } } meta { pagination { total } } } chefs { data { name } } }';
    const seed = '{ chefs { data { id attributes { name } } meta { pagination { total } } } }';
    // Strapi 5's compatibility mode keeps every operation of its schema: it answers both.
    const cases: Array<[Record<string, unknown>, string[]]> = [
      [{}, [v5]],
      [{ v4CompatibilityMode: false }, [v5]],
      [{ v4CompatibilityMode: true }, [v5, compat]],
      [{ shape: 'v4' }, [seed]],
      [{ shape: 'v4', v4CompatibilityMode: true }, [seed]],
    ];
    for (const [config, served] of cases) {
      const app = await startTestApp('sqlite', { ...kitchen, config: { ...kitchen.config, plugins: { ...kitchen.config!.plugins, graphql: { config } } } });
      try {
        const ann = (await app.request('POST', '/api/chefs', { data: { name: 'Ann' } })).body.data.documentId;
        const answers: Record<string, unknown> = {
          [v5]: { chefs: [{ name: 'Ann' }], chefs_connection: { nodes: [{ name: 'Ann' }] } },
          [compat]: { chefs_connection: { data: [{ documentId: ann, attributes: { name: 'Ann' } }], meta: { pagination: { total: 1 } } }, chefs: [{ data: { name: 'Ann' } }] },
          [seed]: { chefs: { data: [{ id: ann, attributes: { name: 'Ann' } }], meta: { pagination: { total: 1 } } } },
        };
        for (const query of [v5, compat, seed]) {
          const res = await app.request('POST', '/graphql', { query });
          if (served.includes(query)) expect(res.body, JSON.stringify(config)).toEqual({ data: answers[query] });
          else expect(res.status, `${JSON.stringify(config)}: ${query}`).toBe(400);
        }
      } finally {
        await app.close();
      }
    }
  });

  it("shape must be 'v4' or absent: anything else stops the start", async () => {
    await expect(startTestApp('sqlite', { ...kitchen, config: { ...kitchen.config, plugins: { ...kitchen.config!.plugins, graphql: { config: { shape: 'v5' } } } } })).rejects.toThrow(
      `config/plugins.json: plugins.graphql.config.shape must be "v4" (the seed's Strapi v4 schema) or absent (v4CompatibilityMode decides), not "v5"`,
    );
  });
});
