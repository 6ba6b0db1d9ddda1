import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, startupError, writeApp, writeFiles, type TestApp } from '../helpers/app.js';
import { TAG } from '../helpers/schemas.js';

// config/middlewares' `strapi::responses`: its handlers by status, run once the request is answered, as Strapi 5.54
// runs them (probed: the same list on real Strapi, each request below; where it sits against strapi::errors decides
// which answers its handlers see).
const HANDLERS = `{ name: 'strapi::responses', config: { handlers: {
  200: (ctx) => { ctx.set('x-handled', '200'); },
  404: (ctx) => { ctx.set('x-handled', '404'); if (ctx.get('x-replace')) ctx.body = { custom: 'not found', had: ctx.body === undefined ? 'nothing' : typeof ctx.body }; },
  403: (ctx) => { ctx.set('x-handled', '403'); },
  400: (ctx) => { ctx.set('x-handled', '400'); },
} } }`;
const permissions = { roles: { public: { permissions: ['api::tag.tag.find', 'api::tag.tag.findOne'] } } };

async function appWith(list: string[]): Promise<TestApp> {
  const dir = writeApp({ contentTypes: { tag: TAG }, config: { permissions } });
  writeFiles(dir, { 'config/middlewares.js': `module.exports = [${list.join(', ')}];` });
  return startTestApp('sqlite', dir);
}

const none = { authorization: '' };
const answer = async (app: TestApp, method: string, url: string, headers: Record<string, string> = none) => {
  const res = await app.cairn.fastify.inject({ method: method as 'GET', url, headers, ...(method === 'POST' ? { payload: { data: { name: 'x' } } } : {}) });
  return { status: res.statusCode, handled: res.headers['x-handled'], body: res.json() as Record<string, unknown> };
};
const notFound = { data: null, error: { status: 404, name: 'NotFoundError', message: 'Not Found', details: {} } };

describe('strapi::responses listed after strapi::errors (where a list adds it)', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await appWith(["'strapi::errors'", "'strapi::query'", "'strapi::body'", HANDLERS]);
  });
  afterAll(async () => app?.close());

  it("runs the handler of the answer's status: a 200, and the 403 of the permission check with its error body", async () => {
    expect(await answer(app, 'GET', '/api/tags')).toMatchObject({ status: 200, handled: '200', body: { data: [] } });
    const refused = await answer(app, 'POST', '/api/tags');
    expect(refused).toMatchObject({ status: 403, handled: '403', body: { error: { name: 'ForbiddenError' } } });
  });

  it('a 404 of no route or no document reaches it with no body: a body it sets is the answer (200), none leaves the NotFoundError', async () => {
    for (const url of ['/api/nope', '/api/tags/nosuchdocument']) {
      expect(await answer(app, 'GET', url, { ...none, 'x-replace': '1' }), url).toEqual({ status: 200, handled: '404', body: { custom: 'not found', had: 'nothing' } });
      expect(await answer(app, 'GET', url), url).toEqual({ status: 404, handled: '404', body: notFound });
    }
  });

  it('an error thrown past it (a bad query) is answered by strapi::errors without its handler', async () => {
    const bad = await answer(app, 'GET', '/api/tags?filters[nope][$eq]=1');
    expect(bad).toMatchObject({ status: 400, body: { error: { name: 'ValidationError', message: 'Invalid key nope' } } });
    expect(bad.handled).toBeUndefined();
  });
});

describe('strapi::responses listed before strapi::errors', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await appWith([HANDLERS, "'strapi::errors'", "'strapi::query'", "'strapi::body'"]);
  });
  afterAll(async () => app?.close());

  it('sees every answer, errors included, as strapi::errors made them (a 404 keeps its status)', async () => {
    const bad = await answer(app, 'GET', '/api/tags?filters[nope][$eq]=1');
    expect(bad).toMatchObject({ status: 400, handled: '400', body: { error: { name: 'ValidationError' } } });
    expect(await answer(app, 'GET', '/api/nope', { ...none, 'x-replace': '1' })).toEqual({ status: 404, handled: '404', body: { custom: 'not found', had: 'object' } });
    expect(await answer(app, 'GET', '/api/tags')).toMatchObject({ status: 200, handled: '200' });
  });
});

describe("strapi::responses' config", () => {
  it('handlers must be functions by HTTP status: anything else stops the start, named', async () => {
    const start = async (config: string) => {
      const dir = writeApp({ contentTypes: { tag: TAG } });
      writeFiles(dir, { 'config/middlewares.js': `module.exports = ['strapi::errors', { name: 'strapi::responses', config: ${config} }];` });
      return startupError(dir);
    };
    expect(await start("{ handlers: { 404: 'page' } }")).toMatch(/middlewares\[1\]\.config\.handlers\.404 \(strapi::responses\) must be a function \(ctx, next\), not "page"/);
    expect(await start('{ handlers: { notFound: () => {} } }')).toMatch(/config\.handlers\.notFound \(strapi::responses\) is not an HTTP status \(100-599\)/);
    expect(await start('{ handlers: [] }')).toMatch(/config\.handlers \(strapi::responses\) must be an object of functions by status/);
  });
});
