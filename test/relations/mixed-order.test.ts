import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../helpers/databases.js';
import { startTestApp, type TestApp } from '../helpers/app.js';

type Entry = Record<string, unknown>;
type Listed = { documentId: string };

/**
 * A relation list edited with shorthand items mixed with positioned ones ends in Strapi's order: each expected
 * order below was recorded from Strapi 5.54.0 (the reference server, on the conformance model) by sending the same
 * request to a list holding items 1..3 (or 1..5), items 4..6 existing outside it. Two lists, as in the reference
 * model: a many-to-many written from its owner (article.categories; the article has Draft & Publish) and a
 * one-to-many written from its inverse side (author.articles; the author has no Draft & Publish, the articles have:
 * Strapi links both versions of each article and positions name the draft, which is why some orders differ from
 * the many-to-many's). 'error' is a 400.
 */
type Item = number | { id: number; before?: number; after?: number; start?: true; end?: true };
interface Case {
  initial?: number;
  connect: Item[];
  disconnect?: number[];
  manyToMany: number[] | 'error';
  oneToMany: number[] | 'error';
}

const CASES: Record<string, Case> = {
  'shorthand, then before an existing item': { connect: [4, { id: 5, before: 1 }], manyToMany: [5, 1, 2, 3, 4], oneToMany: [5, 1, 2, 3, 4] },
  'after an existing item, then shorthand': { connect: [{ id: 4, after: 1 }, 5], manyToMany: [1, 4, 2, 3, 5], oneToMany: [4, 1, 2, 3, 5] },
  'shorthand, then after it': { connect: [4, { id: 5, after: 4 }], manyToMany: [1, 2, 3, 4, 5], oneToMany: [1, 2, 3, 5, 4] },
  'before an item connected later in the same request': { connect: [{ id: 5, before: 4 }, 4], manyToMany: [1, 2, 3, 5, 4], oneToMany: [1, 2, 3, 5, 4] },
  'an existing item as shorthand, then start': { connect: [2, { id: 4, start: true }], manyToMany: [4, 1, 3, 2], oneToMany: [4, 1, 3, 2] },
  'an existing item to the start, then an existing item as shorthand': { connect: [{ id: 3, start: true }, 1], manyToMany: [3, 2, 1], oneToMany: [3, 2, 1] },
  'shorthand, end, shorthand': { connect: [4, { id: 5, end: true }, 6], manyToMany: [1, 2, 3, 4, 5, 6], oneToMany: [1, 2, 3, 4, 5, 6] },
  'before, shorthand, start, with a disconnect': {
    connect: [{ id: 4, before: 2 }, 5, { id: 6, start: true }],
    disconnect: [1],
    manyToMany: [6, 4, 2, 3, 5],
    oneToMany: [6, 4, 2, 3, 5],
  },
  'disconnect and connect the same item as shorthand': { connect: [2], disconnect: [2], manyToMany: [1, 3, 2], oneToMany: [1, 3, 2] },
  'an existing item as shorthand only': { connect: [1], manyToMany: [2, 3, 1], oneToMany: [2, 3, 1] },
  'two new items as shorthand': { connect: [4, 5], manyToMany: [1, 2, 3, 4, 5], oneToMany: [1, 2, 3, 4, 5] },
  'an existing item after another, then shorthand': { connect: [{ id: 1, after: 3 }, 4], manyToMany: [2, 3, 1, 4], oneToMany: [2, 1, 3, 4] },
  'shorthand, an existing item to the end, before it': { connect: [4, { id: 2, end: true }, { id: 5, before: 2 }], manyToMany: [1, 3, 4, 5, 2], oneToMany: [1, 3, 4, 5, 2] },
  'existing shorthand items in a new order': { connect: [3, 1], manyToMany: [2, 3, 1], oneToMany: [2, 3, 1] },
  'shorthand between two positioned items relative to it': {
    connect: [{ id: 4, after: 5 }, 5, { id: 6, before: 5 }],
    manyToMany: [1, 2, 3, 6, 5, 4],
    oneToMany: [1, 2, 3, 6, 4, 5],
  },
  'an existing item as shorthand after a new positioned one': { connect: [{ id: 4, start: true }, 3], manyToMany: [4, 1, 2, 3], oneToMany: [4, 1, 2, 3] },
  'after an item disconnected in the same request': { connect: [{ id: 4, after: 3 }], disconnect: [3], manyToMany: [1, 2, 4], oneToMany: [1, 2, 4] },
  'a cycle between new items': { connect: [{ id: 5, after: 6 }, { id: 6, after: 5 }], manyToMany: 'error', oneToMany: 'error' },
  'five: after, and an existing item before another': { initial: 5, connect: [{ id: 6, after: 3 }, { id: 2, before: 5 }], manyToMany: [1, 3, 6, 4, 2, 5], oneToMany: [1, 6, 3, 4, 2, 5] },
  'five: shorthand, before, an existing item to the end': { initial: 5, connect: [4, { id: 6, before: 2 }, { id: 1, end: true }], manyToMany: [6, 2, 3, 5, 4, 1], oneToMany: [6, 2, 3, 5, 4, 1] },
  'five: the first moved, then start': { initial: 5, connect: [{ id: 1, after: 5 }, { id: 6, start: true }], manyToMany: [2, 3, 4, 6, 5, 1], oneToMany: [2, 3, 4, 6, 1, 5] },
  'five: two anchors disconnected': { initial: 5, connect: [{ id: 6, after: 3 }, { id: 5, before: 4 }], disconnect: [3, 4], manyToMany: [1, 2, 5, 6], oneToMany: [1, 2, 5, 6] },
  'five: a disconnected anchor whose neighbour moves': { initial: 5, connect: [{ id: 6, before: 2 }, { id: 1, after: 2 }], disconnect: [2], manyToMany: [6, 1, 3, 4, 5], oneToMany: [6, 1, 3, 4, 5] },
  'five: a chain ending at the end': { initial: 5, connect: [{ id: 6, after: 2 }, { id: 3, after: 6 }, { id: 2, end: true }], manyToMany: [1, 6, 3, 4, 5, 2], oneToMany: [1, 6, 3, 4, 5, 2] },
  'five: start, after it, shorthand': { initial: 5, connect: [{ id: 5, start: true }, { id: 6, after: 5 }, 1], manyToMany: [5, 6, 2, 3, 4, 1], oneToMany: [5, 6, 2, 3, 4, 1] },
  'five: after an anchor moved later': { initial: 5, connect: [{ id: 2, after: 4 }, { id: 4, after: 1 }], manyToMany: [1, 4, 3, 2, 5], oneToMany: [4, 1, 3, 2, 5] },
  'five: before the last, shorthand, after the last': { initial: 5, connect: [{ id: 6, before: 5 }, 3, { id: 1, after: 5 }], manyToMany: [2, 4, 6, 5, 1, 3], oneToMany: [2, 4, 6, 1, 5, 3] },
  'five: positions on each other, in request order': { initial: 5, connect: [{ id: 6, after: 1 }, { id: 1, after: 6 }], manyToMany: [6, 1, 2, 3, 4, 5], oneToMany: [6, 1, 2, 3, 4, 5] },
  'five: a disconnected anchor also connected': { initial: 5, connect: [{ id: 6, after: 3 }, 3], disconnect: [3], manyToMany: [1, 2, 6, 4, 5, 3], oneToMany: [1, 2, 6, 4, 5, 3] },
  'a position on an entry not in the list': { connect: [{ id: 4, after: 5 }], manyToMany: 'error', oneToMany: 'error' },
};

const model = {
  contentTypes: {
    article: {
      kind: 'collectionType',
      collectionName: 'articles',
      info: { singularName: 'article', pluralName: 'articles', displayName: 'Article' },
      options: { draftAndPublish: true },
      attributes: {
        title: { type: 'string' },
        author: { type: 'relation', relation: 'manyToOne', target: 'api::author.author', inversedBy: 'articles' },
        categories: { type: 'relation', relation: 'manyToMany', target: 'api::category.category', inversedBy: 'articles' },
      },
    },
    author: {
      kind: 'collectionType',
      collectionName: 'authors',
      info: { singularName: 'author', pluralName: 'authors', displayName: 'Author' },
      options: { draftAndPublish: false },
      attributes: {
        name: { type: 'string' },
        articles: { type: 'relation', relation: 'oneToMany', target: 'api::article.article', mappedBy: 'author' },
      },
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
  },
};

interface List {
  /** Six new entries that can be listed, by documentId. */
  items(): Promise<string[]>;
  /** A new entry whose list holds `initial`, answered by documentId. */
  parent(initial: string[]): Promise<string>;
  write(parent: string, value: unknown): Promise<{ status: number; body: { error?: { name: string; message: string } } }>;
  read(parent: string): Promise<string[]>;
}

describeEachDialect('relation order with shorthand and positioned items mixed (as Strapi 5.54.0)', (dialect) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(dialect, model);
  });
  afterAll(async () => app?.close());

  let n = 0;
  const create = async (plural: string, data: Entry) => {
    const res = await app.request('POST', `/api/${plural}`, { data });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.data.documentId as string;
  };
  const LISTS: Record<'manyToMany' | 'oneToMany', List> = {
    manyToMany: {
      items: async () => Promise.all([1, 2, 3, 4, 5, 6].map((i) => create('categories', { name: `c${++n}-${i}` }))),
      parent: (initial) => create('articles', { title: `a${++n}`, categories: initial }),
      write: (parent, value) => app.request('PUT', `/api/articles/${parent}`, { data: { categories: value } }),
      read: async (parent) => (await app.request('GET', `/api/articles/${parent}?populate[categories][fields][0]=name`)).body.data.categories.map((c: Listed) => c.documentId),
    },
    oneToMany: {
      items: async () => {
        const ids: string[] = [];
        // One at a time: the draft and published rows of each article are created in order, as in the reference.
        for (const i of [1, 2, 3, 4, 5, 6]) ids.push(await create('articles', { title: `t${++n}-${i}` }));
        return ids;
      },
      parent: (initial) => create('authors', { name: `w${++n}`, articles: initial }),
      write: (parent, value) => app.request('PUT', `/api/authors/${parent}`, { data: { articles: value } }),
      read: async (parent) => (await app.request('GET', `/api/authors/${parent}?populate[articles][fields][0]=title`)).body.data.articles.map((a: Listed) => a.documentId),
    },
  };

  for (const [kind, list] of Object.entries(LISTS) as Array<['manyToMany' | 'oneToMany', List]>) {
    it.each(Object.entries(CASES))(`${kind}: %s`, async (_name, c) => {
      const ids = await list.items();
      const parent = await list.parent(ids.slice(0, c.initial ?? 3));
      const item = (x: Item) => {
        if (typeof x === 'number') return ids[x - 1];
        const position = x.before ? { before: ids[x.before - 1] } : x.after ? { after: ids[x.after - 1] } : x.start ? { start: true } : { end: true };
        return { documentId: ids[x.id - 1], position };
      };
      const before = await list.read(parent);
      const res = await list.write(parent, { connect: c.connect.map(item), ...(c.disconnect ? { disconnect: c.disconnect.map(item) } : {}) });
      const expected = c[kind];
      if (expected === 'error') {
        expect(res.status).toBe(400);
        expect(res.body.error?.name).toBe('ValidationError');
        expect(await list.read(parent)).toEqual(before);
        return;
      }
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect((await list.read(parent)).map((id) => ids.indexOf(id) + 1)).toEqual(expected);
    });
  }

  it('an item positioned relative to itself is a 400 (Strapi answers 500), the list unchanged', async () => {
    const list = LISTS.manyToMany;
    const ids = await list.items();
    const parent = await list.parent(ids.slice(0, 3));
    const res = await list.write(parent, { connect: [{ documentId: ids[1], position: { after: ids[1] } }] });
    expect(res.status).toBe(400);
    expect(res.body.error?.message).toBe(`The relation with id ${ids[1]} cannot be connected at a position relative to itself`);
    expect(await list.read(parent)).toEqual(ids.slice(0, 3));
  });
});
