import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../helpers/databases.js';
import { startTestApp, type TestApp } from '../helpers/app.js';

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
