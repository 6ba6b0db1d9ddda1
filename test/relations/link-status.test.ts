import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachDialect } from '../helpers/databases.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { kitchen } from '../fixtures/kitchen.js';

type Entry = Record<string, any>;

/**
 * Pages have no Draft & Publish, articles have: a page's link may name the article's draft or published version.
 * Issues have Draft & Publish themselves, so their links follow the issue's own version and ignore `status`.
 */
const model = {
  ...kitchen,
  contentTypes: {
    ...kitchen.contentTypes,
    article: {
      kind: 'collectionType',
      collectionName: 'articles',
      info: { singularName: 'article', pluralName: 'articles', displayName: 'Article' },
      options: { draftAndPublish: true },
      attributes: {
        title: { type: 'string' },
        next: { type: 'relation', relation: 'oneToOne', target: 'api::article.article' },
      },
    },
    page: {
      kind: 'collectionType',
      collectionName: 'pages',
      info: { singularName: 'page', pluralName: 'pages', displayName: 'Page' },
      options: { draftAndPublish: false },
      attributes: {
        title: { type: 'string' },
        articles: { type: 'relation', relation: 'manyToMany', target: 'api::article.article' },
        lead: { type: 'relation', relation: 'oneToOne', target: 'api::article.article' },
        spots: { type: 'relation', relation: 'manyToMany', target: 'api::restaurant.restaurant' },
      },
    },
    issue: {
      kind: 'collectionType',
      collectionName: 'issues',
      info: { singularName: 'issue', pluralName: 'issues', displayName: 'Issue' },
      options: { draftAndPublish: true },
      attributes: {
        title: { type: 'string' },
        articles: { type: 'relation', relation: 'manyToMany', target: 'api::article.article' },
      },
    },
  },
  config: {
    plugins: { ...kitchen.config!.plugins, graphql: { config: { v4CompatibilityMode: false } } },
  },
};

describeEachDialect('per-link target status', (dialect) => {
  let app: TestApp;
  /** A: published "A v1" with a newer draft "A v2"; B: a draft only; C: published, draft unchanged. */
  const article: Record<string, string> = {};
  beforeAll(async () => {
    app = await startTestApp(dialect, model);
    article.A = (await app.request('POST', '/api/articles', { data: { title: 'A v1' } })).body.data.documentId;
    await app.request('PUT', `/api/articles/${article.A}?status=draft`, { data: { title: 'A v2' } });
    article.B = (await app.request('POST', '/api/articles?status=draft', { data: { title: 'B draft' } })).body.data.documentId;
    article.C = (await app.request('POST', '/api/articles', { data: { title: 'C' } })).body.data.documentId;
  });
  afterAll(async () => app?.close());

  const newPage = async (title: string, data: Entry = {}) => {
    const res = await app.request('POST', '/api/pages', { data: { title, ...data } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.data.documentId as string;
  };
  /** The titles a page's `articles` shows, read with the given status. */
  const shown = async (page: string, status = 'published') => {
    const res = await app.request('GET', `/api/pages/${page}?status=${status}&populate[articles][fields][0]=title`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data.articles.map((a: Entry) => a.title);
  };
  const write = (page: string, articles: unknown) => app.request('PUT', `/api/pages/${page}`, { data: { articles } });
  const found = async (query: string) =>
    (await app.request('GET', `/api/pages?${query}&fields[0]=title&sort=title`)).body.data.map((p: Entry) => p.title);

  it('connects the draft and the published version of one document; each link shows its version, whatever the reader asks', async () => {
    const page = await newPage('both');
    const res = await write(page, { connect: [{ documentId: article.A, status: 'draft' }, { documentId: article.A, status: 'published' }] });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await shown(page)).toEqual(['A v2', 'A v1']);
    expect(await shown(page, 'draft')).toEqual(['A v2', 'A v1']);
    // Connecting the document without status turns its version links into one link to the whole document.
    await write(page, { connect: [article.A] });
    expect(await shown(page)).toEqual(['A v1']);
    expect(await shown(page, 'draft')).toEqual(['A v2']);
    // And a version link to a document already linked whole is that link, not a second entry.
    await write(page, { connect: [{ documentId: article.A, status: 'draft' }] });
    expect(await shown(page)).toEqual(['A v1']);
  });

  it('a link without status names the document: the reader’s status picks the version (Strapi links both versions)', async () => {
    const page = await newPage('plain', { articles: [article.A] });
    expect(await shown(page)).toEqual(['A v1']);
    expect(await shown(page, 'draft')).toEqual(['A v2']);
    // A draft-only document shows to draft readers only, unless the link names its draft.
    await write(page, { connect: [article.B] });
    expect(await shown(page)).toEqual(['A v1']);
    expect(await shown(page, 'draft')).toEqual(['A v2', 'B draft']);
  });

  it('filters through the relation match the linked version', async () => {
    await newPage('filter draft', { articles: { connect: [{ documentId: article.A, status: 'draft' }] } });
    await newPage('filter published', { articles: { connect: [{ documentId: article.A, status: 'published' }] } });
    await newPage('filter plain', { articles: [article.A] });
    const byTitle = (title: string, status = 'published') =>
      found(`status=${status}&filters[title][$startsWith]=filter&filters[articles][title][$eq]=${encodeURIComponent(title)}`);
    expect(await byTitle('A v2')).toEqual(['filter draft']);
    expect(await byTitle('A v1')).toEqual(['filter plain', 'filter published']);
    expect(await byTitle('A v2', 'draft')).toEqual(['filter draft', 'filter plain']);
    expect(await byTitle('A v1', 'draft')).toEqual(['filter published']);
  });

  it('disconnect names the version to unlink; without status it unlinks every version', async () => {
    const page = await newPage('disconnect', { articles: { connect: [{ documentId: article.A, status: 'draft' }, { documentId: article.A, status: 'published' }, article.C] } });
    await write(page, { disconnect: [{ documentId: article.A, status: 'draft' }] });
    expect(await shown(page)).toEqual(['A v1', 'C']);
    await write(page, { disconnect: [article.A] });
    expect(await shown(page)).toEqual(['C']);
    // Unlinking one version of a whole-document link keeps the other version linked.
    await write(page, { connect: [article.A] });
    expect(await shown(page)).toEqual(['C', 'A v1']);
    await write(page, { disconnect: [{ documentId: article.A, status: 'published' }] });
    expect(await shown(page)).toEqual(['C', 'A v2']);
    expect(await shown(page, 'draft')).toEqual(['C', 'A v2']);
  });

  it('set takes status too, and positions may name the version they are relative to', async () => {
    const page = await newPage('set');
    await write(page, { set: [{ documentId: article.B, status: 'draft' }, { documentId: article.A, status: 'published' }] });
    expect(await shown(page)).toEqual(['B draft', 'A v1']);
    await write(page, [{ documentId: article.A, status: 'draft' }]);
    expect(await shown(page)).toEqual(['A v2']);
    await write(page, { set: [{ documentId: article.A, status: 'draft' }, { documentId: article.A, status: 'published' }] });
    await write(page, { connect: [{ documentId: article.C, position: { before: article.A, status: 'published' } }] });
    expect(await shown(page)).toEqual(['A v2', 'C', 'A v1']);
    await write(page, { connect: [{ documentId: article.B, status: 'draft', position: { after: article.A, status: 'draft' } }] });
    expect(await shown(page)).toEqual(['A v2', 'B draft', 'C', 'A v1']);
  });

  it('a linked version that stops existing is not shown; connecting a version that does not exist is a 400', async () => {
    const target = (await app.request('POST', '/api/articles', { data: { title: 'T' } })).body.data.documentId;
    const page = await newPage('gone', { articles: { connect: [{ documentId: target, status: 'published' }] } });
    expect(await shown(page)).toEqual(['T']);
    expect((await app.request('POST', `/api/articles/${target}/actions/unpublish`)).status).toBe(200);
    expect(await shown(page)).toEqual([]);
    const res = await write(page, { connect: [{ documentId: article.B, status: 'published' }] });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain(`Document with id "${article.B}", locale "null", status "published" not found`);
  });

  it('a to-one relation shows the linked version, in lists too (where to-one objects are otherwise shared)', async () => {
    const page = await newPage('lead', { lead: { connect: [{ documentId: article.A, status: 'draft' }] } });
    await newPage('lead plain', { lead: article.A });
    await app.request('PUT', `/api/articles/${article.A}?status=draft`, { data: { next: article.C } });
    const list = await app.request('GET', '/api/pages?filters[title][$startsWith]=lead&sort=title&fields[0]=title&populate[lead][populate][next][fields][0]=title');
    expect(list.body.data.map((p: Entry) => [p.title, p.lead?.title, p.lead?.next?.title ?? null])).toEqual([
      ['lead', 'A v2', 'C'],
      ['lead plain', 'A v1', null],
    ]);
    const one = await app.request('GET', `/api/pages/${page}?populate=lead`);
    expect(one.body.data.lead.title).toBe('A v2');
  });

  it('localized targets: the same document may be linked per locale and per version', async () => {
    const restaurant = (await app.request('POST', '/api/restaurants', { data: { name: 'Garden' } })).body.data.documentId;
    await app.request('PUT', `/api/restaurants/${restaurant}?locale=fr&status=draft`, { data: { name: 'Jardin' } });
    const page = await newPage('spots', {
      spots: { connect: [{ documentId: restaurant, locale: 'fr', status: 'draft' }, { documentId: restaurant, locale: 'en', status: 'published' }] },
    });
    const res = await app.request('GET', `/api/pages/${page}?populate[spots][fields][0]=name&populate[spots][fields][1]=locale`);
    expect(res.body.data.spots.map((r: Entry) => `${r.locale}:${r.name}`)).toEqual(['fr:Jardin', 'en:Garden']);
    await app.request('PUT', `/api/pages/${page}`, { data: { spots: { disconnect: [{ documentId: restaurant, locale: 'fr' }] } } });
    expect((await app.request('GET', `/api/pages/${page}?populate[spots][fields][0]=name`)).body.data.spots.map((r: Entry) => r.name)).toEqual(['Garden']);
  });

  it('GraphQL reads (populate and filters) show the linked version', async () => {
    await newPage('gql', { articles: { connect: [{ documentId: article.A, status: 'draft' }, { documentId: article.C, status: 'published' }] } });
    const res = await app.request('POST', '/graphql', {
      query: '{ pages(filters: { title: { eq: "gql" } }) { title articles { title } } byDraft: pages(filters: { articles: { title: { eq: "A v2" } }, title: { startsWith: "gql" } }) { title } }',
    });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.pages).toEqual([{ title: 'gql', articles: [{ title: 'A v2' }, { title: 'C' }] }]);
    expect(res.body.data.byDraft).toEqual([{ title: 'gql' }]);
  });

  describe('bad input is a 400 that writes nothing', () => {
    const bad = async (articles: unknown, message: RegExp, path: string) => {
      const page = await newPage(`bad ${path}`, { articles: [article.C] });
      const res = await write(page, articles);
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body.error.name).toBe('ValidationError');
      expect(res.body.error.message).toMatch(message);
      expect(res.body.error.message).toContain(path);
      expect(await shown(page)).toEqual(['C']);
    };

    it('a status other than draft or published, in connect, disconnect, set and positions, names its path', async () => {
      await bad({ connect: [{ documentId: article.A, status: 'modified' }] }, /must be one of draft, published/, 'articles.connect.0.status');
      await bad({ connect: [{ documentId: article.A, status: null }] }, /must be one of draft, published/, 'articles.connect.0.status');
      await bad({ disconnect: [article.B, { documentId: article.C, status: 1 }] }, /must be one of draft, published/, 'articles.disconnect.1.status');
      await bad({ set: [{ documentId: article.A, status: 'Draft' }] }, /must be one of draft, published/, 'articles.set.0.status');
      await bad([{ documentId: article.A, status: ['draft'] }], /must be one of draft, published/, 'articles.0.status');
      await bad(
        { connect: [{ documentId: article.A, position: { before: article.C, status: 'live' } }] },
        /must be one of draft, published/,
        'articles.connect.0.position.status',
      );
    });

    it('the same link twice (documentId, locale and status alike) is refused; different versions are not', async () => {
      await bad({ connect: [{ documentId: article.A, status: 'draft' }, { documentId: article.A, status: 'draft' }] }, /more than once/, 'articles');
      await bad({ connect: [article.A, { documentId: article.A }] }, /more than once/, 'articles');
    });
  });

  describe('a source with Draft & Publish', () => {
    it('ignores status: its draft links the targets’ drafts and its published version their published versions', async () => {
      const res = await app.request('POST', '/api/issues?populate[articles][fields][0]=title', {
        data: { title: 'I', articles: { connect: [{ documentId: article.A, status: 'draft' }, { documentId: article.A, status: 'published' }] } },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      const issue = res.body.data.documentId;
      const titles = async (status: string) =>
        (await app.request('GET', `/api/issues/${issue}?status=${status}&populate[articles][fields][0]=title`)).body.data.articles.map((a: Entry) => a.title);
      expect(await titles('published')).toEqual(['A v1']);
      expect(await titles('draft')).toEqual(['A v2']);
      // A position's status and locale (null: the target has no locales) don't narrow its anchor here either.
      const placed = await app.request('PUT', `/api/issues/${issue}`, {
        data: { articles: { connect: [{ documentId: article.C, position: { before: article.A, locale: null, status: 'draft' } }] } },
      });
      expect(placed.status, JSON.stringify(placed.body)).toBe(200);
      expect(await titles('published')).toEqual(['C', 'A v1']);
      // Still validated: a bad value is a 400 here too.
      const bad = await app.request('PUT', `/api/issues/${issue}`, { data: { articles: { connect: [{ documentId: article.C, status: 'live' }] } } });
      expect(bad.status).toBe(400);
      expect(bad.body.error.message).toContain('articles.connect.0.status');
    });
  });
});
