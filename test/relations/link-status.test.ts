import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachDialect } from '../helpers/databases.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { kitchen } from '../fixtures/kitchen.js';

type Entry = Record<string, any>;

/**
 * Pages have no Draft & Publish, articles have. In Strapi's layout a page's links join article VERSION rows
 * (docs/strapi-5-writes.md §3): a connect without `status` links both versions (draft first), one with `status` the
 * version it names (Strapi's `transform/relations/utils/dp.js`). A reader's `status` picks which linked rows a
 * populate shows (Strapi's query-layer status filter applies to populated D&P targets); relation filters match any
 * linked row. Publishing, unpublishing and discarding a target change the page's links by Strapi's unidirectional
 * rule (§4, `unidirectional-relations.js`). Issues have Draft & Publish themselves, so their links follow the
 * issue's own version and ignore `status`.
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

describeEachDialect('a page without Draft & Publish linking versions of articles (Strapi layout)', (dialect) => {
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
  const both = async (page: string) => ({ published: await shown(page), draft: await shown(page, 'draft') });
  const write = async (page: string, articles: unknown) => {
    const res = await app.request('PUT', `/api/pages/${page}`, { data: { articles } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res;
  };
  const act = async (documentId: string, action: 'publish' | 'unpublish' | 'discard-draft') =>
    expect((await app.request('POST', `/api/articles/${documentId}/actions/${action}`)).status).toBe(200);
  const found = async (query: string) =>
    (await app.request('GET', `/api/pages?${query}&fields[0]=title&sort=title`)).body.data.map((p: Entry) => p.title);
  /** A fresh published article with a newer draft, so a test may publish or unpublish it alone. */
  const freshArticle = async (title: string) => {
    const documentId = (await app.request('POST', '/api/articles', { data: { title: `${title} v1` } })).body.data.documentId as string;
    await app.request('PUT', `/api/articles/${documentId}?status=draft`, { data: { title: `${title} v2` } });
    return documentId;
  };

  it('a link without status links both versions: each reader status shows its own version', async () => {
    const page = await newPage('plain', { articles: [article.A] });
    expect(await both(page)).toEqual({ published: ['A v1'], draft: ['A v2'] });
    // A draft-only document has no published row to link: draft readers only.
    await write(page, { connect: [article.B] });
    expect(await both(page)).toEqual({ published: ['A v1'], draft: ['A v2', 'B draft'] });
  });

  it('a status in connect links that version only: readers of the other status do not see it', async () => {
    const drafted = await newPage('draft link', { articles: { connect: [{ documentId: article.A, status: 'draft' }] } });
    expect(await both(drafted)).toEqual({ published: [], draft: ['A v2'] });
    const published = await newPage('published link', { articles: { connect: [{ documentId: article.A, status: 'published' }] } });
    expect(await both(published)).toEqual({ published: ['A v1'], draft: [] });
    // Connecting the other version, or the document without status, adds the missing row; nothing is doubled.
    await write(drafted, { connect: [{ documentId: article.A, status: 'published' }] });
    expect(await both(drafted)).toEqual({ published: ['A v1'], draft: ['A v2'] });
    await write(published, { connect: [article.A] });
    expect(await both(published)).toEqual({ published: ['A v1'], draft: ['A v2'] });
  });

  it('relation filters match any linked row, whatever the reader asks (Strapi filters populated targets only)', async () => {
    await newPage('filter draft', { articles: { connect: [{ documentId: article.A, status: 'draft' }] } });
    await newPage('filter published', { articles: { connect: [{ documentId: article.A, status: 'published' }] } });
    await newPage('filter plain', { articles: [article.A] });
    const byTitle = (title: string, status = 'published') =>
      found(`status=${status}&filters[title][$startsWith]=filter&filters[articles][title][$eq]=${encodeURIComponent(title)}`);
    for (const status of ['published', 'draft']) {
      expect(await byTitle('A v2', status)).toEqual(['filter draft', 'filter plain']);
      expect(await byTitle('A v1', status)).toEqual(['filter plain', 'filter published']);
    }
  });

  it('disconnect with a status unlinks that version; without status every version', async () => {
    const page = await newPage('disconnect', { articles: [article.A, article.C] });
    await write(page, { disconnect: [{ documentId: article.A, status: 'draft' }] });
    expect(await both(page)).toEqual({ published: ['A v1', 'C'], draft: ['C'] });
    await write(page, { disconnect: [article.A] });
    expect(await both(page)).toEqual({ published: ['C'], draft: ['C'] });
  });

  it('set takes status too', async () => {
    const page = await newPage('set');
    await write(page, { set: [{ documentId: article.B, status: 'draft' }, { documentId: article.A, status: 'published' }] });
    expect(await both(page)).toEqual({ published: ['A v1'], draft: ['B draft'] });
    await write(page, [article.C, { documentId: article.A, status: 'draft' }]);
    expect(await both(page)).toEqual({ published: ['C'], draft: ['C', 'A v2'] });
  });

  it('publishing a target: a page linking its draft only gets its published row too (first publish or re-publish)', async () => {
    const target = (await app.request('POST', '/api/articles?status=draft', { data: { title: 'T draft' } })).body.data.documentId as string;
    const page = await newPage('first publish', { articles: [target] });
    expect(await both(page)).toEqual({ published: [], draft: ['T draft'] });
    await act(target, 'publish');
    expect(await both(page)).toEqual({ published: ['T draft'], draft: ['T draft'] });
    // A page linking only the draft of a published document gains the published row when it is published again.
    const again = await freshArticle('R');
    const draftOnly = await newPage('republish', { articles: { connect: [{ documentId: again, status: 'draft' }] } });
    expect(await both(draftOnly)).toEqual({ published: [], draft: ['R v2'] });
    await act(again, 'publish');
    expect(await both(draftOnly)).toEqual({ published: ['R v2'], draft: ['R v2'] });
  });

  it('publishing a target: a page linking its published row only keeps it, and gets no draft link', async () => {
    const target = await freshArticle('P');
    const page = await newPage('published only', { articles: { connect: [{ documentId: target, status: 'published' }] } });
    await app.request('PUT', `/api/articles/${target}`, { data: { title: 'P v3' } });
    expect(await both(page)).toEqual({ published: ['P v3'], draft: [] });
  });

  it('unpublishing drops the links to the published row; publishing again copies them back from the draft links only', async () => {
    const target = await freshArticle('U');
    const plain = await newPage('unpublish plain', { articles: [target] });
    const publishedOnly = await newPage('unpublish published', { articles: { connect: [{ documentId: target, status: 'published' }] } });
    await act(target, 'unpublish');
    expect(await both(plain)).toEqual({ published: [], draft: ['U v2'] });
    expect(await both(publishedOnly)).toEqual({ published: [], draft: [] });
    await act(target, 'publish');
    expect(await both(plain)).toEqual({ published: ['U v2'], draft: ['U v2'] });
    // The link to the published row went with it: no draft link to copy it back from.
    expect(await both(publishedOnly)).toEqual({ published: [], draft: [] });
  });

  it('discarding a target\'s draft: a page linking its published row only gets the draft row too', async () => {
    const target = await freshArticle('D');
    const page = await newPage('discard', { articles: { connect: [{ documentId: target, status: 'published' }] } });
    await act(target, 'discard-draft');
    expect(await both(page)).toEqual({ published: ['D v1'], draft: ['D v1'] });
  });

  it('a to-one relation links both versions too; each reader status shows its own', async () => {
    const page = await newPage('lead', { lead: { connect: [{ documentId: article.A, status: 'draft' }] } });
    await newPage('lead plain', { lead: article.A });
    const list = async (status: string) =>
      (await app.request('GET', `/api/pages?status=${status}&filters[title][$startsWith]=lead&sort=title&fields[0]=title&populate[lead][fields][0]=title`)).body.data.map(
        (p: Entry) => [p.title, p.lead?.title ?? null],
      );
    expect(await list('published')).toEqual([
      ['lead', null],
      ['lead plain', 'A v1'],
    ]);
    expect(await list('draft')).toEqual([
      ['lead', 'A v2'],
      ['lead plain', 'A v2'],
    ]);
    expect((await app.request('GET', `/api/pages/${page}?status=draft&populate=lead`)).body.data.lead.title).toBe('A v2');
  });

  it("a to-one connect keeps the links to the connected document's other version (Strapi's deletePreviousAnyToOneRelations keeps its siblings)", async () => {
    const page = await newPage('lead twice', { lead: { connect: [{ documentId: article.A, status: 'draft' }] } });
    const lead = async (status: string) => (await app.request('GET', `/api/pages/${page}?status=${status}&populate[lead][fields][0]=title`)).body.data.lead?.title ?? null;
    await app.request('PUT', `/api/pages/${page}`, { data: { lead: { connect: [{ documentId: article.A, status: 'published' }] } } });
    expect([await lead('draft'), await lead('published')]).toEqual(['A v2', 'A v1']);
    // Another document replaces both.
    await app.request('PUT', `/api/pages/${page}`, { data: { lead: { connect: [article.C] } } });
    expect([await lead('draft'), await lead('published')]).toEqual(['C', 'C']);
  });

  it("a write's answer populates the version its status names, as Strapi's (the page itself has one row)", async () => {
    const pages = app.cairn.strapi.documents('api::page.page');
    const populate = { lead: { fields: ['title'] } };
    const drafted = (await pages.create({ data: { title: 'answer draft', lead: article.A }, status: 'draft', populate } as never)) as Entry;
    expect(drafted.lead.title).toBe('A v2');
    const published = (await pages.create({ data: { title: 'answer published', lead: article.A }, status: 'published', populate } as never)) as Entry;
    expect(published.lead.title).toBe('A v1');
    const rest = await app.request('PUT', `/api/pages/${drafted.documentId}?status=draft&populate[lead][fields][0]=title`, { data: { title: 'answer draft again' } });
    expect(rest.body.data.lead.title).toBe('A v2');
  });

  it('localized targets: a connect names a locale and a version', async () => {
    const restaurant = (await app.request('POST', '/api/restaurants', { data: { name: 'Garden' } })).body.data.documentId;
    await app.request('PUT', `/api/restaurants/${restaurant}?locale=fr&status=draft`, { data: { name: 'Jardin' } });
    const page = await newPage('spots', {
      spots: { connect: [{ documentId: restaurant, locale: 'fr', status: 'draft' }, { documentId: restaurant, locale: 'en', status: 'published' }] },
    });
    const spots = async (status: string) =>
      (await app.request('GET', `/api/pages/${page}?status=${status}&populate[spots][fields][0]=name&populate[spots][fields][1]=locale`)).body.data.spots.map(
        (r: Entry) => `${r.locale}:${r.name}`,
      );
    expect(await spots('published')).toEqual(['en:Garden']);
    expect(await spots('draft')).toEqual(['fr:Jardin']);
    await app.request('PUT', `/api/pages/${page}`, { data: { spots: { disconnect: [{ documentId: restaurant, locale: 'fr' }] } } });
    expect(await spots('draft')).toEqual([]);
    expect(await spots('published')).toEqual(['en:Garden']);
  });

  it('GraphQL reads (populate and filters) follow the same rules', async () => {
    await newPage('gql', { articles: { connect: [{ documentId: article.A, status: 'draft' }, { documentId: article.C, status: 'published' }] } });
    const res = await app.request('POST', '/graphql', {
      query: '{ pages(filters: { title: { eq: "gql" } }) { title articles { title } } byDraft: pages(filters: { articles: { title: { eq: "A v2" } }, title: { startsWith: "gql" } }) { title } }',
    });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.pages).toEqual([{ title: 'gql', articles: [{ title: 'C' }] }]);
    expect(res.body.data.byDraft).toEqual([{ title: 'gql' }]);
  });

  describe('bad input is a 400 that writes nothing', () => {
    const bad = async (articles: unknown, message: RegExp, path: string) => {
      const page = await newPage(`bad ${path}`, { articles: [article.C] });
      const res = await app.request('PUT', `/api/pages/${page}`, { data: { articles } });
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body.error.name).toBe('ValidationError');
      expect(res.body.error.message).toMatch(message);
      expect(res.body.error.message).toContain(path);
      expect(await shown(page)).toEqual(['C']);
    };

    // Cairn is stricter here than Strapi, whose dp.js reads an unknown status as 'draft'.
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

    it('the same link twice (documentId, locale and status alike) is refused', async () => {
      await bad({ connect: [{ documentId: article.A, status: 'draft' }, { documentId: article.A, status: 'draft' }] }, /more than once/, 'articles');
      await bad({ connect: [article.A, { documentId: article.A }] }, /more than once/, 'articles');
    });

    it('connecting a version that does not exist is a 400', async () => {
      const page = await newPage('missing version');
      const res = await app.request('PUT', `/api/pages/${page}`, { data: { articles: { connect: [{ documentId: article.B, status: 'published' }] } } });
      expect(res.status).toBe(400);
      expect(res.body.error.message).toContain(`Document with id "${article.B}", locale "null", status "published" not found`);
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
