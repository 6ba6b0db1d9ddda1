import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachDialect } from '../helpers/databases.js';
import { startTestApp, type TestApp } from '../helpers/app.js';

/**
 * A relation between two Draft & Publish types written and published from its mappedBy side (an article's `labels`,
 * owned by `label.articles`): Strapi's publish re-creates the copied row's relations on both sides
 * (`getDeepPopulate` reads the mappedBy side, `entries.publish` writes it, `bidirectional-relations.js` restores the
 * owners' orders), so a published article is linked from the published labels its draft was linked from. Checked in
 * `labels_articles_lnk`: which version rows each link joins, `article_ord` (the label's list) and `label_ord` (the
 * article's list).
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
        labels: { type: 'relation', relation: 'manyToMany', target: 'api::label.label', mappedBy: 'articles' },
      },
    },
    label: {
      kind: 'collectionType',
      collectionName: 'labels',
      info: { singularName: 'label', pluralName: 'labels', displayName: 'Label' },
      options: { draftAndPublish: true },
      attributes: {
        name: { type: 'string' },
        articles: { type: 'relation', relation: 'manyToMany', target: 'api::article.article', inversedBy: 'labels' },
      },
    },
  },
};

/** One link of an article version: [label "name/V", article_ord, label_ord]. */
type Link = [string, number, number];

describeEachDialect('Publishing from the mappedBy side of a relation between two D&P types (Strapi layout)', (dialect) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(dialect, model);
  });
  afterAll(async () => app?.close());

  const rows = <T>(sql: string, params: unknown[] = []) => app.cairn.db.query<T>(sql, params);
  const version = (publishedAt: unknown) => (publishedAt === null ? 'D' : 'P');
  /** The links of one article version row, by label_ord then id. */
  const linksOf = async (title: string, v: 'D' | 'P'): Promise<Link[]> => {
    const found = await rows<{ n: string; p: unknown; ao: number; lo: number }>(
      `SELECT lb.name AS n, lb.published_at AS p, k.article_ord AS ao, k.label_ord AS lo
         FROM labels_articles_lnk k JOIN labels lb ON lb.id = k.label_id JOIN articles a ON a.id = k.article_id
        WHERE a.title = ? AND a.published_at IS ${v === 'D' ? '' : 'NOT '}NULL ORDER BY k.label_ord, k.id`,
      [title],
    );
    return found.map((r) => [`${r.n}/${version(r.p)}`, Number(r.ao), Number(r.lo)]);
  };
  const ok = async (method: string, url: string, data?: unknown) => {
    const res = await app.request(method, url, data === undefined ? undefined : { data });
    expect(res.status, `${method} ${url}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
    return res.body?.data as { documentId: string };
  };
  const label = async (name: string, draftOnly = false) => (await ok('POST', `/api/labels${draftOnly ? '?status=draft' : ''}`, { name })).documentId;
  const article = async (title: string, labels: string[]) => (await ok('POST', '/api/articles', { title, labels })).documentId;
  const publishedLabelsOf = async (documentId: string) =>
    ((await ok('GET', `/api/articles/${documentId}?populate=labels`)) as unknown as { labels: Array<{ name: string }> }).labels.map((l) => l.name);

  describe('a first publish', () => {
    it('links the published article from the published labels its draft is linked from, orders copied from the draft links', async () => {
      const [a, b] = [await label('a1'), await label('b1')];
      const x = await article('x1', [a, b]);
      expect(await linksOf('x1', 'D')).toEqual([
        ['a1/D', 1, 1],
        ['b1/D', 1, 2],
      ]);
      expect(await linksOf('x1', 'P')).toEqual([
        ['a1/P', 1, 1],
        ['b1/P', 1, 2],
      ]);
      // Read from either side, through the published versions.
      expect(await publishedLabelsOf(x)).toEqual(['a1', 'b1']);
      const res = await app.request('GET', `/api/labels?filters[name][$eq]=a1&populate=articles`);
      expect(res.body.data[0].articles.map((e: { title: string }) => e.title)).toEqual(['x1']);
    });

    it('gives no link from a label without a published version', async () => {
      const [a, c] = [await label('a2'), await label('c2', true)];
      await article('x2', [a, c]);
      expect(await linksOf('x2', 'D')).toEqual([
        ['a2/D', 1, 1],
        ['c2/D', 1, 2],
      ]);
      expect(await linksOf('x2', 'P')).toEqual([['a2/P', 1, 1]]);
    });
  });

  describe('a re-publish and a discarded draft', () => {
    it('makes the published list the draft\'s: a dropped label loses its link, a kept one keeps its place in the label\'s list', async () => {
      const [a, b] = [await label('a3'), await label('b3')];
      const first = await article('w3', [a]);
      const x = await article('x3', [a, b]);
      expect(await linksOf('x3', 'P')).toEqual([
        ['a3/P', 2, 1],
        ['b3/P', 1, 2],
      ]);
      await ok('PUT', `/api/articles/${x}?status=draft`, { labels: [b] });
      // The draft changed alone: the published row keeps its links until the next publish.
      expect(await linksOf('x3', 'P')).toEqual([
        ['a3/P', 2, 1],
        ['b3/P', 1, 2],
      ]);
      await ok('POST', `/api/articles/${x}/actions/publish`);
      expect(await linksOf('x3', 'P')).toEqual([['b3/P', 1, 1]]);
      expect(await publishedLabelsOf(first)).toEqual(['a3']);
    });

    it('applies a publishing write to the published row when both versions were equal (the in-sync path)', async () => {
      const [a, b] = [await label('a4'), await label('b4')];
      const x = await article('x4', [a]);
      await ok('PUT', `/api/articles/${x}`, { labels: { connect: [b] } });
      expect(await linksOf('x4', 'D')).toEqual([
        ['a4/D', 1, 1],
        ['b4/D', 1, 2],
      ]);
      expect(await linksOf('x4', 'P')).toEqual([
        ['a4/P', 1, 1],
        ['b4/P', 1, 2],
      ]);
      await ok('PUT', `/api/articles/${x}`, { labels: { disconnect: [a] } });
      expect(await linksOf('x4', 'P')).toEqual([['b4/P', 1, 2]]);
      expect(await publishedLabelsOf(x)).toEqual(['b4']);
    });

    it('discarding the draft gives it the published list again, mapped to the labels\' drafts', async () => {
      const [a, b] = [await label('a5'), await label('b5')];
      const x = await article('x5', [a]);
      await ok('PUT', `/api/articles/${x}?status=draft`, { labels: [b] });
      expect(await linksOf('x5', 'D')).toEqual([['b5/D', 1, 1]]);
      await ok('POST', `/api/articles/${x}/actions/discard-draft`);
      expect(await linksOf('x5', 'D')).toEqual([['a5/D', 1, 1]]);
      expect(await linksOf('x5', 'P')).toEqual([['a5/P', 1, 1]]);
    });
  });

  it('unpublishing a label removes its published links; the article\'s publish does not bring them back', async () => {
    const a = await label('a6');
    const x = await article('x6', [a]);
    await ok('POST', `/api/labels/${a}/actions/unpublish`);
    expect(await linksOf('x6', 'P')).toEqual([]);
    await ok('POST', `/api/articles/${x}/actions/publish`);
    expect(await linksOf('x6', 'P')).toEqual([]);
    expect(await linksOf('x6', 'D')).toEqual([['a6/D', 1, 1]]);
  });
});
