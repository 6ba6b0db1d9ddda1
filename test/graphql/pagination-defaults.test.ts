import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../helpers/databases.js';
import { startTestApp, startupError, writeApp, type TestApp, type TestSchemas } from '../helpers/app.js';

// The GraphQL plugin's `defaultLimit` and `maxLimit` (config/plugins.js), as Strapi 5's transformArgs applies them
// to every list (withDefaultPagination): a size not given is `defaultLimit` (10 unless set), a size above `maxLimit`
// is `maxLimit`, and so is a default above it. Read at each request, as Strapi reads them.
const model = (graphql: Record<string, unknown>): TestSchemas => ({
  contentTypes: {
    article: {
      kind: 'collectionType',
      collectionName: 'articles',
      info: { singularName: 'article', pluralName: 'articles', displayName: 'Article' },
      options: { draftAndPublish: false },
      attributes: { title: { type: 'string' }, shelf: { type: 'relation', relation: 'manyToOne', target: 'api::shelf.shelf', inversedBy: 'articles' } },
    },
    shelf: {
      kind: 'collectionType',
      collectionName: 'shelves',
      info: { singularName: 'shelf', pluralName: 'shelves', displayName: 'Shelf' },
      options: { draftAndPublish: false },
      attributes: { name: { type: 'string' }, articles: { type: 'relation', relation: 'oneToMany', target: 'api::article.article', mappedBy: 'shelf' } },
    },
  },
  config: { plugins: { graphql: { config: graphql } } },
});

describeEachDialect("GraphQL: the plugin's defaultLimit and maxLimit", (dialect) => {
  let app: TestApp;
  const list = async (pagination: string) => {
    const res = await app.request('POST', '/graphql', {
      query: `{ articles_connection${pagination} { nodes { title } pageInfo { page pageSize pageCount total } } shelves { articles${pagination} { title } } }`,
    });
    expect(res.body.errors).toBeUndefined();
    const { nodes, pageInfo } = res.body.data.articles_connection;
    return { titles: nodes.map((n: { title: string }) => n.title), pageInfo, nested: res.body.data.shelves[0].articles.map((a: { title: string }) => a.title) };
  };
  beforeAll(async () => {
    app = await startTestApp(dialect, model({ defaultLimit: 3, maxLimit: 2 }));
    const shelf = await app.cairn.strapi.documents('api::shelf.shelf').create({ data: { name: 'S' } });
    for (const n of [1, 2, 3, 4, 5]) await app.cairn.strapi.documents('api::article.article').create({ data: { title: `A${n}`, shelf: shelf.documentId } } as never);
  });
  afterAll(async () => app?.close());

  it('a default above maxLimit is capped by it: no size, a null size and page 2 read two, root and nested lists', async () => {
    expect(await list('')).toEqual({ titles: ['A1', 'A2'], pageInfo: { page: 1, pageSize: 2, pageCount: 3, total: 5 }, nested: ['A1', 'A2'] });
    expect(await list('(pagination: { page: 2 })')).toEqual({ titles: ['A3', 'A4'], pageInfo: { page: 2, pageSize: 2, pageCount: 3, total: 5 }, nested: ['A3', 'A4'] });
    expect(await list('(pagination: { page: 2, pageSize: null })')).toMatchObject({ titles: ['A3', 'A4'], pageInfo: { page: 2, pageSize: 2 } });
  });

  it('a size above maxLimit, or -1, is maxLimit', async () => {
    expect(await list('(pagination: { pageSize: 100 })')).toMatchObject({ titles: ['A1', 'A2'], pageInfo: { pageSize: 2 }, nested: ['A1', 'A2'] });
    expect(await list('(pagination: { start: 1, limit: -1 })')).toMatchObject({ titles: ['A2', 'A3'], nested: ['A2', 'A3'] });
  });

  it('strapi.config.set applies to the next request, as in Strapi', async () => {
    app.cairn.strapi.config.set('plugin::graphql.maxLimit', -1);
    expect(await list('')).toMatchObject({ titles: ['A1', 'A2', 'A3'], pageInfo: { pageSize: 3, pageCount: 2 }, nested: ['A1', 'A2', 'A3'] });
    app.cairn.strapi.config.set('plugin::graphql.defaultLimit', 4);
    // Strapi's strapi.plugin(name).config(path) reads the same.
    expect([app.cairn.strapi.plugin('graphql').config('defaultLimit'), app.cairn.strapi.plugin('graphql').config('maxLimit')]).toEqual([4, -1]);
    expect(await list('')).toMatchObject({ titles: ['A1', 'A2', 'A3', 'A4'], pageInfo: { pageSize: 4 }, nested: ['A1', 'A2', 'A3', 'A4'] });
    expect(await list('(pagination: { pageSize: 5 })')).toMatchObject({ titles: ['A1', 'A2', 'A3', 'A4', 'A5'] });
  });
});

it('a defaultLimit or maxLimit that is not a positive integer (or -1, for maxLimit) stops the start, named', async () => {
  expect(await startupError(writeApp(model({ defaultLimit: 0 })))).toContain('graphql.config.defaultLimit must be a positive integer, not 0');
  expect(await startupError(writeApp(model({ maxLimit: 0 })))).toContain('graphql.config.maxLimit must be a positive integer or -1 (no limit), not 0');
  expect(await startupError(writeApp(model({ defaultLimit: '20' })))).toContain('graphql.config.defaultLimit must be a positive integer, not "20"');
});
