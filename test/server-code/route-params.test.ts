import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, startupError, writeApp, writeFiles, type TestApp } from '../helpers/app.js';

// Strapi 5's extra Content API parameters: a route's `request` Zod schemas, and strapi.contentAPI.addQueryParams /
// addInputParams (route-params.ts). The example app (example-app.test.ts) shows them on routes with app code; here,
// on content-types without any, the registration's checks, and what stays unsupported.
const collection = (singularName: string, pluralName: string) => ({
  kind: 'collectionType',
  collectionName: pluralName,
  info: { singularName, pluralName, displayName: singularName },
  options: { draftAndPublish: false },
  attributes: { title: { type: 'string' } },
});
const schemas = { contentTypes: { article: collection('article', 'articles'), tag: collection('tag', 'tags') } };

function appWith(files: Record<string, string>): string {
  const dir = writeApp(schemas);
  writeFiles(dir, files);
  return dir;
}

const register = (body: string) => `module.exports = { register({ strapi }) { ${body} } };\n`;


describe('parameters added in register() on content-types without server code (SQLite)', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(
      'sqlite',
      appWith({
        'src/index.js': register(`
          strapi.contentAPI.addQueryParams({ ref: { schema: (z) => z.string().max(3), matchRoute: (route) => route.path.startsWith('/articles') } });
          strapi.contentAPI.addInputParams({ origin: { schema: (z) => z.enum(['web', 'app']), matchRoute: (route) => route.method === 'POST' } });
        `),
      }),
    );
  });
  afterAll(() => app?.close());

  it('the routes they match take them, checked by their schema; the others refuse them as unknown keys', async () => {
    const created = await app.request('POST', '/api/articles', { data: { title: 'One', origin: 'web' } });
    expect(created.status).toBe(201);
    expect(created.body.data).toEqual(expect.objectContaining({ title: 'One' }));
    expect(created.body.data).not.toHaveProperty('origin');
    const wrong = await app.request('POST', '/api/tags', { data: { title: 'news', origin: 'fax' } });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error).toMatchObject({ name: 'ValidationError', details: { key: 'origin', path: null, source: 'body', param: 'origin' } });
    expect((await app.request('GET', '/api/tags')).body.data).toEqual([]);

    const list = await app.request('GET', '/api/articles?ref=abc&fields[0]=title');
    expect(list.status).toBe(200);
    expect(list.body.data).toEqual([expect.objectContaining({ title: 'One' })]);
    const long = await app.request('GET', `/api/articles/${created.body.data.documentId}?ref=abcd`);
    expect(long.status).toBe(400);
    expect(long.body.error.details).toEqual({ key: 'ref', path: null, source: 'query', param: 'ref' });
    expect((await app.request('GET', '/api/tags?ref=abc')).body.error.message).toBe('Invalid key ref');
    // Not an update (matchRoute said POST): an unknown key of the entry there.
    const update = await app.request('PUT', `/api/articles/${created.body.data.documentId}`, { data: { origin: 'web' } });
    expect(update.status).toBe(400);
    expect(update.body.error.message).toBe('Invalid key origin');
  });
});

describe("the registration's checks stop the start with Strapi's messages", () => {
  const cases: Array<[string, Record<string, string>, string]> = [
    ['a reserved query key', { 'src/index.js': register(`strapi.contentAPI.addQueryParams({ filters: { schema: (z) => z.string() } });`) }, 'contentAPI.addQueryParams: param "filters" is reserved by Strapi; use a different name'],
    ['a reserved input key', { 'src/index.js': register(`strapi.contentAPI.addInputParams({ documentId: { schema: (z) => z.string() } });`) }, 'contentAPI.addInputParams: param "documentId" is reserved by Strapi; use a different name'],
    [
      'an object as a query parameter',
      { 'src/index.js': register(`strapi.contentAPI.addQueryParams({ box: { schema: (z) => z.object({ a: z.string() }) } });`) },
      'contentAPI.addQueryParams: param "box" schema must be a scalar (string, number, boolean, enum) or array of scalars; got object. Use addInputParams for nested objects.',
    ],
    ['a parameter added twice', { 'src/index.js': register(`const p = { ref: { schema: (z) => z.string() } }; strapi.contentAPI.addQueryParams(p); strapi.contentAPI.addQueryParams(p);`) }, 'contentAPI.addQueryParams: param "ref" has already been added'],
    ['a schema that is not one', { 'src/index.js': register(`strapi.contentAPI.addInputParams({ ref: { schema: 'string' } });`) }, 'contentAPI.addInputParams: param "ref": schema must be a Zod schema'],
    [
      'a parameter a route declares already',
      {
        'src/index.js': register(`strapi.contentAPI.addQueryParams({ ref: { schema: (z) => z.string() } });`),
        'src/api/article/routes/custom.js': `const { z } = require('@strapi/utils');\nmodule.exports = { routes: [{ method: 'GET', path: '/articles-ref', handler: async () => ({}), config: { auth: false }, request: { query: { ref: z.string() } } }] };\n`,
      },
      'contentAPI.addQueryParams: param "ref" already exists on route GET /articles-ref',
    ],
    [
      "a route's query schema that is not a schema",
      { 'src/api/article/routes/custom.js': `module.exports = { routes: [{ method: 'GET', path: '/articles-ref', handler: async () => ({}), request: { query: { ref: 'string' } } }] };\n` },
      'route GET /articles-ref: request.query.ref must be a Zod schema',
    ],
    [
      "a part of `request` Strapi does not have",
      { 'src/api/article/routes/custom.js': `module.exports = { routes: [{ method: 'GET', path: '/articles-ref', handler: async () => ({}), request: { headers: {} } }] };\n` },
      'route GET /articles-ref: request.headers is not supported by Cairn (request takes query, params and body)',
    ],
    [
      'a parameter added in bootstrap(), once the routes are registered (Strapi drops it without a word)',
      { 'src/index.js': `module.exports = { bootstrap({ strapi }) { strapi.contentAPI.addQueryParams({ ref: { schema: (z) => z.string() } }); } };\n` },
      'contentAPI.addQueryParams: the routes are registered already (this runs after register()): add parameters in register(), where they apply to the routes',
    ],
    ["strapi.contentAPI's other members", { 'src/index.js': register(`strapi.contentAPI.getRoutesMap();`) }, 'strapi.contentAPI.getRoutesMap is not provided by Cairn (it provides addQueryParams, addInputParams, sanitize, validate'],
    // The sanitizers read the model, which register() may still change (custom fields).
    ['sanitizing in register()', { 'src/index.js': register(`strapi.contentAPI.sanitize.query({}, {});`) }, 'cairn.model is built after register()'],
  ];
  for (const [what, files, message] of cases) {
    it(what, async () => {
      expect(await startupError(appWith(files))).toContain(message);
    });
  }

  it("a route's `response` schema describes it only, as in Strapi: an answer it does not describe is sent as it is", async () => {
    const app = await startTestApp(
      'sqlite',
      appWith({
        'src/api/article/routes/custom.js': `const { z } = require('@strapi/utils');\nmodule.exports = { routes: [{ method: 'GET', path: '/articles-ping', handler: async () => ({ pong: 1 }), config: { auth: false }, request: { params: { id: z.string() } }, response: z.object({ data: z.string() }) }] };\n`,
      }),
    );
    try {
      const ping = await app.request('GET', '/api/articles-ping');
      expect(ping.status).toBe(200);
      expect(ping.body).toEqual({ pong: 1 });
    } finally {
      await app.close();
    }
  });
});
