import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../helpers/databases.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { kitchen } from '../fixtures/kitchen.js';

/**
 * `publishedAt` in a REST body, as Strapi 5 takes it: accepted and ignored (clients PUT back what they read); the
 * query's `status` decides what is published, and when.
 */
describeEachDialect('publishedAt in a REST body', (dialect) => {
  let app: TestApp;
  const OLD = '2020-08-20T10:27:55.000Z';
  const recent = (value: string) => Date.now() - Date.parse(value) < 60_000;
  beforeAll(async () => {
    app = await startTestApp(dialect, kitchen);
  });
  afterAll(async () => app?.close());

  it('create: accepted and ignored; published now unless status=draft', async () => {
    const published = await app.request('POST', '/api/restaurants', { data: { name: 'Pub', publishedAt: OLD } });
    expect(published.status).toBe(201);
    expect(recent(published.body.data.publishedAt)).toBe(true);
    expect((await app.request('GET', `/api/restaurants/${published.body.data.documentId}`)).status).toBe(200);

    const draft = await app.request('POST', '/api/restaurants?status=draft', { data: { name: 'Draft', publishedAt: OLD } });
    expect(draft.status).toBe(201);
    expect(draft.body.data.publishedAt).toBeNull();
    expect((await app.request('GET', `/api/restaurants/${draft.body.data.documentId}`)).status).toBe(404);

    const chef = await app.request('POST', '/api/chefs', { data: { name: 'Nodp', publishedAt: null } });
    expect(chef.status).toBe(201);
    expect(recent(chef.body.data.publishedAt)).toBe(true);
  });

  it('update: what was read goes back as it is; publishedAt: null does not unpublish', async () => {
    const created = (await app.request('POST', '/api/restaurants', { data: { name: 'Round trip' } })).body.data;
    const { name, stars, publishedAt } = (await app.request('GET', `/api/restaurants/${created.documentId}`)).body.data;
    const put = await app.request('PUT', `/api/restaurants/${created.documentId}`, { data: { name: `${name}!`, stars, publishedAt } });
    expect(put.status).toBe(200);
    expect(put.body.data.name).toBe('Round trip!');
    const nulled = await app.request('PUT', `/api/restaurants/${created.documentId}`, { data: { name: 'Still published', publishedAt: null } });
    expect(nulled.status).toBe(200);
    expect((await app.request('GET', `/api/restaurants/${created.documentId}`)).body.data.name).toBe('Still published');
  });

  it('a publishedAt that is no date-time nor null is a 400, and nothing is written', async () => {
    for (const publishedAt of ['garbage', 12, { a: 1 }, true, '']) {
      const res = await app.request('POST', '/api/chefs', { data: { name: 'Bad', publishedAt } });
      expect(res.status, JSON.stringify(publishedAt)).toBe(400);
      expect(res.body.error.name).toBe('ValidationError');
      expect(res.body.error.details.errors[0].path).toEqual(['publishedAt']);
    }
    expect((await app.request('GET', '/api/chefs?filters[name]=Bad')).body.data).toEqual([]);
  });
});
