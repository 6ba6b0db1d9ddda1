import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { TAG } from '../helpers/schemas.js';
import { loadConfig } from '../../src/project/config.js';

// config/middlewares' `strapi::logger`: a line per request in Strapi's text (its middlewares/logger.js:
// `${ctx.method} ${ctx.url} (${delta} ms) ${ctx.status}`), written to Cairn's log.
const permissions = { roles: { public: { permissions: ['api::tag.tag.find'] } } };
const LINE = /^(GET|POST|PUT|DELETE|HEAD|OPTIONS) (\S+) \((\d+) ms\) (\d{3})$/;

const requestLines = (app: TestApp) =>
  app
    .logs()
    .filter((entry) => LINE.test(entry.msg))
    .map((entry) => {
      const [, method, url, ms, status] = LINE.exec(entry.msg)!;
      return { level: entry.level, method, url, ms: Number(ms), status: Number(status) };
    });

describe('strapi::logger', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp('sqlite', { contentTypes: { tag: TAG }, config: { middlewares: ['strapi::logger', 'strapi::errors', 'strapi::query', 'strapi::body'], permissions } });
  });
  afterAll(async () => app?.close());

  it('logs each request once it is answered: its method, URL with the query, whole milliseconds and status, errors too', async () => {
    const before = requestLines(app).length;
    expect((await app.request('GET', '/api/tags?sort=name&pagination[pageSize]=2', undefined, { authorization: '' })).status).toBe(200);
    expect((await app.request('POST', '/api/tags', { data: { name: 'x' } }, { authorization: '' })).status).toBe(403);
    expect((await app.request('GET', '/api/nope')).status).toBe(404);
    expect((await app.request('GET', '/api/tags?filters[nope][$eq]=1', undefined, { authorization: '' })).status).toBe(400);
    const lines = requestLines(app).slice(before);
    expect(lines.map(({ method, url, status }) => ({ method, url, status }))).toEqual([
      { method: 'GET', url: '/api/tags?sort=name&pagination[pageSize]=2', status: 200 },
      { method: 'POST', url: '/api/tags', status: 403 },
      { method: 'GET', url: '/api/nope', status: 404 },
      { method: 'GET', url: '/api/tags?filters[nope][$eq]=1', status: 400 },
    ]);
    // pino's info; Math.ceil of the elapsed time: at least 1 ms.
    for (const line of lines) {
      expect(line.level).toBe(30);
      expect(line.ms).toBeGreaterThanOrEqual(1);
    }
  });
});

describe('without strapi::logger', () => {
  it('no request is logged; a config given to strapi::logger is a warning (it takes none)', async () => {
    const app = await startTestApp('sqlite', { contentTypes: { tag: TAG }, config: { middlewares: ['strapi::errors', { name: 'strapi::logger', config: { level: 'debug' } }], permissions } });
    const quiet = await startTestApp('sqlite', { contentTypes: { tag: TAG }, config: { middlewares: ['strapi::errors'], permissions } });
    try {
      const warnings: string[] = [];
      await loadConfig(app.dir, {}, { warn: (message) => warnings.push(message) });
      expect(warnings).toEqual([expect.stringMatching(/middlewares\[1\] "strapi::logger" has a config: strapi::logger takes none$/)]);
      expect((await quiet.request('GET', '/api/tags', undefined, { authorization: '' })).status).toBe(200);
      expect(requestLines(quiet)).toEqual([]);
    } finally {
      await app.close();
      await quiet.close();
    }
  });
});
