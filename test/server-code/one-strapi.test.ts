import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, writeApp, type TestApp } from '../helpers/app.js';

/**
 * One `strapi` for every piece of an app's code: what a controller gets from its factory is Strapi's Document
 * Service with the app's document middlewares (`strapi.documents.use` in register), and register/bootstrap's
 * `strapi` has the server code's members (`service`, `config.get`) once they exist.
 */
const INDEX = `
const seen = [];
module.exports = {
  seen,
  register({ strapi }) {
    strapi.documents.use(async (context, next) => {
      seen.push(context.uid + ':' + context.action);
      const result = await next();
      return context.action === 'findMany' && Array.isArray(result) ? result.map((e) => ({ ...e, viaMiddleware: true })) : result;
    });
  },
  bootstrap({ strapi }) {
    globalThis.__oneStrapi = {
      service: typeof strapi.service('api::item.item').find,
      defaultLimit: strapi.config.get('api.rest.defaultLimit', 'none'),
      dir: typeof strapi.config.dir,
      seen,
    };
  },
};`;

const ROUTES = `module.exports = { routes: [{ method: 'GET', path: '/items-report', handler: 'item.report', config: { auth: false } }] };`;
const CONTROLLER = `
const { factories } = require('@strapi/strapi');
module.exports = factories.createCoreController('api::item.item', ({ strapi }) => ({
  async report(ctx) {
    const items = await strapi.documents('api::item.item').findMany({ status: 'published', sort: 'name' });
    ctx.body = { names: items.map((e) => e.name), marked: items.every((e) => e.viaMiddleware === true), count: await strapi.documents('api::item.item').count({ status: 'published' }) };
  },
}));`;

let app: TestApp;
beforeAll(async () => {
  const dir = writeApp({
    contentTypes: {
      item: {
        kind: 'collectionType',
        collectionName: 'items',
        info: { singularName: 'item', pluralName: 'items', displayName: 'Item' },
        options: { draftAndPublish: true },
        attributes: { name: { type: 'string' } },
      },
    },
    index: INDEX,
  });
  for (const [folder, file, text] of [
    ['routes', 'custom.js', ROUTES],
    ['routes', 'item.js', `module.exports = require('@strapi/strapi').factories.createCoreRouter('api::item.item');`],
    ['controllers', 'item.js', CONTROLLER],
  ]) {
    mkdirSync(join(dir, 'src', 'api', 'item', folder), { recursive: true });
    writeFileSync(join(dir, 'src', 'api', 'item', folder, file), text);
  }
  app = await startTestApp('sqlite', dir);
  for (const name of ['b', 'a']) expect((await app.request('POST', '/api/items', { data: { name } })).status).toBe(201);
});
afterAll(() => app?.close());

it('bootstrap\'s strapi has the server code\'s service and config.get, and the app\'s config values', () => {
  expect((globalThis as { __oneStrapi?: unknown }).__oneStrapi).toMatchObject({ service: 'function', defaultLimit: 25, dir: 'string' });
});

it('a controller\'s strapi.documents is Strapi\'s Document Service, through the app\'s document middlewares', async () => {
  const seen = (globalThis as { __oneStrapi?: { seen: string[] } }).__oneStrapi!.seen;
  seen.length = 0;
  const res = await app.request('GET', '/api/items-report', undefined, { authorization: '' });
  expect(res.status).toBe(200);
  expect(res.body).toEqual({ names: ['a', 'b'], marked: true, count: 2 });
  expect(seen).toEqual(['api::item.item:findMany', 'api::item.item:count']);
});

it('an app without server code files still has each content type\'s core service (strapi.service in bootstrap)', async () => {
  const dir = writeApp({
    contentTypes: {
      thing: {
        kind: 'collectionType',
        collectionName: 'things',
        info: { singularName: 'thing', pluralName: 'things', displayName: 'Thing' },
        options: { draftAndPublish: false },
        attributes: { name: { type: 'string' } },
      },
    },
    index: `module.exports = {
      async bootstrap({ strapi }) {
        await strapi.service('api::thing.thing').create({ data: { name: 'from bootstrap' } });
        const { results, pagination } = await strapi.service('api::thing.thing').find({});
        globalThis.__coreService = { names: results.map((e) => e.name), total: pagination.total };
      },
    };`,
  });
  const plain = await startTestApp('sqlite', dir);
  try {
    expect((globalThis as { __coreService?: unknown }).__coreService).toEqual({ names: ['from bootstrap'], total: 1 });
    // The Content API's own routes serve it (no routes folder).
    expect((await plain.request('GET', '/api/things')).body.data.map((e: { name: string }) => e.name)).toEqual(['from bootstrap']);
  } finally {
    await plain.close();
  }
});
