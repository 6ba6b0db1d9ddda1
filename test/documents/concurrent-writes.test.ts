import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../helpers/databases.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { documentLockKey } from '../../src/database/document-locks.js';

/**
 * Writers racing on one document, through the Content API, on every database: each write takes the locks of the
 * documents it changes (src/documents/write-locks.ts), so no race ends in a 500, a lost write or two orders of
 * one list. The first tests hold a document's lock from a transaction of their own and show which writes wait for
 * it; the others race real requests, many rounds each (each of these failed within a few rounds without the locks).
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
        tags: { type: 'relation', relation: 'manyToMany', target: 'api::tag.tag' },
        categories: { type: 'relation', relation: 'manyToMany', target: 'api::category.category', inversedBy: 'articles' },
        related: { type: 'relation', relation: 'manyToMany', target: 'api::article.article' },
      },
    },
    tag: {
      kind: 'collectionType',
      collectionName: 'tags',
      info: { singularName: 'tag', pluralName: 'tags', displayName: 'Tag' },
      options: { draftAndPublish: false },
      attributes: { name: { type: 'string' } },
    },
    category: {
      kind: 'collectionType',
      collectionName: 'categories',
      info: { singularName: 'category', pluralName: 'categories', displayName: 'Category' },
      options: { draftAndPublish: false },
      attributes: {
        name: { type: 'string' },
        articles: { type: 'relation', relation: 'manyToMany', target: 'api::article.article', mappedBy: 'categories' },
      },
    },
    homepage: {
      kind: 'singleType',
      collectionName: 'homepages',
      info: { singularName: 'homepage', pluralName: 'homepages', displayName: 'Homepage' },
      options: { draftAndPublish: true },
      attributes: { title: { type: 'string' } },
    },
  },
};

const ROUNDS = 12;

describeEachDialect('concurrent writes', (dialect) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(dialect, model);
  }, 60_000);
  afterAll(async () => app?.close());

  const create = async (type: string, data: Record<string, unknown>): Promise<string> => {
    const res = await app.request('POST', `/api/${type}`, { data });
    expect(res.status, res.raw).toBe(201);
    return res.body.data.documentId as string;
  };
  const names = (list: Array<{ name?: string; title?: string }>) => list.map((t) => t.name ?? t.title);
  const related = async (documentId: string, field: string, status: 'draft' | 'published') => {
    const res = await app.request('GET', `/api/articles/${documentId}?status=${status}&populate[${field}][fields][0]=${field === 'tags' || field === 'categories' ? 'name' : 'title'}`);
    expect(res.status, res.raw).toBe(200);
    return names(res.body.data[field]);
  };
  /** Starts a write, resolved or not after `ms`: the lock's holder decides. */
  const settledWithin = async (promise: Promise<unknown>, ms: number) =>
    Promise.race([promise.then(() => true), new Promise((resolve) => setTimeout(() => resolve(false), ms))]);

  /** Runs `fn` holding document locks in a transaction of the test's own, released when it ends (or fails). */
  const whileLocked = async (keys: string[], fn: () => Promise<void>) => {
    const release = await holdLocks(keys);
    try {
      await fn();
    } finally {
      await release();
    }
  };
  const holdLocks = async (keys: string[]) => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const held = new Promise<void>((resolve) => (locked = resolve));
    const done = app.cairn.db.transaction(async (trx) => {
      await trx.lock(keys);
      locked();
      await released;
    });
    await held;
    return async () => {
      release();
      await done;
    };
  };

  // SQLite has one writer at a time anyway: a transaction of the test's own blocks every write, locked or not.
  if (dialect !== 'sqlite') {
    it('an update, a publish and a delete wait for the document lock; a write to another document does not', async () => {
      const a = await create('articles', { title: 'A' });
      const b = await create('articles', { title: 'B' });
      let update!: ReturnType<TestApp['request']>;
      let publish!: ReturnType<TestApp['request']>;
      await whileLocked([documentLockKey('api::article.article', a)], async () => {
        update = app.request('PUT', `/api/articles/${a}`, { data: { title: 'A2' } });
        publish = app.request('POST', `/api/articles/${a}/actions/publish`);
        expect(await settledWithin(update, 300)).toBe(false);
        expect(await settledWithin(publish, 50)).toBe(false);
        const other = await app.request('PUT', `/api/articles/${b}`, { data: { title: 'B2' } });
        expect(other.status).toBe(200);
      });
      expect((await update).status).toBe(200);
      expect((await publish).status).toBe(200);
    });

    it('a write from the inverse side waits for the owner document it links', async () => {
      const a = await create('articles', { title: 'owner' });
      const c = await create('categories', { name: 'C' });
      let link!: ReturnType<TestApp['request']>;
      await whileLocked([documentLockKey('api::article.article', a)], async () => {
        link = app.request('PUT', `/api/categories/${c}`, { data: { articles: { connect: [a] } } });
        expect(await settledWithin(link, 300)).toBe(false);
      });
      expect((await link).status).toBe(200);
      expect(await related(a, 'categories', 'published')).toEqual(['C']);
    });

    it('a delete waits for the documents that link to it', async () => {
      const target = await create('articles', { title: 'target' });
      const linking = await create('articles', { title: 'linking', related: [target] });
      let remove!: ReturnType<TestApp['request']>;
      await whileLocked([documentLockKey('api::article.article', linking)], async () => {
        remove = app.request('DELETE', `/api/articles/${target}`);
        expect(await settledWithin(remove, 300)).toBe(false);
      });
      expect((await remove).status).toBe(204);
      expect(await related(linking, 'related', 'draft')).toEqual([]);
    });

    it('a publish, an unpublish and a discard wait for the documents that link it through a relation to itself', async () => {
      const target = await create('articles', { title: 'target' });
      const linking = await create('articles', { title: 'linking', related: [target] });
      for (const action of ['publish', 'unpublish', 'discard-draft']) {
        if (action === 'discard-draft') expect((await app.request('POST', `/api/articles/${target}/actions/publish`)).status).toBe(200);
        let change!: ReturnType<TestApp['request']>;
        await whileLocked([documentLockKey('api::article.article', linking)], async () => {
          change = app.request('POST', `/api/articles/${target}/actions/${action}`);
          expect(await settledWithin(change, 300), action).toBe(false);
        });
        expect((await change).status, action).toBe(200);
      }
    });
  }

  it("a single type's first writes at once make one document, which the later one updates", async () => {
    const documentsOfHomepage = async () => {
      const rows = await app.cairn.db.query<{ n: number }>('SELECT COUNT(DISTINCT document_id) AS n FROM homepages', []);
      return Number(rows[0]!.n);
    };
    for (let round = 0; round < ROUNDS; round++) {
      const answers = await Promise.all([0, 1, 2].map((i) => app.request('PUT', '/api/homepage', { data: { title: `h${round}.${i}` } })));
      expect(answers.map((a) => a.status), answers.map((a) => a.raw).join('\n')).toEqual([200, 200, 200]);
      expect(await documentsOfHomepage()).toBe(1);
      const read = await app.request('GET', '/api/homepage');
      expect(answers.map((a) => a.body.data.title)).toContain(read.body.data.title);
      expect(new Set(answers.map((a) => a.body.data.documentId)).size).toBe(1);
      expect((await app.request('DELETE', '/api/homepage')).status).toBe(204);
      expect(await documentsOfHomepage()).toBe(0);
    }
  });

  it('a relation write from the inverse side racing a republish of the owner: no 500, the link on both versions', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const a = await create('articles', { title: `a${round}` });
      const c = await create('categories', { name: `c${round}` });
      const answers = await Promise.all([
        app.request('PUT', `/api/articles/${a}`, { data: { title: `a${round}+` } }),
        app.request('PUT', `/api/categories/${c}`, { data: { articles: { connect: [a] } } }),
        app.request('PUT', `/api/articles/${a}`, { data: { title: `a${round}++` } }),
      ]);
      expect(answers.map((r) => r.status), answers.map((r) => r.raw).join('\n')).toEqual([200, 200, 200]);
      expect(await related(a, 'categories', 'draft')).toEqual([`c${round}`]);
      expect(await related(a, 'categories', 'published')).toEqual([`c${round}`]);
    }
  }, 60_000);

  it('documents related to each other publishing at once: no 500, each published version links the other', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const a = await create('articles', { title: `r${round}a` });
      const b = await create('articles', { title: `r${round}b` });
      // Draft edits only: each publish below copies its draft's link and mirrors the other's onto its published row.
      expect((await app.request('PUT', `/api/articles/${a}?status=draft`, { data: { related: [b] } })).status).toBe(200);
      expect((await app.request('PUT', `/api/articles/${b}?status=draft`, { data: { related: [a] } })).status).toBe(200);
      const answers = await Promise.all([app.request('POST', `/api/articles/${a}/actions/publish`), app.request('POST', `/api/articles/${b}/actions/publish`)]);
      expect(answers.map((r) => r.status), answers.map((r) => r.raw).join('\n')).toEqual([200, 200]);
      expect(await related(a, 'related', 'published')).toEqual([`r${round}b`]);
      expect(await related(b, 'related', 'published')).toEqual([`r${round}a`]);
    }
  }, 60_000);

  it('first publishes of documents related to each other at once: each published version links the other', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const a = (await app.request('POST', '/api/articles?status=draft', { data: { title: `f${round}a` } })).body.data.documentId as string;
      const b = (await app.request('POST', '/api/articles?status=draft', { data: { title: `f${round}b`, related: [a] } })).body.data.documentId as string;
      expect((await app.request('PUT', `/api/articles/${a}?status=draft`, { data: { related: [b] } })).status).toBe(200);
      const answers = await Promise.all([app.request('POST', `/api/articles/${a}/actions/publish`), app.request('POST', `/api/articles/${b}/actions/publish`)]);
      expect(answers.map((r) => r.status), answers.map((r) => r.raw).join('\n')).toEqual([200, 200]);
      expect(await related(a, 'related', 'published')).toEqual([`f${round}b`]);
      expect(await related(b, 'related', 'published')).toEqual([`f${round}a`]);
    }
  }, 60_000);

  it('two deletes of documents that link to each other: no deadlock, both gone', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const a = await create('articles', { title: `x${round}` });
      const b = await create('articles', { title: `y${round}`, related: [a] });
      expect((await app.request('PUT', `/api/articles/${a}`, { data: { related: [b] } })).status).toBe(200);
      const answers = await Promise.all([app.request('DELETE', `/api/articles/${a}`), app.request('DELETE', `/api/articles/${b}`)]);
      expect(answers.map((r) => r.status), answers.map((r) => r.raw).join('\n')).toEqual([204, 204]);
      for (const id of [a, b]) expect((await app.request('GET', `/api/articles/${id}?status=draft`)).status).toBe(404);
    }
  }, 60_000);

  it('a publish racing a write that removes a link keeps the acknowledged removal on the published version', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const c1 = await create('categories', { name: 'one' });
      const c2 = await create('categories', { name: 'two' });
      const a = await create('articles', { title: `p${round}`, categories: [c1, c2] });
      const answers = await Promise.all([
        app.request('PUT', `/api/articles/${a}`, { data: { categories: { disconnect: [c1] } } }),
        app.request('POST', `/api/articles/${a}/actions/publish`),
        app.request('PUT', `/api/articles/${a}`, { data: { title: `p${round}+` } }),
      ]);
      expect(answers.map((r) => r.status), answers.map((r) => r.raw).join('\n')).toEqual([200, 200, 200]);
      expect(await related(a, 'categories', 'draft')).toEqual(['two']);
      expect(await related(a, 'categories', 'published')).toEqual(['two']);
      const published = await app.request('GET', `/api/articles?filters[documentId]=${a}&pagination[withCount]=true`);
      expect(published.body.meta.pagination.total).toBe(1);
    }
  }, 60_000);

  it('appends racing on one list keep one order on the draft and the published version', async () => {
    const tags = await Promise.all(Array.from({ length: 8 }, (_, i) => create('tags', { name: `t${i}` })));
    for (let round = 0; round < ROUNDS / 3; round++) {
      const list = await create('articles', { title: `list${round}` });
      const answers = await Promise.all(
        tags.map((tag) => app.request('PUT', `/api/articles/${list}`, { data: { tags: { connect: [{ documentId: tag, position: { end: true } }] } } })),
      );
      expect(answers.map((r) => r.status), answers.map((r) => r.raw).join('\n')).toEqual(tags.map(() => 200));
      const draft = await related(list, 'tags', 'draft');
      expect([...draft].sort()).toEqual(tags.map((_, i) => `t${i}`).sort());
      expect(await related(list, 'tags', 'published')).toEqual(draft);
    }
  }, 60_000);

  it('documents appending themselves to one inverse list keep one order on its draft and published links', async () => {
    for (let round = 0; round < ROUNDS / 3; round++) {
      const category = await create('categories', { name: `list${round}` });
      const articles = await Promise.all(Array.from({ length: 8 }, (_, i) => create('articles', { title: `m${i}` })));
      const answers = await Promise.all(
        articles.map((a) => app.request('PUT', `/api/articles/${a}`, { data: { categories: { connect: [{ documentId: category, position: { end: true } }] } } })),
      );
      expect(answers.map((r) => r.status), answers.map((r) => r.raw).join('\n')).toEqual(articles.map(() => 200));
      const listed = async (status: string) =>
        names((await app.request('GET', `/api/categories/${category}?status=${status}&populate[articles][fields][0]=title`)).body.data.articles);
      const draft = await listed('draft');
      expect(draft).toHaveLength(8);
      expect(await listed('published')).toEqual(draft);
    }
  }, 60_000);
});
