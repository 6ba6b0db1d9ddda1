import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../helpers/databases.js';
import { startTestApp, type TestApp } from '../helpers/app.js';

// Strapi 5's `publicationFilter` and `hasPublishedVersion` on REST reads (and the Document Service): cohorts of
// documents by how their draft and published versions relate, applied to the entries and to every populated
// relation of a Draft & Publish type (Strapi 5.54, core/dist/services/document-service/transform/query.js).
const model = {
  contentTypes: {
    article: {
      kind: 'collectionType',
      collectionName: 'articles',
      info: { singularName: 'article', pluralName: 'articles', displayName: 'Article' },
      options: { draftAndPublish: true },
      attributes: { title: { type: 'string' }, tags: { type: 'relation', relation: 'manyToMany', target: 'api::tag.tag' } },
    },
    tag: {
      kind: 'collectionType',
      collectionName: 'tags',
      info: { singularName: 'tag', pluralName: 'tags', displayName: 'Tag' },
      options: { draftAndPublish: true },
      attributes: { name: { type: 'string' } },
    },
  },
};

describeEachDialect('publicationFilter and hasPublishedVersion', (dialect) => {
  let app: TestApp;
  const titles = async (query: string) => {
    const res = await app.request('GET', `/api/articles?${query}&sort=title`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data.map((a: { title: string }) => a.title);
  };
  beforeAll(async () => {
    app = await startTestApp(dialect, model);
    const tag = async (name: string, status: string) => (await app.request('POST', `/api/tags?status=${status}`, { data: { name } })).body.data.documentId;
    const fresh = await tag('fresh', 'published');
    const edited = await tag('edited', 'published');
    await new Promise((r) => setTimeout(r, 5));
    await app.request('PUT', `/api/tags/${edited}?status=draft`, { data: { name: 'edited (draft)' } });
    // Modified: published, then its draft changed. Unmodified: published. Never published: a draft only.
    const modified = (await app.request('POST', '/api/articles', { data: { title: 'Modified', tags: [fresh, edited] } })).body.data.documentId;
    await new Promise((r) => setTimeout(r, 5));
    await app.request('PUT', `/api/articles/${modified}?status=draft`, { data: { title: 'Modified' } });
    await app.request('POST', '/api/articles', { data: { title: 'Unmodified' } });
    await app.request('POST', '/api/articles?status=draft', { data: { title: 'Draft only' } });
  });
  afterAll(async () => app?.close());

  it('selects each cohort, on the draft or the published version the status asks for', async () => {
    expect(await titles('status=draft&publicationFilter=never-published')).toEqual(['Draft only']);
    expect(await titles('status=draft&publicationFilter=modified')).toEqual(['Modified']);
    expect(await titles('status=draft&publicationFilter=unmodified')).toEqual(['Unmodified']);
    expect(await titles('publicationFilter=modified')).toEqual(['Modified']);
    expect(await titles('publicationFilter=never-published')).toEqual([]);
    expect(await titles('status=draft&publicationFilter=has-published-version')).toEqual(['Modified', 'Unmodified']);
    expect(await titles('publicationFilter=published-without-draft')).toEqual([]);
    expect(await titles('status=draft&hasPublishedVersion=false')).toEqual(['Draft only']);
    expect(await titles('status=draft&hasPublishedVersion=true')).toEqual(['Modified', 'Unmodified']);
    // With other filters, and counted as it selects.
    const res = await app.request('GET', '/api/articles?status=draft&publicationFilter=has-published-version&filters[title][$startsWith]=Un');
    expect(res.body.meta.pagination.total).toBe(1);
  });

  it('selects by status as Strapi does: a published version without a draft (a row Strapi or its Query Engine wrote) is in its own cohort only', async () => {
    await app.cairn.strapi.db.query('api::article.article').create({ data: { title: 'Published only', publishedAt: new Date().toISOString() } });
    expect(await titles('publicationFilter=published-without-draft')).toEqual(['Published only']);
    expect(await titles('publicationFilter=published-with-draft')).toEqual(['Modified', 'Unmodified']);
    expect(await titles('status=draft&publicationFilter=published-with-draft')).toEqual([]);
    expect(await titles('publicationFilter=has-published-version-document')).toEqual(['Modified', 'Unmodified']);
    expect(await titles('status=draft&publicationFilter=has-published-version-document')).toEqual(['Modified', 'Unmodified']);
    expect(await titles('publicationFilter=has-published-version')).toEqual(['Modified', 'Unmodified']);
  });

  it('applies to populated relations of Draft & Publish types', async () => {
    const res = await app.request('GET', '/api/articles?publicationFilter=modified&populate=tags');
    expect(res.body.data.map((a: { title: string; tags: { name: string }[] }) => [a.title, a.tags.map((t) => t.name)])).toEqual([['Modified', ['edited']]]);
    const all = await app.request('GET', '/api/articles?filters[title]=Modified&populate=tags');
    expect(all.body.data[0].tags.map((t: { name: string }) => t.name).sort()).toEqual(['edited', 'fresh']);
  });

  it('refuses values Strapi does not define, in its words', async () => {
    const bad = await app.request('GET', '/api/articles?publicationFilter=recent');
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toBe(
      "Invalid value for 'publicationFilter'. Expected one of: never-published, has-published-version, modified, unmodified, never-published-document, has-published-version-document, published-without-draft, published-with-draft.",
    );
    const legacy = await app.request('GET', '/api/articles?hasPublishedVersion=yes');
    expect(legacy.status).toBe(400);
    expect(legacy.body.error.message).toBe("Invalid value for 'hasPublishedVersion'. Expected boolean or 'true'/'false' string.");
  });

  it('the Document Service takes them too', async () => {
    const docs = await app.cairn.strapi.documents('api::article.article').findMany({ status: 'draft', publicationFilter: 'never-published' } as never);
    expect(docs.map((d) => d.title)).toEqual(['Draft only']);
  });
});
