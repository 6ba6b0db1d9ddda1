import { rmSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../helpers/databases.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { extensionModel, writeExtensionApp } from '../fixtures/graphql-extensions.js';

type Entry = Record<string, any>;

/** The extension service on the seed's shape (the default): the same toggles and configs as in v5's suite. */
const INDEX = `
module.exports = {
  register({ strapi }) {
    const ext = strapi.plugin('graphql').service('extension');
    ext.shadowCRUD('api::tag.tag').disable();
    ext.shadowCRUD('api::article.article').disableAction('delete');
    const article = ext.shadowCRUD('api::article.article');
    article.field('secret').disableOutput();
    article.field('views').disableInput();
    article.field('body').disableFilters();
    ext.use(({ nexus }) => ({
      types: [nexus.extendType({ type: 'Query', definition(t) { t.field('hello', { type: 'String', resolve: () => 'hi' }); } })],
      typeDefs: 'extend type Article { wordCount: Int }',
      resolvers: { Article: { wordCount: (parent) => String(parent.body ?? '').split(/\\s+/).filter(Boolean).length } },
      resolversConfig: {
        'Query.hello': { auth: false },
        'Query.categories': { auth: false },
        'Article.title': { middlewares: [async (next, ...rest) => String(await next(...rest)).toUpperCase()] },
        'Query.writers': { auth: false, policies: [(context) => context.args.filters?.name?.eq === 'Ann'] },
      },
    }));
  },
};
`;

const v4Model = {
  ...extensionModel,
  config: { ...extensionModel.config, plugins: { ...extensionModel.config!.plugins, graphql: { config: { shape: 'v4' } } } },
};

describeEachDialect('GraphQL extensions on the seed shape', (dialect) => {
  let app: TestApp;
  let dir: string;
  const gql = async (query: string, headers?: Record<string, string>) => {
    const res = await app.request('POST', '/graphql', { query }, headers);
    return { status: res.status, body: res.body as { data?: Entry; errors?: Entry[] } };
  };
  const none = { authorization: '' };
  const fields = async (name: string) => {
    const type = (await gql(`{ __type(name: "${name}") { fields { name } inputFields { name } } }`)).body.data!.__type;
    return type && [...(type.fields ?? []), ...(type.inputFields ?? [])].map((f: { name: string }) => f.name);
  };

  beforeAll(async () => {
    dir = writeExtensionApp(INDEX, {}, v4Model);
    app = await startTestApp(dialect, dir);
    const writer = (await app.request('POST', '/api/writers', { data: { name: 'Ann' } })).body.data.documentId;
    await app.request('POST', '/api/articles', { data: { title: 'Hello', body: 'one two three', secret: 's3', writer } });
    await app.request('POST', '/api/categories', { data: { name: 'Cat' } });
  });
  afterAll(async () => {
    await app?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('toggles shape the v4 types: no Tag, no tags, secret not output, views not input, body not a filter, no deleteArticle', async () => {
    expect(await fields('Tag')).toBeNull();
    expect(await fields('TagEntity')).toBeNull();
    const article = await fields('Article');
    expect(article).toEqual(expect.arrayContaining(['title', 'body', 'views', 'writer', 'wordCount']));
    expect(article).not.toContain('tags');
    expect(article).not.toContain('secret');
    expect(await fields('ArticleInput')).not.toContain('views');
    expect(await fields('ArticleFiltersInput')).not.toContain('body');
    expect(await fields('Mutation')).not.toContain('deleteArticle');
    expect(await fields('Mutation')).toContain('updateArticle');
    expect((await gql('{ articles { data { attributes { secret } } } }')).status).toBe(400);
  });

  it("a field's middleware and an extension field run on v4 entries (the resolver path)", async () => {
    const res = await gql('{ articles { data { id attributes { title wordCount writer { data { attributes { name } } } } } } }');
    expect(res.body).toEqual({ data: { articles: { data: [{ id: expect.any(String), attributes: { title: 'HELLO', wordCount: 3, writer: { data: { attributes: { name: 'Ann' } } } } }] } } });
  });

  it('nexus types, auth: false and policies on generated v4 queries', async () => {
    expect((await gql('{ hello }', none)).body.data).toEqual({ hello: 'hi' });
    // Categories are not public, but their query's config says auth: false.
    expect((await gql('{ categories { data { attributes { name } } } }', none)).body.data).toEqual({ categories: { data: [{ attributes: { name: 'Cat' } }] } });
    const allowed = await gql('{ writers(filters: { name: { eq: "Ann" } }) { data { attributes { name } } } }', none);
    expect(allowed.body.data).toEqual({ writers: { data: [{ attributes: { name: 'Ann' } }] } });
    const refused = await gql('{ writers { data { attributes { name } } } }', none);
    expect(refused.body.errors![0]).toMatchObject({ message: 'Policy Failed', extensions: { code: 'FORBIDDEN' } });
    // A bad credential is the request's 401, before the operation runs (Strapi's answer, test/strapi-db goldens).
    const denied = await gql('{ articles { data { id } } }', { authorization: 'Bearer nope' });
    expect(denied.status).toBe(401);
    expect((denied.body as unknown as { error: { name: string } }).error.name).toBe('UnauthorizedError');
  });
});
