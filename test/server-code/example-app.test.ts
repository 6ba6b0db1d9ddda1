import { createHmac } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import sharp from 'sharp';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { KoaContext } from '../../src/server-code/koa-context.js';
import { startTestApp, type TestApp } from '../helpers/app.js';

// examples/server-code: a Strapi app's routes, controllers, services, policies and middlewares, run unchanged.
const EXAMPLE = join(import.meta.dirname, '..', '..', 'examples', 'server-code');
const PUBLIC = { authorization: '' };

describe('examples/server-code through HTTP (SQLite)', () => {
  let app: TestApp;
  const ids: string[] = [];

  beforeAll(async () => {
    app = await startTestApp('sqlite', EXAMPLE);
    for (const [title, body, locked] of [
      ['First', 'one two three four', false],
      ['Second', 'alpha beta', true],
    ] as const) {
      const created = await app.request('POST', '/api/articles', { data: { title, body, views: 2, locked } });
      expect(created.status).toBe(201);
      ids.push(created.body.data.documentId);
    }
    expect((await app.request('POST', '/api/tags', { data: { name: 'news' } })).status).toBe(201);
  });
  afterAll(() => app?.close());

  it('an extended core find runs the core find (super.find) and adds to its meta; the route middlewares see and change the answer', async () => {
    const list = await app.request('GET', '/api/articles?sort=title&fields[0]=title', undefined, PUBLIC);
    expect(list.status).toBe(200);
    expect(list.body.data).toEqual([
      { id: expect.any(Number), documentId: ids[0], title: 'First' },
      { id: expect.any(Number), documentId: ids[1], title: 'Second' },
    ]);
    expect(list.body.meta).toEqual({ pagination: { page: 1, pageSize: 25, pageCount: 1, total: 2 }, extended: true, titles: ['First', 'Second'], stamped: true });
    const response = await app.cairn.fastify.inject({ method: 'GET', url: '/api/articles' });
    expect(response.headers['x-stamp']).toBe('stamped');
    expect(response.headers['x-response-time']).toMatch(/ms$/);
  });

  it("super.find keeps the Content API's checks: a bad query is a 400 with Strapi's body, a missing permission a 403", async () => {
    const bad = await app.request('GET', '/api/articles?filters[nope][$eq]=1', undefined, PUBLIC);
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ data: null, error: { status: 400, name: 'ValidationError', message: 'Invalid key nope' } });
    const created = await app.request('POST', '/api/articles', { data: { title: 'x' } }, PUBLIC);
    expect(created.status).toBe(403);
    expect(created.body.error).toMatchObject({ status: 403, name: 'ForbiddenError' });
  });

  it("the core findOne route runs the app's service override", async () => {
    const one = await app.request('GET', `/api/articles/${ids[0]}`, undefined, PUBLIC);
    expect(one.status).toBe(200);
    expect(one.body.data).toMatchObject({ documentId: ids[0], title: 'First', wordCount: 4 });
    expect(one.body.meta).toEqual({});
    const missing = await app.request('GET', '/api/articles/nope', undefined, PUBLIC);
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ data: null, error: { status: 404, name: 'NotFoundError', message: 'Not Found', details: {} } });
  });

  it('a custom route and action, using a custom service, guarded by its own permission', async () => {
    const summary = await app.request('GET', `/api/articles/${ids[0]}/summary`, undefined, PUBLIC);
    expect(summary.status).toBe(200);
    expect(summary.body).toEqual({ data: { title: 'First', excerpt: 'one two thre' } });
    const missing = await app.request('GET', '/api/articles/nope/summary', undefined, PUBLIC);
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ data: null, error: { status: 404, name: 'NotFoundError', message: 'No such article', details: {} } });
    // Not granted to the public role: 403, the action never runs.
    const view = await app.request('POST', `/api/articles/${ids[0]}/view`, undefined, { ...PUBLIC, 'x-allow': 'yes' });
    expect(view.status).toBe(403);
    expect(view.body.error).toMatchObject({ status: 403, name: 'ForbiddenError', message: 'Forbidden' });
    // Bad credentials are a 401, as on every route.
    const badToken = await app.request('GET', `/api/articles/${ids[0]}/summary`, undefined, { authorization: 'Bearer nope' });
    expect(badToken.status).toBe(401);
  });

  it("ctx.cookies is Koa's: a cookie signed with the app's keys, read back signed; one the client changed counts as none", async () => {
    const read = (id: string, cookie?: string) => app.cairn.fastify.inject({ method: 'POST', url: `/api/articles/${id}/read`, headers: cookie ? { cookie } : {} });
    const first = await read(ids[0]);
    expect(first.statusCode).toBe(200);
    expect(JSON.parse(first.body)).toEqual({ data: { read: [ids[0]] } });
    // The value and its signature (keygrip over `read=<value>` with the first of app.keys), as Koa's cookies set them.
    const setCookie = first.headers['set-cookie'] as string[];
    expect(setCookie).toHaveLength(2);
    expect(setCookie[0]).toMatch(new RegExp(`^read=${ids[0]}; path=/; expires=[^;]+; samesite=lax; httponly$`));
    const signature = createHmac('sha1', 'example-key-1').update(`read=${ids[0]}`).digest('base64').replace(/\/|\+|=/g, (c) => ({ '/': '_', '+': '-', '=': '' })[c]!);
    expect(setCookie[1].startsWith(`read.sig=${signature}; path=/;`)).toBe(true);
    const jar = setCookie.map((c) => c.split(';')[0]).join('; ');
    const second = await read(ids[1], jar);
    expect(JSON.parse(second.body)).toEqual({ data: { read: [ids[1], ids[0]] } });
    // A value changed by the client fails its signature: read as no cookie (and the bad signature is cleared).
    const forged = await read(ids[1], jar.replace(`read=${ids[0]}`, 'read=someone-else'));
    expect(JSON.parse(forged.body)).toEqual({ data: { read: [ids[1]] } });
    expect((forged.headers['set-cookie'] as string[]).some((c) => c.startsWith('read.sig=; path=/; expires=Thu, 01 Jan 1970'))).toBe(true);
    // An answer without a cookie set carries none.
    const missing = await read('nope');
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['set-cookie']).toBeUndefined();
  });

  it("a multipart body's file (ctx.request.files) and text fields (ctx.request.body) reach the action, which stores the file through the upload service", async () => {
    const send = async (id: string, parts: Array<[string, string | Blob, string?]>, headers: Record<string, string> = { authorization: `Bearer ${app.token}` }) => {
      const form = new FormData();
      for (const [name, value, filename] of parts) {
        if (typeof value === 'string') form.append(name, value);
        else form.append(name, value, filename);
      }
      const body = new Response(form);
      const response = await app.cairn.fastify.inject({
        method: 'POST',
        url: `/api/articles/${id}/cover`,
        payload: Buffer.from(await body.arrayBuffer()),
        headers: { 'content-type': body.headers.get('content-type')!, ...headers },
      });
      return { status: response.statusCode, body: JSON.parse(response.body) };
    };
    const image = new Blob([new Uint8Array(await sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 0, g: 90, b: 0 } } }).png().toBuffer())], { type: 'image/png' });
    const stored = await send(ids[0], [
      ['caption', 'The cover'],
      ['file', image, 'cover.png'],
    ]);
    expect(stored.status).toBe(201);
    expect(stored.body.data).toMatchObject({ name: 'cover.png', caption: 'The cover', width: 64, height: 48 });
    const read = await app.request('GET', `/api/articles/${ids[0]}?populate=cover`);
    expect(read.body.data.cover).toMatchObject({ id: stored.body.data.id, name: 'cover.png', caption: 'The cover', mime: 'image/png' });
    // Two files in the field are an array (koa-body's), which this action refuses; none at all, likewise.
    const two = await send(ids[0], [
      ['file', image, 'a.png'],
      ['file', image, 'b.png'],
    ]);
    expect(two).toEqual({ status: 400, body: { data: null, error: { status: 400, name: 'BadRequestError', message: 'Send one image in the "file" field of a multipart/form-data body', details: {} } } });
    expect((await send(ids[0], [['caption', 'no file']])).status).toBe(400);
    // The permission is checked before the body is used: the public role has not got this action.
    expect((await send(ids[0], [['file', image, 'c.png']], {})).status).toBe(403);
    // The temporary files are gone once the answers are out.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(readdirSync(tmpdir()).filter((name) => name.startsWith('cairn-body-'))).toEqual([]);
    // A multipart body on a route of Cairn's own is still a 415.
    const form = new FormData();
    form.append('data', '{}');
    const body = new Response(form);
    const own = await app.cairn.fastify.inject({ method: 'POST', url: '/api/tags', payload: Buffer.from(await body.arrayBuffer()), headers: { 'content-type': body.headers.get('content-type')!, authorization: `Bearer ${app.token}` } });
    expect(own.statusCode).toBe(415);
  });

  it("a route's own function answers as Strapi's does: any user or full-access token, 401 without credentials, 403 for another token; functions in a row answer with the first's value", async () => {
    const whoami = (headers: Record<string, string>) => app.request('GET', '/api/whoami', undefined, headers);
    expect(await whoami(PUBLIC)).toMatchObject({ status: 401, body: { data: null, error: { status: 401, name: 'UnauthorizedError', message: 'Unauthorized', details: {} } } });
    expect((await whoami({})).body).toEqual({ user: null, strategy: 'content-api-token' });
    const tokens = app.cairn.plugin('users-permissions').service<{ create(input: unknown): Promise<{ key: string }> }>('tokens');
    const readOnly = await tokens.create({ name: 'read-only for whoami', type: 'read-only' });
    expect((await whoami({ authorization: `Bearer ${readOnly.key}` })).status).toBe(403);
    const registered = await app.request('POST', '/api/auth/local/register', { username: 'whoami', email: 'whoami@example.com', password: 'secret123' }, PUBLIC);
    expect(registered.status).toBe(200);
    expect((await whoami({ authorization: `Bearer ${registered.body.jwt}` })).body).toEqual({ user: 'whoami', strategy: 'users-permissions' });
    const count = await app.request('GET', '/api/article-count', undefined, PUBLIC);
    expect(count).toMatchObject({ status: 200, body: { count: 2, counted: 'by the second function' } });
  });

  it('`auth: false` opens a route to anyone, without reading credentials', async () => {
    const stats = await app.request('GET', '/api/article-stats', undefined, PUBLIC);
    expect(stats.status).toBe(200);
    expect(stats.body).toEqual({ total: 2, views: 4, user: null });
    // Even a bad token: the route checks nothing.
    expect((await app.request('GET', '/api/article-stats', undefined, { authorization: 'Bearer nope' })).status).toBe(200);
  });

  it("a global policy refusing is a 403 PolicyError with Strapi's body; passing, the action writes and the inline middleware adds a header", async () => {
    const refused = await app.request('POST', `/api/articles/${ids[0]}/view`);
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ data: null, error: { status: 403, name: 'PolicyError', message: 'Policy Failed', details: {} } });
    const response = await app.cairn.fastify.inject({ method: 'POST', url: `/api/articles/${ids[0]}/view`, headers: { authorization: `Bearer ${app.token}`, 'x-allow': 'yes' } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['x-inline']).toBe('yes');
    const body = JSON.parse(response.body);
    expect(body.data).toMatchObject({ documentId: ids[0], views: 3 });
    expect(body.meta).toEqual({ viewedBy: 'yes' });
    const gone = await app.request('POST', '/api/articles/nope/view', undefined, { 'x-allow': 'yes' });
    expect(gone.status).toBe(404);
    expect(gone.body).toEqual({ data: null, error: { status: 404, name: 'NotFoundError', message: 'Article not found', details: { id: 'nope' } } });
  });

  it('a core route with an API policy (with config): refused for a locked article, allowed for another', async () => {
    const locked = await app.request('PUT', `/api/articles/${ids[1]}`, { data: { title: 'Changed' } });
    expect(locked.status).toBe(403);
    expect(locked.body.error).toMatchObject({ name: 'PolicyError', message: 'Policy Failed' });
    const open = await app.request('PUT', `/api/articles/${ids[0]}`, { data: { title: 'First!' } });
    expect(open.status).toBe(200);
    expect(open.body.data).toMatchObject({ documentId: ids[0], title: 'First!' });
    const noData = await app.request('PUT', `/api/articles/${ids[0]}`, { title: 'x' });
    expect(noData.status).toBe(400);
    expect(noData.body.error).toMatchObject({ name: 'ValidationError', message: 'Missing "data" payload in the request body' });
  });

  it('an inline policy on the core delete', async () => {
    expect((await app.request('DELETE', `/api/articles/${ids[1]}`)).status).toBe(403);
    const created = await app.request('POST', '/api/articles', { data: { title: 'Doomed' } });
    const deleted = await app.request('DELETE', `/api/articles/${created.body.data.documentId}`, undefined, { 'x-confirm': 'yes' });
    expect(deleted.status).toBe(204);
    expect((await app.request('GET', `/api/articles/${created.body.data.documentId}`)).status).toBe(404);
  });

  it("errors thrown by app code answer with Strapi's status and body; an unexpected one is a 500 that reveals nothing", async () => {
    const cases: Array<[string, number, string, string, unknown]> = [
      ['application', 400, 'ApplicationError', 'Something is off', { hint: 'retry' }],
      ['validation', 400, 'ValidationError', 'Bad title', { errors: [{ path: ['title'], message: 'Bad title' }] }],
      ['forbidden', 403, 'ForbiddenError', 'Forbidden access', {}],
      ['unauthorized', 401, 'UnauthorizedError', 'Log in first', {}],
      ['not-found', 404, 'NotFoundError', 'Entity not found', {}],
      ['too-large', 413, 'PayloadTooLargeError', 'Entity too large', {}],
      ['policy', 403, 'PolicyError', 'Not for you', { policy: 'custom' }],
      ['bad-request', 400, 'BadRequestError', 'Missing thing', { field: 'thing' }],
      ['crash', 500, 'InternalServerError', 'Internal Server Error', {}],
    ];
    for (const [kind, status, name, message, details] of cases) {
      const response = await app.request('GET', `/api/article-errors/${kind}`, undefined, PUBLIC);
      expect({ kind, status: response.status, body: response.body }).toEqual({ kind, status, body: { data: null, error: { status, name, message, details } } });
    }
    // Koa's ctx.throw: http-errors' name, no details.
    const teapot = await app.request('GET', '/api/article-errors/throw', undefined, PUBLIC);
    expect(teapot.status).toBe(418);
    expect(teapot.body).toEqual({ data: null, error: { status: 418, name: 'ImATeapotError', message: 'short and stout' } });
    // An action that answers nothing: Koa's 404.
    const nothing = await app.request('GET', '/api/article-errors/none', undefined, PUBLIC);
    expect(nothing.status).toBe(404);
    expect(app.logs().some((line) => line.err?.message === 'secret internal detail')).toBe(true);
  });

  it('TypeScript files: a core router with `only`, a controller extending findOne with super', async () => {
    const created = await app.request('POST', '/api/notes', { data: { text: 'hello' } });
    expect(created.status).toBe(404); // `only: ['find', 'findOne']`
    const documents = app.cairn.documents('api::note.note');
    const { documentId } = await documents.create({ data: { text: 'hello' }, status: 'published' });
    const one = await app.request('GET', `/api/notes/${documentId}`, undefined, PUBLIC);
    expect(one.status).toBe(200);
    expect(one.body).toEqual({ data: expect.objectContaining({ documentId, text: 'hello' }), meta: { typed: true } });
    const list = await app.request('GET', '/api/notes', undefined, PUBLIC);
    expect(list.status).toBe(200);
    expect(list.body.data).toHaveLength(1);
    expect((await app.request('GET', '/api/notes/nope', undefined, PUBLIC)).status).toBe(404);
    expect((await app.request('DELETE', `/api/notes/${documentId}`)).status).toBe(404);
  });

  it('routes without code of the app\'s are served by the compiled handler, no Koa ctx built; the others build one', async () => {
    // Every request that runs app code builds one ctx and answers through it (respond() reads `answered` once).
    const built = vi.spyOn(KoaContext.prototype, 'answered', 'get');
    try {
      const fast: Array<[string, string, unknown?]> = [
        ['POST', '/api/articles', { data: { title: 'Fast' } }], // create: core action, core service, no config
        ['GET', '/api/notes'], // TypeScript core router: find untouched
        ['GET', '/api/tags'], // no server code at all
      ];
      for (const [method, url, body] of fast) expect((await app.request(method, url, body)).status).toBeLessThan(300);
      // config/middlewares is Strapi's template list: its strapi::poweredBy is a header, no ctx.
      expect((await app.cairn.fastify.inject({ method: 'GET', url: '/api/tags' })).headers['x-powered-by']).toBe('Strapi <strapi.io>');
      expect(built).toHaveBeenCalledTimes(0);
      expect((await app.request('GET', '/api/articles')).status).toBe(200); // extended find, middlewares
      expect((await app.request('GET', `/api/articles/${ids[0]}`)).status).toBe(200); // service override
      expect(built).toHaveBeenCalledTimes(2);
    } finally {
      built.mockRestore();
    }
  });

  it('a route middleware setting ctx.query.populate before the core find (LaunchPad\'s pattern)', async () => {
    const tags = await app.request('GET', '/api/tags');
    const tag = tags.body.data[0].documentId;
    expect((await app.request('PUT', `/api/articles/${ids[0]}`, { data: { tags: { connect: [tag] } } })).status).toBe(200);
    const list = await app.request('GET', '/api/articles-with-tags?fields[0]=title&sort=title', undefined, PUBLIC);
    expect(list.status).toBe(200);
    // 'Fast' (made by an earlier test), 'First!' (its tag populated), 'Second'.
    const shown = list.body.data.map((a: { title: string; tags: Array<{ name: string }> }) => [a.title, a.tags.map((t) => t.name)]);
    expect(shown).toEqual([['Fast', []], ['First!', ['news']], ['Second', []]]);
    expect(list.body.meta).toMatchObject({ extended: true, pagination: { total: 3 } });
    // Credentials are checked on this route as on every guarded one.
    expect((await app.request('GET', '/api/articles-with-tags', undefined, { authorization: 'Bearer nope' })).status).toBe(401);
  });

  it("a route's own query parameter (its `request.query` Zod schema) is checked before its action reads it", async () => {
    const found = await app.request('GET', '/api/articles-by-word?word=ALPHA', undefined, PUBLIC);
    expect(found.status).toBe(200);
    expect(found.body).toEqual({ data: ['Second'], meta: { word: 'ALPHA' } });
    // Strapi's answer for a value its schema refuses: Zod's message, the key as the parameter.
    const short = await app.request('GET', '/api/articles-by-word?word=a', undefined, PUBLIC);
    expect(short.status).toBe(400);
    expect(short.body.error).toMatchObject({ name: 'ValidationError', details: { key: 'word', path: null, source: 'query', param: 'word' } });
    expect(JSON.parse(short.body.error.message)).toEqual([expect.objectContaining({ code: 'too_small', minimum: 2 })]);
    const list = await app.request('GET', '/api/articles-by-word?word[0]=alpha', undefined, PUBLIC);
    expect(list.status).toBe(400);
    expect(JSON.parse(list.body.error.message)).toEqual(expect.arrayContaining([expect.objectContaining({ code: 'invalid_type', expected: 'string' })]));
    // The route's other keys keep the Content API's rules.
    const unknown = await app.request('GET', '/api/articles-by-word?word=alpha&wrod=x', undefined, PUBLIC);
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.message).toBe('Invalid key wrod');
  });

  it('parameters added in register() (strapi.contentAPI.addQueryParams, addInputParams) apply to the routes they match', async () => {
    const list = await app.request('GET', '/api/articles?ref=newsletter&fields[0]=title', undefined, PUBLIC);
    expect(list.status).toBe(200);
    expect(list.body.meta).toMatchObject({ ref: 'newsletter', extended: true });
    const long = await app.request('GET', '/api/articles?ref=a-much-too-long-ref', undefined, PUBLIC);
    expect(long.status).toBe(400);
    expect(long.body.error).toMatchObject({ name: 'ValidationError', details: { key: 'ref', source: 'query', param: 'ref' } });
    // Only where matchRoute says: findOne does not take it.
    expect((await app.request('GET', `/api/articles/${ids[0]}?ref=x`, undefined, PUBLIC)).body.error.message).toBe('Invalid key ref');
    // An entry's extra key is checked, then not stored (it is no attribute); elsewhere it is an unknown key.
    const clientMutationId = '4c8a1d5e-2f3b-4a6c-9d7e-1b2c3d4e5f60';
    // (The first article: the second is locked, its update refused by the route's policy.)
    const updated = await app.request('PUT', `/api/articles/${ids[0]}`, { data: { views: 7, clientMutationId } });
    expect(updated.status).toBe(200);
    expect(updated.body.data).toMatchObject({ views: 7 });
    expect(updated.body.data).not.toHaveProperty('clientMutationId');
    const bad = await app.request('PUT', `/api/articles/${ids[0]}`, { data: { views: 8, clientMutationId: 'not-a-uuid' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ name: 'ValidationError', details: { key: 'clientMutationId', path: null, source: 'body', param: 'clientMutationId' } });
    expect((await app.request('GET', `/api/articles/${ids[0]}`)).body.data.views).toBe(7);
    const created = await app.request('POST', '/api/articles', { data: { title: 'With id', clientMutationId } });
    expect(created.status).toBe(400);
    expect(created.body.error.message).toBe('Invalid key clientMutationId');
  });

  it('an API without server code keeps Cairn\'s own Content API', async () => {
    const tags = await app.request('GET', '/api/tags', undefined, PUBLIC);
    expect(tags.status).toBe(200);
    expect(tags.body.data).toEqual([expect.objectContaining({ name: 'news' })]);
  });
});
