import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { TAG } from '../helpers/schemas.js';

// config/middlewares' `strapi::cors`, answered as real Strapi 5.54 answers it (probed: its @koa/cors under Strapi's
// matchOrigin): the headers a browser needs, for the origins the config allows, on every answer, errors included.
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

describe("strapi::security: helmet's headers with Strapi's defaults", () => {
  // As real Strapi 5.54 answers GET /api/articles with its template's config/middlewares (probed).
  const STRAPI_HEADERS = {
    'content-security-policy':
      "connect-src 'self' https:;img-src 'self' data: blob: https://market-assets.strapi.io;media-src 'self' data: blob:;default-src 'self';base-uri 'self';font-src 'self' https: data:;form-action 'self';frame-ancestors 'self';object-src 'none';script-src 'self';script-src-attr 'none';style-src 'self' https: 'unsafe-inline'",
    'referrer-policy': 'no-referrer',
    'strict-transport-security': 'max-age=31536000; includeSubDomains',
    'x-content-type-options': 'nosniff',
    'x-dns-prefetch-control': 'off',
    'x-download-options': 'noopen',
    'x-frame-options': 'SAMEORIGIN',
    'x-permitted-cross-domain-policies': 'none',
  };
  const isolation = ['cross-origin-embedder-policy', 'cross-origin-opener-policy', 'cross-origin-resource-policy', 'origin-agent-cluster', 'x-xss-protection'];
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp('sqlite', {
      contentTypes: { tag: TAG },
      config: { middlewares: ['strapi::errors', 'strapi::security', 'strapi::cors', 'strapi::poweredBy', 'strapi::query', 'strapi::body'], permissions },
    });
  });
  afterAll(async () => app?.close());

  it("every answer, errors included, has Strapi's security headers and none of the isolation ones Strapi turns off", async () => {
    for (const url of ['/api/tags', '/api/nope', '/api/tags?filters[nope]=1']) {
      const res = await app.cairn.fastify.inject({ method: 'GET', url });
      expect(res.headers).toMatchObject(STRAPI_HEADERS);
      for (const name of isolation) expect(res.headers[name], `${url} ${name}`).toBeUndefined();
      expect(res.headers['x-powered-by']).toBe('Strapi <strapi.io>');
    }
  });

  it("the GraphQL playground's page keeps its own, stricter policy", async () => {
    const page = await app.cairn.fastify.inject({ method: 'GET', url: '/graphql', headers: { accept: 'text/html' } });
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.headers['content-security-policy']).toMatch(/^default-src 'self'; script-src 'self';/);
    expect(page.headers['x-frame-options']).toBe('SAMEORIGIN');
  });
});

describe("strapi::security's config", () => {
  const start = (config: unknown) =>
    startTestApp('sqlite', { contentTypes: { tag: TAG }, config: { middlewares: ['strapi::errors', { name: 'strapi::security', config }], permissions } });

  it("is merged over Strapi's defaults as Strapi merges it (a list item by item), and applied", async () => {
    const app = await start({ contentSecurityPolicy: { directives: { 'img-src': ["'self'", 'https://bucket.example.com'] } }, frameguard: { action: 'deny' }, hsts: false });
    try {
      const res = await app.cairn.fastify.inject({ method: 'GET', url: '/api/tags' });
      // lodash defaultsDeep, as Strapi (checked with its lodash): the config's directives first, its items replacing
      // the defaults' at their index, the rest staying.
      expect(res.headers['content-security-policy']).toMatch(/^img-src 'self' https:\/\/bucket\.example\.com blob: https:\/\/market-assets\.strapi\.io;connect-src 'self' https:;media-src 'self' data: blob:;default-src 'self';/);
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['strict-transport-security']).toBeUndefined();
    } finally {
      await app.close();
    }
  });

  it('an option helmet does not have, or a value it refuses, stops the start, named', async () => {
    await expect(start({ frameGuard: { action: 'deny' } })).rejects.toThrow(/middlewares\[1\]\.config\.frameGuard \(strapi::security\) is not an option of helmet, which strapi::security passes its config to: did you mean frameguard\?/);
    await expect(start({ referrerPolicy: { policy: 'sometimes' } })).rejects.toThrow(/^config\/middlewares: strapi::security's config: .*sometimes/);
  });
});

describe("strapi::ip: koa-ip's whitelist and blacklist", () => {
  const start = (config: unknown, server?: object) =>
    startTestApp('sqlite', { contentTypes: { tag: TAG }, config: { middlewares: ['strapi::errors', { name: 'strapi::ip', config }, 'strapi::query'], permissions, ...(server ? { server } : {}) } });
  const from = (app: TestApp, remoteAddress: string, url = '/api/tags', headers: Record<string, string> = {}) => app.cairn.fastify.inject({ method: 'GET', url, remoteAddress, headers });
  const forbidden = { data: null, error: { status: 403, name: 'ForbiddenError', message: 'Forbidden', details: {} } };

  it('an address no whitelist pattern matches, or a blacklist one does, is refused 403 on every route; the others pass', async () => {
    const app = await start({ whitelist: ['^10\\.0\\.', '192.168.1.5'], blacklist: ['^10\\.0\\.0\\.66$'] });
    try {
      expect((await from(app, '10.0.3.4')).statusCode).toBe(200);
      // Unanchored, as koa-ip tests each pattern: 192.168.1.5 also lets 192.168.1.50 in.
      expect((await from(app, '192.168.1.50')).statusCode).toBe(200);
      for (const [address, url] of [['10.0.0.66', '/api/tags'], ['172.16.0.1', '/api/tags'], ['172.16.0.1', '/api/nope'], ['172.16.0.1', '/graphql']] as const) {
        const res = await from(app, address, url);
        expect(res.statusCode, `${address} ${url}`).toBe(403);
        expect(res.json()).toEqual(forbidden);
      }
    } finally {
      await app.close();
    }
  });

  it("a refused client's answers carry none of the other middlewares' headers, and its preflight is refused too", async () => {
    const app = await startTestApp('sqlite', {
      contentTypes: { tag: TAG },
      config: { middlewares: ['strapi::errors', { name: 'strapi::ip', config: { whitelist: ['^10\\.'] } }, 'strapi::security', 'strapi::cors', 'strapi::query'], permissions },
    });
    try {
      const preflight = await app.cairn.fastify.inject({ method: 'OPTIONS', url: '/api/tags', remoteAddress: '127.0.0.1', headers: { origin: APP, 'access-control-request-method': 'POST' } });
      expect(preflight.statusCode).toBe(403);
      const get = await from(app, '127.0.0.1', '/api/tags', { origin: APP });
      expect(get.statusCode).toBe(403);
      expect(corsHeaders(get.headers)).toEqual({});
      expect(get.headers['content-security-policy']).toBeUndefined();
      expect((await from(app, '10.1.2.3', '/api/tags', { origin: APP })).headers['access-control-allow-origin']).toBe(APP);
    } finally {
      await app.close();
    }
  });

  it("a list alone is the whitelist; behind a trusted proxy the forwarded address is the client's", async () => {
    const app = await start(['^203\\.0\\.113\\.'], { proxy: { koa: true } });
    try {
      expect((await from(app, '127.0.0.1', '/api/tags', { 'x-forwarded-for': '203.0.113.9' })).statusCode).toBe(200);
      expect((await from(app, '127.0.0.1', '/api/tags', { 'x-forwarded-for': '198.51.100.1' })).statusCode).toBe(403);
    } finally {
      await app.close();
    }
  });

  it('a pattern that is no regular expression, an unknown option or a list of something else stops the start, named', async () => {
    await expect(start({ whitelist: ['(unclosed'] })).rejects.toThrow(/middlewares\[1\]\.config\.whitelist\[0\] \(strapi::ip\) is not a regular expression, as koa-ip reads each pattern/);
    await expect(start({ allow: ['x'] })).rejects.toThrow(/config\.allow \(strapi::ip\) is not an option of strapi::ip: it takes whitelist and blacklist/);
    await expect(start({ whitelist: 5 })).rejects.toThrow(/config\.whitelist \(strapi::ip\) must be a list of patterns/);
  });
});
