import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { describeEachDialect, freshDatabaseConfig } from '../helpers/databases.js';
import { createCairn } from '../../src/app/cairn.js';
import { createLogger } from '../../src/app/logger.js';
import { folder, removeFolders } from './fixtures.js';
import { startTestApp, writeApp, type TestApp } from '../helpers/app.js';
import { TAG } from '../helpers/schemas.js';

/**
 * Issue 19: a Strapi app's Document Service middlewares (`strapi.documents.use` in register), its content types'
 * `lifecycles.js` and `strapi.db.lifecycles.subscribe`, and `strapi.documents(uid)` for app code, through HTTP,
 * GraphQL and app code.
 */

const ARTICLE = {
  kind: 'collectionType',
  collectionName: 'articles',
  info: { singularName: 'article', pluralName: 'articles', displayName: 'Article' },
  options: { draftAndPublish: true },
  attributes: { title: { type: 'string', required: true }, slug: { type: 'string' }, views: { type: 'integer' } },
};
const NOTE = {
  kind: 'collectionType',
  collectionName: 'notes',
  info: { singularName: 'note', pluralName: 'notes', displayName: 'Note' },
  options: { draftAndPublish: false },
  attributes: { text: { type: 'string' } },
};

// The app's server code, as a Strapi project has it. It reports what it saw on globalThis.__seen.
const INDEX = `
const seen = (globalThis.__seen = { middleware: [], lifecycles: [] });
module.exports = {
  register({ strapi }) {
    // Records every call (uid, action, params) it sees.
    strapi.documents.use(async (context, next) => {
      if (context.uid.startsWith('api::')) seen.middleware.push({ uid: context.uid, action: context.action, params: JSON.parse(JSON.stringify(context.params)) });
      return next();
    });
    // Changes params: published articles whose title holds "secret" are hidden from lists and counts.
    strapi.documents.use((context, next) => {
      if (context.uid === 'api::article.article' && ['findMany', 'count'].includes(context.action) && context.params.status === 'published') {
        const filters = context.params.filters;
        context.params.filters = { $and: [filters || {}, { title: { $notContainsi: 'secret' } }] };
      }
      return next();
    });
    // Transforms results: every article read gets "shout".
    strapi.documents.use(async (context, next) => {
      const result = await next();
      if (context.uid !== 'api::article.article') return result;
      const add = (e) => (e && typeof e === 'object' && 'title' in e ? { ...e, shout: String(e.title).toUpperCase() } : e);
      if (['findMany'].includes(context.action)) return result.map(add);
      if (['findOne', 'findFirst', 'create', 'update'].includes(context.action)) return add(result);
      return result;
    });
    // The context's contentType is Strapi's schema.
    strapi.documents.use((context, next) => {
      const ct = context.contentType;
      seen.schemas = seen.schemas || {};
      seen.schemas[context.uid] = { kind: ct.kind, draftAndPublish: ct.options.draftAndPublish, titleType: ct.attributes.title && ct.attributes.title.type, singularName: ct.info.singularName };
      return next();
    });
    // Changes only the list's params (not the count's): tags starting with "cnt" list only "cnt-a".
    strapi.documents.use((context, next) => {
      const f = context.params.filters;
      if (context.uid === 'api::tag.tag' && context.action === 'findMany' && f && f.name && f.name.$startsWith === 'cnt') context.params.filters = { name: { $eq: 'cnt-a' } };
      return next();
    });
    // Short-circuits: tags are answered by the middleware when asked for "fake".
    strapi.documents.use((context, next) => {
      if (context.uid === 'api::tag.tag' && context.action === 'findMany' && context.params.filters && context.params.filters.name && context.params.filters.name.$eq === 'fake') {
        return [{ id: 0, documentId: 'fake', name: 'from middleware' }];
      }
      return next();
    });
    // Throws: a note whose text is "refused" is never created.
    strapi.documents.use((context, next) => {
      if (context.uid === 'api::note.note' && context.action === 'create' && context.params.data.text === 'refused') throw new Error('refused by a middleware');
      return next();
    });
  },
  bootstrap({ strapi }) {
    strapi.db.lifecycles.subscribe({
      models: ['api::tag.tag'],
      afterCreate(event) { seen.lifecycles.push({ subscriber: 'tags', action: event.action, name: event.result.name }); },
    });
    strapi.db.lifecycles.subscribe((event) => {
      if (event.model.uid === 'api::note.note') seen.lifecycles.push({ subscriber: 'all', action: event.action });
    });
  },
};
`;

// The article's lifecycles.js, beside its schema.json.
const LIFECYCLES = `
module.exports = {
  beforeCreate(event) {
    const { data } = event.params;
    if (data.title === 'boom') throw new Error('beforeCreate refused it');
    data.slug = String(data.title).toLowerCase().replace(/[^a-z0-9]+/g, '-');
    event.state.started = 'yes';
    globalThis.__seen.lifecycles.push({ subscriber: 'article', action: event.action, model: event.model.uid, keys: Object.keys(event).sort() });
  },
  async afterCreate(event) {
    globalThis.__seen.lifecycles.push({ subscriber: 'article', action: event.action, title: event.result.title, slug: event.result.slug, state: event.state.started, published: event.result.publishedAt !== null });
    // App code in a hook joins the write's transaction (on SQLite another connection would wait for it forever).
    // A create that publishes makes two rows (draft, then published): this acts on the draft's.
    if (event.result.title.startsWith('tagme') && event.result.publishedAt === null) await strapi.documents('api::tag.tag').create({ data: { name: 'auto ' + event.result.title } });
    if (event.result.title === 'tagme late boom') throw new Error('afterCreate refused it');
  },
  beforeUpdate(event) {
    if (event.params.data.title) event.params.data.slug = 'updated-' + event.params.data.title;
    globalThis.__seen.lifecycles.push({ subscriber: 'article', action: event.action, where: event.params.where });
  },
  afterUpdate(event) {
    globalThis.__seen.lifecycles.push({ subscriber: 'article', action: event.action, slug: event.result.slug });
  },
  beforeDelete(event) { globalThis.__seen.lifecycles.push({ subscriber: 'article', action: event.action }); },
  afterDelete(event) { globalThis.__seen.lifecycles.push({ subscriber: 'article', action: event.action, title: event.result && event.result.title }); },
  afterFindMany(event) {
    for (const entry of event.result) entry.seenByLifecycle = true;
  },
};
`;

type Seen = { schemas?: Record<string, unknown>; middleware: Array<{ uid: string; action: string; params: Record<string, unknown> }>; lifecycles: Array<Record<string, unknown>> };
const seen = () => (globalThis as unknown as { __seen: Seen }).__seen;

describeEachDialect('document middlewares and lifecycles', (dialect) => {
  let app: TestApp;
  let dir: string;
  beforeAll(async () => {
    dir = writeApp({ contentTypes: { article: ARTICLE, tag: TAG, note: NOTE }, index: INDEX });
    writeFileSync(join(dir, 'src', 'api', 'article', 'content-types', 'article', 'lifecycles.js'), LIFECYCLES);
    app = await startTestApp(dialect, dir);
  });
  afterAll(async () => {
    await app?.close();
    rmSync(dir, { recursive: true, force: true });
  });
  beforeEach(() => {
    seen().middleware.length = 0;
    seen().lifecycles.length = 0;
  });

  const strapi = () => app.cairn.strapi;

  it('REST create: beforeCreate changes the data written, afterCreate sees the row, middlewares see Strapi params and transform the answer', async () => {
    const res = await app.request('POST', '/api/articles', { data: { title: 'Hello World', views: 3 } });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ title: 'Hello World', slug: 'hello-world', shout: 'HELLO WORLD' });
    expect(seen().middleware).toEqual([{ uid: 'api::article.article', action: 'create', params: { status: 'published', data: { title: 'Hello World', views: 3 } } }]);
    expect(seen().schemas!['api::article.article']).toEqual({ kind: 'collectionType', draftAndPublish: true, titleType: 'string', singularName: 'article' });
    // As Strapi's Query Engine: the draft row's create, then the publish's (the published row made from the draft).
    expect(seen().lifecycles).toEqual([
      { subscriber: 'article', action: 'beforeCreate', model: 'api::article.article', keys: ['action', 'model', 'params', 'state'] },
      { subscriber: 'article', action: 'afterCreate', title: 'Hello World', slug: 'hello-world', state: 'yes', published: false },
      { subscriber: 'article', action: 'beforeCreate', model: 'api::article.article', keys: ['action', 'model', 'params', 'state'] },
      { subscriber: 'article', action: 'afterCreate', title: 'Hello World', slug: 'hello-world', state: 'yes', published: true },
    ]);
    const read = await app.request('GET', `/api/articles/${res.body.data.documentId}`);
    expect(read.body.data).toMatchObject({ slug: 'hello-world', shout: 'HELLO WORLD' });
  });

  it('a lifecycle that throws aborts the write: nothing is written, the answer is a 500', async () => {
    const before = await strapi().documents('api::article.article').count({ status: 'published' });
    const res = await app.request('POST', '/api/articles', { data: { title: 'boom' } });
    expect(res.status).toBe(500);
    expect(res.body.error.name).toBe('InternalServerError');
    // A throw after app code wrote in the hook's transaction takes that write back too.
    const late = await app.request('POST', '/api/articles', { data: { title: 'tagme late boom' } });
    expect(late.status).toBe(500);
    expect(await strapi().documents('api::article.article').count({ status: 'published' })).toBe(before);
    expect(await strapi().documents('api::tag.tag').findMany({ filters: { name: { $eq: 'auto tagme late boom' } } })).toEqual([]);
    expect(app.logs().some((l) => /beforeCreate refused it/.test(JSON.stringify(l)))).toBe(true);
  });

  it('app code inside a hook joins its transaction and fires its own lifecycles', async () => {
    const res = await app.request('POST', '/api/articles', { data: { title: 'tagme one' } });
    expect(res.status).toBe(201);
    const tags = await strapi().documents('api::tag.tag').findMany({ filters: { name: { $eq: 'auto tagme one' } } });
    expect(tags.map((t) => t.name)).toEqual(['auto tagme one']);
    expect(seen().lifecycles).toContainEqual({ subscriber: 'tags', action: 'afterCreate', name: 'auto tagme one' });
  });

  it('a middleware changing params changes the SQL result (lists and counts), a transform changes every entry', async () => {
    await app.request('POST', '/api/articles', { data: { title: 'top secret plan' } });
    await app.request('POST', '/api/articles', { data: { title: 'open plan' } });
    seen().middleware.length = 0;
    const list = await app.request('GET', '/api/articles?filters[title][$contains]=plan&pagination[withCount]=true');
    expect(list.status).toBe(200);
    expect(list.body.data.map((e: { title: string }) => e.title)).toEqual(['open plan']);
    expect(list.body.data[0]).toMatchObject({ shout: 'OPEN PLAN', seenByLifecycle: true });
    expect(list.body.meta.pagination).toEqual({ page: 1, pageSize: 25, pageCount: 1, total: 1 });
    // Strapi's core service: findMany then count, each through the middlewares, with the query's params.
    expect(seen().middleware.map((m) => m.action)).toEqual(['findMany', 'count']);
    expect(seen().middleware[0].params).toEqual({ status: 'published', filters: { title: { $contains: 'plan' } }, pagination: { withCount: 'true' } });
    // Drafts are not hidden by that middleware (it only changes published reads); app code reads drafts by default.
    const drafts = await strapi().documents('api::article.article').findMany({ filters: { title: { $contains: 'plan' } }, sort: 'title' });
    expect(drafts.map((e) => e.title)).toEqual(['open plan', 'top secret plan']);
    expect(seen().middleware.at(-1)).toMatchObject({ action: 'findMany', params: { filters: { title: { $contains: 'plan' } }, sort: 'title' } });
  });

  it('GraphQL reads go through the middlewares too (entries, not the compiled JSON)', async () => {
    const res = await app.request('POST', '/graphql', { query: '{ articles(filters: { title: { contains: "plan" } }) { title slug } }' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { articles: [{ title: 'open plan', slug: 'open-plan' }] } });
    expect(seen().middleware[0]).toMatchObject({ uid: 'api::article.article', action: 'findMany', params: { status: 'published' } });
  });

  it('count is its own action: a middleware changing only the list leaves the total counted by the params it had', async () => {
    for (const name of ['cnt-a', 'cnt-b']) await strapi().documents('api::tag.tag').create({ data: { name } });
    const res = await app.request('GET', '/api/tags?filters[name][$startsWith]=cnt');
    expect(res.body.data.map((t: { name: string }) => t.name)).toEqual(['cnt-a']);
    expect(res.body.meta.pagination.total).toBe(2);
  });

  it('a middleware may answer without the database (short-circuit)', async () => {
    const res = await app.request('GET', '/api/tags?filters[name][$eq]=fake');
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([{ id: 0, documentId: 'fake', name: 'from middleware' }]);
    expect(await strapi().documents('api::tag.tag').findMany({ filters: { name: { $eq: 'fake' } } })).toEqual([{ id: 0, documentId: 'fake', name: 'from middleware' }]);
  });

  it('a middleware that throws: nothing written, a 500 over REST, an error in GraphQL, the throw in app code', async () => {
    const rest = await app.request('POST', '/api/notes', { data: { text: 'refused' } });
    expect(rest.status).toBe(500);
    await expect(strapi().documents('api::note.note').create({ data: { text: 'refused' } })).rejects.toThrow('refused by a middleware');
    expect(await strapi().documents('api::note.note').count()).toBe(0);
    // The "all models" subscriber saw only the count (no create event: the write never ran).
    expect(seen().lifecycles).toEqual([
      { subscriber: 'all', action: 'beforeCount' },
      { subscriber: 'all', action: 'afterCount' },
    ]);
    const ok = await app.request('POST', '/api/notes', { data: { text: 'fine' } });
    expect(ok.status).toBe(201);
    expect(seen().lifecycles.slice(2).map((l) => l.action)).toEqual(['beforeCreate', 'afterCreate']);
  });

  it('update and delete fire their lifecycles; the hooks change what is written', async () => {
    const made = await strapi().documents('api::article.article').create({ data: { title: 'draft one' } });
    expect(made).toMatchObject({ title: 'draft one', slug: 'draft-one', publishedAt: null, shout: 'DRAFT ONE' });
    seen().lifecycles.length = 0;
    const res = await app.request('PUT', `/api/articles/${made.documentId}`, { data: { title: 'renamed' } });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ title: 'renamed', slug: 'updated-renamed', shout: 'RENAMED' });
    // The update of the draft, then its publish: the published row made (there was none to delete).
    expect(seen().lifecycles.map((l) => l.action)).toEqual(['beforeUpdate', 'afterUpdate', 'beforeCreate', 'afterCreate']);
    expect(seen().lifecycles[1]).toMatchObject({ slug: 'updated-renamed' });
    seen().lifecycles.length = 0;
    const gone = await strapi().documents('api::article.article').delete({ documentId: made.documentId });
    expect(gone.documentId).toBe(made.documentId);
    expect(gone.entries.map((e) => e.publishedAt === null)).toEqual([true, false]);
    // Strapi deletes a document's rows one by one: draft and published version each fire both events.
    expect(seen().lifecycles.filter((l) => l.action !== 'afterFindMany')).toEqual([
      { subscriber: 'article', action: 'beforeDelete' },
      { subscriber: 'article', action: 'afterDelete', title: 'renamed' },
      { subscriber: 'article', action: 'beforeDelete' },
      { subscriber: 'article', action: 'afterDelete', title: 'renamed' },
    ]);
    expect((await app.request('GET', `/api/articles/${made.documentId}`)).status).toBe(404);
  });

  it('publish, unpublish and discardDraft from app code: Strapi answers and the row events Strapi fires', async () => {
    const docs = strapi().documents('api::article.article');
    const made = await docs.create({ data: { title: 'versions' } });
    seen().lifecycles.length = 0;
    const published = await docs.publish!({ documentId: made.documentId });
    expect(published.documentId).toBe(made.documentId);
    expect(published.entries).toHaveLength(1);
    expect(published.entries[0]).toMatchObject({ title: 'versions', publishedAt: expect.any(String) });
    expect(seen().lifecycles.map((l) => l.action)).toEqual(['beforeCreate', 'afterCreate']);
    seen().lifecycles.length = 0;
    // A second publish replaces the published row: its delete, then the create.
    await docs.update({ documentId: made.documentId, data: { views: 2 } });
    await docs.publish!({ documentId: made.documentId });
    expect(seen().lifecycles.map((l) => l.action)).toEqual(['beforeUpdate', 'afterUpdate', 'beforeDelete', 'afterDelete', 'beforeCreate', 'afterCreate']);
    expect(await docs.findOne({ documentId: made.documentId, status: 'published' })).toMatchObject({ views: 2 });
    seen().lifecycles.length = 0;
    const unpublished = await docs.unpublish!({ documentId: made.documentId });
    expect(unpublished.entries.map((e) => e.views)).toEqual([2]);
    expect(seen().lifecycles.map((l) => l.action)).toEqual(['beforeDelete', 'afterDelete']);
    expect(await docs.findOne({ documentId: made.documentId, status: 'published' })).toBeNull();
    // Types without Draft & Publish have none of these (undefined, as in Strapi).
    expect(strapi().documents('api::tag.tag').publish).toBeUndefined();
  });

  it('app code defaults: drafts, every entry unless paginated, Strapi params', async () => {
    const docs = strapi().documents('api::note.note');
    for (let i = 0; i < 30; i++) await docs.create({ data: { text: `n${String(i).padStart(2, '0')}` } });
    expect((await docs.findMany()).length).toBeGreaterThanOrEqual(30);
    expect(await docs.findMany({ sort: 'text:desc', fields: ['text'], start: 1, limit: 2 })).toEqual([
      { id: expect.any(Number), documentId: expect.any(String), text: 'n28' },
      { id: expect.any(Number), documentId: expect.any(String), text: 'n27' },
    ]);
    expect(await docs.count({ filters: { text: { $startsWith: 'n0' } } })).toBe(10);
    expect((await docs.findFirst({ filters: { text: 'n05' } }))?.text).toBe('n05');
    const article = await strapi().documents('api::article.article').create({ data: { title: 'only a draft' } });
    expect(article.publishedAt).toBeNull();
    expect(await strapi().documents('api::article.article').findOne({ documentId: article.documentId })).toMatchObject({ title: 'only a draft' });
    expect(await strapi().documents('api::article.article').findOne({ documentId: article.documentId, status: 'published' })).toBeNull();
    await expect(docs.findMany({ filters: { nope: 1 } })).rejects.toThrow(/nope/);
  });

  it('GraphQL mutations go through the middlewares (their answer is the transformed entry) and fire the lifecycles', async () => {
    const res = await app.request('POST', '/graphql', { query: 'mutation { createArticle(data: { title: "Via GraphQL" }) { documentId title slug } }' });
    expect(res.status).toBe(200);
    expect(res.body.data.createArticle).toMatchObject({ title: 'Via GraphQL', slug: 'via-graphql' });
    expect(seen().middleware).toEqual([{ uid: 'api::article.article', action: 'create', params: { data: { title: 'Via GraphQL' }, status: 'published' } }]);
    expect(seen().lifecycles.filter((l) => l.subscriber === 'article').map((l) => l.action)).toEqual(['beforeCreate', 'afterCreate', 'beforeCreate', 'afterCreate']);
    const refused = await app.request('POST', '/graphql', { query: 'mutation { createNote(data: { text: "refused" }) { documentId } }' });
    expect(refused.body.errors[0].message).toMatch(/Internal Server Error|refused/);
    expect(await strapi().documents('api::note.note').count({ filters: { text: 'refused' } })).toBe(0);
  });
});

describe('loading and registering app code around the Document Service', () => {
  const schema = (extra: Record<string, string>) => ({
    'src/api/post/content-types/post/schema.json': JSON.stringify({ kind: 'collectionType', info: { singularName: 'post', pluralName: 'posts', displayName: 'Post' }, attributes: { title: { type: 'string' } } }),
    ...extra,
  });
  const start = async (files: Record<string, string>) => {
    const dir = folder(schema(files));
    const database = await freshDatabaseConfig('sqlite');
    try {
      const cairn = await createCairn({ dir, config: { database: database.config } as never, log: createLogger({ write: () => undefined }) });
      await cairn.close();
      return 'started';
    } finally {
      await database.drop();
    }
  };
  afterAll(removeFolders);

  it('a lifecycles file with an unknown hook, a hook that is not a function, or a broken file stops the start, naming it', async () => {
    await expect(start({ 'src/api/post/content-types/post/lifecycles.js': 'module.exports = { beforeCreate() {}, afterCreat() {} };' })).rejects.toThrow(
      /post[/\\]lifecycles\.js: afterCreat is not a lifecycle Cairn runs \(known: beforeCreate, /,
    );
    await expect(start({ 'src/api/post/content-types/post/lifecycles.js': 'module.exports = { afterCreate: 1 };' })).rejects.toThrow(/lifecycles\.js: afterCreate must be a function, not number/);
    await expect(start({ 'src/api/post/content-types/post/lifecycles.js': 'module.exports = { afterCreate( };' })).rejects.toThrow(/lifecycles\.js: /);
    await expect(start({ 'src/api/post/content-types/post/lifecycles.js': 'module.exports = 5;' })).rejects.toThrow(/lifecycles\.js must export an object/);
    // TypeScript and ESM default exports load as Strapi's do.
    expect(await start({ 'src/api/post/content-types/post/lifecycles.ts': 'export default { afterCreate(event: { result: unknown }) { return event.result; } };' })).toBe('started');
  });

  it('strapi.documents.use and strapi.db.lifecycles.subscribe refuse what is not a middleware or a subscriber', async () => {
    await expect(start({ 'src/index.js': 'module.exports = { register({ strapi }) { strapi.documents.use("nope"); } };' })).rejects.toThrow(/strapi.documents.use expects a function/);
    await expect(start({ 'src/index.js': 'module.exports = { register({ strapi }) { strapi.db.lifecycles.subscribe({ beforeCreat() {} }); } };' })).rejects.toThrow(
      /unknown lifecycle beforeCreat/,
    );
    await expect(start({ 'src/index.js': 'module.exports = { register({ strapi }) { strapi.db.lifecycles.subscribe(null); } };' })).rejects.toThrow(/Invalid subscriber/);
    // The function use() answers removes the middleware, as Strapi's.
    expect(await start({ 'src/index.js': 'module.exports = { register({ strapi }) { const off = strapi.documents.use(() => { throw new Error("x"); }); off(); }, async bootstrap({ strapi }) { await strapi.documents("api::post.post").findMany(); } };' })).toBe('started');
  });
});
