import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import zlib from 'node:zlib';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, startupError, writeApp, writeFiles, type TestApp } from '../helpers/app.js';
import { TAG } from '../helpers/schemas.js';
import { loadConfig } from '../../src/project/config.js';
import { preferredEncoding } from '../../src/app/compression.js';

// config/middlewares' strapi::public, strapi::favicon and strapi::compression, answered as real Strapi 5.54 answers
// them (probed: koa-static/koa-send, koa-favicon and koa-compress under Strapi's template list).
const permissions = { roles: { public: { permissions: ['api::tag.tag.find'] } } };
const TEMPLATE = ['strapi::logger', 'strapi::errors', 'strapi::security', 'strapi::cors', 'strapi::poweredBy', 'strapi::query', 'strapi::body', 'strapi::session', 'strapi::favicon', 'strapi::public'];
const BIG = 'Lorem ipsum dolor sit amet. '.repeat(100); // 2800 bytes
const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
const ICON = Buffer.from('00000100', 'hex');

/** An app folder with public/ files and icons, and `middlewares` as config/middlewares.js's text. */
function appFolder(middlewares: string | undefined, extra: Record<string, string> = {}): string {
  const dir = writeApp({ contentTypes: { tag: TAG }, config: { permissions } });
  writeFiles(dir, {
    'public/robots.txt': '# robots\nUser-Agent: *\n',
    'public/big.txt': BIG,
    'public/index.html': '<h1>root index</h1>',
    'public/sub/index.html': '<h1>sub index</h1>',
    'public/.hidden': 'secret',
    'public/uploads/x.txt': 'an upload',
    'public/pre.txt': 'plain pre',
    ...(middlewares === undefined ? {} : { 'config/middlewares.js': middlewares }),
    ...extra,
  });
  writeFileSync(join(dir, 'public', 'pre.txt.gz'), zlib.gzipSync('gzipped pre'));
  if (!('favicon.png' in extra)) writeFileSync(join(dir, 'favicon.png'), PNG);
  writeFileSync(join(dir, 'custom.ico'), ICON);
  return dir;
}

async function appWith(middlewares: string | undefined, extra: Record<string, string> = {}): Promise<TestApp> {
  const dir = appFolder(middlewares, extra);
  const app = await startTestApp('sqlite', dir);
  const close = app.close.bind(app);
  return { ...app, close: async () => (await close(), rmSync(dir, { recursive: true, force: true })) };
}

const list = (...entries: unknown[]) => `module.exports = ${JSON.stringify(entries)};`;
const get = (app: TestApp, url: string, headers: Record<string, string> = {}, method: 'GET' | 'HEAD' | 'POST' | 'OPTIONS' = 'GET') => app.cairn.fastify.inject({ method, url, headers });
/** The answer's body, decoded from its Content-Encoding. */
function decoded(res: LightMyRequestResponse): string {
  const raw = res.rawPayload;
  const encoding = res.headers['content-encoding'];
  return (encoding === 'br' ? zlib.brotliDecompressSync(raw) : encoding === 'gzip' ? zlib.gunzipSync(raw) : encoding === 'deflate' ? zlib.inflateSync(raw) : raw).toString();
}
/** Five tags with long names: /api/tags answers over 1 KB. */
async function seed(app: TestApp): Promise<void> {
  for (let i = 0; i < 5; i++) {
    const res = await app.request('POST', '/api/tags', { data: { name: `${i} ${BIG.slice(0, 200)}` } });
    expect(res.status, res.raw).toBe(201);
  }
}
const notFound = { data: null, error: { status: 404, name: 'NotFoundError', message: 'Not Found', details: {} } };

describe("strapi::public and strapi::favicon as Strapi's template lists them", () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await appWith(list(...TEMPLATE));
  });
  afterAll(async () => app?.close());

  it("a file of public/ is koa-send's answer: max-age a minute, Last-Modified, no ETag, ranges or 304", async () => {
    const res = await get(app, '/robots.txt');
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('# robots\nUser-Agent: *\n');
    expect(res.headers).toMatchObject({ 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'max-age=60', 'content-length': '23' });
    expect(new Date(String(res.headers['last-modified'])).getTime()).toBeGreaterThan(0);
    for (const name of ['etag', 'accept-ranges', 'content-encoding']) expect(res.headers[name], name).toBeUndefined();
    expect(res.headers.vary).toBe('Origin');
    const head = await get(app, '/robots.txt', {}, 'HEAD');
    expect([head.statusCode, head.body, head.headers['content-length'], head.headers['cache-control']]).toEqual([200, '', '23', 'max-age=60']);
    // Strapi answers neither a conditional request nor a range: the whole file, 200.
    const tomorrow = new Date(Date.now() + 86_400_000).toUTCString();
    for (const headers of [{ 'if-modified-since': tomorrow }, { range: 'bytes=0-3' }] as Array<Record<string, string>>) {
      const again = await get(app, '/robots.txt', headers);
      expect([again.statusCode, again.body]).toEqual([200, '# robots\nUser-Agent: *\n']);
    }
    expect((await get(app, '/robots.txt?v=2')).statusCode).toBe(200);
  });

  it('a folder is its index.html, with or without its slash; a dot name, a missing file or a path out of public/ is refused', async () => {
    for (const url of ['/sub', '/sub/', '/sub/index.html']) expect((await get(app, url)).body, url).toBe('<h1>sub index</h1>');
    expect((await get(app, '/index.html')).body).toBe('<h1>root index</h1>');
    for (const url of ['/.hidden', '/nothing.txt', '/robots.txt/', '/favicon.png']) {
      const res = await get(app, url);
      expect(res.statusCode, url).toBe(404);
      expect(res.json(), url).toEqual(notFound);
    }
    // The app folder's favicon.png, one level up, is not served (Strapi: a 403 ForbiddenError).
    for (const url of ['/%2e%2e/favicon.png', '/..%2ffavicon.png', '/sub/%2e%2e/%2e%2e/favicon.png']) {
      const out = await get(app, url);
      expect([403, 404], url).toContain(out.statusCode);
      expect(out.json().error.name, url).toMatch(/^(Forbidden|NotFound)Error$/);
    }
  });

  it('<file>.gz is sent for <file> to a client that accepts gzip, as koa-send does', async () => {
    const zipped = await get(app, '/pre.txt', { 'accept-encoding': 'gzip' });
    expect(zipped.headers).toMatchObject({ 'content-encoding': 'gzip', 'content-type': 'text/plain; charset=utf-8' });
    expect(decoded(zipped)).toBe('gzipped pre');
    expect((await get(app, '/pre.txt')).body).toBe('plain pre');
  });

  it("GET / redirects to the admin panel's URL, as Strapi's does even without its admin panel", async () => {
    const res = await get(app, '/');
    expect(res.statusCode).toBe(302);
    expect(res.headers).toMatchObject({ location: '/admin', 'content-type': 'text/html; charset=utf-8', 'x-powered-by': 'Strapi <strapi.io>' });
    expect(res.body).toBe('Redirecting to /admin.');
    const head = await get(app, '/', {}, 'HEAD');
    expect([head.statusCode, head.headers.location, head.body]).toEqual([302, '/admin', '']);
    const json = await get(app, '/', { accept: 'application/json' });
    expect([json.statusCode, json.headers['content-type'], json.body]).toEqual([302, 'text/plain; charset=utf-8', 'Redirecting to /admin.']);
  });

  it("the media library's files keep their own answer (a day's cache, ETag, ranges)", async () => {
    const res = await get(app, '/uploads/x.txt');
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('an upload');
    expect(res.headers['cache-control']).toBe('public, max-age=86400');
    expect(res.headers.etag).toBeDefined();
  });

  it("/favicon.ico is the icon (favicon.png, Strapi's default) as image/x-icon, cached a day; other methods as koa-favicon answers them", async () => {
    for (const url of ['/favicon.ico', '/favicon.ico?v=2']) {
      const res = await get(app, url);
      expect(res.statusCode, url).toBe(200);
      expect(res.headers).toMatchObject({ 'content-type': 'image/x-icon', 'cache-control': 'public, max-age=86400', 'content-length': String(PNG.length) });
      expect(res.rawPayload.equals(PNG)).toBe(true);
    }
    const head = await get(app, '/favicon.ico', {}, 'HEAD');
    expect([head.statusCode, head.body, head.headers['content-type']]).toEqual([200, '', 'image/x-icon']);
    const post = await get(app, '/favicon.ico', {}, 'POST');
    expect([post.statusCode, post.headers.allow, post.headers['content-type'], post.body]).toEqual([405, 'GET, HEAD, OPTIONS', 'text/plain; charset=utf-8', 'Method Not Allowed']);
    const options = await get(app, '/favicon.ico', {}, 'OPTIONS');
    expect([options.statusCode, options.headers.allow, options.body]).toEqual([200, 'GET, HEAD, OPTIONS', 'OK']);
    // A CORS preflight is strapi::cors' (listed before it), as in Strapi.
    const preflight = await get(app, '/favicon.ico', { origin: 'https://app.example.com', 'access-control-request-method': 'GET' }, 'OPTIONS');
    expect(preflight.statusCode).toBe(204);
  });

  it('without strapi::compression nothing is compressed nor varies by Accept-Encoding', async () => {
    await seed(app);
    const res = await get(app, '/api/tags', { 'accept-encoding': 'gzip, deflate, br' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers.vary).toBe('Origin');
    expect((await get(app, '/big.txt', { 'accept-encoding': 'gzip' })).headers['content-encoding']).toBeUndefined();
  });
});

describe("strapi::public's and strapi::favicon's config", () => {
  it('maxAge (milliseconds) sets each one\'s Cache-Control; favicon.path names the icon; GET / goes to admin.url', async () => {
    const app = await appWith(
      list('strapi::errors', 'strapi::cors', { name: 'strapi::favicon', config: { path: 'custom.ico', maxAge: 5000 } }, { name: 'strapi::public', config: { maxAge: '1500' } }),
      { 'config/admin.js': "module.exports = { url: 'https://admin.example.com/panel/' };" },
    );
    try {
      expect((await get(app, '/robots.txt')).headers['cache-control']).toBe('max-age=1');
      const icon = await get(app, '/favicon.ico');
      expect(icon.headers['cache-control']).toBe('public, max-age=5');
      expect(icon.rawPayload.equals(ICON)).toBe(true);
      const root = await get(app, '/');
      expect([root.statusCode, root.headers.location, root.body]).toEqual([302, 'https://admin.example.com/panel', 'Redirecting to https://admin.example.com/panel.']);
    } finally {
      await app.close();
    }
  });

  it('a relative admin.url is under server.url, as Strapi computes it', async () => {
    const app = await appWith(list('strapi::errors', 'strapi::public'), {
      'config/server.js': "module.exports = { url: 'https://api.example.com/cms' };",
      'config/admin.js': "module.exports = { url: '/dashboard' };",
    });
    try {
      expect((await get(app, '/')).headers.location).toBe('https://api.example.com/cms/dashboard');
    } finally {
      await app.close();
    }
  });

  it("an icon path that is no file falls back to favicon.png, then favicon.ico; with none, /favicon.ico is a 404 (Strapi's a 500)", async () => {
    const app = await appWith(list('strapi::errors', { name: 'strapi::favicon', config: { path: 'nope.ico' } }));
    try {
      expect((await get(app, '/favicon.ico')).rawPayload.equals(PNG)).toBe(true);
    } finally {
      await app.close();
    }
    const dir = appFolder(list('strapi::errors', 'strapi::favicon'));
    rmSync(join(dir, 'favicon.png'));
    const bare = await startTestApp('sqlite', dir);
    try {
      const res = await get(bare, '/favicon.ico');
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual(notFound);
    } finally {
      await bare.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('strapi::compression with koa-compress\' defaults', () => {
  let app: TestApp;
  beforeAll(async () => {
    // Where Strapi's own example app lists it: before strapi::favicon and strapi::public.
    app = await appWith(list(...TEMPLATE.slice(0, 8), 'strapi::compression', ...TEMPLATE.slice(8)));
    await seed(app);
  });
  afterAll(async () => app?.close());

  it('an answer over 1 KB is compressed in the encoding the client prefers, br before gzip before deflate', async () => {
    const plain = await get(app, '/api/tags');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(Number(plain.headers['content-length'])).toBeGreaterThan(1500);
    for (const [accepted, encoding] of [
      ['gzip, deflate, br', 'br'],
      ['br', 'br'],
      ['gzip', 'gzip'],
      ['deflate', 'deflate'],
      ['*', 'gzip'],
      ['br;q=0.5, gzip', 'gzip'],
      ['identity, gzip;q=0.5', 'gzip'],
    ]) {
      const res = await get(app, '/api/tags', { 'accept-encoding': accepted });
      expect(res.statusCode, accepted).toBe(200);
      expect(res.headers['content-encoding'], accepted).toBe(encoding);
      expect(res.headers.vary, accepted).toBe('Origin, Accept-Encoding');
      expect(decoded(res), accepted).toBe(plain.body);
      expect(res.rawPayload.length, accepted).toBeLessThan(plain.rawPayload.length / 2);
    }
  });

  it('an encoding koa-compress does not offer, a HEAD or a small answer is sent as it is; refusing identity too is a 406', async () => {
    for (const accepted of ['zstd', 'x-gzip', 'identity', 'GZIP']) {
      const res = await get(app, '/api/tags', { 'accept-encoding': accepted });
      expect(res.headers['content-encoding'], accepted).toBeUndefined();
      expect(res.headers.vary, accepted).toBe('Origin, Accept-Encoding');
    }
    const head = await get(app, '/api/tags', { 'accept-encoding': 'gzip' }, 'HEAD');
    expect([head.statusCode, head.headers['content-encoding'], head.body]).toEqual([200, undefined, '']);
    const small = await get(app, '/api/tags?fields[0]=name&pagination[pageSize]=1&filters[name][$startsWith]=0', { 'accept-encoding': 'gzip' });
    expect(small.headers['content-encoding']).toBeUndefined();
    const refused = await get(app, '/api/tags', { 'accept-encoding': 'identity;q=0' });
    expect(refused.statusCode).toBe(406);
    expect(refused.json()).toEqual({ data: null, error: { status: 406, name: 'NotAcceptableError', message: 'Please accept br, gzip, deflate, or identity.' } });
  });

  it('every answer varies by Accept-Encoding, errors and redirects included; public files are compressed by their size and type', async () => {
    for (const url of ['/api/nope', '/api/tags?filters[nope]=1', '/', '/robots.txt', '/favicon.ico']) expect((await get(app, url, { 'accept-encoding': 'gzip' })).headers.vary, url).toBe('Origin, Accept-Encoding');
    const big = await get(app, '/big.txt', { 'accept-encoding': 'gzip, deflate, br' });
    expect(big.headers).toMatchObject({ 'content-encoding': 'br', 'cache-control': 'max-age=60', 'content-type': 'text/plain; charset=utf-8' });
    expect(decoded(big)).toBe(BIG);
    expect((await get(app, '/robots.txt', { 'accept-encoding': 'gzip' })).headers['content-encoding']).toBeUndefined();
    // A file sent gzipped already is not compressed again.
    const pre = await get(app, '/pre.txt', { 'accept-encoding': 'gzip' });
    expect(decoded(pre)).toBe('gzipped pre');
  });

  it('GraphQL answers are compressed too', async () => {
    const res = await app.cairn.fastify.inject({ method: 'POST', url: '/graphql', headers: { 'content-type': 'application/json', 'accept-encoding': 'gzip' }, payload: JSON.stringify({ query: '{ tags { name } }' }) });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(decoded(res)).data.tags).toHaveLength(5);
  });
});

describe("strapi::compression's config", () => {
  it('threshold, br: false, and a filter of the content type, as koa-compress reads them', async () => {
    const app = await appWith(`module.exports = [
      'strapi::errors',
      { name: 'strapi::compression', config: { threshold: 0, br: false, gzip: { level: 1 }, filter: (type) => type.startsWith('text/') } },
      'strapi::favicon', 'strapi::public',
    ];`);
    try {
      // The filter refuses JSON; br is not offered (gzip then, or nothing).
      expect((await get(app, '/api/tags', { 'accept-encoding': 'gzip' })).headers['content-encoding']).toBeUndefined();
      const small = await get(app, '/robots.txt', { 'accept-encoding': 'br, gzip' });
      expect(small.headers['content-encoding']).toBe('gzip');
      expect(decoded(small)).toBe('# robots\nUser-Agent: *\n');
      expect((await get(app, '/robots.txt', { 'accept-encoding': 'br' })).headers['content-encoding']).toBeUndefined();
      expect((await get(app, '/', { 'accept-encoding': 'gzip' })).headers['content-encoding']).toBe('gzip');
    } finally {
      await app.close();
    }
  });

  it("a string threshold is koa's bytes ('2kb'); listed after strapi::favicon, it never compresses the icon, which then does not vary", async () => {
    const app = await appWith(list('strapi::errors', 'strapi::cors', 'strapi::favicon', 'strapi::public', { name: 'strapi::compression', config: { threshold: '2kb' } }), {
      'public/mid.txt': BIG.slice(0, 1500),
      'favicon.png': BIG,
    });
    try {
      expect((await get(app, '/mid.txt', { 'accept-encoding': 'gzip' })).headers['content-encoding']).toBeUndefined();
      expect((await get(app, '/big.txt', { 'accept-encoding': 'gzip' })).headers['content-encoding']).toBe('gzip');
      const icon = await get(app, '/favicon.ico', { 'accept-encoding': 'gzip' });
      expect([icon.headers['content-encoding'], icon.headers.vary, icon.body]).toEqual([undefined, 'Origin', BIG]);
    } finally {
      await app.close();
    }
  });

  it("listed before strapi::cors, Accept-Encoding comes first in Vary, as in Strapi", async () => {
    const app = await appWith(list('strapi::compression', 'strapi::errors', 'strapi::cors'));
    try {
      expect((await get(app, '/api/tags')).headers.vary).toBe('Accept-Encoding, Origin');
    } finally {
      await app.close();
    }
  });

  it("koa-compress' negotiation: weights, then br, gzip, deflate; * is gzip or deflate; identity;q=0 with nothing else is refused", () => {
    const all = ['br', 'gzip', 'deflate'] as const;
    expect(preferredEncoding('gzip;q=0.8, deflate;q=0.9', all)).toBe('deflate');
    expect(preferredEncoding('*', ['br', 'deflate'])).toBe('deflate');
    expect(preferredEncoding('br', ['gzip', 'deflate'])).toBe('identity');
    expect(preferredEncoding('br, identity;q=0', ['gzip'])).toBeUndefined();
    expect(preferredEncoding('identity', all)).toBe('identity');
  });
});

describe("bad config stops the start, named; an option Cairn does not apply is a warning", () => {
  const folders: string[] = [];
  afterAll(() => folders.forEach((dir) => rmSync(dir, { recursive: true, force: true })));
  const refused = async (entry: unknown) => {
    const dir = appFolder(`module.exports = ['strapi::errors', ${typeof entry === 'string' ? entry : JSON.stringify(entry)}];`);
    folders.push(dir);
    return startupError(dir);
  };

  it('each option of the wrong type, and a mapped middleware listed twice', async () => {
    const file = 'config/middlewares.js: middlewares[1]';
    const cases: Array<[unknown, string]> = [
      [{ name: 'strapi::public', config: { maxAge: 'soon' } }, '.config.maxAge (strapi::public) must be a number of milliseconds (0 or more: how long clients may cache a file of public/), not "soon"'],
      [{ name: 'strapi::public', config: 60 }, '.config (strapi::public) must be an object { maxAge }, not 60'],
      [{ name: 'strapi::favicon', config: { path: 5 } }, ".config.path (strapi::favicon) must be the icon file's path from the app's folder (a non-empty string), not 5"],
      [{ name: 'strapi::favicon', config: { maxAge: -1 } }, '.config.maxAge (strapi::favicon) must be a number of milliseconds (0 or more: how long clients may cache the icon), not -1'],
      [{ name: 'strapi::compression', config: { threshold: -1 } }, '.config.threshold (strapi::compression) must be a size in bytes (0 or more, or a string like "1kb"), not -1'],
      ["{ name: 'strapi::compression', config: { filter: 'text/*' } }", `.config.filter (strapi::compression) must be a function of the answer's content type, not "text/*"`],
      [{ name: 'strapi::compression', config: { br: 'yes' } }, '.config.br (strapi::compression) must be false (not offered) or an object of zlib\'s options, not "yes"'],
      [{ name: 'strapi::compression', config: { defaultEncoding: 3 } }, '.config.defaultEncoding (strapi::compression) must be an Accept-Encoding value (such as "identity" or "gzip"), not 3'],
    ];
    for (const [entry, problem] of cases) {
      const message = await refused(entry);
      expect(message.endsWith(`${file}${problem}`), `${message}\n  wanted …${file}${problem}`).toBe(true);
    }
    expect(await refused({ name: 'strapi::compression', config: { gzip: { level: 42 } } })).toMatch(/middlewares\[1\]\.config\.gzip \(strapi::compression\) is not options zlib takes: .*level.*42/);
    expect(await refused("'strapi::public', 'strapi::public'")).toMatch(/middlewares\[2\] lists strapi::public again \(it is middlewares\[1\] already\)/);
  });

  it('options Strapi does not pass on, or koa-compress does not have, are warnings naming them', async () => {
    const dir = appFolder(
      list(
        { name: 'strapi::public', config: { maxAge: 1000, index: 'home.html' } },
        { name: 'strapi::favicon', config: { mime: 'image/png' } },
        { name: 'strapi::compression', config: { treshold: 10 } },
      ),
    );
    try {
      const warnings: string[] = [];
      await loadConfig(dir, {}, { warn: (m) => warnings.push(m) });
      const file = join(dir, 'config', 'middlewares.js');
      expect(warnings).toEqual([
        `${file}: middlewares[0] "strapi::public" config.index is not an option of strapi::public: it takes maxAge (Strapi passes no other option to koa-static)`,
        `${file}: middlewares[1] "strapi::favicon" config.mime is not an option of strapi::favicon: it takes path and maxAge (Strapi passes no other option to koa-favicon)`,
        `${file}: middlewares[2] "strapi::compression" config.treshold is not an option of koa-compress, which strapi::compression passes its config to: did you mean threshold? it takes threshold, filter, defaultEncoding, br, gzip, deflate`,
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('without strapi::public, strapi::favicon and strapi::compression (an app written for Cairn)', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await appWith(list('strapi::errors', 'strapi::cors', 'strapi::query'));
    await seed(app);
  });
  afterAll(async () => app?.close());

  it('public/ is served as Cairn serves it (a day, ETag, index.html at /), no icon, nothing compressed', async () => {
    const robots = await get(app, '/robots.txt');
    expect(robots.headers).toMatchObject({ 'cache-control': 'public, max-age=86400', 'accept-ranges': 'bytes' });
    expect(robots.headers.etag).toBeDefined();
    expect((await get(app, '/', {})).body).toBe('<h1>root index</h1>');
    expect((await get(app, '/favicon.ico')).statusCode).toBe(404);
    const res = await get(app, '/api/tags', { 'accept-encoding': 'gzip, br' });
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers.vary).toBe('Origin');
  });
});
