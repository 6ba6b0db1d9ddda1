import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, writeApp, type TestApp } from '../helpers/app.js';

/**
 * Strapi's own middlewares in config/middlewares, as Cairn's: strapi::body's jsonLimit limits JSON bodies,
 * strapi::poweredBy and strapi::responseTime add their headers to every answer.
 */
const TAG = {
  kind: 'collectionType',
  collectionName: 'tags',
  info: { singularName: 'tag', pluralName: 'tags', displayName: 'Tag' },
  options: { draftAndPublish: false },
  attributes: { name: { type: 'text' } },
};

async function appWith(middlewares: unknown[]): Promise<TestApp> {
  const dir = writeApp({ contentTypes: { tag: TAG } });
  writeFileSync(join(dir, 'config', 'middlewares.js'), `module.exports = ${JSON.stringify(middlewares)};`);
  return startTestApp('sqlite', dir);
}

describe("Strapi's middlewares mapped to Cairn's (SQLite)", () => {
  let limited: TestApp;
  let plain: TestApp;
  beforeAll(async () => {
    limited = await appWith(['strapi::errors', { name: 'strapi::body', config: { jsonLimit: '2kb' } }, 'strapi::poweredBy', 'strapi::responseTime']);
    plain = await appWith(['strapi::errors', 'strapi::body']);
  });
  afterAll(async () => {
    await limited?.close();
    await plain?.close();
  });

  it("strapi::body's jsonLimit: a JSON body over it is Strapi's 413, one under it is taken", async () => {
    const big = { data: { name: 'x'.repeat(3000) } };
    const refused = await limited.request('POST', '/api/tags', big);
    expect(refused.status).toBe(413);
    expect(refused.body.error).toMatchObject({ status: 413, name: 'PayloadTooLargeError' });
    expect((await limited.request('POST', '/api/tags', { data: { name: 'x'.repeat(1500) } })).status).toBe(201);
    // Without it, the server's bodyLimit (1 MB).
    expect((await plain.request('POST', '/api/tags', big)).status).toBe(201);
  });

  it('strapi::poweredBy sends Strapi\'s X-Powered-By, strapi::responseTime X-Response-Time, on every answer; neither when not listed', async () => {
    for (const url of ['/api/tags', '/api/nowhere', '/_health']) {
      const response = await limited.cairn.fastify.inject({ method: 'GET', url });
      expect(response.headers['x-powered-by']).toBe('Strapi <strapi.io>');
      expect(response.headers['x-response-time']).toMatch(/^\d+ms$/);
    }
    const response = await plain.cairn.fastify.inject({ method: 'GET', url: '/api/tags' });
    expect(response.headers['x-powered-by']).toBeUndefined();
    expect(response.headers['x-response-time']).toBeUndefined();
  });
});
