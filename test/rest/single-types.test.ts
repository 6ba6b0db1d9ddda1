import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../helpers/databases.js';
import { startTestApp, type TestApp } from '../helpers/app.js';

describeEachDialect('single types', (dialect) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(dialect, {
      contentTypes: {
        homepage: {
          kind: 'singleType',
          collectionName: 'homepages',
          info: { singularName: 'homepage', pluralName: 'homepages', displayName: 'Homepage' },
          options: { draftAndPublish: true },
          attributes: { title: { type: 'string', required: true }, intro: { type: 'text' } },
        },
      },
    });
  });
  afterAll(async () => app?.close());

  it('GET before any content is a 404; PUT creates it, later PUTs update the same document', async () => {
    expect((await app.request('GET', '/api/homepage')).status).toBe(404);
    const created = await app.request('PUT', '/api/homepage', { data: { title: 'Welcome' } });
    expect(created.status).toBe(200);
    const updated = await app.request('PUT', '/api/homepage', { data: { intro: 'Hello' } });
    expect(updated.body.data).toMatchObject({ title: 'Welcome', intro: 'Hello', documentId: created.body.data.documentId });
    expect((await app.request('GET', '/api/homepage')).body.data.intro).toBe('Hello');
  });

  it('status=draft edits only the draft; DELETE removes the document; there is no list route', async () => {
    await app.request('PUT', '/api/homepage?status=draft', { data: { title: 'Next' } });
    expect((await app.request('GET', '/api/homepage')).body.data.title).toBe('Welcome');
    expect((await app.request('GET', '/api/homepage?status=draft')).body.data.title).toBe('Next');
    expect((await app.request('DELETE', '/api/homepage')).status).toBe(204);
    expect((await app.request('GET', '/api/homepage')).status).toBe(404);
    expect((await app.request('GET', '/api/homepages')).status).toBe(404);
    expect((await app.request('PUT', '/api/homepage', { data: { intro: 'no title' } })).status).toBe(400);
  });
});
