import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../helpers/databases.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { contentStatements, isLocalesRecheck } from '../helpers/auth-statements.js';
import { errors } from '../../src/server-code/strapi-errors.js';

const model = {
  contentTypes: {
    post: {
      kind: 'collectionType',
      collectionName: 'posts',
      info: { singularName: 'post', pluralName: 'posts', displayName: 'Post' },
      options: { draftAndPublish: true },
      attributes: {
        title: { type: 'string' },
        secret: { type: 'string', private: true },
        views: { type: 'integer' },
        featured: { type: 'boolean' },
        meta: { type: 'json' },
        writer: { type: 'relation', relation: 'manyToOne', target: 'plugin::users-permissions.user' },
        pins: { type: 'relation', relation: 'morphToMany' },
        pinnedBy: { type: 'relation', relation: 'morphMany', target: 'api::post.post', morphBy: 'pins' },
        featuredIn: { type: 'relation', relation: 'morphToOne' },
        feature: { type: 'relation', relation: 'morphOne', target: 'api::post.post', morphBy: 'featuredIn' },
        seo: { type: 'component', component: 'default.seo' },
        blocks: { type: 'dynamiczone', components: ['default.seo', 'default.quote'] },
      },
    },
    note: {
      kind: 'collectionType',
      collectionName: 'notes',
      info: { singularName: 'note', pluralName: 'notes', displayName: 'Note' },
      options: { draftAndPublish: false },
      pluginOptions: { i18n: { localized: true } },
      attributes: { text: { type: 'string' } },
    },
  },
  components: {
    'default.seo': { collectionName: 'components_default_seos', info: { displayName: 'seo' }, attributes: { metaTitle: { type: 'string' } } },
    'default.quote': { collectionName: 'components_default_quotes', info: { displayName: 'quote' }, attributes: { text: { type: 'text' } } },
  },
  config: { plugins: { 'users-permissions': { config: { jwtSecret: 'query-engine-test', ratelimit: { max: 1000 } } } } },
};

// strapi.db.query(uid), as app code and Strapi's own tests call it: rows, not documents.
describeEachDialect('strapi.db.query: the Query Engine reads rows', (dialect) => {
  let app: TestApp;
  const query = (uid: string) => app.cairn.strapi.db.query(uid);
  beforeAll(async () => {
    app = await startTestApp(dialect, model);
    const ann = (await app.request('POST', '/api/auth/local/register', { username: 'ann', email: 'ann@example.com', password: 'secret123' }, { authorization: '' })).body.user;
    await app.request('POST', '/api/posts', { data: { title: 'First', views: 10, featured: true, meta: { a: 1 }, writer: ann.documentId } });
    await app.request('POST', '/api/posts?status=draft', { data: { title: 'Second', views: 5, featured: false } });
  });
  afterAll(async () => app?.close());

  it('findMany: every row (the draft and the published version of a document), every column by its name, typed', async () => {
    const rows = await query('api::post.post').findMany({ orderBy: [{ title: 'asc' }] });
    expect(rows.map((r) => [r.title, r.publishedAt === null]).sort()).toEqual([
      ['First', false],
      ['First', true],
      ['Second', true],
    ]);
    const published = rows.find((r) => r.publishedAt !== null)!;
    expect(published).toMatchObject({ title: 'First', views: 10, featured: true, meta: { a: 1 }, locale: null });
    expect(typeof published.id).toBe('number');
    expect(rows.filter((r) => r.documentId === published.documentId)).toHaveLength(2);
    expect(new Date(published.createdAt as string).toISOString()).toBe(published.createdAt);
  });

  it('where in the filters language (private columns and relations too), select, limit, offset, count, findOne', async () => {
    const user = await query('plugin::users-permissions.user').findOne({ where: { email: 'ann@example.com' } });
    expect(user).toMatchObject({ username: 'ann', confirmed: true, blocked: false });
    expect(String(user!.password)).toMatch(/^\$2[ab]\$10\$/);
    expect(await query('plugin::users-permissions.user').findOne({ where: { email: 'nobody@example.com' } })).toBeNull();
    const byWriter = await query('api::post.post').findMany({ where: { writer: { username: 'ann' } }, select: ['title', 'publishedAt'] });
    expect(byWriter.map((r) => Object.keys(r).sort())).toEqual([
      ['publishedAt', 'title'],
      ['publishedAt', 'title'],
    ]);
    expect(await query('api::post.post').count({ where: { $or: [{ views: { $gt: 8 } }, { featured: false }] } })).toBe(3);
    expect(await query('api::post.post').count({ where: { publishedAt: { $notNull: true } } })).toBe(1);
    expect(await query('api::post.post').count()).toBe(3);
    const paged = await query('api::post.post').findMany({ select: 'views', orderBy: { views: 'desc' }, limit: 2, offset: 1 });
    expect(paged).toEqual([{ views: 10 }, { views: 5 }]);
  });

  it('populate: relations as their rows (every column, or those selected), nested, one statement per level', async () => {
    const [row] = await query('api::post.post').findMany({ where: { title: 'First', publishedAt: { $notNull: true } }, select: ['title'], populate: { writer: { select: ['username'], populate: ['role'] } } });
    expect(row).toEqual({ title: 'First', writer: { id: expect.any(Number), username: 'ann', role: expect.objectContaining({ type: 'authenticated' }) } });
    const second = await query('api::post.post').findOne({ where: { title: 'Second' }, populate: 'writer' });
    expect(second).toMatchObject({ title: 'Second', writer: null });
    const user = await query('plugin::users-permissions.user').findOne({ where: { username: 'ann' }, populate: '*' });
    expect(user!.role).toMatchObject({ type: 'authenticated' });
  });

  it('components and dynamic zones: populated as their rows in order, written by the ids of rows made first', async () => {
    const seo = query('default.seo');
    const quote = query('default.quote');
    const [s1, q1, s2] = [await seo.create({ data: { metaTitle: 'Single' } }), await quote.create({ data: { text: 'Quoted' } }), await seo.create({ data: { metaTitle: 'In zone' } })];
    const post = await query('api::post.post').create({
      data: { title: 'With parts', seo: { id: s1!.id }, blocks: [{ id: q1!.id, __component: 'default.quote' }, { id: s2!.id, __pivot: { component_type: 'default.seo' } }] },
      populate: ['seo', 'blocks'],
    });
    expect(post).toMatchObject({
      title: 'With parts',
      seo: { id: s1!.id, metaTitle: 'Single' },
      blocks: [
        { id: q1!.id, __component: 'default.quote', text: 'Quoted' },
        { id: s2!.id, __component: 'default.seo', metaTitle: 'In zone' },
      ],
    });
    // What REST reads of the same row.
    const read = await app.request('GET', `/api/posts/${post!.documentId as string}?populate[seo]=true&populate[blocks]=true`);
    expect(read.body.data).toMatchObject({ seo: { metaTitle: 'Single' }, blocks: [{ __component: 'default.quote', text: 'Quoted' }, { __component: 'default.seo', metaTitle: 'In zone' }] });
    await expect(query('api::post.post').create({ data: { title: 'x', seo: { id: 999999 } } })).rejects.toThrow(/no component row/);
    await expect(query('api::post.post').create({ data: { title: 'x', blocks: [{ id: s1!.id, __component: 'default.nope' }] } })).rejects.toThrow(/blocks takes \{ id, __component \}/);
    await query('api::post.post').delete({ where: { id: post!.id } });
  });

  it("strapi.documents reads private attributes and passwords, as Strapi's Document Service does; REST never", async () => {
    const posts = app.cairn.strapi.documents('api::post.post');
    const created = await posts.create({ data: { title: 'Has a secret', secret: 'hidden' } });
    expect(created).toMatchObject({ title: 'Has a secret', secret: 'hidden' });
    const found = await posts.findMany({ filters: { secret: 'hidden' }, fields: ['title', 'secret'], sort: 'secret' } as never);
    expect(found).toEqual([expect.objectContaining({ title: 'Has a secret', secret: 'hidden' })]);
    const user = await app.cairn.strapi.documents('plugin::users-permissions.user').findFirst({ filters: { username: 'ann' }, fields: ['username', 'password'] } as never);
    expect(String(user!.password)).toMatch(/^\$2[ab]\$10\$/);
    // Over REST the same names are unknown keys, and answers never hold them.
    expect((await app.request('GET', '/api/posts?status=draft&filters[secret]=hidden')).status).toBe(400);
    expect((await app.request('GET', '/api/posts?status=draft&fields[0]=secret')).status).toBe(400);
    const rest = await app.request('GET', `/api/posts/${created.documentId as string}?status=draft`);
    expect(rest.body.data).toMatchObject({ title: 'Has a secret' });
    expect(rest.body.data).not.toHaveProperty('secret');
    await posts.delete({ documentId: created.documentId as string });
  });

  it("errors Cairn throws are instances of @strapi/utils' errors, in Strapi's hierarchy", async () => {
    const posts = app.cairn.strapi.documents('api::post.post');
    const bad = await posts.findMany({ sort: 'nope' } as never).catch((error: unknown) => error);
    expect(bad).toBeInstanceOf(errors.ValidationError);
    expect(bad).toBeInstanceOf(errors.ApplicationError);
    expect(bad).not.toBeInstanceOf(errors.NotFoundError);
    const taken = await posts.create({ data: { documentId: 'twice', title: 'a' } }).then(() => posts.create({ data: { documentId: 'twice', title: 'b' } })).catch((error: unknown) => error);
    expect(taken).toBeInstanceOf(errors.ApplicationError);
    expect(taken).not.toBeInstanceOf(errors.ValidationError);
    // Strapi's own classes keep their hierarchy.
    expect(new errors.PolicyError()).toBeInstanceOf(errors.ForbiddenError);
    expect(new errors.ValidationError('x')).not.toBeInstanceOf(errors.NotFoundError);
    await posts.delete({ documentId: 'twice' });
  });

  it('what it does not provide throws, naming the way to do it', async () => {
    expect(() => query('api::nope.nope')).toThrow(/no such model/);
    expect(() => query('admin::user')).toThrow("strapi.db.query('admin::user') is not provided by Cairn");
    await expect(query('api::post.post').findMany({ populate: { writer: { where: { id: 1 } } } })).rejects.toThrow(/populate of writer: where is not provided by Cairn/);
    await expect(query('api::post.post').findMany({ populate: ['title'] })).rejects.toThrow(/populate names "title", which is no relation/);
    await expect(query('api::post.post').findMany({ populate: { pins: { on: { 'api::nope.nope': true } } } })).rejects.toThrow(/on names "api::nope.nope", which is no content type/);
    await expect(query('api::post.post').findMany({ populate: { writer: { on: {} } } })).rejects.toThrow(/populate of writer: on is not provided by Cairn/);
    await expect(query('default.seo').findMany({ populate: ['createdBy'] })).rejects.toThrow(/populate names "createdBy", which is no relation/);
    await expect(query('api::post.post').findMany({ select: ['nope'] })).rejects.toThrow(/"nope" is not a column of api::post.post/);
    await expect(query('api::post.post').findMany({ where: { nope: 1 } })).rejects.toThrow(/Invalid key nope/);
    expect(() => (query('api::post.post') as unknown as { findPage: () => unknown }).findPage()).toThrow('findPage is not provided by Cairn');
    // Cairn's own SQL keeps working through the same object.
    expect(await app.cairn.strapi.db.query('SELECT 1 AS one', [])).toEqual([{ one: 1 }]);
  });

  it('create: a row as given (documentId, publishedAt, locale), timestamps and a new documentId otherwise, relations by row id', async () => {
    const writer = await query('plugin::users-permissions.user').findOne({ where: { username: 'ann' } });
    const row = await query('api::post.post').create({
      data: { documentId: 'raw-post', title: 'Raw', views: '7', publishedAt: new Date('2024-01-02T03:04:05Z'), writer: writer!.id },
    });
    expect(row).toMatchObject({ documentId: 'raw-post', title: 'Raw', views: 7, publishedAt: '2024-01-02T03:04:05.000Z', locale: null });
    expect(Date.now() - Date.parse(row!.createdAt as string)).toBeLessThan(60_000);
    // A published row without a draft: what REST's published read finds, with its relation.
    const read = await app.request('GET', '/api/posts/raw-post?populate=writer');
    expect(read.status).toBe(200);
    expect(read.body.data).toMatchObject({ title: 'Raw', views: 7, writer: { username: 'ann' } });
    const draft = await query('api::post.post').create({ data: { title: 'Draft row', publishedAt: null }, select: ['documentId', 'publishedAt'] });
    expect(Object.keys(draft!).sort()).toEqual(['documentId', 'publishedAt']);
    expect(draft).toMatchObject({ publishedAt: null, documentId: expect.stringMatching(/^[a-z][a-z0-9]{23}$/) });
    // Without publishedAt, Strapi's model default: the time of the write (a published row).
    const published = await query('api::post.post').create({ data: { title: 'Published row' } });
    expect(Date.now() - Date.parse(published!.publishedAt as string)).toBeLessThan(60_000);
    expect((await app.request('GET', `/api/posts/${published!.documentId as string}`)).body.data).toMatchObject({ title: 'Published row' });

    const many = await query('api::post.post').createMany({ data: [{ title: 'M1', documentId: 'm' }, { title: 'M2', documentId: 'm', publishedAt: '2024-01-01' }] });
    expect(many.count).toBe(2);
    expect((await query('api::post.post').findMany({ where: { id: many.ids }, select: ['title'], orderBy: 'id' })).map((r) => r.title)).toEqual(['M1', 'M2']);
  });

  it('update, updateMany, delete, deleteMany: rows by where, with their links; lifecycles see each', async () => {
    const events: string[] = [];
    const unsubscribe = app.cairn.strapi.db.lifecycles.subscribe({
      models: ['api::post.post'],
      beforeUpdate: (event) => {
        events.push(`${event.action} ${JSON.stringify(event.params.where)}`);
      },
      afterDelete: (event) => {
        events.push(`${event.action} ${(event.result as { title: string }).title}`);
      },
    });
    try {
      const updated = await query('api::post.post').update({ where: { documentId: 'raw-post' }, data: { title: 'Raw 2', writer: null } });
      expect(updated).toMatchObject({ title: 'Raw 2' });
      expect(Date.parse(updated!.updatedAt as string)).toBeGreaterThan(Date.parse(updated!.createdAt as string) - 1);
      expect((await app.request('GET', '/api/posts/raw-post?populate=writer')).body.data).toMatchObject({ title: 'Raw 2', writer: null });
      expect(await query('api::post.post').update({ where: { title: 'No such post' }, data: { views: 1 } })).toBeNull();
      expect(await query('api::post.post').updateMany({ where: { documentId: 'm' }, data: { views: 3 } })).toEqual({ count: 2 });
      expect(await query('api::post.post').count({ where: { views: 3 } })).toBe(2);
      const deleted = await query('api::post.post').delete({ where: { documentId: 'raw-post' } });
      expect(deleted).toMatchObject({ title: 'Raw 2' });
      expect((await app.request('GET', '/api/posts/raw-post')).status).toBe(404);
      expect(await query('api::post.post').deleteMany({ where: { documentId: 'm' } })).toEqual({ count: 2 });
      expect(await query('api::post.post').count({ where: { documentId: 'm' } })).toBe(0);
    } finally {
      unsubscribe();
    }
    expect(events).toEqual(['beforeUpdate {"documentId":"raw-post"}', 'beforeUpdate {"title":"No such post"}', 'afterDelete Raw 2']);
  });

  it('polymorphic relations: { id, __type } on the owner side, row ids on the inverse side, as Strapi writes them', async () => {
    const post = query('api::post.post');
    const a = await post.create({ data: { title: 'Morph A' } });
    const b = await post.create({ data: { title: 'Morph B', pinnedBy: [a!.id] } });
    const c = await post.create({ data: { title: 'Morph C', pins: [{ id: b!.id, __type: 'api::post.post' }, { id: a!.id, __type: 'api::post.post' }], feature: a!.id } });
    const read = async (documentId: unknown, populate: string) => (await app.request('GET', `/api/posts/${documentId as string}?${populate}`)).body.data;
    // b's pinnedBy wrote a's list; c's list is b then a, in that order.
    expect((await read(a!.documentId, 'populate[pins][on][api::post.post]=true')).pins.map((p: { title: string }) => p.title)).toEqual(['Morph B']);
    expect((await read(c!.documentId, 'populate[pins][on][api::post.post]=true')).pins.map((p: { title: string }) => p.title)).toEqual(['Morph B', 'Morph A']);
    expect((await read(a!.documentId, 'populate[featuredIn][on][api::post.post]=true')).featuredIn).toMatchObject({ title: 'Morph C' });
    await post.update({ where: { id: c!.id }, data: { pins: { disconnect: [{ id: b!.id, __type: 'api::post.post' }] } } });
    expect((await read(c!.documentId, 'populate[pins][on][api::post.post]=true')).pins.map((p: { title: string }) => p.title)).toEqual(['Morph A']);
    await expect(post.create({ data: { title: 'x', pins: [{ id: a!.id }] } })).rejects.toThrow(/pins takes \{ id, __type \}/);
    await post.deleteMany({ where: { title: { $startsWith: 'Morph ' } } });
  });

  it("populate of polymorphic relations: the linked rows with __type on the owner side (on picks types), without on the inverse side, as Strapi's", async () => {
    const post = query('api::post.post');
    const a = await post.create({ data: { title: 'Poly A' } });
    const b = await post.create({ data: { title: 'Poly B', pinnedBy: [a!.id] } });
    const c = await post.create({ data: { title: 'Poly C', pins: [{ id: b!.id, __type: 'api::post.post' }, { id: a!.id, __type: 'api::post.post' }], feature: a!.id } });
    const one = (id: unknown, populate: unknown) => post.findOne({ where: { id }, select: ['title'], populate });
    // The owner side: each linked row (every column, or as `on` says) with its type, in list order.
    const cPins = await one(c!.id, { pins: true });
    expect(cPins!.pins).toEqual([expect.objectContaining({ id: b!.id, title: 'Poly B', documentId: b!.documentId, __type: 'api::post.post' }), expect.objectContaining({ id: a!.id, title: 'Poly A', __type: 'api::post.post' })]);
    expect((await one(c!.id, { pins: { on: { 'api::post.post': { select: ['title'] } } } }))!.pins).toEqual([
      { id: b!.id, title: 'Poly B', __type: 'api::post.post' },
      { id: a!.id, title: 'Poly A', __type: 'api::post.post' },
    ]);
    // `on` leaves out the types it does not name; Strapi's `fields` there reads every column, as Strapi's does.
    expect((await one(c!.id, { pins: { on: { 'default.seo': true } } }))!.pins).toEqual([]);
    expect(((await one(c!.id, { pins: { on: { 'api::post.post': { fields: ['title'] } } } }))!.pins as object[])[0]).toHaveProperty('views');
    expect(await one(a!.id, ['featuredIn', 'pins'])).toEqual({
      title: 'Poly A',
      featuredIn: expect.objectContaining({ id: c!.id, title: 'Poly C', __type: 'api::post.post' }),
      pins: [expect.objectContaining({ id: b!.id, __type: 'api::post.post' })],
    });
    expect((await one(b!.id, 'featuredIn'))!.featuredIn).toBeNull();
    // The inverse side: rows of its target, no __type. Through a morphToMany, only the links written from that side
    // (a's list was written by b's pinnedBy; c's own list, from the owner side, is not b's pinnedBy).
    expect(await one(c!.id, 'feature')).toEqual({ title: 'Poly C', feature: expect.objectContaining({ id: a!.id, title: 'Poly A' }) });
    expect((await one(c!.id, 'feature'))!.feature).not.toHaveProperty('__type');
    expect((await one(b!.id, { pinnedBy: { select: ['title'] } }))!.pinnedBy).toEqual([{ id: a!.id, title: 'Poly A' }]);
    expect((await one(a!.id, 'feature'))!.feature).toBeNull();
    expect((await one(a!.id, 'pinnedBy'))!.pinnedBy).toEqual([]);
    // Nested: what each linked row populates in turn; '*' takes them all.
    expect((await one(a!.id, { featuredIn: { populate: { feature: { select: ['title'] } } } }))!.featuredIn).toMatchObject({ title: 'Poly C', feature: { title: 'Poly A' } });
    expect(await one(c!.id, '*')).toMatchObject({ pins: [{ title: 'Poly B' }, { title: 'Poly A' }], feature: { title: 'Poly A' }, featuredIn: null, pinnedBy: [] });
    await post.deleteMany({ where: { title: { $startsWith: 'Poly ' } } });
  });

  it("populate of createdBy / updatedBy: the admin user's row (every column, Strapi's Query Engine sanitizes nothing), or null", async () => {
    const db = app.cairn.db;
    await db.execute(
      `INSERT INTO admin_users (document_id, firstname, lastname, email, password, is_active, blocked, prefered_language) VALUES ('adm1', 'Ada', 'Admin', 'ada@example.com', 'hash', TRUE, FALSE, 'en')`,
    );
    const [admin] = await db.query<{ id: number }>(`SELECT id FROM admin_users WHERE document_id = 'adm1'`);
    const post = query('api::post.post');
    const row = await post.create({ data: { title: 'By an admin' } });
    await db.execute('UPDATE posts SET created_by_id = ? WHERE id = ?', [admin.id, row!.id]);
    const read = await post.findOne({ where: { id: row!.id }, select: ['title'], populate: ['createdBy', 'updatedBy'] });
    expect(read).toEqual({
      title: 'By an admin',
      createdBy: expect.objectContaining({ id: Number(admin.id), documentId: 'adm1', firstname: 'Ada', lastname: 'Admin', email: 'ada@example.com', password: 'hash', isActive: true, blocked: false, preferedLanguage: 'en' }),
      updatedBy: null,
    });
    expect((await post.findOne({ where: { id: row!.id }, select: ['title'], populate: { createdBy: { select: ['firstname'] } } }))!.createdBy).toEqual({ id: Number(admin.id), firstname: 'Ada' });
    // '*' counts them among the relations, as Strapi's metadata does.
    expect(await post.findOne({ where: { id: row!.id }, populate: '*' })).toMatchObject({ createdBy: { firstname: 'Ada' }, updatedBy: null });
    // Strapi's Document Service populates them by name for app code too; REST never (unknown keys, as Strapi's
    // Content API sanitizes them away).
    const documents = app.cairn.strapi.documents('api::post.post');
    const doc = await documents.findOne({ documentId: row!.documentId as string, status: 'published', populate: ['createdBy', 'updatedBy'] } as never);
    expect(doc).toMatchObject({ createdBy: { id: Number(admin.id), documentId: 'adm1', firstname: 'Ada', email: 'ada@example.com', password: 'hash', isActive: true }, updatedBy: null });
    const picked = await documents.findOne({ documentId: row!.documentId as string, status: 'published', fields: ['title'], populate: { createdBy: { fields: ['firstname'] } } } as never);
    expect(picked!.createdBy).toEqual({ id: Number(admin.id), documentId: 'adm1', firstname: 'Ada' });
    expect((await app.request('GET', `/api/posts/${row!.documentId as string}?populate=createdBy`)).status).toBe(400);
    await post.delete({ where: { id: row!.id } });
    await db.execute(`DELETE FROM admin_users WHERE document_id = 'adm1'`);
  });

  it("plugin::i18n.locale: i18n's locales as rows; a locale created or deleted is one at once for REST and the Document Service", async () => {
    const locales = query('plugin::i18n.locale');
    expect(await locales.findMany({ select: ['code', 'name'] })).toEqual([{ code: 'en', name: 'English (en)' }]);
    const fr = await locales.create({ data: { name: 'French (fr)', code: 'fr' } });
    expect(fr).toMatchObject({ code: 'fr', name: 'French (fr)', documentId: expect.any(String) });
    expect((await app.request('GET', '/api/i18n/locales')).body.map((l: { code: string }) => l.code)).toEqual(['en', 'fr']);
    const note = await app.cairn.strapi.documents('api::note.note').create({ data: { text: 'Bonjour' }, locale: 'fr' });
    expect(note.locale).toBe('fr');
    expect((await app.request('GET', '/api/notes?locale=fr')).body.data.map((n: { text: string }) => n.text)).toEqual(['Bonjour']);
    // Strapi's tests clean up so.
    expect(await locales.deleteMany({ where: { code: { $ne: 'en' } } })).toEqual({ count: 1 });
    expect((await app.request('GET', '/api/i18n/locales')).body.map((l: { code: string }) => l.code)).toEqual(['en']);
    expect((await app.request('GET', '/api/notes?locale=fr')).status).toBe(400);
    await expect(app.cairn.strapi.documents('api::note.note').create({ data: { text: 'Salut' }, locale: 'fr' })).rejects.toThrow(/locale/i);
    await query('api::note.note').deleteMany({ where: { locale: 'fr' } });
  });

  it("plugin::users-permissions.permission: a role's actions as rows linked to it; a write applies to the next request at once", async () => {
    const publicRole = await query('plugin::users-permissions.role').findOne({ where: { type: 'public' } });
    const permissions = query('plugin::users-permissions.permission');
    const anonymous = () => app.request('GET', '/api/posts', undefined, { authorization: '' });
    expect((await anonymous()).status).toBe(403);
    const created = await permissions.create({ data: { action: 'api::post.post.find', role: publicRole!.id } });
    expect(created).toMatchObject({ action: 'api::post.post.find', documentId: expect.any(String) });
    // No wait for the once-a-second check: the Query Engine's write drops the cached actions.
    expect((await anonymous()).status).toBe(200);
    const held = await permissions.findMany({ where: { role: publicRole!.id, action: { $startsWith: 'api::post.' } }, populate: ['role'] });
    expect(held).toEqual([expect.objectContaining({ action: 'api::post.post.find', role: expect.objectContaining({ id: publicRole!.id, type: 'public' }) })]);
    expect(await permissions.deleteMany({ where: { role: publicRole!.id, action: { $in: ['api::post.post.find', 'api::post.post.findOne'] } } })).toEqual({ count: 1 });
    expect((await anonymous()).status).toBe(403);
    // The link rows go with their permissions, as Strapi's Query Engine deletes them.
    expect(await app.cairn.db.query('SELECT l.permission_id FROM up_permissions_role_lnk l LEFT JOIN up_permissions p ON p.id = l.permission_id WHERE p.id IS NULL')).toEqual([]);
  });

  it('a locale made or deleted elsewhere (Strapi\'s admin, another process) applies to requests within a second', async () => {
    const db = app.cairn.db;
    await db.execute(`INSERT INTO i18n_locale (document_id, name, code) VALUES ('loc-de', 'German (de)', 'de')`);
    await new Promise((done) => setTimeout(done, 1100));
    // The request that finds the check due waits for it: the recheck's two reads, then the request's own (an empty
    // page, then its count), which statement-count tests tell apart from the recheck's.
    const statements: string[] = [];
    const stop = db.onQuery((sql) => void statements.push(sql));
    const due = await app.request('GET', '/api/notes?locale=de');
    stop();
    expect(due.status).toBe(200);
    expect(statements.filter(isLocalesRecheck), statements.join('\n---\n')).toHaveLength(2);
    expect(contentStatements(statements).map((sql) => /FROM [`"]?notes[`"]? /.test(sql)), statements.join('\n---\n')).toEqual([true, true]);
    expect(app.cairn.locales.map((l) => l.code)).toEqual(['en', 'de']);
    await db.execute(`DELETE FROM i18n_locale WHERE code = 'de'`);
    await new Promise((done) => setTimeout(done, 1100));
    expect((await app.request('GET', '/api/notes?locale=de')).status).toBe(400);
  });

  it('a bad write is refused before anything is written, naming what is wrong', async () => {
    const before = await query('api::post.post').count();
    const post = query('api::post.post');
    await expect(post.create({ data: { title: 'x', views: 'many' } })).rejects.toThrow(/views must be a `number` type/);
    await expect(post.create({ data: { title: 'x', nope: 1 } })).rejects.toThrow("strapi.db.query('api::post.post'): nope is not an attribute of api::post.post");
    await expect(post.create({ data: { id: 5, title: 'x' } })).rejects.toThrow(/id is given by the database/);
    await expect(post.create({ data: { title: 'x', writer: 'ann' } })).rejects.toThrow(/writer takes row ids of plugin::users-permissions.user, not "ann"/);
    await expect(post.create({ data: { title: 'x', writer: 999999 } })).rejects.toThrow();
    await expect(post.create({ data: 'x' })).rejects.toThrow(/data must be an object/);
    await expect(post.update({ where: {}, data: { title: 'x' } })).rejects.toThrow(/update requires a where parameter/);
    await expect(post.delete({})).rejects.toThrow(/delete requires a where parameter/);
    await expect(post.createMany({ data: [] })).rejects.toThrow(/nothing to insert/);
    await expect(post.updateMany({ where: {}, data: {} })).rejects.toThrow(/updateMany requires data/);
    expect(await post.count()).toBe(before);
  });

  it('strapi.db.transaction: the Document Service and the Query Engine inside join it; a throw or rollback() undoes all', async () => {
    const strapi = app.cairn.strapi;
    const before = await query('api::post.post').count();
    const created = await strapi.db.transaction(async ({ trx }) => {
      expect(trx).toBeDefined();
      const doc = await strapi.documents('api::post.post').create({ data: { title: 'In a transaction' } });
      // Seen inside (the same transaction), as a draft row.
      expect(await query('api::post.post').count({ where: { title: 'In a transaction' } })).toBe(1);
      return doc;
    });
    expect(created.title).toBe('In a transaction');
    expect(await query('api::post.post').count()).toBe(before + 1);

    const rolledBack: string[] = [];
    const value = await strapi.db.transaction(async ({ rollback, onRollback, onCommit }) => {
      onRollback(() => rolledBack.push('rolled back'));
      onCommit(() => rolledBack.push('committed'));
      await strapi.documents('api::post.post').create({ data: { title: 'Undone' } });
      await rollback();
      return 'the value';
    });
    expect(value).toBe('the value');
    expect(rolledBack).toEqual(['rolled back']);
    await expect(
      strapi.db.transaction(async () => {
        await strapi.documents('api::post.post').create({ data: { title: 'Thrown away' } });
        throw new Error('stop');
      }),
    ).rejects.toThrow('stop');
    expect(await query('api::post.post').count({ where: { title: { $in: ['Undone', 'Thrown away'] } } })).toBe(0);
    // An engine made before the transaction joins it when used inside (it would wait for it, on SQLite forever).
    const posts = query('api::post.post');
    await strapi.db.transaction(async ({ rollback }) => {
      await posts.create({ data: { title: 'Made inside' } });
      expect(await posts.count({ where: { title: 'Made inside' } })).toBe(1);
      await rollback();
    });
    expect(await posts.count({ where: { title: 'Made inside' } })).toBe(0);
    // Nested: the inner callback joins the outer transaction, undone with it.
    await strapi.db.transaction(async ({ rollback }) => {
      await strapi.db.transaction(async () => strapi.documents('api::post.post').create({ data: { title: 'Nested' } }));
      await rollback();
    });
    expect(await query('api::post.post').count({ where: { title: 'Nested' } })).toBe(0);
  });
});
