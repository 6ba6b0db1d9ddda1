import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { KoaContext } from '../../src/server-code/koa-context.js';
import { startTestApp, startupError, writeApp, writeFiles, type TestApp } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/databases.js';
import { TAG } from '../helpers/schemas.js';

/**
 * Application middlewares (config/middlewares' `global::x`, `{ resolve }`): Strapi's factories
 * `(config, { strapi }) => async (ctx, next)`, run in list order around every request of the API, through HTTP.
 */
const ARTICLE = {
  kind: 'collectionType',
  collectionName: 'articles',
  info: { singularName: 'article', pluralName: 'articles', displayName: 'Article' },
  options: { draftAndPublish: false },
  attributes: { title: { type: 'string' }, tags: { type: 'relation', relation: 'oneToMany', target: 'api::tag.tag' } },
};

const MIDDLEWARES = `module.exports = [
  'strapi::logger',
  'global::outer', // before strapi::errors: it sees an error as its answer
  'strapi::errors',
  'strapi::security',
  'strapi::cors',
  { name: 'strapi::poweredBy', config: { poweredBy: 'Tests <example.org>' } },
  'strapi::responseTime',
  'strapi::query',
  'strapi::body',
  { name: 'global::stamp', config: { header: 'x-stamp', value: 'from-config' } },
  'global::order-a',
  { resolve: './src/middlewares/order-b' },
  { resolve: 'cairn-test-middleware', config: { suffix: '!' } },
  'global::populate-tags',
  'global::guard',
  'global::legacy',
  'global::wrap',
  'strapi::favicon',
  'strapi::public',
];`;

const FILES: Record<string, string> = {
  'config/middlewares.js': MIDDLEWARES,
  'src/middlewares/outer.js': `module.exports = () => async (ctx, next) => {
  await next();
  ctx.set('x-outer-status', String(ctx.status));
  if (ctx.params.id) ctx.set('x-param-id', ctx.params.id);
  if (ctx.get('x-body-type')) ctx.set('x-body-type', typeof ctx.body);
};`,
  'src/middlewares/stamp.js': `module.exports = (config, { strapi }) => {
  if (typeof strapi.service !== 'function') throw new Error('no strapi');
  return async (ctx, next) => {
    ctx.set(config.header, config.value);
    await next();
  };
};`,
  'src/middlewares/order-a.js': `module.exports = () => async (ctx, next) => {
  ctx.state.order = ['a'];
  await next();
  ctx.set('x-order', [...ctx.state.order, 'a-after'].join(','));
};`,
  'src/middlewares/order-b.ts': `export default () => async (ctx: any, next: () => Promise<void>) => {
  ctx.state.order.push('b');
  await next();
  ctx.state.order.push('b-after');
};`,
  'node_modules/cairn-test-middleware/package.json': JSON.stringify({ name: 'cairn-test-middleware', version: '1.0.0', main: 'index.js' }),
  'node_modules/cairn-test-middleware/index.js': `module.exports = (config) => async (ctx, next) => {
  ctx.state.order.push('package' + config.suffix);
  await next();
};`,
  // LaunchPad's pattern, as an application middleware: the populate a page needs, set before the core find.
  'src/middlewares/populate-tags.js': `module.exports = () => async (ctx, next) => {
  if (ctx.method === 'GET' && ctx.path === '/api/articles' && ctx.get('x-populate') === 'tags') {
    ctx.query.populate = { tags: { fields: ['name'] } };
  }
  // A query replaced as a whole.
  if (ctx.get('x-only')) ctx.query = { ...ctx.query, filters: { title: { $eq: ctx.get('x-only') } } };
  await next();
};`,
  'src/middlewares/guard.js': `const { errors } = require('@strapi/utils');
module.exports = () => async (ctx, next) => {
  if (ctx.get('x-deny')) return ctx.unauthorized('Denied by the guard');
  if (ctx.get('x-throw')) throw new errors.ForbiddenError('Thrown by the guard');
  await next();
};`,
  // Strapi's run before its router: they may answer a URL no route takes.
  'src/middlewares/legacy.js': `module.exports = () => async (ctx, next) => {
  if (ctx.path === '/api/old-articles') return ctx.redirect('/api/articles');
  if (ctx.path === '/api/ping') {
    ctx.body = { pong: true };
    return;
  }
  await next();
};`,
  'src/middlewares/wrap.js': `module.exports = () => async (ctx, next) => {
  await next();
  if (ctx.get('x-wrap')) ctx.body = { wrapped: ctx.body, status: ctx.status };
};`,
  // A route of the app's server code: its own chain runs inside the application middlewares, on the same ctx.
  'src/api/article/routes/custom.js': `module.exports = { routes: [{ method: 'GET', path: '/article-count', handler: 'article.count', config: { auth: false } }] };`,
  'src/api/article/routes/article.js': `module.exports = require('@strapi/strapi').factories.createCoreRouter('api::article.article');`,
  'src/api/article/controllers/article.js': `const { factories } = require('@strapi/strapi');
module.exports = factories.createCoreController('api::article.article', ({ strapi }) => ({
  async count(ctx) {
    ctx.body = { count: await strapi.documents('api::article.article').count(), order: [...ctx.state.order] };
  },
}));`,
};

describe('application middlewares from config/middlewares, through HTTP (SQLite)', () => {
  let app: TestApp;
  let dir: string;
  let tagId: string;

  beforeAll(async () => {
    dir = writeApp({ contentTypes: { tag: TAG, article: ARTICLE } });
    writeFiles(dir, FILES);
    app = await startTestApp('sqlite', dir);
    const tag = await app.request('POST', '/api/tags', { data: { name: 'news' } });
    expect(tag.status).toBe(201);
    tagId = tag.body.data.documentId;
    for (const title of ['First', 'Second']) {
      const created = await app.request('POST', '/api/articles', { data: { title, tags: title === 'First' ? [tagId] : [] } });
      expect(created.status).toBe(201);
    }
  });
  afterAll(async () => {
    await app?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const get = (url: string, headers: Record<string, string> = {}) =>
    app.cairn.fastify.inject({ method: 'GET', url, headers: { authorization: `Bearer ${app.token}`, ...headers } });

  it('a middleware sets a header on every answer, with the config its entry gives; Strapi\'s poweredBy and responseTime add theirs', async () => {
    const response = await get('/api/articles?sort=title');
    expect(response.statusCode).toBe(200);
    expect(response.headers['x-stamp']).toBe('from-config');
    expect(response.headers['x-powered-by']).toBe('Tests <example.org>');
    expect(response.headers['x-response-time']).toMatch(/^\d+ms$/);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    // The answer is the Content API's, unchanged.
    expect(JSON.parse(response.body)).toMatchObject({ data: [{ title: 'First' }, { title: 'Second' }], meta: { pagination: { total: 2 } } });
    // Auth's, upload's and GraphQL's routes go through them too.
    const login = await app.cairn.fastify.inject({ method: 'POST', url: '/api/auth/local', payload: { identifier: 'nobody@example.org', password: 'wrong-password' } });
    expect(login.statusCode).toBe(400);
    expect(login.headers['x-stamp']).toBe('from-config');
    expect((await get('/api/upload/files')).headers['x-stamp']).toBe('from-config');
    const graphql = await app.cairn.fastify.inject({ method: 'POST', url: '/graphql', headers: { authorization: `Bearer ${app.token}`, 'x-body-type': 'yes' }, payload: { query: '{ articles(sort: "title") { title } }' } });
    expect(graphql.statusCode).toBe(200);
    expect(graphql.headers['x-stamp']).toBe('from-config');
    // GraphQL's answer is its JSON text in ctx.body, as Apollo's Koa integration leaves it in Strapi.
    expect(graphql.headers['x-body-type']).toBe('string');
    expect(JSON.parse(graphql.body)).toEqual({ data: { articles: [{ title: 'First' }, { title: 'Second' }] } });
    // Not /_health.
    expect((await app.cairn.fastify.inject({ method: 'GET', url: '/_health' })).headers['x-stamp']).toBeUndefined();
  });

  it('they run in list order: name, resolve (a path, TypeScript), resolve (a package, with its config)', async () => {
    const response = await get('/api/articles');
    expect(response.headers['x-order']).toBe('a,b,package!,b-after,a-after');
    // Around a route of the app's server code too, on the same ctx: its action sees what they put in ctx.state.
    const count = await get('/api/article-count');
    expect(count.statusCode).toBe(200);
    expect(JSON.parse(count.body)).toEqual({ count: 2, order: ['a', 'b', 'package!'] });
    expect(count.headers['x-order']).toBe('a,b,package!,b-after,a-after');
  });

  it("a middleware short-circuits with ctx.unauthorized(): Strapi's 401, the route never runs; one that throws a Strapi error gets its status and body", async () => {
    const denied = await get('/api/articles', { 'x-deny': '1' });
    expect(denied.statusCode).toBe(401);
    expect(JSON.parse(denied.body)).toEqual({ data: null, error: { status: 401, name: 'UnauthorizedError', message: 'Denied by the guard', details: {} } });
    // Middlewares before it finish as they would: the outer one sees the 401; the stamp set on the way in stays.
    expect(denied.headers['x-outer-status']).toBe('401');
    expect(denied.headers['x-stamp']).toBe('from-config');
    // Also on a route Cairn serves without any middleware of the app's otherwise (create) and on GraphQL.
    expect((await app.request('POST', '/api/articles', { data: { title: 'Never' } }, { 'x-deny': '1' })).status).toBe(401);
    expect((await app.request('GET', '/api/articles?filters[title][$eq]=Never')).body.data).toEqual([]);
    const thrown = await get('/api/articles', { 'x-throw': '1' });
    expect(thrown.statusCode).toBe(403);
    expect(JSON.parse(thrown.body)).toEqual({ data: null, error: { status: 403, name: 'ForbiddenError', message: 'Thrown by the guard', details: {} } });
    // strapi::errors is listed after `outer`: `outer` sees the error's answer in ctx; `stamp`'s header stays on it.
    expect(thrown.headers['x-outer-status']).toBe('403');
    expect(thrown.headers['x-stamp']).toBe('from-config');
    // An error of the route itself reaches them the same way; ctx.params has Strapi's names (`id`).
    const missing = await get('/api/articles/nope');
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['x-outer-status']).toBe('404');
    expect(missing.headers['x-param-id']).toBe('nope');
    expect(JSON.parse(missing.body)).toEqual({ data: null, error: { status: 404, name: 'NotFoundError', message: 'Not Found', details: {} } });
  });

  it('a middleware answers a URL no route takes (a redirect, an answer of its own); one it leaves is a 404 it sees', async () => {
    const moved = await get('/api/old-articles', { accept: 'text/html' });
    expect(moved.statusCode).toBe(302);
    expect(moved.headers.location).toBe('/api/articles');
    expect(moved.body).toBe('Redirecting to <a href="/api/articles">/api/articles</a>.');
    const ping = await get('/api/ping');
    expect(ping.statusCode).toBe(200);
    expect(JSON.parse(ping.body)).toEqual({ pong: true });
    expect(ping.headers['x-stamp']).toBe('from-config');
    const none = await get('/api/nowhere');
    expect(none.statusCode).toBe(404);
    expect(none.headers['x-outer-status']).toBe('404');
    expect(JSON.parse(none.body)).toEqual({ data: null, error: { status: 404, name: 'NotFoundError', message: 'Not Found', details: {} } });
  });

  it('a middleware wraps the answer after next(): ctx.body holds the Content API\'s answer as an object', async () => {
    const wrapped = await get('/api/articles?sort=title&fields[0]=title', { 'x-wrap': '1' });
    expect(wrapped.statusCode).toBe(200);
    const body = JSON.parse(wrapped.body);
    expect(body.status).toBe(200);
    expect(body.wrapped.data.map((a: { title: string }) => a.title)).toEqual(['First', 'Second']);
    expect(body.wrapped.meta.pagination).toMatchObject({ page: 1, total: 2 });
    // A write's answer, with its status.
    const created = await app.request('POST', '/api/articles', { data: { title: 'Third' } }, { 'x-wrap': '1' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ status: 201, wrapped: { data: { title: 'Third' } } });
    const outer = await get('/api/articles', { 'x-body-type': 'yes' });
    expect(outer.headers['x-body-type']).toBe('object');
  });

  it('each request builds one ctx (strapi::errors and respond() read `answered` once each)', async () => {
    const built = vi.spyOn(KoaContext.prototype, 'answered', 'get');
    try {
      expect((await get('/api/tags')).statusCode).toBe(200);
      expect((await get('/api/article-count')).statusCode).toBe(200);
      expect(built).toHaveBeenCalledTimes(4);
    } finally {
      built.mockRestore();
    }
  });
});

describe('without application middlewares', () => {
  let app: TestApp;
  afterAll(() => app?.close());

  it("Strapi's template list builds no ctx: the compiled handler answers, with X-Powered-By as Strapi sets it", async () => {
    const dir = writeApp({ contentTypes: { tag: TAG } });
    writeFiles(dir, {
      'config/middlewares.js': `module.exports = ['strapi::logger', 'strapi::errors', 'strapi::security', 'strapi::cors', 'strapi::poweredBy', 'strapi::query', 'strapi::body', 'strapi::session', 'strapi::favicon', 'strapi::public'];`,
      // A middleware file no entry names runs nowhere.
      'src/middlewares/unused.js': 'module.exports = () => async () => { throw new Error("must not run"); };',
    });
    app = await startTestApp('sqlite', dir);
    const built = vi.spyOn(KoaContext.prototype, 'answered', 'get');
    try {
      expect((await app.request('POST', '/api/tags', { data: { name: 'x' } })).status).toBe(201);
      const response = await app.cairn.fastify.inject({ method: 'GET', url: '/api/tags', headers: { authorization: `Bearer ${app.token}` } });
      expect(response.statusCode).toBe(200);
      expect(response.headers['x-powered-by']).toBe('Strapi <strapi.io>');
      expect(response.headers['x-response-time']).toBeUndefined();
      expect(built).toHaveBeenCalledTimes(0);
    } finally {
      built.mockRestore();
    }
  });
});

describe('an application middleware Cairn cannot find or build stops the start, naming the file and the entry', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  async function startError(files: Record<string, string>): Promise<{ dir: string; message: string }> {
    const dir = writeApp({ contentTypes: { tag: TAG } });
    dirs.push(dir);
    writeFiles(dir, files);
    return { dir, message: await startupError(dir) };
  }

  it('a global:: name with no file in src/middlewares', async () => {
    const { dir, message } = await startError({
      'config/middlewares.js': "module.exports = ['strapi::errors', 'global::audit'];",
      'src/middlewares/timing.js': 'module.exports = () => async (ctx, next) => next();',
    });
    expect(message).toBe(
      `${join(dir, 'config', 'middlewares.js')}: middlewares[1] "global::audit" has no file: there is no ${join(dir, 'src', 'middlewares', 'audit')}.js (or .ts, .mjs, .cjs) (${join(dir, 'src', 'middlewares')} has timing)`,
    );
  });

  it('a name without its namespace, a resolve that finds nothing, a file that exports no factory, a factory that throws', async () => {
    const middlewares = (list: string) => ({ 'config/middlewares.js': `module.exports = ${list};`, 'src/middlewares/timing.js': 'module.exports = () => async (ctx, next) => next();' });
    expect((await startError(middlewares("['timing']"))).message).toContain('middlewares[0] "timing" names no middleware (did you mean "global::timing"?)');
    expect((await startError(middlewares("[{ resolve: './src/middlewares/nope' }]"))).message).toContain('middlewares[0] { resolve: "./src/middlewares/nope" } is no file');
    expect((await startError(middlewares("[{ resolve: 'no-such-package' }]"))).message).toContain('is neither a package the app has installed (npm install no-such-package) nor a file of the app');
    expect((await startError(middlewares("['strapi::poweredby']"))).message).toContain('"strapi::poweredby" is not one of Strapi\'s middlewares: did you mean strapi::poweredBy?');
    const notAFactory = await startError({ 'config/middlewares.js': "module.exports = [{ resolve: './lib/odd' }];", 'lib/odd.js': 'module.exports = { handler: 1 };' });
    expect(notAFactory.message).toBe(`${join(notAFactory.dir, 'lib', 'odd.js')}: middleware "./lib/odd" must export a factory (config, { strapi }) => async (ctx, next) => { ... }, as Strapi's do`);
    // A file of src/middlewares is loaded with the server code's (the one module for routes and config/middlewares).
    const odd = await startError({ 'config/middlewares.js': "module.exports = ['global::odd'];", 'src/middlewares/odd.js': 'module.exports = 42;' });
    expect(odd.message).toBe(`${join(odd.dir, 'src', 'middlewares', 'odd.js')} must export a function`);
    const throws = await startError({ 'config/middlewares.js': "module.exports = ['global::bad'];", 'src/middlewares/bad.js': "module.exports = (config) => { if (!config.key) throw new Error('key is required'); };" });
    expect(throws.message).toContain(join(throws.dir, 'src', 'middlewares', 'bad.js'));
    expect(throws.message).toContain('(line 1): Middleware "global::bad": key is required');
  });
});

describeEachDialect("an application middleware's ctx.query is the query the compiled read runs", (dialect) => {
  let app: TestApp;
  let dir: string;

  beforeAll(async () => {
    dir = writeApp({ contentTypes: { tag: TAG, article: ARTICLE } });
    writeFiles(dir, FILES);
    app = await startTestApp(dialect, dir);
    const tag = await app.request('POST', '/api/tags', { data: { name: 'news' } });
    for (const title of ['First', 'Second']) {
      expect((await app.request('POST', '/api/articles', { data: { title, tags: title === 'First' ? [tag.body.data.documentId] : [] } })).status).toBe(201);
    }
  });
  afterAll(async () => {
    await app?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const get = (url: string, headers: Record<string, string> = {}) =>
    app.cairn.fastify.inject({ method: 'GET', url, headers: { authorization: `Bearer ${app.token}`, ...headers } });

  it('a middleware that sets ctx.query.populate before the core find: the compiled read answers with it populated', async () => {
    const plain = JSON.parse((await get('/api/articles?sort=title&fields[0]=title')).body);
    expect(plain.data.map((a: { tags?: unknown }) => a.tags)).toEqual([undefined, undefined]);
    const populated = await get('/api/articles?sort=title&fields[0]=title', { 'x-populate': 'tags' });
    expect(populated.statusCode).toBe(200);
    const body = JSON.parse(populated.body);
    expect(body.data.map((a: { title: string; tags: Array<{ name: string }> }) => [a.title, a.tags.map((t) => t.name)])).toEqual([
      ['First', ['news']],
      ['Second', []],
    ]);
    // The query a middleware gave is checked as the URL's would be: the request's own keys still are.
    const bad = await get('/api/articles?filters[nope][$eq]=1', { 'x-populate': 'tags' });
    expect(bad.statusCode).toBe(400);
    expect(JSON.parse(bad.body).error).toMatchObject({ name: 'ValidationError', message: 'Invalid key nope' });
  });

  it('a middleware that replaces ctx.query: the read, and the count in its meta, are of that query', async () => {
    const only = await get('/api/articles?fields[0]=title', { 'x-only': 'Second' });
    expect(only.statusCode).toBe(200);
    const body = JSON.parse(only.body);
    expect(body.data.map((a: { title: string }) => a.title)).toEqual(['Second']);
    expect(body.meta.pagination.total).toBe(1);
    // The same URL without it: the spec cached for the URL is not the one the middleware's query made.
    expect(JSON.parse((await get('/api/articles?fields[0]=title')).body).data).toHaveLength(2);
  });
});
