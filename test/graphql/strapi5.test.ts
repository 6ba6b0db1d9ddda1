import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../helpers/databases.js';
import { startTestApp, type TestApp, type TestSchemas } from '../helpers/app.js';
import { kitchen } from '../fixtures/kitchen.js';

type Entry = Record<string, any>;

/** The kitchen model, a localized Draft & Publish single type, and Strapi 5's GraphQL (compatibility mode or not). */
const model = (graphql: Record<string, unknown>): TestSchemas => ({
  ...kitchen,
  contentTypes: {
    ...kitchen.contentTypes,
    'home-page': {
      kind: 'singleType',
      collectionName: 'home_pages',
      info: { singularName: 'home-page', pluralName: 'home-pages', displayName: 'Home page' },
      options: { draftAndPublish: true },
      pluginOptions: { i18n: { localized: true } },
      attributes: { title: { type: 'string' } },
    },
  },
  config: { plugins: { ...kitchen.config!.plugins, graphql: { config: graphql } } },
});

for (const [shape, graphql] of [
  ['flat', {}],
  ['v4CompatibilityMode', { v4CompatibilityMode: true }],
] as const) {
  describeEachDialect(`GraphQL, Strapi 5's schema (${shape}): single types, publicationFilter, Date and DateTime inputs`, (dialect) => {
    let app: TestApp;
    const gql = async (query: string, variables?: Entry) => {
      const res = await app.request('POST', '/graphql', { query, variables });
      return { status: res.status, body: res.body as { data?: Entry; errors?: Entry[] } };
    };
    const restaurants: Record<string, string> = {};
    beforeAll(async () => {
      app = await startTestApp(dialect, model(graphql));
      const create = async (name: string, query = '') => (await app.request('POST', `/api/restaurants${query}`, { data: { name } })).body.data.documentId as string;
      restaurants.published = await create('Published');
      restaurants.modified = await create('Modified');
      restaurants.draft = await create('Draft only', '?status=draft');
      // A draft saved after its publication (updatedAt later than the published version's).
      await new Promise((r) => setTimeout(r, 20));
      await app.request('PUT', `/api/restaurants/${restaurants.modified}?status=draft`, { data: { name: 'Modified (draft)' } });
      // Published in English, a draft only in French.
      restaurants.bilingual = await create('Bilingual');
      await app.request('PUT', `/api/restaurants/${restaurants.bilingual}?locale=fr&status=draft`, { data: { name: 'Bilingue' } });
    });
    afterAll(async () => app?.close());

    it('a single type has one document: <singular> reads it, update<Type> creates it then updates it, delete<Type> needs no documentId', async () => {
      // The compatibility mode's `data` and `attributes` are the entry itself; the flat schema has neither.
      const entry = shape === 'flat' ? 'documentId title' : 'data { documentId attributes { title } }';
      const flatten = (value: Entry | null) => (value === null || shape === 'flat' ? value : { documentId: value.data.documentId, title: value.data.attributes.title });
      expect((await gql(`{ homePage { ${entry} } }`)).body).toEqual({ data: { homePage: null } });
      const created = await gql(`mutation($data: HomePageInput!) { updateHomePage(data: $data) { ${entry} } }`, { data: { title: 'Welcome' } });
      expect(created.body.errors).toBeUndefined();
      const documentId = flatten(created.body.data!.updateHomePage)!.documentId;
      expect(flatten(created.body.data!.updateHomePage)).toEqual({ documentId, title: 'Welcome' });
      const updated = await gql(`mutation { updateHomePage(data: { title: "Hello" }) { ${entry} } }`);
      expect(flatten(updated.body.data!.updateHomePage)).toEqual({ documentId, title: 'Hello' });
      // Another locale is the same document's.
      const french = await gql(`mutation { updateHomePage(locale: "fr", data: { title: "Bonjour" }) { ${entry} } }`);
      expect(flatten(french.body.data!.updateHomePage)).toEqual({ documentId, title: 'Bonjour' });
      expect(flatten((await gql(`{ homePage(locale: "fr") { ${entry} } }`)).body.data!.homePage)).toEqual({ documentId, title: 'Bonjour' });

      // No collection operations.
      for (const query of ['{ homePages { documentId } }', '{ homePages_connection { nodes { documentId } } }', `{ homePage(documentId: "${documentId}") { documentId } }`, 'mutation { createHomePage(data: { title: "x" }) { documentId } }', `mutation { deleteHomePage(documentId: "${documentId}") { documentId } }`]) {
        const res = await gql(query);
        expect(res.status, query).toBe(400);
        expect(res.body.errors![0].extensions!.code).toBe('GRAPHQL_VALIDATION_FAILED');
      }

      expect((await gql('mutation { deleteHomePage { documentId } }')).body).toEqual({ data: { deleteHomePage: { documentId } } });
      expect((await gql(`{ homePage { ${entry} } }`)).body).toEqual({ data: { homePage: null } });
      expect(flatten((await gql(`{ homePage(locale: "fr") { ${entry} } }`)).body.data!.homePage)).toEqual({ documentId, title: 'Bonjour' });
      await gql('mutation { deleteHomePage(locale: "fr") { documentId } }');
      const none = await gql('mutation { deleteHomePage { documentId } }');
      expect(none.body.data).toEqual({ deleteHomePage: null });
      expect(none.body.errors![0]).toMatchObject({ message: 'Document not found', extensions: { code: 'NOT_FOUND' } });
    });

    it('publicationFilter selects documents by how their draft and published versions relate; status picks the version', async () => {
      const names = async (args: string) => {
        const { body } = await gql(`{ restaurants(${args}, sort: "name:asc", locale: "*") { name locale } }`);
        expect(body.errors, args).toBeUndefined();
        return (body.data!.restaurants as Entry[]).map((r) => `${r.name} (${r.locale})`);
      };
      expect(await names('status: DRAFT, publicationFilter: NEVER_PUBLISHED')).toEqual(['Bilingue (fr)', 'Draft only (en)']);
      expect(await names('status: PUBLISHED, publicationFilter: NEVER_PUBLISHED')).toEqual([]);
      expect(await names('status: DRAFT, publicationFilter: NEVER_PUBLISHED_DOCUMENT')).toEqual(['Draft only (en)']);
      expect(await names('publicationFilter: MODIFIED')).toEqual(['Modified (en)']);
      expect(await names('status: DRAFT, publicationFilter: MODIFIED')).toEqual(['Modified (draft) (en)']);
      expect(await names('publicationFilter: UNMODIFIED')).toEqual(['Bilingual (en)', 'Published (en)']);
      expect(await names('status: DRAFT, publicationFilter: HAS_PUBLISHED_VERSION')).toEqual(['Bilingual (en)', 'Modified (draft) (en)', 'Published (en)']);
      expect(await names('status: DRAFT, publicationFilter: HAS_PUBLISHED_VERSION_DOCUMENT')).toEqual(['Bilingual (en)', 'Bilingue (fr)', 'Modified (draft) (en)', 'Published (en)']);
      expect(await names('publicationFilter: PUBLISHED_WITH_DRAFT')).toEqual(['Bilingual (en)', 'Modified (en)', 'Published (en)']);
      expect(await names('publicationFilter: PUBLISHED_WITHOUT_DRAFT')).toEqual([]);
      expect(await names('status: DRAFT, publicationFilter: PUBLISHED_WITHOUT_DRAFT')).toEqual([]);
      // The deprecated hasPublishedVersion names the document-wide modes.
      expect(await names('status: DRAFT, hasPublishedVersion: false')).toEqual(['Draft only (en)']);
      expect(await names('status: DRAFT, hasPublishedVersion: true, publicationFilter: NEVER_PUBLISHED')).toEqual(['Bilingue (fr)', 'Draft only (en)']);
      // With the other arguments, on every read; a type without Draft & Publish has nothing to select by.
      const connection = await gql('{ restaurants_connection(status: DRAFT, publicationFilter: NEVER_PUBLISHED, filters: { name: { startsWith: "D" } }) { pageInfo { total } } }');
      expect(connection.body.data!.restaurants_connection.pageInfo.total).toBe(1);
      const one = `{ a: restaurant(documentId: "${restaurants.modified}", publicationFilter: MODIFIED) { name } b: restaurant(documentId: "${restaurants.published}", publicationFilter: MODIFIED) { name } }`;
      expect((await gql(one)).body.data).toEqual({ a: { name: 'Modified' }, b: null });
      await app.request('POST', '/api/chefs', { data: { name: 'Ann' } });
      expect((await gql('{ chefs(publicationFilter: NEVER_PUBLISHED) { name } }')).body.data).toEqual({ chefs: [{ name: 'Ann' }] });
      expect((await gql('{ restaurants(publicationFilter: NOPE) { name } }')).status).toBe(400);
    });

    it('a Date or DateTime argument of another form is refused before anything runs: a variable 400 BAD_USER_INPUT, a literal a validation error', async () => {
      const create = 'mutation($data: ChefInput!) { createChef(data: $data) { name born hiredAt } }';
      const good = await gql(create, { data: { name: 'Dates', born: '1990-02-28', hiredAt: '2022-03-17T15:06:57.000Z' } });
      expect(good.body).toEqual({ data: { createChef: { name: 'Dates', born: '1990-02-28', hiredAt: '2022-03-17T15:06:57.000Z' } } });
      const cases: Array<[string, unknown]> = [
        ['born', '2022-03-17T15:06:57.878Z'],
        ['born', '1990-02-30'],
        ['born', {}],
        ['born', []],
        ['born', 'something'],
        ['hiredAt', '2022-03-17'],
        ['hiredAt', {}],
        ['hiredAt', '2022-03-17T25:00:00Z'],
        ['hiredAt', 1647529617000],
      ];
      for (const [field, value] of cases) {
        const res = await gql(create, { data: { name: 'Nope', [field]: value } });
        expect(res.status, `${field}: ${JSON.stringify(value)}`).toBe(400);
        expect(res.body.errors).toHaveLength(1);
        expect(res.body.errors![0]).toMatchObject({ message: expect.stringContaining(`Variable "$data" got invalid value`), extensions: { code: 'BAD_USER_INPUT' } });
        expect(res.body.data).toBeUndefined();
      }
      const literal = await gql('mutation { createChef(data: { name: "Nope", born: "2022-03-17T15:06:57Z" }) { name } }');
      expect(literal.status).toBe(400);
      expect(literal.body.errors![0]).toMatchObject({ message: expect.stringContaining('Date cannot represent an invalid date-string 2022-03-17T15:06:57Z.'), extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } });
      // A field the input type does not have is refused the same way, naming it.
      const unknown = await gql(create, { data: { name: 'Nope', nope: 1 } });
      expect(unknown.status).toBe(400);
      expect(unknown.body.errors![0]).toMatchObject({ message: 'Variable "$data" got invalid value { name: "Nope", nope: 1 }; Field "nope" is not defined by type "ChefInput". Did you mean "note" or "name"?', extensions: { code: 'BAD_USER_INPUT' } });
      expect((await gql('{ chefs(filters: { name: { eq: "Nope" } }) { name } }')).body.data).toEqual({ chefs: [] });
      // Filters take them too, in the same forms.
      const filtered = await gql('query($d: Date!, $t: DateTime!) { chefs(filters: { born: { gt: $d }, hiredAt: { lt: $t } }) { name } }', { d: '1990-01-01', t: '2030-01-01T00:00:00+02:00' });
      expect(filtered.body).toEqual({ data: { chefs: [{ name: 'Dates' }] } });
      expect((await gql('query($d: Date!) { chefs(filters: { born: { gt: $d } }) { name } }', { d: '1990-01-01T00:00:00Z' })).status).toBe(400);
    });

    it('list items are never null; a list attribute is as required as the attribute', async () => {
      const field = async (type: string, name: string) => {
        const { body } = await gql(`{ __type(name: "${type}") { fields { name type { kind name ofType { kind name ofType { kind name ofType { kind name } } } } } } }`);
        const found = (body.data!.__type.fields as Entry[]).find((f) => f.name === name)!;
        const print = (t: Entry | null): string => (!t ? '' : t.kind === 'NON_NULL' ? `${print(t.ofType)}!` : t.kind === 'LIST' ? `[${print(t.ofType)}]` : t.name ?? t.kind);
        return print(found.type);
      };
      expect(await field('Restaurant', 'categories')).toBe('[Category!]!');
      expect(await field('Restaurant', 'localizations')).toBe('[Restaurant!]!');
      expect(await field('Restaurant', 'blocks')).toBe('[RestaurantBlocksDynamicZone!]');
      expect(await field('ComponentSectionsMenu', 'items')).toBe('[ComponentLocationGeo!]');
      expect(await field('RestaurantRelationResponseCollection', 'nodes')).toBe('[Restaurant!]!');
    });
  });
}

describeEachDialect("GraphQL, Strapi 5's compatibility mode (v4CompatibilityMode: true): writes answer through data and attributes", (dialect) => {
  let app: TestApp;
  const gql = async (query: string, variables?: Entry) => (await app.request('POST', '/graphql', { query, variables })).body as { data?: Entry; errors?: Entry[] };
  beforeAll(async () => {
    app = await startTestApp(dialect, model({ v4CompatibilityMode: true }));
  });
  afterAll(async () => app?.close());

  it('create, update and delete take documentId and status as in Strapi 5; answers have id, documentId and attributes', async () => {
    const chef = (await app.request('POST', '/api/chefs', { data: { name: 'Ann' } })).body.data;
    const created = await gql(
      'mutation($data: RestaurantInput!) { createRestaurant(status: DRAFT, data: $data) { data { id documentId attributes { name publishedAt chef { data { documentId attributes { name } } } } } } }',
      { data: { name: 'R1', chef: chef.documentId, publishedAt: '2020-01-01T00:00:00.000Z' } },
    );
    expect(created.errors).toBeUndefined();
    const { id, documentId } = created.data!.createRestaurant.data;
    expect(id).toMatch(/^\d+$/);
    // publishedAt in the input is accepted and ignored: the status decides.
    expect(created.data!.createRestaurant.data.attributes).toEqual({ name: 'R1', publishedAt: null, chef: { data: { documentId: chef.documentId, attributes: { name: 'Ann' } } } });
    const published = await gql(`mutation { updateRestaurant(documentId: "${documentId}", data: { name: "R1 v2" }) { data { documentId attributes { name publishedAt } } } }`);
    expect(published.data!.updateRestaurant.data).toEqual({ documentId, attributes: { name: 'R1 v2', publishedAt: expect.any(String) } });
    const listed = await gql('{ restaurants_connection { data { id documentId attributes { name } } meta { pagination { total } } } }');
    expect(listed.data!.restaurants_connection).toEqual({ data: [{ id: expect.stringMatching(/^\d+$/), documentId, attributes: { name: 'R1 v2' } }], meta: { pagination: { total: 1 } } });
    // The published version has a row id of its own: `id` is the row's, as in Strapi.
    expect(listed.data!.restaurants_connection.data[0].id).not.toBe(id);
    expect(await gql(`mutation { deleteRestaurant(documentId: "${documentId}") { documentId } }`)).toEqual({ data: { deleteRestaurant: { documentId } } });
    expect(await gql(`{ restaurant(documentId: "${documentId}") { data { documentId } } }`)).toEqual({ data: { restaurant: null } });
    // v4's operations are not there: `id` arguments, `data` on a delete's answer, publicationState.
    for (const query of ['{ restaurant(id: 1) { data { id } } }', `mutation { deleteRestaurant(documentId: "${documentId}") { data { id } } }`, '{ restaurants(publicationState: LIVE) { data { id } } }']) {
      expect((await app.request('POST', '/graphql', { query })).status, query).toBe(400);
    }
  });
});
