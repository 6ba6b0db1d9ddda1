import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/project/config.js';
import { startTestApp, writeApp, writeFiles, type TestApp } from '../helpers/app.js';
import { TAG } from '../helpers/schemas.js';

/**
 * Strapi 5's `server.proxy` (config/server): with `proxy.koa` true, a proxy's X-Forwarded-For and X-Forwarded-Proto
 * are trusted (Koa's `app.proxy`), `maxIpsCount` keeps the chain's last addresses, `ipHeader` names another header;
 * otherwise the socket's address and protocol count. Seen by app code as `ctx.ip`, `ctx.protocol` and in whether
 * `ctx.cookies` may set a secure cookie (Koa's cookies refuse one over plain HTTP: a 500, as in Strapi).
 */
const FILES = {
  'src/api/tag/routes/client.js': `module.exports = { routes: [
  { method: 'GET', path: '/client', handler: 'tag.client', config: { auth: false } },
] };`,
  'src/api/tag/controllers/tag.js': `const { factories } = require('@strapi/strapi');
module.exports = factories.createCoreController('api::tag.tag', () => ({
  async client(ctx) {
    if (ctx.query.cookie) ctx.cookies.set('session', 'abc', { secure: true, httpOnly: true });
    return { ip: ctx.ip, protocol: ctx.protocol };
  },
}));`,
};

async function appWith(server: string): Promise<TestApp> {
  const dir = writeApp({ contentTypes: { tag: TAG } });
  writeFiles(dir, { ...FILES, 'config/server.js': `module.exports = ${server};` });
  const app = await startTestApp('sqlite', dir);
  const close = app.close;
  return { ...app, close: async () => (await close(), rmSync(dir, { recursive: true, force: true })) };
}

describe("server.proxy: a proxy's forwarded headers, trusted as Strapi 5 trusts them (SQLite)", () => {
  const apps: TestApp[] = [];
  afterAll(() => Promise.all(apps.map((app) => app.close())));
  const open = async (server: string) => {
    const app = await appWith(server);
    apps.push(app);
    return app;
  };
  const client = async (app: TestApp, headers: Record<string, string>, query = '') => {
    const response = await app.cairn.fastify.inject({ method: 'GET', url: `/api/client${query}`, headers, remoteAddress: '10.0.0.9' });
    return { status: response.statusCode, body: JSON.parse(response.body), cookies: response.headers['set-cookie'] };
  };
  const forwarded = { 'x-forwarded-for': '6.6.6.6, 203.0.113.7', 'x-forwarded-proto': 'https' };

  it('without proxy.koa, the socket counts: forwarded headers are ignored and a secure cookie is refused over HTTP', async () => {
    const app = await open(`{ host: '127.0.0.1', port: 1337 }`);
    expect(await client(app, forwarded)).toMatchObject({ status: 200, body: { ip: '10.0.0.9', protocol: 'http' } });
    const refused = await client(app, forwarded, '?cookie=1');
    expect(refused.status).toBe(500);
    expect(refused.cookies).toBeUndefined();
  });

  it('proxy: { koa: true } trusts the chain: the first forwarded address, the forwarded protocol, secure cookies', async () => {
    const app = await open(`{ host: '127.0.0.1', port: 1337, proxy: { koa: true } }`);
    expect(await client(app, forwarded)).toMatchObject({ status: 200, body: { ip: '6.6.6.6', protocol: 'https' } });
    const secure = await client(app, forwarded, '?cookie=1');
    expect(secure.status).toBe(200);
    expect(secure.cookies).toEqual(['session=abc; path=/; secure; httponly']);
    // A request that did not come through the proxy's headers still has its socket's.
    expect((await client(app, {})).body).toEqual({ ip: '10.0.0.9', protocol: 'http' });
  });

  it('maxIpsCount keeps the last addresses of the chain (the proxies\' own): 1 names the address the one proxy saw', async () => {
    const app = await open(`{ host: '127.0.0.1', port: 1337, proxy: { koa: true, maxIpsCount: 1 } }`);
    expect((await client(app, forwarded)).body).toEqual({ ip: '203.0.113.7', protocol: 'https' });
    expect((await client(app, { 'x-forwarded-for': '198.51.100.1' })).body.ip).toBe('198.51.100.1');
  });

  it('ipHeader names the header the client address comes from; without it the socket counts, X-Forwarded-For aside', async () => {
    const app = await open(`{ host: '127.0.0.1', port: 1337, proxy: { koa: true, ipHeader: 'CF-Connecting-IP' } }`);
    expect((await client(app, { ...forwarded, 'cf-connecting-ip': '198.51.100.4' })).body).toEqual({ ip: '198.51.100.4', protocol: 'https' });
    expect((await client(app, forwarded)).body.ip).toBe('10.0.0.9');
  });

  it("a boolean proxy (Strapi v4's form) is ignored as Strapi 5 ignores it, with a warning that says what to write", async () => {
    const app = await open(`{ host: '127.0.0.1', port: 1337, proxy: true }`);
    expect((await client(app, forwarded)).body).toEqual({ ip: '10.0.0.9', protocol: 'http' });
    const warnings: string[] = [];
    await loadConfig(app.dir, {}, { warn: (message) => warnings.push(message) });
    expect(warnings).toEqual([
      `${join(app.dir, 'config', 'server.js')}: server.proxy is set: a boolean is Strapi v4's form: Strapi 5 reads server.proxy.koa, so X-Forwarded-* headers are not trusted (write proxy: { koa: true } to trust them)`,
    ]);
  });

  it("proxy.global (Strapi's proxy for its outgoing requests) is named in a warning: Cairn's S3 uploads go direct", async () => {
    const app = await open(`{ host: '127.0.0.1', port: 1337, proxy: { koa: true, global: 'http://proxy.example:3128' } }`);
    const warnings: string[] = [];
    await loadConfig(app.dir, {}, { warn: (message) => warnings.push(message) });
    expect(warnings).toEqual([
      `${join(app.dir, 'config', 'server.js')}: server.proxy.global is set: Strapi's proxy for its outgoing requests: Cairn's one outgoing client, the S3 upload provider, connects directly, so proxy.global is ignored`,
    ]);
  });

  it('a proxy setting of the wrong kind stops the start, naming the file and the key', async () => {
    await expect(appWith(`{ host: '127.0.0.1', port: 1337, proxy: 'yes' }`)).rejects.toThrow(/config[/]server\.js: server\.proxy must be an object \(\{ koa: true \} trusts a proxy's X-Forwarded-\* headers\), not "yes"/);
    await expect(appWith(`{ host: '127.0.0.1', port: 1337, proxy: { koa: true, maxIpsCount: -1 } }`)).rejects.toThrow(/server\.proxy\.maxIpsCount must be a whole number \(0 or more\), not -1/);
    await expect(appWith(`{ host: '127.0.0.1', port: 1337, proxy: { koa: 'true' } }`)).rejects.toThrow(/server\.proxy\.koa must be true or false, not "true"/);
  });
});
