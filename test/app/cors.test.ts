import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';

// config/middlewares' `strapi::cors`, answered as real Strapi 5.54 answers it (probed: its @koa/cors under Strapi's
// matchOrigin): the headers a browser needs, for the origins the config allows, on every answer, errors included.
const TAG = {
  kind: 'collectionType',
  collectionName: 'tags',
  info: { singularName: 'tag', pluralName: 'tags', displayName: 'Tag' },
  options: { draftAndPublish: false },
  attributes: { name: { type: 'string' } },
};
const permissions = { roles: { public: { permissions: ['api::tag.tag.find'] } } };
const APP = 'https://app.example.com';
const EVIL = 'https://evil.example.com';
const none = { authorization: '' };

async function appWith(cors: unknown): Promise<TestApp> {
  return startTestApp('sqlite', { contentTypes: { tag: TAG }, config: { middlewares: ['strapi::errors', cors, 'strapi::query', 'strapi::body'], permissions } });
}

const corsHeaders = (headers: Record<string, unknown>) => Object.fromEntries(Object.entries(headers).filter(([name]) => name.startsWith('access-control-') || name === 'vary'));

describe("strapi::cors with Strapi's defaults", () => {
  let app: TestApp;
  const send = (method: 'GET' | 'OPTIONS' | 'HEAD' | 'POST', url: string, headers: Record<string, string>, payload?: string) =>
    app.cairn.fastify.inject({ method, url, headers, ...(payload === undefined ? {} : { payload }) });
  beforeAll(async () => {
    app = await appWith('strapi::cors');
  });
  afterAll(async () => app?.close());

  it('any origin is allowed, answered back with credentials; every answer varies by Origin', async () => {
    for (const origin of [APP, EVIL]) {
      const res = await send('GET', '/api/tags', { origin });
      expect(res.statusCode).toBe(200);
      expect(corsHeaders(res.headers)).toEqual({ vary: 'Origin', 'access-control-allow-origin': origin, 'access-control-allow-credentials': 'true' });
    }
    expect((await send('HEAD', '/api/tags', { origin: APP })).headers['access-control-allow-origin']).toBe(APP);
    expect((await send('GET', '/api/tags', {})).headers.vary).toBe('Origin');
  });

  it('a preflight is a 204 with the allowed methods and headers and their lifetime, before routing (any path)', async () => {
    for (const url of ['/api/tags', '/api/nope']) {
      const res = await send('OPTIONS', url, { origin: APP, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type,authorization' });
      expect(res.statusCode).toBe(204);
      expect(res.body).toBe('');
      expect(corsHeaders(res.headers)).toEqual({
        vary: 'Origin',
        'access-control-allow-origin': APP,
        'access-control-allow-credentials': 'true',
        'access-control-allow-methods': 'GET,POST,PUT,PATCH,DELETE,HEAD,OPTIONS',
        'access-control-allow-headers': 'Content-Type,Authorization,Origin,Accept',
        'access-control-max-age': '31536000',
      });
    }
  });

  it('error answers carry the headers too (the browser can read the error)', async () => {
    const answers = [
      await send('GET', '/api/nope', { origin: APP }),
      await send('GET', '/api/tags?filters[nope]=1', { origin: APP }),
      await send('GET', '/api/tags', { origin: APP, authorization: 'Bearer garbage' }),
      await send('POST', '/api/tags', { origin: APP, 'content-type': 'application/json' }, '{"data":'),
    ];
    expect(answers.map((r) => r.statusCode)).toEqual([404, 400, 401, 400]);
    for (const res of answers) expect(corsHeaders(res.headers)).toEqual({ vary: 'Origin', 'access-control-allow-origin': APP, 'access-control-allow-credentials': 'true' });
  });
});

describe('strapi::cors with a list of origins', () => {
  let app: TestApp;
  const send = (method: 'GET' | 'OPTIONS', url: string, headers: Record<string, string>) => app.cairn.fastify.inject({ method, url, headers });
  beforeAll(async () => {
    app = await appWith({ name: 'strapi::cors', config: { origin: [APP, 'https://admin.example.com'], expose: ['X-Total-Count'], headers: ['Content-Type', 'X-Custom'], methods: ['GET', 'POST'], maxAge: 600 } });
  });
  afterAll(async () => app?.close());

  it('a listed origin gets its headers (and the exposed ones); another gets none, so the browser refuses the answer', async () => {
    const allowed = await send('GET', '/api/tags', { origin: APP });
    expect(corsHeaders(allowed.headers)).toEqual({
      vary: 'Origin',
      'access-control-allow-origin': APP,
      'access-control-allow-credentials': 'true',
      'access-control-expose-headers': 'X-Total-Count',
    });
    const refused = await send('GET', '/api/tags', { origin: EVIL });
    expect(refused.statusCode).toBe(200);
    expect(corsHeaders(refused.headers)).toEqual({ vary: 'Origin' });
    const preflight = await send('OPTIONS', '/api/tags', { origin: APP, 'access-control-request-method': 'POST' });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers).toMatchObject({ 'access-control-allow-methods': 'GET,POST', 'access-control-allow-headers': 'Content-Type,X-Custom', 'access-control-max-age': '600' });
    const refusedPreflight = await send('OPTIONS', '/api/tags', { origin: EVIL, 'access-control-request-method': 'POST' });
    expect(refusedPreflight.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('without strapi::cors in the list', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp('sqlite', { contentTypes: { tag: TAG }, config: { middlewares: ['strapi::errors', 'strapi::query'], permissions } });
  });
  afterAll(async () => app?.close());

  it('no CORS headers are sent, as Strapi sends none without it', async () => {
    const res = await app.request('GET', '/api/tags', undefined, { ...none, origin: APP });
    expect(res.status).toBe(200);
    const raw = await app.cairn.fastify.inject({ method: 'GET', url: '/api/tags', headers: { origin: APP } });
    expect(corsHeaders(raw.headers)).toEqual({});
  });
});
