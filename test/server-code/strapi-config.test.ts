import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createCairn } from '../../src/app/cairn.js';
import { createLogger } from '../../src/app/logger.js';
import { startTestApp, writeApp, type TestApp } from '../helpers/app.js';

/**
 * `strapi.config` as Strapi 5.54's config provider: `get`, `set`, `has` over the app's config, one object for
 * register/bootstrap, server code and the Document Service. A set takes effect where Cairn reads the key at each use
 * (`api.documents.strictParams`, the app's own keys); a set that would change a key Cairn compiled at start throws,
 * naming it.
 */
const ARTICLE = {
  kind: 'collectionType',
  collectionName: 'articles',
  info: { singularName: 'article', pluralName: 'articles', displayName: 'Article' },
  options: { draftAndPublish: true },
  pluginOptions: { i18n: { localized: true } },
  attributes: { title: { type: 'string', pluginOptions: { i18n: { localized: true } } } },
};

/** A type without i18n and without server code: REST serves it from its compiled reader. */
const NOTE = {
  kind: 'collectionType',
  collectionName: 'notes',
  info: { singularName: 'note', pluralName: 'notes', displayName: 'Note' },
  options: { draftAndPublish: false },
  attributes: { text: { type: 'string' } },
};

const INDEX = `
module.exports = {
  register({ strapi }) {
    strapi.config.set('custom.fromRegister', { at: 'register' }).set('plugin::my-plugin.flag', true);
  },
  bootstrap({ strapi }) {
    globalThis.__strapiConfig = {
      fromRegister: strapi.config.get('custom.fromRegister'),
      flag: strapi.config.get('plugin::my-plugin.flag'),
      deprecatedFlag: strapi.config.get('plugin.my-plugin.flag'),
      defaultLimit: strapi.config.get('api.rest.defaultLimit'),
      byArray: strapi.config.get(['api', 'rest', 'maxLimit']),
      fallback: strapi.config.get('custom.missing', 'fallback'),
      hasLimit: strapi.config.has('api.rest.defaultLimit'),
      hasMissing: strapi.config.has('api.rest.nothing'),
      hasPlugin: strapi.config.has('plugin::my-plugin.flag'),
      member: strapi.config.api.rest.withCount,
    };
  },
};`;

const ROUTES = `module.exports = { routes: [{ method: 'GET', path: '/config-value', handler: 'article.configValue', config: { auth: false } }] };`;
const CONTROLLER = `
const { factories } = require('@strapi/strapi');
module.exports = factories.createCoreController('api::article.article', ({ strapi }) => ({
  async configValue(ctx) {
    ctx.body = { value: strapi.config.get('custom.switch', 'unset'), has: strapi.config.has('custom.switch') };
  },
}));`;

const STRICT = 'api.documents.strictParams';
const UID = 'api::article.article';

let app: TestApp;
beforeAll(async () => {
  const dir = writeApp({
    contentTypes: { article: ARTICLE, note: NOTE },
    config: { plugins: { i18n: { config: { locales: ['en', 'fr'], defaultLocale: 'en' } } } },
    index: INDEX,
  });
  for (const [folder, file, text] of [
    ['routes', 'custom.js', ROUTES],
    ['routes', 'article.js', `module.exports = require('@strapi/strapi').factories.createCoreRouter('api::article.article');`],
    ['controllers', 'article.js', CONTROLLER],
  ]) {
    mkdirSync(join(dir, 'src', 'api', 'article', folder), { recursive: true });
    writeFileSync(join(dir, 'src', 'api', 'article', folder, file), text);
  }
  app = await startTestApp('sqlite', dir);
});
afterAll(() => app?.close());

const config = () => app.cairn.strapi.config;
const documents = () => app.cairn.strapi.documents(UID) as unknown as Record<string, (params?: Record<string, unknown>) => Promise<{ documentId: string } & Record<string, unknown>>>;

describe('get, set and has', () => {
  it('register sets keys that bootstrap reads; paths as text, arrays, plugin:: and the deprecated plugin.; has; members', () => {
    expect((globalThis as { __strapiConfig?: unknown }).__strapiConfig).toEqual({
      fromRegister: { at: 'register' },
      flag: true,
      deprecatedFlag: true,
      defaultLimit: 25,
      byArray: 100,
      fallback: 'fallback',
      hasLimit: true,
      hasMissing: false,
      hasPlugin: true,
      member: true,
    });
  });

  it('a set while running is what server code reads next (one config for the app and its routes)', async () => {
    expect((await app.request('GET', '/api/config-value', undefined, { authorization: '' })).body).toEqual({ value: 'unset', has: false });
    config().set('custom.switch', 'on');
    expect((await app.request('GET', '/api/config-value', undefined, { authorization: '' })).body).toEqual({ value: 'on', has: true });
    config().set('custom.switch', undefined);
    // lodash's has: the key is there, its value undefined (Strapi's provider answers so too).
    expect((await app.request('GET', '/api/config-value', undefined, { authorization: '' })).body).toEqual({ value: 'unset', has: true });
  });

  it('set answers the config (chained) and makes the objects a path needs, arrays for numeric keys as lodash does', () => {
    expect(config().set('custom.list[1].name', 'b')).toBe(config());
    expect(config().get('custom.list')).toEqual([undefined, { name: 'b' }]);
    expect(config().has('custom.list[1].name')).toBe(true);
  });
});

describe('a set of a key Cairn compiled at start throws, naming the key', () => {
  it('api.rest.defaultLimit (compiled into the readers): the set throws, the value and REST stay', async () => {
    expect(() => config().set('api.rest.defaultLimit', 50)).toThrow(
      "strapi.config.set('api.rest.defaultLimit', 50): Cairn reads api.rest.defaultLimit once, at start (its routes, readers and plugins are built from it), so a change while it runs would not apply: set it in config/api.js and restart",
    );
    expect(config().get('api.rest.defaultLimit')).toBe(25);
  });

  it('a whole section replaced names the compiled key that would change; one that keeps them passes', () => {
    const rest = config().get('api.rest') as Record<string, unknown>;
    expect(() => config().set('api.rest', { ...rest, maxLimit: 7 })).toThrow(/Cairn reads api\.rest\.maxLimit once, at start/);
    expect(() => config().set('api.rest.defaultLimit', 25)).not.toThrow();
    config().set('api', { ...(config().get('api') as object), rest: { ...rest, strictParams: true } });
    expect(config().get('api.rest.strictParams')).toBe(true);
  });

  it('plugins (plugin:: and plugins.<name>), middlewares, server', () => {
    expect(() => config().set('plugin::graphql.depthLimit', 3)).toThrow(/Cairn reads plugin::graphql\.depthLimit once, at start.*config\/plugins\.js/);
    expect(() => config().set('plugins.graphql.config.depthLimit', 3)).toThrow(/Cairn reads plugins\.graphql\.config\.depthLimit once, at start/);
    expect(() => config().set('plugin::users-permissions.jwt.expiresIn', '1d')).toThrow(/Cairn reads plugin::users-permissions\.jwt\.expiresIn once, at start/);
    expect(() => config().set('plugin::users-permissions.jwt', { algorithm: 'HS512' })).toThrow(/Cairn reads plugin::users-permissions\.jwt\.algorithm once, at start/);
    expect(() => config().set('middlewares', [])).toThrow(/Cairn reads middlewares once, at start.*config\/middlewares\.js/);
    expect(() => config().set('server.port', 1)).toThrow(/Cairn reads server\.port once, at start.*config\/server\.js/);
  });

  it('api.rest.strictParams: false, which Cairn\'s REST cannot honour, throws; true is what it does', () => {
    expect(() => config().set('api.rest.strictParams', false)).toThrow(
      "strapi.config.set('api.rest.strictParams', false): Cairn's REST always refuses unknown query parameters (400), as Strapi does with strictParams: true: rest.strictParams: false is ignored",
    );
    expect(() => config().set('api.rest.strictParams', true)).not.toThrow();
  });

  it('in register too: the start stops, naming the key', async () => {
    const dir = writeApp({ contentTypes: { article: ARTICLE }, index: `module.exports = { register({ strapi }) { strapi.config.set('api.rest.maxLimit', 10); } };` });
    try {
      const started = createCairn({
        dir,
        config: { database: { connection: { client: 'sqlite', connection: { filename: join(dir, '.tmp', 'data.db') } } } } as never,
        log: createLogger({ write: () => undefined }),
      });
      await expect(started).rejects.toThrow(/strapi\.config\.set\('api\.rest\.maxLimit', 10\): Cairn reads api\.rest\.maxLimit once, at start/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('api.documents.strictParams', () => {
  afterEach(() => {
    config().set(STRICT, undefined);
  });

  /** Each action of the Document Service, called on a document made for it, with `extra` params. */
  const calls = async (extra: Record<string, unknown>): Promise<Record<string, () => Promise<unknown>>> => {
    config().set(STRICT, undefined);
    const { documentId } = await documents().create({ data: { title: 'strict' } });
    await documents().publish({ documentId });
    return {
      findMany: () => documents().findMany({ ...extra }),
      findFirst: () => documents().findFirst({ ...extra }),
      findOne: () => documents().findOne({ documentId, ...extra }),
      count: () => documents().count({ ...extra }),
      create: () => documents().create({ data: { title: 'strict create' }, ...extra }),
      update: () => documents().update({ documentId, data: { title: 'strict update' }, ...extra }),
      delete: () => documents().delete({ documentId, ...extra }),
      clone: () => documents().clone({ documentId, ...extra }),
      publish: () => documents().publish({ documentId, ...extra }),
      unpublish: () => documents().unpublish({ documentId, ...extra }),
      discardDraft: () => documents().discardDraft({ documentId, ...extra }),
    };
  };

  it('true: every action refuses an unknown root param, with a ValidationError naming it, and writes nothing', async () => {
    const actions = await calls({ where: { id: 1 } });
    const before = await documents().count({ locale: '*' });
    config().set(STRICT, true);
    for (const [action, call] of Object.entries(actions)) {
      const error = await call().then(
        () => new Error(`${action} passed`),
        (e: Error) => e,
      );
      expect(error.name, action).toBe('ValidationError');
      expect(error.message, action).toMatch(/^Unrecognized parameter\(s\) at root level: 'where'\. Allowed: filters, sort, fields, populate, status, locale/);
    }
    config().set(STRICT, undefined);
    expect(await documents().count({ locale: '*' })).toBe(before);
  });

  it('true: status, locale and pagination are checked with Strapi\'s messages', async () => {
    config().set(STRICT, true);
    const refused = async (params: Record<string, unknown>, message: string) => {
      await expect(documents().findMany(params)).rejects.toMatchObject({ name: 'ValidationError', message });
    };
    await refused({ status: 'invalid' }, "Invalid parameter at 'status'. Expected 'published' or 'draft', received: invalid");
    await refused({ locale: 123 }, "Invalid parameter at 'locale'. Expected a string, received: number");
    await refused({ locale: 'en_US' }, "Invalid parameter at 'locale'. Locale must be a valid BCP 47 format (e.g. en, en-US, zh-Hans).");
    await refused({ locale: `en-${'x'.repeat(35)}` }, "Invalid parameter at 'locale'. Locale exceeds maximum length of 35 characters.");
    await refused({ locale: { en: true } }, "Invalid parameter at 'locale'. Expected a string, array of strings, empty string, null, or undefined; received: object");
    await refused({ page: 0, pageSize: 10 }, "Invalid parameter at 'page'. Expected integer >= 1, received: 0");
    await refused({ start: -1, limit: 10 }, "Invalid parameter at 'start'. Expected integer >= 0, received: -1");
    await refused({ start: 0, limit: 0 }, "Invalid parameter at 'limit'. Expected integer >= 1 or -1, received: 0");
    await refused({ page: 1, pageSize: 10, withCount: 'yes' }, "Invalid parameter at 'withCount'. Expected a boolean, received: string");
    await refused(
      { page: 1, pageSize: 10, start: 0, limit: 20 },
      'Invalid pagination parameters. Cannot use both page-based (page, pageSize) and offset-based (start, limit) pagination in the same query.',
    );
  });

  it('true: empty status, locale and pagination are as absent; numbers as text and "true" are read; data passes', async () => {
    config().set(STRICT, true);
    const plain = await documents().findMany({});
    expect(await documents().findMany({ status: null, locale: '', page: '1', pageSize: '', withCount: 'true' })).toEqual(plain);
    expect(await documents().findMany({ start: null, limit: '100' })).toEqual(plain);
    const created = await documents().create({ data: { title: 'under strict' }, status: 'draft', locale: 'fr' });
    expect(created).toMatchObject({ title: 'under strict', locale: 'fr' });
    expect(await documents().update({ documentId: created.documentId, locale: 'fr', data: { title: 'updated under strict' } })).toMatchObject({ title: 'updated under strict' });
  });

  it('false (and absent): unknown root params and an invalid status pass, as Strapi passes them', async () => {
    for (const value of [false, undefined]) {
      config().set(STRICT, value);
      const known = await documents().findMany({ status: 'published' });
      expect(await documents().findMany({ status: 'published', unknownParam: { nested: 1 } })).toEqual(known);
      expect(Array.isArray(await documents().findMany({ status: 'invalid' }))).toBe(true);
    }
  });

  it("true: REST's locale is checked on every type, as Strapi's core controllers hand it to the Document Service", async () => {
    const note = (await app.request('POST', '/api/notes', { data: { text: 'kept' } })).body.data;
    const count = async () => (await app.request('GET', '/api/notes')).body.meta.pagination.total;
    const before = await count();
    // Off (the default), a type without i18n ignores locale, as Strapi does.
    expect((await app.request('GET', '/api/notes?locale=123')).status).toBe(200);
    config().set(STRICT, true);
    const bcp47 = "Invalid parameter at 'locale'. Locale must be a valid BCP 47 format (e.g. en, en-US, zh-Hans).";
    for (const [method, url, body] of [
      ['GET', '/api/notes?locale=123'],
      ['GET', '/api/notes?locale=en_US'],
      ['GET', `/api/notes/${note.documentId}?locale=en_US`],
      ['POST', '/api/notes?locale=en_US', { data: { text: 'refused' } }],
      ['PUT', `/api/notes/${note.documentId}?locale=en_US`, { data: { text: 'refused' } }],
      ['DELETE', `/api/notes/${note.documentId}?locale=en_US`],
      // A localized type served by its core controller (server code) is checked by the Document Service itself.
      ['GET', '/api/articles?locale=en_US'],
    ] as const) {
      const res = await app.request(method, url, body);
      expect(res.status, `${method} ${url}`).toBe(400);
      expect(res.body.error, `${method} ${url}`).toMatchObject({ name: 'ValidationError', message: bcp47 });
    }
    expect((await app.request('GET', `/api/notes?locale=${'a'.repeat(40)}`)).body.error.message).toBe("Invalid parameter at 'locale'. Locale exceeds maximum length of 35 characters.");
    // A well-formed locale passes (a type without i18n still ignores it), and nothing refused was written.
    expect((await app.request('GET', '/api/notes?locale=fr')).status).toBe(200);
    expect((await app.request('GET', `/api/notes/${note.documentId}?locale=fr`)).body.data.text).toBe('kept');
    config().set(STRICT, undefined);
    expect(await count()).toBe(before);
  });

  it('a value other than a boolean fails every call with Strapi\'s message', async () => {
    config().set(STRICT, 'yes');
    await expect(documents().findMany({})).rejects.toMatchObject({
      name: 'ValidationError',
      message: 'Invalid config.api.documents.strictParams value: "yes". Expected boolean (true or false).',
    });
    await expect(documents().count()).rejects.toThrow('Invalid config.api.documents.strictParams value: "yes". Expected boolean (true or false).');
  });
});
