import { afterAll, beforeAll, expect, it } from 'vitest';
import { ClientError, GraphQLClient, gql } from 'graphql-request';
import { describeEachDialect } from '../helpers/databases.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { kitchen } from '../fixtures/kitchen.js';

type Entry = Record<string, any>;

const model = {
  ...kitchen,
  config: { plugins: { ...kitchen.config!.plugins, graphql: { config: { shape: 'v4', amountLimit: 11 } }, 'users-permissions': { config: { jwtSecret: 'client-secret' } } } },
};

/**
 * The seed's GraphQL shape driven by a real GraphQL client (graphql-request) over a real port, as an app would:
 * every filter operator, variables, nested lists with their own pagination, components, dynamic zones, publication
 * states, locales, mutations, register/login/me, the depth limit, and errors.
 */
describeEachDialect('GraphQL seed shape through graphql-request', (dialect) => {
  let app: TestApp;
  let client: GraphQLClient;
  let url = '';
  beforeAll(async () => {
    app = await startTestApp(dialect, model);
    const chefs = [
      { name: 'Ann', age: 30, email: 'ann@example.com', rating: 4.5, active: true, born: '1990-01-02', hiredAt: '2020-01-01T10:00:00.000Z', kind: 'head' },
      { name: 'Bob', age: 45, rating: 3.25, active: false, born: '1980-06-30', hiredAt: '2021-06-01T10:00:00.000Z', kind: 'sous' },
      { name: 'Cid', age: 60, email: 'cid@example.com', rating: 2, active: true, born: '1965-12-31', hiredAt: '2022-01-01T10:00:00.000Z' },
      { name: 'Dee', age: 22, email: 'DEE@example.com', big: '9007199254740993', born: '2001-03-04' },
    ];
    for (const data of chefs) await app.request('POST', '/api/chefs', { data });
    const { documentId: cid } = (await app.request('GET', '/api/chefs?filters[name][$eq]=Cid')).body.data[0];
    for (let i = 1; i <= 12; i++) await app.request('POST', '/api/restaurants', { data: { name: `R${String(i).padStart(2, '0')}`, stars: i % 5, chef: cid } });
    await app.cairn.fastify.listen({ port: 0, host: '127.0.0.1' });
    const address = app.cairn.fastify.server.address() as { port: number };
    url = `http://127.0.0.1:${address.port}/graphql`;
    client = new GraphQLClient(url, { headers: { authorization: `Bearer ${app.token}` } });
  });
  afterAll(async () => app?.close());

  const names = async (filters: string, variables?: Entry) => {
    const query = `query Chefs${variables ? '($v: [Int])' : ''} { chefs(filters: ${filters}, sort: "name:asc") { data { attributes { name } } } }`;
    const result = await client.request<{ chefs: { data: Entry[] } }>(query, variables);
    return result.chefs.data.map((e) => e.attributes.name);
  };

  it.each([
    ['eq', '{ name: { eq: "Bob" } }', ['Bob']],
    ['eqi', '{ name: { eqi: "bob" } }', ['Bob']],
    ['ne', '{ name: { ne: "Bob" } }', ['Ann', 'Cid', 'Dee']],
    ['nei', '{ name: { nei: "BOB" } }', ['Ann', 'Cid', 'Dee']],
    ['lt', '{ age: { lt: 30 } }', ['Dee']],
    ['lte', '{ age: { lte: 30 } }', ['Ann', 'Dee']],
    ['gt', '{ rating: { gt: 3 } }', ['Ann', 'Bob']],
    ['gte', '{ rating: { gte: 3.25 } }', ['Ann', 'Bob']],
    ['in', '{ age: { in: [22, 60] } }', ['Cid', 'Dee']],
    ['notIn', '{ age: { notIn: [22, 60] } }', ['Ann', 'Bob']],
    ['contains', '{ email: { contains: "example" } }', ['Ann', 'Cid', 'Dee']],
    ['contains (case-sensitive)', '{ email: { contains: "DEE" } }', ['Dee']],
    ['notContains', '{ name: { notContains: "e" } }', ['Ann', 'Bob', 'Cid']],
    ['containsi', '{ email: { containsi: "dee" } }', ['Dee']],
    ['notContainsi', '{ email: { notContainsi: "DEE" } }', ['Ann', 'Cid']],
    ['null', '{ email: { null: true } }', ['Bob']],
    ['notNull', '{ email: { notNull: true } }', ['Ann', 'Cid', 'Dee']],
    ['between', '{ born: { between: ["1970-01-01", "1995-01-01"] } }', ['Ann', 'Bob']],
    ['startsWith', '{ name: { startsWith: "C" } }', ['Cid']],
    ['startsWithi', '{ name: { startsWithi: "c" } }', ['Cid']],
    ['endsWith', '{ email: { endsWith: "example.com" } }', ['Ann', 'Cid', 'Dee']],
    ['endsWithi', '{ name: { endsWithi: "EE" } }', ['Dee']],
    ['boolean eq', '{ active: { eq: false } }', ['Bob']],
    ['datetime gt', '{ hiredAt: { gt: "2021-01-01T00:00:00.000Z" } }', ['Bob', 'Cid']],
    ['Long eq', '{ big: { eq: "9007199254740993" } }', ['Dee']],
    ['enum eq', '{ kind: { eq: "sous" } }', ['Bob']],
    ['and', '{ and: [{ age: { gt: 25 } }, { age: { lt: 50 } }] }', ['Ann', 'Bob']],
    ['or', '{ or: [{ name: { eq: "Ann" } }, { age: { gte: 60 } }] }', ['Ann', 'Cid']],
    ['not', '{ not: { age: { lt: 40 } } }', ['Bob', 'Cid']],
    ['field-level not', '{ age: { not: { eq: 30 } } }', ['Bob', 'Cid', 'Dee']],
    ['through a relation', '{ restaurants: { stars: { eq: 4 } } }', ['Cid']],
  ])('filter %s', async (_label, filters, expected) => {
    expect(await names(filters)).toEqual(expected);
  });

  it('variables, a nested list with its own pagination (default 10), and the page meta', async () => {
    expect(await names('{ age: { in: $v } }', { v: [30, 45] })).toEqual(['Ann', 'Bob']);
    const query = gql`
      query Cid($page: Int!) {
        chefs(filters: { name: { eq: "Cid" } }) {
          data {
            attributes {
              all: restaurants(sort: "name:asc") { data { attributes { name } } }
              page: restaurants(sort: "name:asc", pagination: { page: $page, pageSize: 5 }) { data { attributes { name } } }
              offset: restaurants(sort: "name:desc", pagination: { start: 10, limit: 5 }) { data { attributes { name } } }
              capped: restaurants(sort: "name:asc", pagination: { limit: 50 }) { data { attributes { name } } }
            }
          }
          meta { pagination { page pageSize pageCount total } }
        }
      }
    `;
    const { chefs } = await client.request<{ chefs: Entry }>(query, { page: 3 });
    const cid = chefs.data[0].attributes;
    const list = (l: Entry) => l.data.map((e: Entry) => e.attributes.name);
    expect(list(cid.all)).toEqual(['R01', 'R02', 'R03', 'R04', 'R05', 'R06', 'R07', 'R08', 'R09', 'R10']);
    expect(list(cid.page)).toEqual(['R11', 'R12']);
    expect(list(cid.offset)).toEqual(['R02', 'R01']);
    // amountLimit caps nested lists too.
    expect(list(cid.capped)).toHaveLength(11);
    for (const [pagination, code] of [
      ['{ pageSize: 0 }', 'BAD_USER_INPUT'],
      ['{ page: 0 }', 'BAD_USER_INPUT'],
      ['{ start: -1 }', 'BAD_USER_INPUT'],
      ['{ page: 1, limit: 2 }', 'STRAPI_PAGINATION_ERROR'],
    ]) {
      const error = await client.request(`{ chefs { data { attributes { restaurants(pagination: ${pagination}) { data { id } } } } } }`).catch((e: unknown) => e);
      expect((error as ClientError).response.errors![0].extensions!.code, pagination).toBe(code);
    }
    expect(chefs.meta).toEqual({ pagination: { page: 1, pageSize: 10, pageCount: 1, total: 1 } });
  });

  it('components, dynamic zones, publicationState and locale through the client', async () => {
    const { createRestaurant } = await client.request<Entry>(gql`
      mutation {
        createRestaurant(data: { name: "Blocks", stars: 4, blocks: [{ __component: "sections.hero", title: "Hi" }, { __component: "sections.menu", title: "Menu", items: [{ lat: 1, lng: 2 }] }] }) {
          data { id attributes { name publishedAt } }
        }
      }
    `);
    expect(createRestaurant.data.attributes).toEqual({ name: 'Blocks', publishedAt: null });
    const query = gql`
      query Blocks($state: PublicationState, $locale: I18NLocaleCode) {
        restaurants(filters: { name: { eq: "Blocks" } }, publicationState: $state, locale: $locale) {
          data { attributes { name locale blocks { __typename ... on ComponentSectionsHero { title } ... on ComponentSectionsMenu { title items { lat lng } } } } }
        }
      }
    `;
    expect((await client.request<Entry>(query, { state: 'LIVE' })).restaurants.data).toEqual([]);
    const preview = await client.request<Entry>(query, { state: 'PREVIEW' });
    expect(preview.restaurants.data).toEqual([
      { attributes: { name: 'Blocks', locale: 'en', blocks: [{ __typename: 'ComponentSectionsHero', title: 'Hi' }, { __typename: 'ComponentSectionsMenu', title: 'Menu', items: [{ lat: 1, lng: 2 }] }] } },
    ]);
    expect((await client.request<Entry>(query, { state: 'PREVIEW', locale: 'fr' })).restaurants.data).toEqual([]);
    const chefs = await client.request<Entry>(gql`{ chefs(filters: { name: { eq: "Ann" } }) { data { attributes { address { city } } } } }`);
    expect(chefs.chefs.data).toEqual([{ attributes: { address: null } }]);
  });

  it('register, login and me through the client; a query deeper than depthLimit is refused before running', async () => {
    const anonymous = new GraphQLClient(url);
    const registered = await anonymous.request<Entry>(gql`mutation { register(input: { username: "reader", email: "reader@example.com", password: "secret12" }) { jwt user { username confirmed role { type } } } }`);
    // The reference answers register and login without the role (`me` has it).
    expect(registered.register.user).toEqual({ username: 'reader', confirmed: true, role: null });
    const { login } = await anonymous.request<Entry>(gql`mutation { login(input: { identifier: "reader@example.com", password: "secret12" }) { jwt } }`);
    const me = await new GraphQLClient(url, { headers: { authorization: `Bearer ${login.jwt}` } }).request<Entry>(gql`{ me { username email role { type } } }`);
    expect(me.me).toEqual({ username: 'reader', email: 'reader@example.com', role: { type: 'authenticated' } });
    const deep = await client.request(gql`{ chefs { data { attributes { restaurants { data { attributes { chef { data { attributes { restaurants { data { id } } } } } } } } } } } }`).catch((e: unknown) => e);
    expect((deep as ClientError).response.status).toBe(400);
    expect((deep as ClientError).response.errors![0].extensions!.code).toBe('GRAPHQL_VALIDATION_FAILED');
  });

  it('mutations, and errors as the client receives them', async () => {
    const created = await client.request<Entry>(gql`mutation { createCategory(data: { name: "Tapas" }) { data { id attributes { name } } } }`);
    expect(created.createCategory.data.attributes).toEqual({ name: 'Tapas' });
    const error = await client.request(gql`mutation { createCategory(data: { name: "Tapas" }) { data { id } } }`).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ClientError);
    expect((error as ClientError).response.errors![0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', error: { name: 'ValidationError' } });
    const badSize = await client.request(gql`{ chefs(pagination: { pageSize: 0 }) { data { id } } }`).catch((e: unknown) => e);
    expect((badSize as ClientError).response.errors![0].extensions!.code).toBe('BAD_USER_INPUT');
  });
});
