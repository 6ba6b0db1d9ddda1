import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachDialect } from '../helpers/databases.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { openStrapiFixtureApp, STRAPI_TOKENS, type StrapiFixtureApp } from '../helpers/strapi-app.js';
import { databaseSnapshot, statementsDuring } from '../helpers/db-snapshot.js';

/**
 * Writes through Cairn's REST API into a database that real Strapi 5 made, checked in Strapi's own tables against
 * the rules measured in docs/strapi-5-writes.md: version rows, links between version rows, `_cmps.order`,
 * `files_related_mph`, values in each dialect's stored form; and a refused write leaves every table as it was.
 */
describeEachDialect('Writes into a database that Strapi made', (dialect) => {
  let app: StrapiFixtureApp;
  const rows = <T = Record<string, unknown>>(sql: string, params: unknown[] = []) => app.cairn.db.query<T>(sql, params);
  const ids = async (table: string, documentId: string) =>
    rows<{ id: number; published_at: unknown; locale: string | null }>(`SELECT id, published_at, locale FROM ${table} WHERE document_id = ? ORDER BY id`, [documentId]);
  const documentIdOf = async (url: string) => ((await app.get(url)).json() as { data: Array<{ documentId: string }> }).data.map((e) => e.documentId);
  let categories: string[];
  let authors: string[];

  beforeAll(async () => {
    app = await openStrapiFixtureApp(dialect);
    categories = await documentIdOf('/api/categories?sort=id&pagination[pageSize]=4');
    authors = await documentIdOf('/api/authors?sort=id&pagination[pageSize]=2');
  }, 60_000);
  afterAll(() => app?.close());

  describe('a Draft & Publish document', () => {
    let documentId: string;
    let rowIds: number[];

    it('is created as a draft row and a published row, both linking the same targets', async () => {
      const created = await app.request('POST', '/api/articles?populate[categories][fields][0]=name&populate[author][fields][0]=name', {
        data: { title: 'Written by Cairn', views: 7, categories: { connect: [categories[0], categories[1]] }, author: authors[0] },
      });
      expect(created.statusCode, created.body).toBe(201);
      const entry = created.json().data;
      documentId = entry.documentId;
      expect(documentId).toMatch(/^[a-z][a-z0-9]{23}$/);
      expect(entry.publishedAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect(entry.categories).toHaveLength(2);

      const versions = await ids('articles', documentId);
      expect(versions.map((v) => v.published_at === null)).toEqual([true, false]);
      // Non-localized types store NULL locales; API writes leave created_by/updated_by NULL.
      expect(versions.map((v) => v.locale)).toEqual([null, null]);
      const [who] = await rows<{ c: unknown; u: unknown }>('SELECT created_by_id AS c, updated_by_id AS u FROM articles WHERE id = ?', [versions[1].id]);
      expect([who.c, who.u]).toEqual([null, null]);
      rowIds = versions.map((v) => v.id);
      for (const rowId of rowIds) {
        const linked = await rows<{ category_id: number }>('SELECT category_id FROM articles_categories_lnk WHERE article_id = ? ORDER BY category_ord', [rowId]);
        expect(linked.map((l) => Number(l.category_id)), `row ${rowId}`).toHaveLength(2);
        const author = await rows('SELECT author_id FROM articles_author_lnk WHERE article_id = ?', [rowId]);
        expect(author).toHaveLength(1);
      }
      if (dialect === 'sqlite') {
        const [stored] = await rows<{ created_at: unknown; published_at: unknown }>('SELECT created_at, published_at FROM articles WHERE id = ?', [rowIds[1]]);
        // SQLite: epoch milliseconds, as Strapi stores them.
        expect(typeof stored.created_at).toBe('number');
        expect(new Date(Number(stored.published_at)).toISOString()).toBe(entry.publishedAt);
      }
    });

    it('a publishing create looks for no links to the new document (it has no rows yet); a publishing update does', async () => {
      // Articles relate to themselves: publishing mirrors other rows' links to the document (publish-links.ts), and
      // the documents holding such links are read to be locked. A document made by the write has none.
      const linkingReads = async (method: 'POST' | 'PUT', url: string, data: unknown) => {
        const { result: answer, statements } = await statementsDuring(app.cairn.db, () => app.request(method, url, { data }));
        expect(answer.statusCode, answer.body).toBeLessThan(300);
        return { documentId: answer.json().data.documentId as string, reads: statements.filter((sql) => /^SELECT DISTINCT o\.document_id FROM [`"]?articles_related_lnk/.test(sql.trim())) };
      };
      const created = await linkingReads('POST', '/api/articles', { title: 'made and published' });
      expect(created.reads).toEqual([]);
      const updated = await linkingReads('PUT', `/api/articles/${created.documentId}`, { title: 'published again' });
      // Read once, under the lock of the document itself (write-locks.ts lockForWrite: no one links to it meanwhile).
      expect(updated.reads).toHaveLength(1);
    });

    it('places a positioned connect and publishes the draft into the same published row', async () => {
      const updated = await app.request('PUT', `/api/articles/${documentId}?populate[categories][fields][0]=name`, {
        data: { categories: { connect: [{ documentId: categories[2], position: { before: categories[1] } }] } },
      });
      expect(updated.statusCode, updated.body).toBe(200);
      const names = updated.json().data.categories.map((c: { documentId: string }) => c.documentId);
      expect(names).toEqual([categories[0], categories[2], categories[1]]);
      // Cairn keeps the published row's id (README, differences): the links others hold to it stay valid.
      expect((await ids('articles', documentId)).map((v) => v.id)).toEqual(rowIds);
      const draft = (await app.get(`/api/articles/${documentId}?status=draft&populate[categories][fields][0]=name`)).json().data;
      expect(draft.categories.map((c: { documentId: string }) => c.documentId)).toEqual(names);
    });

    it('changes only the draft with ?status=draft', async () => {
      const updated = await app.request('PUT', `/api/articles/${documentId}?status=draft`, { data: { title: 'Draft title', categories: { disconnect: [categories[0]] } } });
      expect(updated.statusCode, updated.body).toBe(200);
      const published = (await app.get(`/api/articles/${documentId}?populate=categories`)).json().data;
      const draft = (await app.get(`/api/articles/${documentId}?status=draft&populate=categories`)).json().data;
      expect([published.title, published.categories.length]).toEqual(['Written by Cairn', 3]);
      expect([draft.title, draft.categories.length]).toEqual(['Draft title', 2]);
    });

    it('publishes a draft edited apart (PUT without data) as a whole copy, then a connect as the same change on both rows', async () => {
      const names = (entry: { categories: Array<{ documentId: string }> }) => entry.categories.map((c) => c.documentId);
      const republished = await app.request('PUT', `/api/articles/${documentId}?populate=categories`, { data: {} });
      expect(republished.statusCode, republished.body).toBe(200);
      expect(republished.json().data.title).toBe('Draft title');
      expect(names(republished.json().data)).toEqual([categories[2], categories[1]]);
      // In sync again: this connect is applied to the published row as to the draft (one link inserted per row),
      // not by a copy of the draft's whole list (which deletes the published row's links first).
      const { result: connected, statements } = await statementsDuring(app.cairn.db, () =>
        app.request('PUT', `/api/articles/${documentId}?populate=categories`, {
          data: { categories: { connect: [{ documentId: categories[3], position: { start: true } }] } },
        }),
      );
      const listWrites = statements.filter((sql) => /^(INSERT INTO|DELETE FROM) [`"]?articles_categories_lnk\b/.test(sql.trim()));
      expect(listWrites.map((sql) => sql.trim().split(' ')[0]), statements.join('\n')).toEqual(['INSERT', 'INSERT']);
      // Both lists read in one statement where a connect reads its list in one (SQLite walks the order index instead).
      const listReads = statements.filter((sql) => /^SELECT \d+ AS r, w\.id/.test(sql.trim()));
      expect(listReads, statements.join('\n')).toHaveLength(dialect === 'sqlite' ? 0 : 1);
      expect(names(connected.json().data)).toEqual([categories[3], categories[2], categories[1]]);
      const draft = (await app.get(`/api/articles/${documentId}?status=draft&populate=categories`)).json().data;
      expect(names(draft)).toEqual(names(connected.json().data));
      // Every order value above 0 (MySQL's columns are unsigned), strictly increasing along each list.
      for (const { id } of await ids('articles', documentId)) {
        const orders = (await rows<{ o: number }>('SELECT category_ord AS o FROM articles_categories_lnk WHERE article_id = ? ORDER BY category_ord', [id])).map((r) => Number(r.o));
        expect(orders[0]).toBeGreaterThan(0);
        expect(new Set(orders).size).toBe(orders.length);
      }
    });

    it('links an author without Draft & Publish to both versions, from the author side', async () => {
      const updated = await app.request('PUT', `/api/authors/${authors[1]}`, { data: { articles: { connect: [documentId] } } });
      expect(updated.statusCode, updated.body).toBe(200);
      const linked = await rows<{ article_id: number }>(
        `SELECT l.article_id FROM articles_author_lnk l JOIN authors a ON a.id = l.author_id WHERE a.document_id = ? AND l.article_id IN (${rowIds.join(', ')}) ORDER BY l.article_ord`,
        [authors[1]],
      );
      expect(linked.map((l) => Number(l.article_id)).sort()).toEqual([...rowIds].sort());
      // A manyToOne owner links one author: the first author lost both links.
      const before = await rows(`SELECT 1 FROM articles_author_lnk l JOIN authors a ON a.id = l.author_id WHERE a.document_id = ? AND l.article_id IN (${rowIds.join(', ')})`, [authors[0]]);
      expect(before).toHaveLength(0);
    });

    it('deletes every row of the document with its links on both sides', async () => {
      const removed = await app.request('DELETE', `/api/articles/${documentId}`);
      expect(removed.statusCode, removed.body).toBe(204);
      expect(await ids('articles', documentId)).toEqual([]);
      const marks = rowIds.join(', ');
      for (const [table, column] of [
        ['articles_categories_lnk', 'article_id'],
        ['articles_author_lnk', 'article_id'],
        ['articles_related_lnk', 'article_id'],
        ['articles_related_lnk', 'inv_article_id'],
      ]) {
        expect(await rows(`SELECT id FROM ${table} WHERE ${column} IN (${marks})`), `${table}.${column}`).toEqual([]);
      }
    });
  });

  it('publishes, unpublishes and discards a draft through the Document Service, links following the versions', async () => {
    const articles = app.cairn.documents('api::article.article');
    const categoryList = async (rowId: number) =>
      (await rows<{ category_id: number }>('SELECT category_id FROM articles_categories_lnk WHERE article_id = ? ORDER BY category_ord, id', [rowId])).map((l) => Number(l.category_id));
    const { documentId } = await articles.create({ data: { title: 'Draft only', categories: [categories[0], categories[1]] }, status: 'draft' });
    const [draft] = await ids('articles', documentId);
    expect(await ids('articles', documentId)).toHaveLength(1);

    // A first publish inserts the published row, a copy of the draft with its links.
    expect(await articles.publish({ documentId })).toBe(true);
    const [, published] = await ids('articles', documentId);
    expect(published.published_at).not.toBeNull();
    expect(await categoryList(published.id)).toEqual(await categoryList(draft.id));

    // A draft edit leaves the published row alone; publishing again makes it the draft's copy, in place.
    await articles.update({ documentId, status: 'draft', data: { title: 'Edited', categories: { set: [categories[2], categories[0]] } } });
    expect((await articles.findOne({ documentId }))!.title).toBe('Draft only');
    expect(await articles.publish({ documentId })).toBe(true);
    expect((await ids('articles', documentId)).map((v) => v.id)).toEqual([draft.id, published.id]);
    expect(await categoryList(published.id)).toEqual(await categoryList(draft.id));
    const [pair] = await rows<{ d: unknown; p: unknown }>(
      'SELECT d.updated_at AS d, p.updated_at AS p FROM articles d JOIN articles p ON p.document_id = d.document_id AND p.id <> d.id WHERE d.id = ?',
      [draft.id],
    );
    // Strapi's admin tells "modified" from "published" by these two.
    expect(pair.p).toEqual(pair.d);

    // Discarding a draft edit brings back the published title and links.
    await articles.update({ documentId, status: 'draft', data: { title: 'Thrown away', categories: { disconnect: [categories[0]] } } });
    expect(await articles.discardDraft({ documentId })).toBe(true);
    const back = await articles.findOne({ documentId, status: 'draft', populate: { categories: { fields: ['name'] } } });
    expect(back!.title).toBe('Edited');
    expect(await categoryList(draft.id)).toEqual(await categoryList(published.id));

    // Unpublishing deletes the published row and its links; the draft stays.
    expect(await articles.unpublish({ documentId })).toBe(true);
    expect((await ids('articles', documentId)).map((v) => v.id)).toEqual([draft.id]);
    expect(await rows('SELECT id FROM articles_categories_lnk WHERE article_id = ?', [published.id])).toEqual([]);
  });

  it('stores an upload in public/uploads with the files row Strapi writes', async () => {
    const boundary = 'cairnboundary';
    const payload = `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="notes.txt"\r\nContent-Type: text/plain\r\n\r\nhello\r\n--${boundary}--\r\n`;
    const upload = () =>
      app.cairn.fastify.inject({
        method: 'POST',
        url: '/api/upload',
        payload,
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, authorization: `Bearer ${STRAPI_TOKENS[dialect]['anchor-full-access']}` },
      });
    const response = await upload();
    expect(response.statusCode, response.body).toBe(201);
    const [file] = response.json() as Array<{ id: number; url: string; documentId: string }>;
    const [row] = await rows<Record<string, unknown>>('SELECT * FROM files WHERE id = ?', [file.id]);
    expect(row).toMatchObject({ document_id: file.documentId, name: 'notes.txt', ext: '.txt', mime: 'text/plain', url: file.url, provider: 'local', locale: null });
    expect(readFileSync(join(app.cairn.config.dir, 'public', file.url), 'utf8')).toBe('hello');
    expect((await app.get(`/api/upload/files/${file.id}`)).json()).toMatchObject({ id: file.id, name: 'notes.txt' });
    // Filed in Strapi's "API Uploads" folder (the one the store names), last in it, as Strapi files API uploads.
    const [folder] = await rows<{ id: number; path: string }>("SELECT id, path FROM upload_folders WHERE name = 'API Uploads'");
    expect(row.folder_path).toBe(folder.path);
    const [link] = await rows<{ folder_id: number; file_ord: number }>('SELECT folder_id, file_ord FROM files_folder_lnk WHERE file_id = ?', [file.id]);
    const [last] = await rows<{ m: number }>('SELECT MAX(file_ord) AS m FROM files_folder_lnk WHERE folder_id = ?', [folder.id]);
    expect([Number(link.folder_id), Number(link.file_ord)]).toEqual([Number(folder.id), Number(last.m)]);

    // A database whose store names no folder gets one made, its name kept apart from the root folders' names.
    await app.cairn.db.execute(`DELETE FROM strapi_core_store_settings WHERE ${app.cairn.db.quote('key')} = ?`, ['plugin_upload_api-folder']);
    const again = await upload();
    expect(again.statusCode, again.body).toBe(201);
    const [made] = await rows<{ id: number; path: string; path_id: number }>("SELECT id, path, path_id FROM upload_folders WHERE name = 'API Uploads (1)'");
    expect(made.path).toBe(`/${made.path_id}`);
    const [store] = await rows<{ v: string }>(`SELECT ${app.cairn.db.quote('value')} AS v FROM strapi_core_store_settings WHERE ${app.cairn.db.quote('key')} = ?`, ['plugin_upload_api-folder']);
    expect(JSON.parse(typeof store.v === 'string' ? store.v : JSON.stringify(store.v))).toEqual({ id: Number(made.id) });
    const [second] = await rows<{ folder_path: string }>('SELECT folder_path FROM files WHERE id = ?', [(again.json() as Array<{ id: number }>)[0].id]);
    expect(second.folder_path).toBe(made.path);
  });

  it('writes a localized entry with its components, dynamic zone and media per version row', async () => {
    const [file] = await rows<{ id: number }>('SELECT id FROM files ORDER BY id LIMIT 1');
    const created = await app.request('POST', '/api/restaurants?locale=fr', {
      data: {
        name: 'Chez Cairn',
        cover: Number(file.id),
        address: { street: '1 rue de la Paix', city: 'Paris' },
        blocks: [
          { __component: 'sections.hero', title: 'One' },
          { __component: 'sections.hero', title: 'Two' },
        ],
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const documentId = created.json().data.documentId as string;
    const versions = await ids('restaurants', documentId);
    expect(versions.map((v) => v.locale)).toEqual(['fr', 'fr']);
    for (const { id } of versions) {
      const cmps = await rows<{ field: string; order: number | null; component_type: string }>(
        `SELECT field, ${app.cairn.db.quote('order')} AS ${app.cairn.db.quote('order')}, component_type FROM restaurants_cmps WHERE entity_id = ? ORDER BY field, ${app.cairn.db.quote('order')}`,
        [id],
      );
      expect(cmps.map((c) => [c.field, c.order === null ? null : Number(c.order)])).toEqual([
        ['address', null],
        ['blocks', 1],
        ['blocks', 2],
      ]);
      const media = await rows<{ file_id: number; field: string; related_type: string }>('SELECT file_id, field, related_type FROM files_related_mph WHERE related_id = ? AND related_type = ?', [
        id,
        'api::restaurant.restaurant',
      ]);
      expect(media.map((m) => [Number(m.file_id), m.field])).toEqual([[Number(file.id), 'cover']]);
    }
    const read = (await app.get(`/api/restaurants/${documentId}?locale=fr&populate=*`)).json().data;
    expect(read).toMatchObject({ name: 'Chez Cairn', address: { city: 'Paris' }, cover: { id: Number(file.id) } });
    expect(read.blocks.map((b: { title: string }) => b.title)).toEqual(['One', 'Two']);
  });

  it('replaces a single media field\'s file with connect and clears it with disconnect, on both version rows', async () => {
    const files = await rows<{ id: number }>('SELECT id FROM files ORDER BY id LIMIT 2');
    const [first, second] = files.map((f) => Number(f.id));
    const created = await app.request('POST', '/api/restaurants', { data: { name: 'Media swap', cover: first } });
    expect(created.statusCode, created.body).toBe(201);
    const documentId = created.json().data.documentId as string;
    const covers = async () => {
      const out: number[] = [];
      for (const { id } of await ids('restaurants', documentId)) {
        const media = await rows<{ file_id: number }>('SELECT file_id FROM files_related_mph WHERE related_id = ? AND related_type = ? AND field = ?', [id, 'api::restaurant.restaurant', 'cover']);
        out.push(...media.map((m) => Number(m.file_id)));
      }
      return out;
    };
    expect(await covers()).toEqual([first, first]);
    expect((await app.request('PUT', `/api/restaurants/${documentId}`, { data: { cover: { connect: [second] } } })).statusCode).toBe(200);
    expect(await covers()).toEqual([second, second]);
    expect((await app.request('PUT', `/api/restaurants/${documentId}`, { data: { cover: { disconnect: [second] } } })).statusCode).toBe(200);
    expect(await covers()).toEqual([]);
  });

  it('refuses a connect to a document that does not exist and leaves every table as it was', async () => {
    const before = await databaseSnapshot(app.cairn.db);
    const refused = await app.request('POST', '/api/articles', { data: { title: 'Nope', categories: { connect: ['doesnotexist0000000000000'] } } });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.name).toBe('ValidationError');
    expect(await databaseSnapshot(app.cairn.db)).toEqual(before);
  });
});
