import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachDialect } from '../helpers/databases.js';
import { startTestApp, writeApp, type TestApp, type TestSchemas } from '../helpers/app.js';
import { createCairn } from '../../src/app/cairn.js';

/** Query checks as Strapi 5 makes them: what a DELETE accepts, and the message for too many populate entries. */
describeEachDialect('query checks in Strapi 5 words', (dialect) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(dialect, {
      contentTypes: {
        plain: {
          kind: 'collectionType',
          collectionName: 'plains',
          info: { singularName: 'plain', pluralName: 'plains', displayName: 'plain' },
          options: { draftAndPublish: false },
          attributes: {
            title: { type: 'string' },
            list: { type: 'component', component: 'default.compo', repeatable: true },
          },
        },
      },
      components: { 'default.compo': { collectionName: 'components_default_compos', info: { displayName: 'compo' }, attributes: { name: { type: 'string' } } } },
    });
  });
  afterAll(async () => app?.close());

  it('DELETE takes the read parameters Strapi validates on it (fields, populate); unknown ones stay a 400', async () => {
    const id = (await app.request('POST', '/api/plains', { data: { title: 'gone' } })).body.data.documentId;
    expect((await app.request('DELETE', `/api/plains/${id}?populate[0]=list&fields[0]=title`)).status).toBe(204);
    expect((await app.request('GET', `/api/plains/${id}`)).status).toBe(404);
    expect((await app.request('DELETE', `/api/plains/${id}?populate[0]=nope`)).status).toBe(400);
    expect((await app.request('DELETE', `/api/plains/${id}?foo=1`)).status).toBe(400);
  });

  it('more than 100 indexed populate entries: 400 with Strapi\'s message', async () => {
    const query = Array.from({ length: 105 }, (_, i) => `populate[${i}]=r${i}`).join('&');
    const res = await app.request('GET', `/api/plains?${query}`);
    expect(res.status).toBe(400);
    expect(res.body.error.name).toBe('ValidationError');
    expect(res.body.error.message).toBe(
      'Too many populate entries (105). The maximum number of populate entries when using array notation is 100. ' +
        'Consider using object notation (populate[field]=true), nested population, or reducing the number of fields.',
    );
    const other = await app.request('GET', `/api/plains?${Array.from({ length: 101 }, (_, i) => `fields[${i}]=title`).join('&')}`);
    expect(other.body.error.message).toBe('Invalid query string: Array limit exceeded. Only 100 elements allowed in an array.');
  });
});

/**
 * `config/middlewares`' `strapi::query` entry sets the qs limits of its app (Strapi's query middleware passes its config
 * to qs): every route of that app parses with them, and another app in the same process keeps Strapi's defaults.
 */
describe("config/middlewares: strapi::query's qs limits are the app's own", () => {
  const COUNT = 105;
  const relations = Object.fromEntries(Array.from({ length: COUNT }, (_, i) => [`r${i}`, { type: 'relation', relation: 'oneToOne', target: 'api::leaf.leaf' }]));
  const schemas: TestSchemas = {
    contentTypes: {
      leaf: { kind: 'collectionType', collectionName: 'leaves', info: { singularName: 'leaf', pluralName: 'leaves', displayName: 'leaf' }, options: { draftAndPublish: false }, attributes: { name: { type: 'string' } } },
      hub: { kind: 'collectionType', collectionName: 'hubs', info: { singularName: 'hub', pluralName: 'hubs', displayName: 'hub' }, options: { draftAndPublish: false }, attributes: { title: { type: 'string' }, ...relations } },
    },
  };
  // Strapi's template list, with strapi::query given a config (and one entry in object form).
  const middlewares = `module.exports = ({ env }) => [
    'strapi::logger', 'strapi::errors', 'strapi::security', 'strapi::cors', { name: 'strapi::poweredBy' },
    { name: 'strapi::query', config: { arrayLimit: env.int('CAIRN_T_QS_ARRAY_LIMIT', 155) } },
    'strapi::body', 'strapi::session', 'strapi::favicon', 'strapi::public',
  ];`;
  const populate = (count: number) => Array.from({ length: count }, (_, i) => `populate[${i}]=r${i}`).join('&');
  let raised: TestApp;
  let standard: TestApp;

  beforeAll(async () => {
    const dir = writeApp(schemas);
    writeFileSync(join(dir, 'config', 'middlewares.js'), middlewares);
    writeFileSync(join(dir, 'package.json'), '{ "type": "commonjs" }');
    raised = await startTestApp('sqlite', dir);
    standard = await startTestApp('sqlite', schemas);
    for (const app of [raised, standard]) {
      const leaf = (await app.request('POST', '/api/leaves', { data: { name: 'populated-leaf' } })).body.data;
      expect((await app.request('POST', '/api/hubs', { data: { title: 'hub-row', r0: { connect: [leaf.documentId] } } })).status).toBe(201);
    }
  });
  afterAll(async () => {
    await raised?.close();
    await standard?.close();
    if (raised) rmSync(raised.dir, { recursive: true, force: true });
  });

  it('a raised arrayLimit takes 105 indexed populate entries; the app without config/middlewares refuses them with Strapi\'s message', async () => {
    expect(raised.cairn.config.middlewares?.[5]).toEqual({ name: 'strapi::query', config: { arrayLimit: 155 } });
    const ok = await raised.request('GET', `/api/hubs?${populate(COUNT)}`);
    expect(ok.status).toBe(200);
    expect(ok.body.data[0]).toMatchObject({ title: 'hub-row', r0: { name: 'populated-leaf' }, r1: null });

    const refused = await standard.request('GET', `/api/hubs?${populate(COUNT)}`);
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({
      name: 'ValidationError',
      message:
        'Too many populate entries (105). The maximum number of populate entries when using array notation is 100. ' +
        'Consider using object notation (populate[field]=true), nested population, or reducing the number of fields.',
    });
    // The first app kept its own limit (nothing global changed).
    expect((await raised.request('GET', `/api/hubs?${populate(COUNT)}`)).status).toBe(200);
  });

  it('the message names the configured limit', async () => {
    const res = await raised.request('GET', `/api/hubs?${populate(160)}`);
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/^Too many populate entries \(160\)\. The maximum number of populate entries when using array notation is 155\. /);
  });

  it('the other routes of the app parse with its limits too (auth, upload, locales)', async () => {
    for (const url of ['/api/users?filters[id][$in][120]=1', '/api/upload/files?filters[id][$in][120]=1']) {
      expect((await raised.request('GET', url)).status).toBe(200);
      const res = await standard.request('GET', url);
      expect(res.status).toBe(400);
      expect(res.body.error.message).toBe('Invalid query string: Array limit exceeded. Only 100 elements allowed in an array.');
    }
    expect((await raised.request('GET', '/api/i18n/locales?x[120]=1')).body.error.message).toBe('Invalid key x');
    expect((await standard.request('GET', '/api/i18n/locales?x[120]=1')).body.error.message).toMatch(/^Invalid query string: Array limit exceeded/);
  });

  it('a bad value stops the start, naming the file and the key', async () => {
    const dir = writeApp(schemas);
    try {
      const file = join(dir, 'config', 'middlewares.js');
      writeFileSync(file, "module.exports = ['strapi::errors', { name: 'strapi::query', config: { arrayLimit: 0 } }];");
      await expect(createCairn({ dir })).rejects.toThrow(`${file}: middlewares[1].config.arrayLimit (strapi::query) must be a positive integer, not 0`);
      writeFileSync(file, "module.exports = [{ name: 'strapi::query', config: { arrayLimt: 155 } }];");
      await expect(createCairn({ dir })).rejects.toThrow(
        `${file}: middlewares[0].config.arrayLimt (strapi::query) is not an option Cairn applies: did you mean arrayLimit? Cairn takes arrayLimit, depth, parameterLimit`,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
