import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachDialect } from '../helpers/databases.js';
import { startTestApp, type TestApp } from '../helpers/app.js';

/**
 * What publishing and discarding a draft do to links OTHER rows hold, in Strapi's layout (docs/strapi-5-writes.md §3,
 * §4; Strapi's `self-referential-relations.js` and `unidirectional-relations.js`), checked in the `*_lnk` rows:
 * which version rows each link joins and its `*_ord`. Cairn keeps the published row's id (§14), so a link Strapi
 * "re-points" to the new published row is the same link here.
 */
const model = {
  contentTypes: {
    article: {
      kind: 'collectionType',
      collectionName: 'articles',
      info: { singularName: 'article', pluralName: 'articles', displayName: 'Article' },
      options: { draftAndPublish: true },
      attributes: {
        title: { type: 'string' },
        related: { type: 'relation', relation: 'manyToMany', target: 'api::article.article' },
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
      },
    },
  },
};

type Link = [string, number];

describeEachDialect('Publishing: links other rows hold (Strapi layout)', (dialect) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(dialect, model);
  });
  afterAll(async () => app?.close());

  const rows = <T>(sql: string, params: unknown[] = []) => app.cairn.db.query<T>(sql, params);
  /** Row id -> "title/D" or "title/P", to read links by name. */
  const names = async () => {
    const all = await rows<{ id: number; title: string; published_at: unknown }>('SELECT id, title, published_at FROM articles');
    return new Map(all.map((r) => [Number(r.id), `${r.title}/${r.published_at === null ? 'D' : 'P'}`]));
  };
  const rowOf = async (title: string, version: 'D' | 'P') => {
    const found = [...(await names())].find(([, name]) => name === `${title}/${version}`);
    if (!found) throw new Error(`no row ${title}/${version}`);
    return found[0];
  };
  /** The related list of one version row: [member "title/V", article_ord] by ord then id. */
  const related = async (title: string, version: 'D' | 'P'): Promise<Link[]> => {
    const n = await names();
    const links = await rows<{ m: number; o: number }>('SELECT inv_article_id AS m, article_ord AS o FROM articles_related_lnk WHERE article_id = ? ORDER BY article_ord, id', [
      await rowOf(title, version),
    ]);
    return links.map((l) => [n.get(Number(l.m))!, Number(l.o)]);
  };
  /** A page's links: [member "title/V", article_ord] by ord then id. */
  const pageLinks = async (documentId: string): Promise<Link[]> => {
    const n = await names();
    const links = await rows<{ m: number; o: number }>(
      'SELECT l.article_id AS m, l.article_ord AS o FROM pages_articles_lnk l JOIN pages p ON p.id = l.page_id WHERE p.document_id = ? ORDER BY l.article_ord, l.id',
      [documentId],
    );
    return links.map((l) => [n.get(Number(l.m))!, Number(l.o)]);
  };
  const ok = async (method: string, url: string, data?: unknown) => {
    const res = await app.request(method, url, data === undefined ? undefined : { data });
    expect(res.status, `${method} ${url}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
    return res.body?.data as { documentId: string };
  };
  const article = async (title: string, data: Record<string, unknown> = {}, draftOnly = false) =>
    (await ok('POST', `/api/articles${draftOnly ? '?status=draft' : ''}`, { title, ...data })).documentId;
  const action = (documentId: string, name: 'publish' | 'unpublish' | 'discard-draft') => ok('POST', `/api/articles/${documentId}/actions/${name}`);

  describe('a relation of a type to itself (articles.related)', () => {
    it('a first publish of a draft-only X gives Y/P -> X/P to every published Y whose draft links X (2e)', async () => {
      const x = await article('x1', {}, true);
      await article('y1', { related: [x] });
      // y1/P has no link: x1 has no published row (§3).
      expect(await related('y1', 'D')).toEqual([['x1/D', 1]]);
      expect(await related('y1', 'P')).toEqual([]);
      await action(x, 'publish');
      // Mirrored from y1/D -> x1/D with its ord, though y1 was not published again.
      expect(await related('y1', 'P')).toEqual([['x1/P', 1]]);
      expect(await related('y1', 'D')).toEqual([['x1/D', 1]]);
      // A draft-only Y gets nothing: it has no published row.
      await article('y1b', { related: [x] }, true);
      await action(x, 'publish');
      expect(await related('y1b', 'P').catch(() => 'no row')).toBe('no row');
    });

    it('re-publishing X sets Y/P -> X/P to the draft link\'s ord, even into a tie (2g)', async () => {
      const a = await article('a2');
      const b = await article('b2');
      const y = await article('y2', { related: [a, b] });
      expect(await related('y2', 'P')).toEqual([
        ['a2/P', 1],
        ['b2/P', 2],
      ]);
      await ok('PUT', `/api/articles/${y}?status=draft`, { related: [b, a] });
      expect(await related('y2', 'D')).toEqual([
        ['b2/D', 1],
        ['a2/D', 2],
      ]);
      await action(a, 'publish');
      // y2/P -> a2/P takes y2/D -> a2/D's ord 2; b2/P keeps its 2: a tie, as in Strapi.
      expect((await related('y2', 'P')).sort()).toEqual([
        ['a2/P', 2],
        ['b2/P', 2],
      ]);
    });

    it('unpublishing X drops the links to X/P; publishing it again brings them back from the drafts (5c/5d)', async () => {
      const x = await article('x3');
      const t = await article('t3');
      await ok('PUT', `/api/articles/${x}`, { related: [t] });
      await article('y3', { related: [x] });
      expect(await related('y3', 'P')).toEqual([['x3/P', 1]]);
      await action(x, 'unpublish');
      expect(await related('y3', 'P')).toEqual([]);
      await action(x, 'publish');
      expect(await related('y3', 'P')).toEqual([['x3/P', 1]]);
      expect(await related('x3', 'P')).toEqual([['t3/P', 1]]);
    });

    it('a link Y/P -> X/P whose draft Y/D no longer links X/D stays (Strapi re-points it, removes nothing)', async () => {
      const x = await article('x4');
      const y = await article('y4', { related: [x] });
      await ok('PUT', `/api/articles/${y}?status=draft`, { related: [] });
      await action(x, 'publish');
      expect(await related('y4', 'P')).toEqual([['x4/P', 1]]);
      expect(await related('y4', 'D')).toEqual([]);
    });

    it('X/P\'s own links are the draft\'s mapped to published targets, a draft-only target dropped (§4 step 4)', async () => {
      const p = await article('p5');
      const d = await article('d5', {}, true);
      const x = await article('x5', { related: [p] });
      await ok('PUT', `/api/articles/${x}?status=draft`, { related: [d, p] });
      await action(x, 'publish');
      expect(await related('x5', 'P')).toEqual([['p5/P', 2]]);
      await action(d, 'publish');
      // d5's first publish mirrors x5/D -> d5/D (ord 1) onto x5/P.
      expect(await related('x5', 'P')).toEqual([
        ['d5/P', 1],
        ['p5/P', 2],
      ]);
    });

    it('discarding X\'s draft mirrors Y/P -> X/P onto Y/D -> X/D, as Strapi\'s discard does with status draft', async () => {
      const x = await article('x6');
      const y = await article('y6', { related: [x] });
      await ok('PUT', `/api/articles/${y}?status=draft`, { related: [] });
      await ok('PUT', `/api/articles/${x}?status=draft`, { title: 'x6' });
      await action(x, 'discard-draft');
      expect(await related('y6', 'D')).toEqual([['x6/D', 1]]);
      expect(await related('y6', 'P')).toEqual([['x6/P', 1]]);
    });
  });

  describe('a type without Draft & Publish linking one with it (pages.articles, unidirectional)', () => {
    it('a page linking a draft-only X gets X/P on its first publish, with the draft link\'s ord (a tie)', async () => {
      const c = await article('c7');
      const x = await article('x7', {}, true);
      const page = (await ok('POST', '/api/pages', { title: 'p7', articles: [c, x] })).documentId;
      expect(await pageLinks(page)).toEqual([
        ['c7/D', 1],
        ['c7/P', 2],
        ['x7/D', 3],
      ]);
      await action(x, 'publish');
      expect(await pageLinks(page)).toEqual([
        ['c7/D', 1],
        ['c7/P', 2],
        ['x7/D', 3],
        ['x7/P', 3],
      ]);
    });

    it('re-publishing X copies a link to X/D only onto X/P; a link to X/P only stays and gains no X/D', async () => {
      const x = await article('x8');
      const draftOnly = (await ok('POST', '/api/pages', { title: 'p8d', articles: { connect: [{ documentId: x, status: 'draft' }] } })).documentId;
      const publishedOnly = (await ok('POST', '/api/pages', { title: 'p8p', articles: { connect: [{ documentId: x, status: 'published' }] } })).documentId;
      // A connect on create writes 0-based ords (§5.1).
      expect(await pageLinks(draftOnly)).toEqual([['x8/D', 0]]);
      expect(await pageLinks(publishedOnly)).toEqual([['x8/P', 0]]);
      await ok('PUT', `/api/articles/${x}`, { title: 'x8' });
      expect(await pageLinks(draftOnly)).toEqual([
        ['x8/D', 0],
        ['x8/P', 0],
      ]);
      expect(await pageLinks(publishedOnly)).toEqual([['x8/P', 0]]);
    });

    it('unpublish drops the links to X/P; publishing again copies the draft links back', async () => {
      const x = await article('x9');
      const page = (await ok('POST', '/api/pages', { title: 'p9', articles: [x] })).documentId;
      expect(await pageLinks(page)).toEqual([
        ['x9/D', 1],
        ['x9/P', 2],
      ]);
      await action(x, 'unpublish');
      expect(await pageLinks(page)).toEqual([['x9/D', 1]]);
      await action(x, 'publish');
      expect(await pageLinks(page)).toEqual([
        ['x9/D', 1],
        ['x9/P', 1],
      ]);
    });

    it('discarding X\'s draft copies a link to X/P only onto X/D (the rule run the other way)', async () => {
      const x = await article('x10');
      const page = (await ok('POST', '/api/pages', { title: 'p10', articles: { connect: [{ documentId: x, status: 'published' }] } })).documentId;
      await ok('PUT', `/api/articles/${x}?status=draft`, { title: 'x10' });
      await action(x, 'discard-draft');
      // A tie: the older link (to x10/P) first.
      expect(await pageLinks(page)).toEqual([
        ['x10/P', 0],
        ['x10/D', 0],
      ]);
    });
  });
});
