import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';

/**
 * The names a Strapi 5 error body can carry: its error classes (@strapi/utils `errors`), and the http-errors names
 * Koa's `ctx.throw(status)` and Strapi's `ctx.badRequest()`-style helpers give. Never a JavaScript exception's name
 * (`SyntaxError`, `TypeError`...), which Strapi itself leaks for a body that is not JSON.
 */
const STRAPI_NAMES = new Set([
  'ApplicationError',
  'ValidationError',
  'PaginationError',
  'NotFoundError',
  'ForbiddenError',
  'UnauthorizedError',
  'RateLimitError',
  'PayloadTooLargeError',
  'PolicyError',
  'NotImplementedError',
  'BadRequestError',
  'MethodNotAllowedError',
  'UnsupportedMediaTypeError',
  'InternalServerError',
]);

const model = {
  contentTypes: {
    chef: {
      kind: 'collectionType',
      collectionName: 'chefs',
      info: { singularName: 'chef', pluralName: 'chefs', displayName: 'Chef' },
      options: { draftAndPublish: false },
      attributes: { name: { type: 'string', required: true } },
    },
    homepage: {
      kind: 'singleType',
      collectionName: 'homepages',
      info: { singularName: 'homepage', pluralName: 'homepages', displayName: 'Homepage' },
      options: { draftAndPublish: false },
      attributes: { headline: { type: 'string' } },
    },
  },
  config: { server: { bodyLimit: 64 * 1024 } },
};

// Body parsing and routing are above the database: one dialect is enough.
describe('error names and request bodies', () => {
  let app: TestApp;
  let chef: string;
  beforeAll(async () => {
    app = await startTestApp('sqlite', model);
    chef = (await app.request('POST', '/api/chefs', { data: { name: 'Ann' } })).body.data.documentId;
  });
  afterAll(async () => app?.close());

  /** A request with exactly these headers and this raw body (none when undefined). */
  const send = async (method: string, url: string, headers: Record<string, string>, payload?: string | Buffer) => {
    const response = await app.cairn.fastify.inject({ method: method as 'GET', url, headers: { authorization: `Bearer ${app.token}`, ...headers }, payload });
    return { status: response.statusCode, body: response.body ? JSON.parse(response.body) : null, raw: response.body };
  };
  const JSON_TYPE = { 'content-type': 'application/json' };

  describe('an empty body is no body, whatever its Content-Type and method (as Strapi/Koa)', () => {
    it('DELETE with Content-Type: application/json and no body: 204 (what @strapi/client sends)', async () => {
      const other = (await app.request('POST', '/api/chefs', { data: { name: 'Bob' } })).body.data.documentId;
      for (const payload of [undefined, '']) {
        const res = await send('DELETE', `/api/chefs/${other}`, JSON_TYPE, payload);
        expect(res.status, `payload ${JSON.stringify(payload)}`).toBe(204);
        expect(res.raw).toBe('');
      }
      expect((await app.request('GET', `/api/chefs/${other}`)).status).toBe(404);
      expect((await send('DELETE', '/api/homepage', { 'content-type': 'application/json; charset=utf-8' })).status).toBe(204);
    });

    it('DELETE with a Content-Type Cairn has no parser for and no body: 204', async () => {
      expect((await send('DELETE', '/api/chefs/doesnotexist0000000000000', { 'content-type': 'application/xml' })).status).toBe(204);
    });

    it('GET with Content-Type: application/json and no body reads as usual', async () => {
      const res = await send('GET', `/api/chefs/${chef}`, JSON_TYPE, '');
      expect(res.status).toBe(200);
      expect(res.body.data.name).toBe('Ann');
    });

    it('POST and PUT with an empty JSON body: the missing `data` is the ValidationError Strapi answers', async () => {
      for (const [method, url] of [
        ['POST', '/api/chefs'],
        ['PUT', `/api/chefs/${chef}`],
        ['PUT', '/api/homepage'],
      ]) {
        const res = await send(method, url, JSON_TYPE, '');
        expect(res.status, `${method} ${url}`).toBe(400);
        expect(res.body).toEqual({ data: null, error: { status: 400, name: 'ValidationError', message: 'Missing "data" payload in the request body', details: {} } });
      }
    });
  });

  describe('every REST error path answers one of Strapi\'s error names', () => {
    const cases: Array<{ what: string; method: string; url: string; headers?: Record<string, string>; payload?: string | Buffer; status: number; name: string }> = [
      { what: 'invalid JSON', method: 'POST', url: '/api/chefs', headers: JSON_TYPE, payload: '{"data": {"name": ', status: 400, name: 'ValidationError' },
      { what: 'invalid JSON on PUT', method: 'PUT', url: '/api/homepage', headers: JSON_TYPE, payload: '{data}', status: 400, name: 'ValidationError' },
      { what: 'invalid JSON on DELETE', method: 'DELETE', url: '/api/homepage', headers: JSON_TYPE, payload: '{"x', status: 400, name: 'ValidationError' },
      { what: 'a JSON string, not an object', method: 'POST', url: '/api/chefs', headers: JSON_TYPE, payload: '"Ann"', status: 400, name: 'ValidationError' },
      { what: '__proto__ in the body', method: 'POST', url: '/api/chefs', headers: JSON_TYPE, payload: '{"data": {"name": "A", "__proto__": {"x": 1}}}', status: 400, name: 'ValidationError' },
      { what: 'a media type without parser', method: 'POST', url: '/api/chefs', headers: { 'content-type': 'application/xml' }, payload: '<data/>', status: 415, name: 'UnsupportedMediaTypeError' },
      { what: 'a malformed Content-Type', method: 'POST', url: '/api/chefs', headers: { 'content-type': 'json' }, payload: '{}', status: 415, name: 'UnsupportedMediaTypeError' },
      { what: 'a body without Content-Type', method: 'POST', url: '/api/chefs', headers: {}, payload: '{"data": {}}', status: 415, name: 'UnsupportedMediaTypeError' },
      { what: 'multipart outside the upload route', method: 'POST', url: '/api/chefs', headers: { 'content-type': 'multipart/form-data; boundary=x' }, payload: '--x--', status: 415, name: 'UnsupportedMediaTypeError' },
      { what: 'multipart without a boundary', method: 'POST', url: '/api/upload', headers: { 'content-type': 'multipart/form-data' }, payload: 'files', status: 400, name: 'ValidationError' },
      { what: 'multipart cut short', method: 'POST', url: '/api/upload', headers: { 'content-type': 'multipart/form-data; boundary=x' }, payload: '--x\r\nContent-Disposition: form-data; name="files"; filename="a.png"\r\nContent-Type: image/png\r\n\r\nabc', status: 400, name: 'ValidationError' },
      { what: 'multipart that is not', method: 'POST', url: '/api/upload', headers: { 'content-type': 'multipart/form-data; boundary=x' }, payload: 'garbage', status: 400, name: 'ValidationError' },
      { what: 'an oversized body', method: 'POST', url: '/api/chefs', headers: JSON_TYPE, payload: JSON.stringify({ data: { name: 'x'.repeat(100 * 1024) } }), status: 413, name: 'PayloadTooLargeError' },
      { what: 'an unknown route', method: 'GET', url: '/api/nothing', status: 404, name: 'NotFoundError' },
      { what: 'a path below a document', method: 'GET', url: `/api/chefs/${'x'.repeat(24)}/more`, status: 404, name: 'NotFoundError' },
      { what: 'a method the route does not have', method: 'PATCH', url: `/api/chefs/${'x'.repeat(24)}`, headers: JSON_TYPE, payload: '{"data": {}}', status: 404, name: 'NotFoundError' },
      { what: 'a bad query string', method: 'GET', url: '/api/chefs?filters[nope][$eq]=1', status: 400, name: 'ValidationError' },
      { what: 'a bad token', method: 'GET', url: '/api/chefs', headers: { authorization: 'Bearer nope' }, status: 401, name: 'UnauthorizedError' },
      { what: 'a missing document', method: 'GET', url: `/api/chefs/${'x'.repeat(24)}`, status: 404, name: 'NotFoundError' },
    ];
    for (const c of cases) {
      it(`${c.what}: ${c.status} ${c.name}`, async () => {
        const res = await send(c.method, c.url, c.headers ?? {}, c.payload);
        expect(res.status, res.raw).toBe(c.status);
        expect(res.body.data).toBeNull();
        expect(res.body.error).toMatchObject({ status: c.status, name: c.name, message: expect.any(String) });
        expect(STRAPI_NAMES.has(res.body.error.name), res.body.error.name).toBe(true);
      });
    }

    it('a failed write changes nothing', async () => {
      const list = await app.request('GET', '/api/chefs');
      expect(list.body.data.map((c: { name: string }) => c.name)).toEqual(['Ann']);
    });
  });
});
