import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../helpers/databases.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { kitchen } from '../fixtures/kitchen.js';

/** Strapi's router is not strict: a route answers with or without a trailing slash (clients build such URLs). */
describeEachDialect('a trailing slash names the same route', (dialect) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(dialect, kitchen);
  });
  afterAll(async () => app?.close());

  it('collection routes: create, list, find, update, delete', async () => {
    const created = await app.request('POST', '/api/chefs/', { data: { name: 'Slash' } });
    expect(created.status).toBe(201);
    const id = created.body.data.documentId;
    const list = await app.request('GET', '/api/chefs/?filters[name]=Slash');
    expect(list.status).toBe(200);
    expect(list.body.data.map((c: { documentId: string }) => c.documentId)).toEqual([id]);
    expect((await app.request('GET', `/api/chefs/${id}/`)).body.data.name).toBe('Slash');
    const updated = await app.request('PUT', `/api/chefs/${id}/?fields[0]=name`, { data: { name: 'Slashed' } });
    expect(updated.status).toBe(200);
    expect(updated.body.data.name).toBe('Slashed');
    expect((await app.request('DELETE', `/api/chefs/${id}/`)).status).toBe(204);
    expect((await app.request('GET', `/api/chefs/${id}`)).status).toBe(404);
  });

  it('the query string after the slash is read as usual, strictly', async () => {
    const bad = await app.request('GET', '/api/chefs/?foo=1');
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ name: 'ValidationError', message: 'Invalid key foo' });
  });

  it('an unknown route stays a 404, slash or not', async () => {
    expect((await app.request('GET', '/api/nothing/')).status).toBe(404);
    expect((await app.request('GET', '/api/chefs//')).status).toBe(404);
  });
});
