import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Database } from '../../src/database/index.js';
import { relationJoin, type RelationJoin } from '../../src/database/strapi-layout/names.js';
import { copyLinksMapped, LinkListError, StrapiLinkList, type LinkListErrorCode } from '../../src/database/strapi-store/index.js';
import type { RelationAttribute } from '../../src/model/types.js';
import { describeEachDialect } from '../helpers/databases.js';
import { openStrapiFixtureApp, type StrapiFixtureApp } from '../helpers/strapi-app.js';
import { writesDuring as writesDuringOn } from '../helpers/db-snapshot.js';

/** Rejects with a LinkListError of `code` whose message contains `text`. */
async function refused(action: () => Promise<unknown> | unknown, code: LinkListErrorCode, text: string): Promise<void> {
  let error: unknown;
  try {
    await action();
  } catch (e) {
    error = e;
  }
  expect(error, `expected a ${code} error`).toBeInstanceOf(LinkListError);
  expect((error as LinkListError).code).toBe(code);
  expect((error as LinkListError).message).toContain(text);
}

describeEachDialect('StrapiLinkList: ordered links over Strapi 5 join tables', (dialect) => {
  let app: StrapiFixtureApp;
  let db: Database;
  const join = (uid: string, attribute: string): RelationJoin => {
    const schema = app.cairn.model.contentTypes.get(uid)!;
    return relationJoin(app.cairn.model, schema, schema.attributes.get(attribute) as RelationAttribute);
  };
  const ids = async (sql: string, params: unknown[] = []) => (await db.query<{ id: number }>(sql, params)).map((r) => Number(r.id));
  const docOf = async (table: string, id: number) => (await db.query<{ d: string }>(`SELECT document_id AS d FROM ${table} WHERE id = ?`, [id]))[0]!.d;
  /** What Cairn's read compiler answers for a populated relation: the linked rows' ids, in order. */
  const served = async (path: string, attribute: string, status: 'draft' | 'published') => {
    const response = await app.get(`${path}?status=${status}&populate[${attribute}][fields][0]=id`);
    expect(response.statusCode, response.body).toBe(200);
    const value = response.json().data[attribute];
    return (Array.isArray(value) ? value : value ? [value] : []).map((e: { id: number }) => e.id);
  };
  const writesDuring = (fn: () => Promise<unknown>) => writesDuringOn(db, fn);
  /** A draft article row with at least `n` categories, and its document id. */
  const draftArticle = async (where = '1 = 1') => {
    const [id] = await ids(`SELECT id FROM articles WHERE published_at IS NULL AND ${where} ORDER BY id`);
    return { id: id!, doc: await docOf('articles', id!) };
  };

  beforeAll(async () => {
    app = await openStrapiFixtureApp(dialect);
    db = app.cairn.db;
  }, 120_000);
  afterAll(() => app?.close());

  it('places members at start, end, before and after on the owner side, writing one row each; the read compiler follows', async () => {
    const article = await draftArticle(`(SELECT COUNT(*) FROM articles_categories_lnk l WHERE l.article_id = articles.id) = 3`);
    const list = new StrapiLinkList(db, join('api::article.article', 'categories'), article.id);
    expect(list.ordered).toBe(true);
    const [a, b, c] = await list.members();
    expect(await served(`/api/articles/${article.doc}`, 'categories', 'draft')).toEqual([a, b, c]);
    const free = await ids(`SELECT id FROM categories WHERE id NOT IN (?, ?, ?) ORDER BY id`, [a, b, c]);
    const [c1, c2, c3, c4] = free;
    const before = await db.query(`SELECT id, article_id, category_id, category_ord, article_ord FROM articles_categories_lnk ORDER BY id`);
    const maxInverse = async (category: number) => Number((await db.query<{ m: number }>(`SELECT MAX(article_ord) AS m FROM articles_categories_lnk WHERE category_id = ?`, [category]))[0]!.m ?? 0);
    const inverseBefore = [await maxInverse(c1!), await maxInverse(c2!), await maxInverse(c3!), await maxInverse(c4!)];

    for (const [member, position] of [
      [c1!, { start: true }],
      [c2!, { end: true }],
      [c3!, { before: b! }],
      [c4!, { after: a! }],
    ] as const) {
      const writes = await writesDuring(() => list.insert(member, position));
      expect(writes, 'one INSERT, nothing renumbered').toHaveLength(1);
      expect(writes[0]).toMatch(/^INSERT/);
    }
    expect(await list.members()).toEqual([c1, a, c4, c3, b, c, c2]);
    expect(await served(`/api/articles/${article.doc}`, 'categories', 'draft')).toEqual([c1, a, c4, c3, b, c, c2]);
    // The rows that were there are untouched.
    const after = await db.query(`SELECT id, article_id, category_id, category_ord, article_ord FROM articles_categories_lnk ORDER BY id`);
    expect(after.slice(0, before.length)).toEqual(before);
    // Each new link is last in its category's list of articles (Strapi's MAX + 1 over all the category's links).
    const entries = new Map((await list.entries()).map((e) => [e.member, e]));
    expect([c1, c2, c3, c4].map((m) => entries.get(m!)!.otherOrder)).toEqual(inverseBefore.map((m) => m + 1));
    for (const e of entries.values()) expect(e.order).toBeGreaterThanOrEqual(0);
  });

  it('moves a member (same link row, same inverse order) and removes members; the rest keep their values', async () => {
    const article = await draftArticle(`(SELECT COUNT(*) FROM articles_categories_lnk l WHERE l.article_id = articles.id) >= 3 AND id > 1`);
    const list = new StrapiLinkList(db, join('api::article.article', 'categories'), article.id);
    const start = await list.entries();
    const [first, , last] = start;
    await list.move(first!.member, { after: last!.member });
    const moved = await list.entries();
    expect(moved.map((e) => e.member)).toEqual([...start.slice(1, 3).map((e) => e.member), first!.member, ...start.slice(3).map((e) => e.member)]);
    expect(moved.find((e) => e.member === first!.member)!.otherOrder).toBe(first!.otherOrder);
    await refused(() => list.move(first!.member, { before: first!.member }), 'self-anchor', 'cannot be placed relative to itself');
    const writes = await writesDuring(() => list.remove(last!.member));
    expect(writes).toHaveLength(1);
    expect(await list.has(last!.member)).toBe(false);
    expect(await list.members()).toEqual(moved.filter((e) => e.member !== last!.member).map((e) => e.member));
    await refused(() => list.remove(last!.member), 'not-a-member', `categories row ${last!.member} is not in the list of articles row ${article.id}: it cannot be removed`);
    expect(await served(`/api/articles/${article.doc}`, 'categories', 'draft')).toEqual(await list.members());
    expect(await list.clear()).toBe(moved.length - 1);
    expect(await list.members()).toEqual([]);
    expect(await served(`/api/articles/${article.doc}`, 'categories', 'draft')).toEqual([]);
  });

  it('refuses a member that is already linked, unknown rows and members, and anchors not in the list, changing nothing', async () => {
    const article = await draftArticle(`(SELECT COUNT(*) FROM articles_categories_lnk l WHERE l.article_id = articles.id) >= 2 AND id > 20`);
    const join_ = join('api::article.article', 'categories');
    const list = new StrapiLinkList(db, join_, article.id);
    const members = await list.members();
    const outside = (await ids(`SELECT id FROM categories ORDER BY id`)).find((id) => !members.includes(id))!;
    const snapshot = await db.query(`SELECT * FROM articles_categories_lnk ORDER BY id`);
    await refused(() => list.insert(members[0]!, { end: true }), 'already-linked', `categories row ${members[0]} is already in the list of articles row ${article.id}`);
    await refused(() => list.insert(outside, { before: 999_999 }), 'not-a-member', `categories row 999999 is not in the list of articles row ${article.id}: it cannot be an anchor`);
    await refused(() => list.insert(outside, { after: outside }), 'not-a-member', `categories row ${outside} is not in the list`);
    await refused(() => list.move(outside, { start: true }), 'not-a-member', 'it cannot be moved');
    await refused(() => list.insert(999_999), 'unknown-member', `categories has no row 999999 to link to articles row ${article.id}`);
    await refused(() => new StrapiLinkList(db, join_, 999_999).members(), 'unknown-row', 'articles has no row 999999');
    await refused(() => new StrapiLinkList(db, join_, 999_999).append(outside), 'unknown-row', 'articles has no row 999999');
    for (const bad of [0, -1, 1.5, Number.NaN, '3' as unknown as number]) {
      await refused(() => new StrapiLinkList(db, join_, bad), 'bad-id', "the list's row (article_id) must be a row id");
      await refused(() => list.insert(bad), 'bad-id', 'a member (a categories row) must be a row id');
      await refused(() => list.insert(outside, { after: bad }), 'bad-id', 'an anchor (a categories row) must be a row id');
    }
    await refused(() => list.set([outside, outside]), 'duplicate', `set: categories row ${outside} is given twice`);
    await refused(() => list.set([outside, 999_999]), 'unknown-member', 'categories has no row 999999');
    expect(await db.query(`SELECT * FROM articles_categories_lnk ORDER BY id`)).toEqual(snapshot);
  });

  it('sets a list: kept links stay the same rows, values 1..n, new links last in their targets\' lists', async () => {
    const article = await draftArticle(`(SELECT COUNT(*) FROM articles_categories_lnk l WHERE l.article_id = articles.id) >= 2 AND id > 40`);
    const list = new StrapiLinkList(db, join('api::article.article', 'categories'), article.id);
    const before = await db.query<{ id: number; category_id: number; article_ord: number }>(
      `SELECT id, category_id, article_ord FROM articles_categories_lnk WHERE article_id = ?`,
      [article.id],
    );
    const [keep, drop] = await list.members();
    const added = (await ids(`SELECT id FROM categories ORDER BY id DESC`)).filter((id) => !before.some((r) => Number(r.category_id) === id)).slice(0, 2);
    const maxOf = async (category: number) => Number((await db.query<{ m: number }>(`SELECT MAX(article_ord) AS m FROM articles_categories_lnk WHERE category_id = ?`, [category]))[0]!.m ?? 0);
    const expectedNew = [await maxOf(added[0]!), await maxOf(added[1]!)];
    await list.set([added[0]!, keep!, added[1]!]);
    const entries = await list.entries();
    expect(entries.map((e) => [e.member, e.order])).toEqual([
      [added[0], 1],
      [keep, 2],
      [added[1], 3],
    ]);
    const kept = before.find((r) => Number(r.category_id) === keep)!;
    const [row] = await db.query<{ id: number; article_ord: number }>(`SELECT id, article_ord FROM articles_categories_lnk WHERE article_id = ? AND category_id = ?`, [article.id, keep]);
    expect([Number(row!.id), Number(row!.article_ord)]).toEqual([Number(kept.id), Number(kept.article_ord)]);
    expect(entries[0]!.otherOrder).toBe(expectedNew[0]! + 1);
    expect(entries[2]!.otherOrder).toBe(expectedNew[1]! + 1);
    expect(await list.has(drop!)).toBe(false);
    expect(await served(`/api/articles/${article.doc}`, 'categories', 'draft')).toEqual([added[0], keep, added[1]]);
    await list.set([]);
    expect(await list.members()).toEqual([]);
  });

  it('lists owner rows on the inverse side (a category\'s articles by article_ord); a new link is last in the article\'s own list', async () => {
    const [category] = await ids(`SELECT id FROM categories ORDER BY id`);
    const list = new StrapiLinkList(db, join('api::category.category', 'articles'), category!);
    expect(list.side).toMatchObject({ key: 'category_id', member: 'article_id', order: 'article_ord', otherOrder: 'category_ord' });
    const members = await list.members();
    const drafts = await ids(`SELECT id FROM articles WHERE published_at IS NULL ORDER BY id`);
    const [newcomer, second] = drafts.filter((id) => !members.includes(id));
    const maxOwn = async (article: number) => Number((await db.query<{ m: number }>(`SELECT MAX(category_ord) AS m FROM articles_categories_lnk WHERE article_id = ?`, [article]))[0]!.m ?? 0);
    const own = await maxOwn(newcomer!);
    const anchor = members[1]!;
    await list.insert(newcomer!, { before: anchor });
    await list.insert(second!, { start: true });
    const after = await list.members();
    expect(after).toEqual([second, ...members.slice(0, 1), newcomer, ...members.slice(1)]);
    const entry = (await list.entries()).find((e) => e.member === newcomer)!;
    expect(entry.otherOrder).toBe(own + 1);
    // The article's own list now ends with this category; the read compiler shows it from both sides.
    const article = new StrapiLinkList(db, join('api::article.article', 'categories'), newcomer!);
    expect((await article.members()).at(-1)).toBe(category);
    const doc = await docOf('categories', category!);
    const draftRows = new Set(drafts);
    expect(await served(`/api/categories/${doc}`, 'articles', 'draft')).toEqual(after.filter((id) => draftRows.has(id)));
  });

  it('places a member between two links that tie (a draft and its published row): the list is renumbered once, its order kept', async () => {
    // Strapi gives a draft's link and its published copy the same inverse order on a first publish.
    const [tie] = await db.query<{ category_id: number; a: number; b: number }>(
      `SELECT x.category_id, x.article_id AS a, y.article_id AS b FROM articles_categories_lnk x JOIN articles_categories_lnk y ` +
        `ON y.category_id = x.category_id AND y.article_ord = x.article_ord AND y.id > x.id ORDER BY x.category_id DESC, x.id LIMIT 1`,
    );
    expect(tie, 'the fixture has tied inverse orders').toBeDefined();
    const list = new StrapiLinkList(db, join('api::category.category', 'articles'), Number(tie!.category_id));
    const members = await list.members();
    const [newcomer] = await ids(`SELECT id FROM articles WHERE id NOT IN (SELECT article_id FROM articles_categories_lnk WHERE category_id = ?) ORDER BY id`, [tie!.category_id]);
    const first = members.indexOf(Number(tie!.a)) < members.indexOf(Number(tie!.b)) ? Number(tie!.a) : Number(tie!.b);
    const writes = await writesDuring(() => list.insert(newcomer!, { after: first }));
    expect(writes.map((w) => w.split(' ')[0])).toEqual(['UPDATE', 'INSERT']);
    const at = members.indexOf(first) + 1;
    expect(await list.members()).toEqual([...members.slice(0, at), newcomer, ...members.slice(at)]);
    const orders = (await list.entries()).map((e) => e.order!);
    expect(orders.filter((_, i) => i !== at)).toEqual(members.map((_, i) => i + 1));
    expect(orders[at]).toBe(at + 0.5);
  });

  it('links one author on a manyToOne owner side (no order column); the author\'s list orders by article_ord', async () => {
    const joinAuthor = join('api::article.article', 'author');
    expect(joinAuthor.table).toMatchObject({ name: 'articles_author_lnk', orderColumn: undefined, inverseOrderColumn: 'article_ord' });
    const [row] = await db.query<{ article_id: number; author_id: number }>(
      `SELECT l.article_id, l.author_id FROM articles_author_lnk l JOIN articles a ON a.id = l.article_id WHERE a.published_at IS NULL ORDER BY l.article_id LIMIT 1`,
    );
    const articleId = Number(row!.article_id);
    const list = new StrapiLinkList(db, joinAuthor, articleId);
    expect(list.ordered).toBe(false);
    expect(await list.members()).toEqual([Number(row!.author_id)]);
    const other = (await ids(`SELECT id FROM authors ORDER BY id`)).find((id) => id !== Number(row!.author_id))!;
    await refused(() => list.insert(other), 'to-one', `articles row ${articleId} already links authors row ${row!.author_id}`);
    await refused(() => list.set([other, Number(row!.author_id)]), 'to-one', 'links at most one authors row on this side');
    await refused(() => list.insert(other, { before: Number(row!.author_id) }), 'to-one', 'remove it first');
    await list.remove(Number(row!.author_id));
    await refused(() => list.insert(other, { before: Number(row!.author_id) }), 'not-a-member', `authors row ${row!.author_id} is not in the list of articles row ${articleId}: it cannot be an anchor`);
    const [max] = await db.query<{ m: number }>(`SELECT MAX(article_ord) AS m FROM articles_author_lnk WHERE author_id = ?`, [other]);
    const writes = await writesDuring(() => list.append(other));
    expect(writes).toHaveLength(1);
    expect(writes[0]).not.toMatch(/_ord\b.*_ord\b/);
    expect(await list.entries()).toEqual([{ member: other, order: null, otherOrder: Number(max!.m ?? 0) + 1 }]);
    const authorList = new StrapiLinkList(db, join('api::author.author', 'articles'), other);
    expect((await authorList.members()).at(-1)).toBe(articleId);
    expect(await served(`/api/articles/${await docOf('articles', articleId)}`, 'author', 'draft')).toEqual([other]);
    await list.set([]);
    expect(await served(`/api/articles/${await docOf('articles', articleId)}`, 'author', 'draft')).toEqual([]);
  });

  it('orders a self-relation (articles.related: article_id, inv_article_id, article_ord)', async () => {
    const joinRelated = join('api::article.article', 'related');
    expect(joinRelated.table).toMatchObject({ ownerColumn: 'article_id', targetColumn: 'inv_article_id', orderColumn: 'article_ord', inverseOrderColumn: undefined });
    const article = await draftArticle(`(SELECT COUNT(*) FROM articles_related_lnk l WHERE l.article_id = articles.id) >= 2`);
    const list = new StrapiLinkList(db, joinRelated, article.id);
    const members = await list.members();
    expect(await served(`/api/articles/${article.doc}`, 'related', 'draft')).toEqual(members);
    const drafts = (await ids(`SELECT id FROM articles WHERE published_at IS NULL ORDER BY id DESC`)).filter((id) => !members.includes(id) && id !== article.id);
    await list.insert(drafts[0]!, { after: members[0]! });
    await list.insert(drafts[1]!, { before: members[0]! });
    await list.insert(article.id, { end: true }); // a row may list itself, as Strapi allows
    const expected = [drafts[1], members[0], drafts[0], ...members.slice(1), article.id];
    expect(await list.members()).toEqual(expected);
    expect((await list.entries()).every((e) => e.otherOrder === null)).toBe(true);
    expect(await served(`/api/articles/${article.doc}`, 'related', 'draft')).toEqual(expected);
  });

  it('renumbers only when a gap is exhausted: 60 members placed after the same one keep their order', async () => {
    const article = await draftArticle(`NOT EXISTS (SELECT 1 FROM articles_related_lnk l WHERE l.article_id = articles.id)`);
    const list = new StrapiLinkList(db, join('api::article.article', 'related'), article.id);
    const pool = (await ids(`SELECT id FROM articles WHERE published_at IS NULL AND id <> ? ORDER BY id LIMIT 62`, [article.id]));
    const [a, b, ...rest] = pool;
    await list.append(a!);
    await list.append(b!);
    let renumbered = 0;
    for (const member of rest) {
      const writes = await writesDuring(() => list.insert(member, { after: a! }));
      renumbered += writes.filter((w) => w.startsWith('UPDATE')).length;
      expect(writes.filter((w) => w.startsWith('INSERT'))).toHaveLength(1);
    }
    // Halving the gap after `a` leaves doubles room for about 50 members: then one renumbering, then room again.
    expect(renumbered).toBe(1);
    expect(await list.members()).toEqual([a, ...[...rest].reverse(), b]);
    expect(await served(`/api/articles/${article.doc}`, 'related', 'draft')).toEqual([a, ...[...rest].reverse(), b]);
    await list.renumber();
    expect((await list.entries()).map((e) => e.order)).toEqual(pool.map((_, i) => i + 1));
    // A list starting at 0 (Strapi's 0-based `connect` on create) has no room before its first member, since values
    // never go below 0 (MySQL's order columns are `double unsigned`): `start` renumbers, then takes 0.5.
    await db.execute(`UPDATE articles_related_lnk SET article_ord = article_ord - 1 WHERE article_id = ?`, [article.id]);
    const [extra] = await ids(`SELECT id FROM articles WHERE published_at IS NULL AND id NOT IN (${pool.map(() => '?').join(', ')}) ORDER BY id DESC LIMIT 1`, pool);
    const writes = await writesDuring(() => list.insert(extra!, { start: true }));
    expect(writes.map((w) => w.split(' ')[0])).toEqual(['UPDATE', 'INSERT']);
    const order = [a, ...[...rest].reverse(), b];
    expect((await list.entries()).map((e) => [e.member, e.order])).toEqual([[extra, 0.5], ...order.map((id, i) => [id, i + 1])]);
  });

  it('copies a draft\'s links to its published row in one statement, mapping D&P targets to their published rows and keeping the orders', async () => {
    // An article whose draft links related drafts both with and without a published version.
    const [pair] = await db.query<{ d: number; p: number; doc: string }>(
      `SELECT d.id AS d, p.id AS p, d.document_id AS doc FROM articles d JOIN articles p ON p.document_id = d.document_id AND p.published_at IS NOT NULL ` +
        `WHERE d.published_at IS NULL AND (SELECT COUNT(*) FROM articles_related_lnk l WHERE l.article_id = d.id) >= 3 ` +
        `AND (SELECT COUNT(*) FROM articles_categories_lnk l WHERE l.article_id = d.id) >= 2 ORDER BY d.id LIMIT 1`,
    );
    const draft = Number(pair!.d);
    const published = Number(pair!.p);
    const related = new StrapiLinkList(db, join('api::article.article', 'related'), draft);
    const categories = new StrapiLinkList(db, join('api::article.article', 'categories'), draft);
    // Reorder the draft's lists so that they differ from what was published.
    const draftRelated = await related.members();
    await related.move(draftRelated.at(-1)!, { start: true });
    const unpublished = (await ids(`SELECT id FROM articles a WHERE published_at IS NULL AND NOT EXISTS (SELECT 1 FROM articles p WHERE p.document_id = a.document_id AND p.published_at IS NOT NULL) ORDER BY id`)).find(
      (id) => id !== draft && !draftRelated.includes(id),
    );
    await related.insert(unpublished!, { after: draftRelated[0]! });
    await categories.move((await categories.members())[1]!, { start: true });
    const draftDocs = await Promise.all((await related.members()).map((id) => docOf('articles', id)));
    const publishedDocs = new Set((await db.query<{ d: string }>(`SELECT document_id AS d FROM articles WHERE published_at IS NOT NULL`)).map((r) => r.d));
    const draftCategories = await categories.entries();

    // What publishing does: the published row loses its links, then gets the draft's.
    await new StrapiLinkList(db, join('api::article.article', 'related'), published).clear();
    await new StrapiLinkList(db, join('api::article.article', 'categories'), published).clear();
    const writes = await writesDuring(async () => {
      expect(await copyLinksMapped(db, join('api::article.article', 'related'), { from: draft, to: published, members: 'published' })).toBe(
        draftDocs.filter((d) => publishedDocs.has(d)).length,
      );
      expect(await copyLinksMapped(db, join('api::article.article', 'categories'), { from: draft, to: published, members: 'same' })).toBe(draftCategories.length);
    });
    expect(writes).toHaveLength(2);
    expect(writes.every((w) => /^INSERT INTO \S+ \(.*\) SELECT /.test(w))).toBe(true);

    const publishedRelated = new StrapiLinkList(db, join('api::article.article', 'related'), published);
    const copiedDocs = await Promise.all((await publishedRelated.members()).map((id) => docOf('articles', id)));
    expect(copiedDocs).toEqual(draftDocs.filter((d) => publishedDocs.has(d)));
    for (const id of await publishedRelated.members()) expect((await db.query(`SELECT id FROM articles WHERE id = ? AND published_at IS NOT NULL`, [id])).length).toBe(1);
    // Order values and the categories' inverse orders are the draft links' (Strapi's first publish).
    const copied = await new StrapiLinkList(db, join('api::article.article', 'categories'), published).entries();
    expect(copied).toEqual(draftCategories);
    // The read compiler serves the published document with the draft's order.
    const servedRelated = await served(`/api/articles/${pair!.doc}`, 'related', 'published');
    expect(await Promise.all(servedRelated.map((id: number) => docOf('articles', id)))).toEqual(copiedDocs);
    expect(await served(`/api/articles/${pair!.doc}`, 'categories', 'published')).toEqual(draftCategories.map((e) => e.member));

    await refused(() => copyLinksMapped(db, join('api::article.article', 'categories'), { from: draft, to: published, members: 'same' }), 'links-exist', `articles row ${published} already has ${draftCategories.length} links`);
    await refused(() => copyLinksMapped(db, join('api::article.article', 'categories'), { from: 999_999, to: published, members: 'same' }), 'unknown-row', 'articles has no row 999999 to copy links from');
    await refused(() => copyLinksMapped(db, join('api::article.article', 'categories'), { from: draft, to: 0, members: 'same' }), 'bad-id', 'the row copied to must be a row id');
  });

  it('copies with the other side\'s orders restored from the replaced row, or appended', async () => {
    const joinCategories = join('api::article.article', 'categories');
    const rows = await ids(`SELECT a.id FROM articles a WHERE (SELECT COUNT(*) FROM articles_categories_lnk l WHERE l.article_id = a.id) >= 2 ORDER BY a.id DESC LIMIT 2`);
    const [source, previous] = rows;
    const [target] = await ids(`SELECT id FROM articles a WHERE NOT EXISTS (SELECT 1 FROM articles_categories_lnk l WHERE l.article_id = a.id) ORDER BY id LIMIT 1`);
    const sourceList = await new StrapiLinkList(db, joinCategories, source!).entries();
    const previousList = await new StrapiLinkList(db, joinCategories, previous!).entries();
    const maxOf = async (category: number) => Number((await db.query<{ m: number }>(`SELECT MAX(article_ord) AS m FROM articles_categories_lnk WHERE category_id = ?`, [category]))[0]!.m ?? 0);
    const expected = await Promise.all(
      sourceList.map(async (e) => ({ ...e, otherOrder: previousList.find((p) => p.member === e.member)?.otherOrder ?? (await maxOf(e.member)) + 1 })),
    );
    await copyLinksMapped(db, joinCategories, { from: source!, to: target!, members: 'same', otherOrder: { restoreFrom: previous! } });
    expect(await new StrapiLinkList(db, joinCategories, target!).entries()).toEqual(expected);

    const [another] = await ids(`SELECT id FROM articles a WHERE NOT EXISTS (SELECT 1 FROM articles_categories_lnk l WHERE l.article_id = a.id) ORDER BY id LIMIT 1`);
    const appended = await Promise.all(sourceList.map(async (e) => ({ ...e, otherOrder: (await maxOf(e.member)) + 1 })));
    await copyLinksMapped(db, joinCategories, { from: source!, to: another!, members: 'same', otherOrder: 'append' });
    expect(await new StrapiLinkList(db, joinCategories, another!).entries()).toEqual(appended);
  });
});
