import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../helpers/databases.js';
import { startTestApp, type TestApp } from '../helpers/app.js';

// An app's own resolver answering a Document Service result without its relations populated: Strapi's association
// resolver reads them for any entry, from the entry's own version (the draft's links for a draft), so an app's
// `return strapi.documents(uid).findFirst(...)` works with `{ author { name } }` selected. Cairn reads them too.
const schemas = {
  contentTypes: {
    article: {
      kind: 'collectionType',
      collectionName: 'articles',
      info: { singularName: 'article', pluralName: 'articles', displayName: 'Article' },
      options: { draftAndPublish: true },
      attributes: {
        title: { type: 'string' },
        author: { type: 'relation', relation: 'manyToOne', target: 'api::author.author', inversedBy: 'articles' },
        tags: { type: 'relation', relation: 'manyToMany', target: 'api::tag.tag' },
      },
    },
    author: {
      kind: 'collectionType',
      collectionName: 'authors',
      info: { singularName: 'author', pluralName: 'authors', displayName: 'Author' },
      options: { draftAndPublish: true },
      attributes: { name: { type: 'string' }, articles: { type: 'relation', relation: 'oneToMany', target: 'api::article.article', mappedBy: 'author' } },
    },
    tag: {
      kind: 'collectionType',
      collectionName: 'tags',
      info: { singularName: 'tag', pluralName: 'tags', displayName: 'Tag' },
      options: { draftAndPublish: false },
      attributes: { label: { type: 'string' } },
    },
  },
  config: { plugins: { graphql: { config: {} } } },
  index: `module.exports = {
  register({ strapi }) {
    strapi.plugin('graphql').service('extension').use({
      typeDefs: 'type Query { firstArticle(status: String): Article, bare: Article, given: Article }',
      resolvers: {
        Query: {
          firstArticle: (_p, args) => strapi.documents('api::article.article').findFirst(args.status ? { status: args.status } : {}),
          bare: () => ({ title: 'no document' }),
          given: () => ({ documentId: 'x', title: 'given', author: { name: 'as given' }, tags: [] }),
        },
      },
      resolversConfig: { 'Query.firstArticle': { auth: false }, 'Query.bare': { auth: false }, 'Query.given': { auth: false } },
    });
  },
};`,
};

describeEachDialect("GraphQL: an app resolver's entry gets its relations read, as Strapi's association resolver reads them", (dialect) => {
  let app: TestApp;
  const gql = async (query: string) => {
    const res = await app.request('POST', '/graphql', { query });
    expect(res.body.errors).toBeUndefined();
    return res.body.data;
  };
  beforeAll(async () => {
    app = await startTestApp(dialect, schemas);
    const docs = (uid: string) => app.cairn.strapi.documents(uid) as unknown as Record<string, (p: object) => Promise<{ documentId: string }>>;
    const author = await docs('api::author.author').create({ data: { name: 'Ann v1' }, status: 'published' });
    await docs('api::author.author').update({ documentId: author.documentId, data: { name: 'Ann v2 draft' } });
    const tags = [await docs('api::tag.tag').create({ data: { label: 'red' } }), await docs('api::tag.tag').create({ data: { label: 'blue' } })];
    const article = await docs('api::article.article').create({ data: { title: 'A', author: author.documentId, tags: tags.map((t) => t.documentId) }, status: 'published' });
    await docs('api::article.article').update({ documentId: article.documentId, data: { title: 'A draft' } });
  });
  afterAll(async () => app?.close());

  it("a draft entry's relations are its draft's; lists, connections, aliases, arguments and nested relations too", async () => {
    const { firstArticle } = await gql(
      '{ firstArticle { title author { name articles { title } } tags(sort: "label") { label } tags_connection { nodes { label } } first: tags(pagination: { limit: 1 }, sort: "label:desc") { label } } }',
    );
    expect(firstArticle).toEqual({
      title: 'A draft',
      author: { name: 'Ann v2 draft', articles: [{ title: 'A draft' }] },
      tags: [{ label: 'blue' }, { label: 'red' }],
      tags_connection: { nodes: [{ label: 'red' }, { label: 'blue' }] },
      first: [{ label: 'red' }],
    });
  });

  it("a published entry's relations are its published version's", async () => {
    const { firstArticle } = await gql('{ firstArticle(status: "published") { title author { name } } }');
    expect(firstArticle).toEqual({ title: 'A', author: { name: 'Ann v1' } });
  });

  it('what the resolver answered stays as it is; an entry of no document has none', async () => {
    expect(await gql('{ given { title author { name } tags { label } } bare { title author { name } tags { label } } }')).toEqual({
      given: { title: 'given', author: { name: 'as given' }, tags: [] },
      bare: { title: 'no document', author: null, tags: [] },
    });
  });
});
