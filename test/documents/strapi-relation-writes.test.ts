import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Database } from '../../src/database/index.js';
import { documentLockKey } from '../../src/database/document-locks.js';
import { documentsLinkingTo } from '../../src/database/lock-targets.js';
import { deleteLockSet, writeLockSet } from '../../src/documents/write-locks.js';
import { writeStrapiRelations, type RowVersion } from '../../src/documents/strapi-relation-writes.js';
import { planRow } from '../../src/documents/write-plan.js';
import { ValidationError } from '../../src/errors/index.js';
import type { Component, ContentType, Model, RelationAttribute } from '../../src/model/types.js';
import { describeEachDialect } from '../helpers/databases.js';
import { openStrapiFixtureApp, type StrapiFixtureApp } from '../helpers/strapi-app.js';

/**
 * Relation writes on a database real Strapi 5 made (the conformance fixture), from Strapi-shaped bodies parsed by
 * `planRow`: which version rows each item links (docs/strapi-5-writes.md 3), the order values (5) and what Cairn's
 * read compiler answers afterwards. Each test takes rows no other test touches.
 *
 * Order values: a connect into an existing list writes the rows it connects only (a new link between its
 * neighbours' values, above 0 before the first one: MySQL's order columns are unsigned), the other links keep
 * theirs, a delete leaves a gap, and the members' own lists are not renumbered. Reads order by value then link id,
 * so the tests assert the members' order (Strapi's), values strictly increasing along the list, and which rows of
 * the join table a write changed.
 */
describeEachDialect('writeStrapiRelations: relation writes on Strapi 5 join tables', (dialect) => {
  let app: StrapiFixtureApp;
  let db: Database;
  let model: Model;
  const ids = async (sql: string, params: unknown[] = []) => (await db.query<{ id: number }>(sql, params)).map((r) => Number(r.id));
  const docOf = async (table: string, id: number) => (await db.query<{ d: string }>(`SELECT document_id AS d FROM ${table} WHERE id = ?`, [id]))[0]!.d;
  /** A document's rows: its draft and its published row (0 when it has none), in `locale` for restaurants. */
  const versionsOf = async (table: string, doc: string, locale?: string) => {
    const rows = await db.query<{ id: number; p: unknown }>(
      `SELECT id, published_at AS p FROM ${table} WHERE document_id = ?${locale ? ' AND locale = ?' : ''} ORDER BY id`,
      locale ? [doc, locale] : [doc],
    );
    return { draft: Number(rows.find((r) => r.p === null)?.id ?? 0), published: Number(rows.find((r) => r.p !== null)?.id ?? 0) };
  };
  const schema = (uid: string): ContentType | Component => model.contentTypes.get(uid) ?? model.components.get(uid)!;
  /** Parses `body` as an update of `uid` (the public parsing) and writes its relations to row `rowId`. */
  const write = (uid: string, rowId: number, version: RowVersion, body: Record<string, unknown>, locale?: string) =>
    writeStrapiRelations(db, model, schema(uid), rowId, planRow(model, schema(uid), body, 'update').relations, {
      defaultLocale: 'en',
      versioned: version !== 'single',
      version,
      ...(locale ? { locale } : {}),
    });
  /** One side of a join table as stored: each link's id, member and both order values, in this list's order. */
  const links = async (table: string, key: string, row: number, member: string, order: string | null, other: string | null) =>
    (
      await db.query<{ id: number; m: number; o: number | null; x: number | null }>(
        `SELECT id, ${member} AS m, ${order ?? 'NULL'} AS o, ${other ?? 'NULL'} AS x FROM ${table} WHERE ${key} = ? ORDER BY ${order ? `${order}, ` : ''}id`,
        [row],
      )
    ).map((r) => ({ id: Number(r.id), member: Number(r.m), order: r.o === null ? null : Number(r.o), other: r.x === null ? null : Number(r.x) }));
  const categoriesOf = (article: number) => links('articles_categories_lnk', 'article_id', article, 'category_id', 'category_ord', 'article_ord');
  /** The list's order values are all above 0 and strictly increasing along it (gaps allowed). */
  const expectIncreasing = (list: Array<{ order: number | null }>) => {
    const orders = list.map((l) => l.order);
    expect(
      orders.every((o, i) => o !== null && Number.isFinite(o) && o > 0 && (i === 0 || o > orders[i - 1]!)),
      `order values above 0, strictly increasing: ${JSON.stringify(orders)}`,
    ).toBe(true);
  };
  /** Every row of a join table, by link id, as stored: two snapshots tell which rows a write touched. */
  const snapshot = async (table: string) => new Map((await db.query<Record<string, unknown>>(`SELECT * FROM ${table}`)).map((r) => [Number(r.id), JSON.stringify(r)]));
  /** The link ids a write added, removed and changed (any column) between two snapshots, each sorted. */
  const changes = (before: Map<number, string>, after: Map<number, string>) => {
    const sorted = (values: number[]) => values.sort((x, y) => x - y);
    return {
      added: sorted([...after.keys()].filter((id) => !before.has(id))),
      removed: sorted([...before.keys()].filter((id) => !after.has(id))),
      changed: sorted([...after.keys()].filter((id) => before.has(id) && before.get(id) !== after.get(id))),
    };
  };
  /** The link ids of `members` in `list`, sorted. */
  const linkIds = (list: Array<{ id: number; member: number }>, members: number[]) => list.filter((l) => members.includes(l.member)).map((l) => l.id).sort((x, y) => x - y);
  const maxOf = async (table: string, column: string, where: string, id: number) =>
    Number((await db.query<{ m: number | null }>(`SELECT MAX(${column}) AS m FROM ${table} WHERE ${where} = ?`, [id]))[0]!.m ?? 0);
  /** What Cairn's read compiler answers for a populated relation: the linked documents, in order. */
  const served = async (path: string, attribute: string, status: 'draft' | 'published', locale?: string) => {
    const response = await app.get(`${path}?status=${status}${locale ? `&locale=${locale}` : ''}&populate[${attribute}][fields][0]=documentId`);
    expect(response.statusCode, response.body).toBe(200);
    const value = response.json().data[attribute];
    return (Array.isArray(value) ? value : value ? [value] : []).map((e: { documentId: string }) => e.documentId);
  };
  const rejection = async (action: () => Promise<unknown>): Promise<Error> => {
    try {
      await action();
    } catch (error) {
      return error as Error;
    }
    throw new Error('expected a rejection');
  };
  /** Published articles (with a draft), skipping `skip` of them: rows no other test takes. */
  const publishedArticles = async (skip: number, n: number) => {
    const rows = await ids(`SELECT id FROM articles WHERE published_at IS NOT NULL ORDER BY id`);
    const docs: string[] = [];
    for (const id of rows.slice(skip, skip + n)) docs.push(await docOf('articles', id));
    return docs;
  };
  const categoryDocs = async () => {
    const all = await ids(`SELECT id FROM categories ORDER BY id`);
    return Promise.all(all.map(async (id) => ({ id, doc: await docOf('categories', id) })));
  };

  beforeAll(async () => {
    app = await openStrapiFixtureApp(dialect);
    db = app.cairn.db;
    model = app.cairn.model;
  }, 120_000);
  afterAll(() => app?.close());

  it('connects with positions on a draft: new links placed, a member already there moved (same link row), only the connected rows written', async () => {
    const [doc] = await publishedArticles(0, 1);
    const article = await versionsOf('articles', doc!);
    await write('api::article.article', article.draft, 'draft', { categories: { set: [] } });
    const cats = await categoryDocs();
    const [a, b, c, d, e] = cats;
    await write('api::article.article', article.draft, 'draft', { categories: [a!.doc, b!.doc, c!.doc] });
    const before = await categoriesOf(article.draft);
    expect(before.map((l) => [l.member, l.order])).toEqual([
      [a!.id, 1],
      [b!.id, 2],
      [c!.id, 3],
    ]);
    const publishedBefore = await categoriesOf(article.published);
    const maxD = await maxOf('articles_categories_lnk', 'article_ord', 'category_id', d!.id);
    const maxE = await maxOf('articles_categories_lnk', 'article_ord', 'category_id', e!.id);
    const table0 = await snapshot('articles_categories_lnk');

    await write('api::article.article', article.draft, 'draft', {
      categories: {
        connect: [
          { documentId: d!.doc, position: { start: true } },
          { documentId: e!.doc, position: { before: b!.doc } },
          { documentId: a!.doc, position: { end: true } },
        ],
      },
    });
    const after = await categoriesOf(article.draft);
    expect(after.map((l) => l.member)).toEqual([d!.id, e!.id, b!.id, c!.id, a!.id]);
    expectIncreasing(after);
    // Written: the two new links and the moved one's order; every other row of the table as it was (b and c keep
    // their values, no list renumbered).
    expect(changes(table0, await snapshot('articles_categories_lnk'))).toEqual({ added: linkIds(after, [d!.id, e!.id]), removed: [], changed: linkIds(before, [a!.id]) });
    // The moved member keeps its link row and its place in the category's list; new links go last there (MAX + 1).
    const moved = after.find((l) => l.member === a!.id)!;
    const was = before.find((l) => l.member === a!.id)!;
    expect([moved.id, moved.other]).toEqual([was.id, was.other]);
    expect(after.find((l) => l.member === d!.id)!.other).toBe(maxD + 1);
    expect(after.find((l) => l.member === e!.id)!.other).toBe(maxE + 1);
    // A draft links the draft's list only.
    expect(await categoriesOf(article.published)).toEqual(publishedBefore);
    expect(await served(`/api/articles/${doc}`, 'categories', 'draft')).toEqual([d!.doc, e!.doc, b!.doc, c!.doc, a!.doc]);

    // `after` an item of the same request, connected later in it (Strapi sorts the request), and a shorthand item
    // already in the list moves to the end.
    const [, , , , , f, g, h] = cats;
    const table1 = await snapshot('articles_categories_lnk');
    await write('api::article.article', article.draft, 'draft', {
      categories: { connect: [{ documentId: g!.doc, position: { after: f!.doc } }, { documentId: f!.doc, position: { after: d!.doc } }, e!.doc] },
    });
    const again = await categoriesOf(article.draft);
    expect(again.map((l) => l.member)).toEqual([d!.id, f!.id, g!.id, b!.id, c!.id, a!.id, e!.id]);
    expectIncreasing(again);
    expect(changes(table1, await snapshot('articles_categories_lnk'))).toEqual({ added: linkIds(again, [f!.id, g!.id]), removed: [], changed: linkIds(after, [e!.id]) });

    // One item connected into the list: one link row written, whatever the list holds.
    expect(again.map((l) => l.member)).not.toContain(h!.id);
    const table2 = await snapshot('articles_categories_lnk');
    await write('api::article.article', article.draft, 'draft', { categories: { connect: [{ documentId: h!.doc, position: { before: c!.doc } }] } });
    const one = await categoriesOf(article.draft);
    expect(one.map((l) => l.member)).toEqual([d!.id, f!.id, g!.id, b!.id, h!.id, c!.id, a!.id, e!.id]);
    expectIncreasing(one);
    expect(changes(table2, await snapshot('articles_categories_lnk'))).toEqual({ added: linkIds(one, [h!.id]), removed: [], changed: [] });
    expect(await served(`/api/articles/${doc}`, 'categories', 'draft')).toEqual([d!.doc, f!.doc, g!.doc, b!.doc, h!.doc, c!.doc, a!.doc, e!.doc]);
  });

  it('disconnects and sets: kept links keep their rows and values (a gap stays), the categories\' lists keep their values', async () => {
    const [doc] = await publishedArticles(1, 1);
    const article = await versionsOf('articles', doc!);
    const cats = await categoryDocs();
    const [a, b, c, d] = cats.slice(-4);
    const articlesOf = (category: number) => links('articles_categories_lnk', 'category_id', category, 'article_id', 'article_ord', null);
    await write('api::article.article', article.draft, 'draft', { categories: { set: [a!.doc, b!.doc, c!.doc] } });
    const before = await categoriesOf(article.draft);
    expect(before.map((l) => [l.member, l.order])).toEqual([
      [a!.id, 1],
      [b!.id, 2],
      [c!.id, 3],
    ]);
    const bBefore = await articlesOf(b!.id);
    const table0 = await snapshot('articles_categories_lnk');
    await write('api::article.article', article.draft, 'draft', { categories: { disconnect: [b!.doc, 'no-such-document'] } });
    const after = await categoriesOf(article.draft);
    expect(after.map((l) => [l.id, l.member, l.order])).toEqual([
      [before[0]!.id, a!.id, 1],
      [before[2]!.id, c!.id, 3],
    ]);
    // One row deleted, no other touched: B's own list (its articles, every version) keeps its values, a gap where
    // the link was.
    expect(changes(table0, await snapshot('articles_categories_lnk'))).toEqual({ added: [], removed: linkIds(before, [b!.id]), changed: [] });
    expect(await articlesOf(b!.id)).toEqual(bBefore.filter((l) => l.id !== before[1]!.id));

    const aBefore = await articlesOf(a!.id);
    const table1 = await snapshot('articles_categories_lnk');
    await write('api::article.article', article.draft, 'draft', { categories: { set: [d!.doc, c!.doc] } });
    const set = await categoriesOf(article.draft);
    expect(set.map((l) => [l.member, l.order])).toEqual([
      [d!.id, 1],
      [c!.id, 2],
    ]);
    expect(set[1]!.id).toBe(before[2]!.id);
    // A's list lost the link and kept its values; the kept link (c) took its new place, d's link is new.
    expect(changes(table1, await snapshot('articles_categories_lnk'))).toEqual({ added: linkIds(set, [d!.id]), removed: linkIds(before, [a!.id]), changed: linkIds(set, [c!.id]) });
    expect(await articlesOf(a!.id)).toEqual(aBefore.filter((l) => l.id !== before[0]!.id));
    expect(await served(`/api/articles/${doc}`, 'categories', 'draft')).toEqual([d!.doc, c!.doc]);
    // An item both disconnected and connected is only connected.
    const dBefore = await articlesOf(d!.id);
    const table2 = await snapshot('articles_categories_lnk');
    await write('api::article.article', article.draft, 'draft', { categories: { connect: [a!.doc], disconnect: [a!.doc, d!.doc] } });
    const last = await categoriesOf(article.draft);
    expect(last.map((l) => l.member)).toEqual([c!.id, a!.id]);
    expectIncreasing(last);
    expect(changes(table2, await snapshot('articles_categories_lnk'))).toEqual({ added: linkIds(last, [a!.id]), removed: linkIds(set, [d!.id]), changed: [] });
    expect(await articlesOf(d!.id)).toEqual(dBefore.filter((l) => l.id !== set[0]!.id));
  });

  it('links a D&P target by version: draft to draft, published to published, none when the target has no published row', async () => {
    const [sourceDoc, targetDoc] = await publishedArticles(2, 2);
    const source = await versionsOf('articles', sourceDoc!);
    const target = await versionsOf('articles', targetDoc!);
    const [draftOnly] = await ids(`SELECT id FROM articles a WHERE published_at IS NULL AND NOT EXISTS (SELECT 1 FROM articles p WHERE p.document_id = a.document_id AND p.published_at IS NOT NULL)`);
    expect(draftOnly, 'the fixture has draft-only articles').toBeDefined();
    const draftOnlyDoc = await docOf('articles', draftOnly!);
    const related = (row: number) => links('articles_related_lnk', 'article_id', row, 'inv_article_id', 'article_ord', null);
    await write('api::article.article', source.draft, 'draft', { related: [targetDoc, draftOnlyDoc] });
    await write('api::article.article', source.published, 'published', { related: [targetDoc, draftOnlyDoc] });
    expect((await related(source.draft)).map((l) => l.member)).toEqual([target.draft, draftOnly]);
    expect((await related(source.published)).map((l) => l.member)).toEqual([target.published]);
    expect(await served(`/api/articles/${sourceDoc}`, 'related', 'draft')).toEqual([targetDoc, draftOnlyDoc]);
    expect(await served(`/api/articles/${sourceDoc}`, 'related', 'published')).toEqual([targetDoc]);
    // A target without D&P: both versions link its one row.
    const [cat] = await categoryDocs();
    await write('api::article.article', source.published, 'published', { categories: { set: [cat!.doc] } });
    expect((await categoriesOf(source.published)).map((l) => l.member)).toEqual([cat!.id]);
  });

  it('replaces a to-one owner link (articles.author) and clears it with null; the old author\'s list keeps its values', async () => {
    const [doc] = await publishedArticles(4, 1);
    const article = await versionsOf('articles', doc!);
    const authors = await ids(`SELECT id FROM authors ORDER BY id`);
    const [x, y] = [authors[0]!, authors[1]!];
    const [xDoc, yDoc] = [await docOf('authors', x), await docOf('authors', y)];
    const authorOf = (row: number) => links('articles_author_lnk', 'article_id', row, 'author_id', null, 'article_ord');
    await write('api::article.article', article.draft, 'draft', { author: xDoc });
    const first = await authorOf(article.draft);
    expect(first.map((l) => l.member)).toEqual([x]);
    const maxY = await maxOf('articles_author_lnk', 'article_ord', 'author_id', y);
    const xList = () => links('articles_author_lnk', 'author_id', x, 'article_id', 'article_ord', null);
    const xBefore = await xList();
    const table0 = await snapshot('articles_author_lnk');
    await write('api::article.article', article.draft, 'draft', { author: { connect: [yDoc] } });
    const replaced = await authorOf(article.draft);
    expect(replaced.map((l) => [l.member, l.other])).toEqual([[y, maxY + 1]]);
    // The old link deleted, the new one inserted, nothing else: X's list keeps its values (a gap where it was).
    expect(changes(table0, await snapshot('articles_author_lnk'))).toEqual({ added: [replaced[0]!.id], removed: [first[0]!.id], changed: [] });
    expect(await xList()).toEqual(xBefore.filter((l) => l.id !== first[0]!.id));
    // Connecting the author it has keeps the same link row.
    const kept = (await authorOf(article.draft))[0]!.id;
    await write('api::article.article', article.draft, 'draft', { author: { connect: [{ documentId: yDoc }] } });
    expect((await authorOf(article.draft))[0]!.id).toBe(kept);
    expect(await served(`/api/articles/${doc}`, 'author', 'draft')).toEqual([yDoc]);
    await write('api::article.article', article.draft, 'draft', { author: null });
    expect(await authorOf(article.draft)).toEqual([]);
  });

  it('writes the inverse side from a type without D&P: both article rows, draft first, stolen from their old author', async () => {
    const authors = await ids(`SELECT id FROM authors ORDER BY id`);
    const me = authors.at(-1)!;
    const meDoc = await docOf('authors', me);
    const [p, q, r] = await publishedArticles(6, 3);
    const [pv, qv, rv] = [await versionsOf('articles', p!), await versionsOf('articles', q!), await versionsOf('articles', r!)];
    const mine = () => links('articles_author_lnk', 'author_id', me, 'article_id', 'article_ord', null);
    await write('api::author.author', me, 'single', { articles: { set: [p] } });
    // Q already has an author (another one): connecting it here removes that link, both versions.
    const other = authors[0]!;
    await write('api::article.article', qv.draft, 'draft', { author: await docOf('authors', other) });
    await write('api::article.article', qv.published, 'published', { author: await docOf('authors', other) });
    const pLinks = await mine();
    const stolen = await ids(`SELECT id FROM articles_author_lnk WHERE article_id IN (?, ?, ?, ?) ORDER BY id`, [qv.draft, qv.published, rv.draft, rv.published]);
    expect(stolen.length).toBeGreaterThanOrEqual(2);
    const table0 = await snapshot('articles_author_lnk');
    await write('api::author.author', me, 'single', { articles: { connect: [{ documentId: q, position: { before: p } }, r] } });
    const connected = await mine();
    expect(connected.map((l) => l.member)).toEqual([qv.draft, qv.published, pv.draft, pv.published, rv.draft, rv.published]);
    expectIncreasing(connected);
    // Q's rows placed before P's (above 0: MySQL's column is unsigned), R's after: four rows written, P's links and
    // every other row as they were (the links stolen from Q's and R's old authors deleted).
    const written = changes(table0, await snapshot('articles_author_lnk'));
    expect(written.added).toEqual(linkIds(connected, [qv.draft, qv.published, rv.draft, rv.published]));
    expect(written.removed).toEqual(stolen);
    expect(written.changed).toEqual([]);
    expect(connected.filter((l) => l.member === pv.draft || l.member === pv.published)).toEqual(pLinks);
    const qLinks = await db.query<{ a: number }>(`SELECT author_id AS a FROM articles_author_lnk WHERE article_id IN (?, ?)`, [qv.draft, qv.published]);
    expect(qLinks.map((l) => Number(l.a))).toEqual([me, me]);
    expect(await served(`/api/authors/${meDoc}`, 'articles', 'draft')).toEqual([q, p, r]);
    expect(await served(`/api/articles/${q}`, 'author', 'published')).toEqual([meDoc]);
    // An item's status narrows the versions linked (a row without D&P to a target with it).
    await write('api::author.author', me, 'single', { articles: { disconnect: [{ documentId: r, status: 'published' }] } });
    expect((await mine()).map((l) => l.member)).toEqual([qv.draft, qv.published, pv.draft, pv.published, rv.draft]);
    const beforeDisconnect = await mine();
    await write('api::author.author', me, 'single', { articles: { disconnect: [p] } });
    // The links left keep their values: a gap where P's were.
    expect((await mine()).map((l) => l.member)).toEqual([qv.draft, qv.published, rv.draft]);
    expect(await mine()).toEqual(beforeDisconnect.filter((l) => l.member !== pv.draft && l.member !== pv.published));
    // Who links to this author now (the write locks' question): Q and R, whatever their versions.
    const article = schema('api::article.article') as ContentType;
    expect([...(await documentsLinkingTo(db, model, article, article.attributes.get('author') as RelationAttribute, meDoc))].sort()).toEqual([q, r].sort());
  });

  it('finds who links to a document through a join table (row ids to documents), for the write locks', async () => {
    const article = schema('api::article.article') as ContentType;
    const [cat] = await categoryDocs();
    const expected = await db.query<{ d: string }>(
      `SELECT DISTINCT a.document_id AS d FROM articles_categories_lnk l JOIN articles a ON a.id = l.article_id WHERE l.category_id = ? ORDER BY a.document_id`,
      [cat!.id],
    );
    expect(expected.length).toBeGreaterThan(0);
    const found = await documentsLinkingTo(db, model, article, article.attributes.get('categories') as RelationAttribute, cat!.doc);
    expect([...found].sort()).toEqual(expected.map((r) => r.d));
    // A D&P target: links to either of its rows count.
    const [tDoc] = await publishedArticles(12, 1);
    const t = await versionsOf('articles', tDoc!);
    const [s1, s2] = await publishedArticles(13, 2);
    await write('api::article.article', (await versionsOf('articles', s1!)).published, 'published', { related: [tDoc] });
    await write('api::article.article', (await versionsOf('articles', s2!)).draft, 'draft', { related: [tDoc] });
    expect(t.published).toBeGreaterThan(0);
    const linking = await documentsLinkingTo(db, model, article, article.attributes.get('related') as RelationAttribute, tDoc!);
    expect(linking).toEqual(expect.arrayContaining([s1, s2]));
    // The write locks of an inverse-side `set` take the documents linking here now (they lose their link), a
    // delete's every document linking to it.
    const author = schema('api::author.author') as ContentType;
    const [authorRow] = await ids(`SELECT author_id AS id FROM articles_author_lnk GROUP BY author_id ORDER BY COUNT(*) DESC, author_id`);
    const authorDoc = await docOf('authors', authorRow!);
    const articleDocs = (await db.query<{ d: string }>(`SELECT DISTINCT a.document_id AS d FROM articles_author_lnk l JOIN articles a ON a.id = l.article_id WHERE l.author_id = ?`, [authorRow])).map((r) => r.d);
    expect(articleDocs.length).toBeGreaterThan(0);
    const locks = await writeLockSet(db, model, author, authorDoc, planRow(model, author, { articles: { set: [] } }, 'update'));
    // Who links here is read apart from the keys the write itself names (lockForWrite reads it under their locks).
    expect(locks.keys).toEqual([documentLockKey(author.uid, authorDoc)]);
    expect([...(await locks.linking!())].sort()).toEqual(articleDocs.map((d) => documentLockKey('api::article.article', d)).sort());
    const deleting = await deleteLockSet(db, model, author, authorDoc);
    expect(deleting.keys).toEqual([documentLockKey(author.uid, authorDoc)]);
    expect([...(await deleting.linking!())].sort()).toEqual(articleDocs.map((d) => documentLockKey('api::article.article', d)).sort());
  });

  it('writes the inverse side to a localized owner: the item\'s locale, else the default one; a missing locale is an error', async () => {
    const cats = await categoryDocs();
    const cat = cats[cats.length - 5]!;
    const [fr] = await db.query<{ d: string }>(
      `SELECT r.document_id AS d FROM restaurants r WHERE r.locale = 'fr' AND r.published_at IS NOT NULL AND EXISTS (SELECT 1 FROM restaurants e WHERE e.document_id = r.document_id AND e.locale = 'en') ORDER BY r.id`,
    );
    const doc = fr!.d;
    const en = await versionsOf('restaurants', doc, 'en');
    const frRows = await versionsOf('restaurants', doc, 'fr');
    await write('api::category.category', cat.id, 'single', { restaurants: { set: [] } });
    await write('api::category.category', cat.id, 'single', { restaurants: { connect: [{ documentId: doc, locale: 'fr' }] } });
    await write('api::category.category', cat.id, 'single', { restaurants: { connect: [doc] } });
    const list = await links('restaurants_categories_lnk', 'category_id', cat.id, 'restaurant_id', 'restaurant_ord', null);
    expect(list.map((l) => l.member)).toEqual([frRows.draft, frRows.published, en.draft, en.published].filter((id) => id > 0));
    expect(await served(`/api/restaurants/${doc}`, 'categories', 'draft', 'fr')).toContain(cat.doc);
    // An anchor's locale picks its rows: before the `en` version, after the `fr` one.
    const [second] = await db.query<{ d: string }>(`SELECT document_id AS d FROM restaurants WHERE locale = 'en' AND published_at IS NOT NULL AND document_id <> ? ORDER BY id`, [doc]);
    const secondRows = await versionsOf('restaurants', second!.d, 'en');
    const table0 = await snapshot('restaurants_categories_lnk');
    await write('api::category.category', cat.id, 'single', { restaurants: { connect: [{ documentId: second!.d, position: { before: doc, locale: 'en' } }] } });
    const placed = await links('restaurants_categories_lnk', 'category_id', cat.id, 'restaurant_id', 'restaurant_ord', null);
    expect(placed.map((l) => l.member)).toEqual([frRows.draft, frRows.published, secondRows.draft, secondRows.published, en.draft, en.published].filter((id) => id > 0));
    expectIncreasing(placed);
    // The second restaurant's links inserted between the others' values, which stay as they were.
    expect(changes(table0, await snapshot('restaurants_categories_lnk'))).toEqual({ added: linkIds(placed, [secondRows.draft, secondRows.published]), removed: [], changed: [] });
    const error = await rejection(() => write('api::category.category', cat.id, 'single', { restaurants: { connect: [{ documentId: doc, locale: 'de' }] } }));
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.message).toBe(`Document with id "${doc}", locale "de" not found`);
  });

  it('refuses unknown documents, unknown ids, unknown anchors and media, writing nothing', async () => {
    const [doc] = await publishedArticles(20, 1);
    const article = await versionsOf('articles', doc!);
    const [a, b] = await categoryDocs();
    await write('api::article.article', article.draft, 'draft', { categories: { set: [a!.doc] } });
    const before = await categoriesOf(article.draft);
    const unknown = await rejection(() => write('api::article.article', article.draft, 'draft', { categories: { connect: ['nope'] } }));
    expect(unknown).toBeInstanceOf(ValidationError);
    expect(unknown.message).toBe('Document with id "nope", locale "null" not found');
    const byId = await rejection(() => write('api::article.article', article.draft, 'draft', { categories: { connect: [{ id: 999999 }] } }));
    expect(byId.message).toBe('1 relation(s) of type api::category.category associated with this entity do not exist');
    const anchor = await rejection(() => write('api::article.article', article.draft, 'draft', { categories: { connect: [{ documentId: b!.doc, position: { before: 'nope' } }] } }));
    expect(anchor).toBeInstanceOf(ValidationError);
    expect(anchor.message).toBe(
      `There was a problem connecting relation with id ${b!.doc} at position {"before":"nope"}. The relation with id nope needs to be connected first.`,
    );
    const anAuthor = (await ids('SELECT id FROM authors ORDER BY id'))[2]!;
    const published = await rejection(() => write('api::author.author', anAuthor, 'single', { articles: { connect: [{ documentId: 'nope', status: 'published' }] } }));
    expect(published.message).toBe('Document with id "nope", locale "null", status "published" not found');
    expect(await categoriesOf(article.draft)).toEqual(before);
    const restaurant = schema('api::restaurant.restaurant');
    const media = planRow(model, restaurant, { cover: 1 }, 'update').relations;
    expect(media.length).toBe(1);
    const [row] = await ids(`SELECT id FROM restaurants ORDER BY id`);
    await expect(writeStrapiRelations(db, model, restaurant, row!, media, { defaultLocale: 'en', versioned: true, version: 'draft' })).rejects.toThrow(/files_related_mph/);
  });

  it('places rows between links that tie (Strapi\'s draft/published ties) and at the start in one connect: Strapi\'s order, values above 0 and increasing', async () => {
    const cats = await categoryDocs();
    const cat = cats[3]!;
    const list = () => links('articles_categories_lnk', 'category_id', cat.id, 'article_id', 'article_ord', 'category_ord');
    // Every link of the category at one value: no room between any two, as Strapi's first-publish ties leave.
    await db.execute(`UPDATE articles_categories_lnk SET article_ord = 5 WHERE category_id = ?`, [cat.id]);
    const before = (await list()).map((l) => l.member);
    expect(before.length).toBeGreaterThan(2);
    // An anchor inside the run of ties: the first article after the first one.
    const firstDoc = await docOf('articles', before[0]!);
    let anchorDoc = firstDoc;
    for (const m of before) if (anchorDoc === firstDoc) anchorDoc = await docOf('articles', m);
    expect(anchorDoc).not.toBe(firstDoc);
    const anchorRows: number[] = [];
    for (const m of before) if ((await docOf('articles', m)) === anchorDoc) anchorRows.push(m);
    const [x, y] = await publishedArticles(30, 2);
    const [xv, yv] = [await versionsOf('articles', x!), await versionsOf('articles', y!)];
    expect(before).not.toContain(xv.draft);
    await write('api::category.category', cat.id, 'single', {
      articles: { connect: [{ documentId: x, position: { before: anchorDoc } }, { documentId: y, position: { start: true } }] },
    });
    const after = await list();
    const members = after.map((l) => l.member);
    expect(members.slice(0, 2).sort()).toEqual([yv.draft, yv.published].sort());
    const at = members.indexOf(before.find((m) => anchorRows.includes(m))!);
    expect(at).toBeGreaterThan(4);
    expect(members.slice(at - 2, at)).toEqual([xv.draft, xv.published]);
    expect(members.filter((m) => before.includes(m))).toEqual(before);
    // No room between tied values: the list may be renumbered; either way its values end above 0 and increasing.
    expectIncreasing(after);
  });

  it('writes a component\'s relation (menu.dishes, oneToMany one-way): no steal from other menus', async () => {
    const [menu, otherMenu] = await ids(`SELECT id FROM components_sections_menus ORDER BY id`);
    const dishes = await ids(`SELECT id FROM dishes ORDER BY id`);
    const [d1, d2] = [dishes[0]!, dishes[1]!];
    const dishList = (row: number) => links('components_sections_menus_dishes_lnk', 'menu_id', row, 'dish_id', 'dish_ord', null);
    await write('sections.menu', otherMenu!, 'draft', { dishes: [await docOf('dishes', d1)] });
    await write('sections.menu', menu!, 'draft', { dishes: { set: [await docOf('dishes', d2)] } });
    const set = await dishList(menu!);
    const table0 = await snapshot('components_sections_menus_dishes_lnk');
    await write('sections.menu', menu!, 'draft', { dishes: { connect: [{ documentId: await docOf('dishes', d1), position: { start: true } }] } });
    const placed = await dishList(menu!);
    expect(placed.map((l) => l.member)).toEqual([d1, d2]);
    // Before the first link, above 0 (MySQL's column is unsigned): one row written, d2's link as it was.
    expectIncreasing(placed);
    expect(placed[1]).toEqual(set[0]);
    expect(changes(table0, await snapshot('components_sections_menus_dishes_lnk'))).toEqual({ added: [placed[0]!.id], removed: [], changed: [] });
    expect((await dishList(otherMenu!)).map((l) => l.member)).toEqual([d1]);
  });
});
