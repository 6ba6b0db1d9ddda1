import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../helpers/databases.js';
import { startTestApp, type TestApp } from '../helpers/app.js';

// A type without Draft & Publish links both versions of a document that has them (its draft row and its published
// row, as Strapi 5 links them). Which of them an answer shows was probed on Strapi 5.54 (the same data, the same
// calls, Strapi and Cairn on one SQLite file): reads choose one version (REST and GraphQL queries the published one
// unless asked, the Document Service's reads the draft); a Document Service write given no status, and every GraphQL
// mutation, answers both, the draft first (their populate has no status).
const model = {
  contentTypes: {
    article: {
      kind: 'collectionType',
      collectionName: 'articles',
      info: { singularName: 'article', pluralName: 'articles', displayName: 'Article' },
      options: { draftAndPublish: true },
      attributes: {
        title: { type: 'string' },
        categories: { type: 'relation', relation: 'manyToMany', target: 'api::category.category', inversedBy: 'articles' },
      },
    },
    category: {
      kind: 'collectionType',
      collectionName: 'categories',
      info: { singularName: 'category', pluralName: 'categories', displayName: 'Category' },
      options: { draftAndPublish: false },
      attributes: {
        name: { type: 'string' },
        // The inverse side (as in the probe) and an owning one.
        articles: { type: 'relation', relation: 'manyToMany', target: 'api::article.article', mappedBy: 'categories' },
        featured: { type: 'relation', relation: 'manyToMany', target: 'api::article.article' },
      },
    },
  },
  config: { plugins: { graphql: { config: {} } } },
};

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AppDocuments = Record<string, (params?: object) => Promise<any>>;
type Titled = { title: string };

describeEachDialect('answers listing every version a row without Draft & Publish links, as Strapi 5.54 answers', (dialect) => {
  let app: TestApp;
  const docs = (uid: string) => app.cairn.strapi.documents(uid) as unknown as AppDocuments;
  const categories = () => docs('api::category.category');
  const titles = (list: Titled[] | undefined) => (list ?? []).map((a) => a.title);
  const populate = { articles: true, featured: true };
  let edited: string;
  let draftOnly: string;
  beforeAll(async () => {
    app = await startTestApp(dialect, model);
    // Published as "A v1", then its draft edited and not published again.
    const a = await docs('api::article.article').create({ data: { title: 'A v1' }, status: 'published' });
    await docs('api::article.article').update({ documentId: a.documentId, data: { title: 'A v2 draft' } });
    edited = a.documentId;
    draftOnly = (await docs('api::article.article').create({ data: { title: 'C draft' } })).documentId;
  });
  afterAll(async () => app?.close());

  it("the Document Service's create and update given no status answer the draft and the published version, in link order", async () => {
    const created = await categories().create({ data: { name: 'Both', articles: [edited], featured: [edited, draftOnly] }, populate });
    expect([titles(created.articles), titles(created.featured)]).toEqual([
      ['A v2 draft', 'A v1'],
      ['A v2 draft', 'A v1', 'C draft'],
    ]);
    const updated = await categories().update({ documentId: created.documentId, data: { name: 'Both again' }, populate });
    expect([titles(updated.articles), titles(updated.featured)]).toEqual([
      ['A v2 draft', 'A v1'],
      ['A v2 draft', 'A v1', 'C draft'],
    ]);
    // A read chooses one version: the Document Service's reads the draft, unless asked for the published one.
    const read = await categories().findOne({ documentId: created.documentId, populate });
    expect([titles(read.articles), titles(read.featured)]).toEqual([['A v2 draft'], ['A v2 draft', 'C draft']]);
    const published = await categories().findOne({ documentId: created.documentId, status: 'published', populate });
    expect([titles(published.articles), titles(published.featured)]).toEqual([['A v1'], ['A v1']]);
  });

  it('a write given a status answers that version of its targets', async () => {
    const asPublished = await categories().create({ data: { name: 'Published', articles: [edited] }, status: 'published', populate });
    expect(titles(asPublished.articles)).toEqual(['A v1']);
    const asDraft = await categories().update({ documentId: asPublished.documentId, data: { name: 'Draft' }, status: 'draft', populate });
    expect(titles(asDraft.articles)).toEqual(['A v2 draft']);
    expect(titles((await categories().update({ documentId: asPublished.documentId, data: {}, status: 'published', populate })).articles)).toEqual(['A v1']);
  });

  it('REST answers a write and a read with the version asked for (the published one by default)', async () => {
    const created = await app.request('POST', '/api/categories?populate=articles', { data: { name: 'Rest', articles: [edited] } });
    expect(created.status).toBe(201);
    expect(titles(created.body.data.articles)).toEqual(['A v1']);
    const id = created.body.data.documentId as string;
    const updated = await app.request('PUT', `/api/categories/${id}?populate=articles&status=draft`, { data: { name: 'Rest 2' } });
    expect(titles(updated.body.data.articles)).toEqual(['A v2 draft']);
    expect(titles((await app.request('GET', `/api/categories/${id}?populate=articles`)).body.data.articles)).toEqual(['A v1']);
  });

  it("GraphQL: a mutation's answer lists both versions (with or without a status), a query the version asked for", async () => {
    const gql = async (query: string) => {
      const res = await app.request('POST', '/graphql', { query });
      expect(res.body.errors).toBeUndefined();
      return res.body.data;
    };
    const created = (await gql(`mutation { createCategory(data: { name: "G", articles: ["${edited}"] }) { documentId articles { title } featured { title } } }`)).createCategory;
    expect(titles(created.articles)).toEqual(['A v2 draft', 'A v1']);
    const id = created.documentId as string;
    for (const status of ['', ', status: PUBLISHED', ', status: DRAFT']) {
      const updated = (await gql(`mutation { updateCategory(documentId: "${id}", data: { name: "G2" }${status}) { articles { title } articles_connection { nodes { title } } } }`)).updateCategory;
      expect([status, titles(updated.articles), titles(updated.articles_connection.nodes)]).toEqual([status, ['A v2 draft', 'A v1'], ['A v2 draft', 'A v1']]);
    }
    // Nested under a Draft & Publish root too: the root's version as asked (its draft), the category's links both.
    const nested = (await gql(`mutation { updateArticle(documentId: "${edited}", data: { title: "A v3 draft" }, status: DRAFT) { title categories { name articles { title } } } }`)).updateArticle;
    const g = nested.categories.find((c: { name: string }) => c.name === 'G2');
    expect([nested.title, titles(g.articles)]).toEqual(['A v3 draft', ['A v3 draft', 'A v1']]);
    const query = await gql(`{ category(documentId: "${id}") { articles { title } } draft: category(documentId: "${id}", status: DRAFT) { articles { title } } }`);
    expect([titles(query.category.articles), titles(query.draft.articles)]).toEqual([['A v1'], ['A v3 draft']]);
  });
});
