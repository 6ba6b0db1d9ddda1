import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../helpers/databases.js';
import { startTestApp, type TestApp } from '../helpers/app.js';

// A dynamic zone inside a component: Strapi 5.54 stores it in the component's `_cmps` table (field = the zone's
// name) and answers it as a top-level zone (recorded from Strapi 5.54 run on the same model).
const model = {
  contentTypes: {
    page: {
      kind: 'collectionType',
      collectionName: 'pages',
      info: { singularName: 'page', pluralName: 'pages', displayName: 'Page' },
      options: { draftAndPublish: true },
      attributes: {
        name: { type: 'string' },
        holder: { type: 'component', component: 'default.holder' },
        holders: { type: 'component', component: 'default.holder', repeatable: true },
      },
    },
  },
  components: {
    'default.leaf': { collectionName: 'components_default_leaves', info: { displayName: 'leaf' }, attributes: { label: { type: 'string', required: true } } },
    'default.note': { collectionName: 'components_default_notes', info: { displayName: 'note' }, attributes: { text: { type: 'text' } } },
    'default.holder': {
      collectionName: 'components_default_holders',
      info: { displayName: 'holder' },
      attributes: { title: { type: 'string' }, children: { type: 'dynamiczone', components: ['default.leaf', 'default.note'], max: 3 } },
    },
  },
};

const leaf = (label: string) => ({ __component: 'default.leaf', label });
const CHILDREN = 'populate[holder][populate][children]=true&populate[holders][populate][children]=true';

describeEachDialect('a dynamic zone inside a component', (dialect) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(dialect, model);
  });
  afterAll(async () => app?.close());

  const children = (entry: { holder: { children: Record<string, unknown>[] } }) => entry.holder.children.map((c) => c.label ?? c.text);

  it('is written, read (populate true or `on`), replaced, published and deleted with its entry', async () => {
    const created = await app.request('POST', `/api/pages?status=draft&${CHILDREN}`, {
      data: {
        name: 'p1',
        holder: { title: 'h', children: [leaf('a'), { __component: 'default.note', text: 'n' }, leaf('b')] },
        holders: [{ title: 'r1', children: [leaf('r')] }, { title: 'r2', children: [] }],
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.data.holder).toMatchObject({ title: 'h', children: [{ __component: 'default.leaf', label: 'a' }, { __component: 'default.note', text: 'n' }, { label: 'b' }] });
    expect(created.body.data.holders.map((h: { children: unknown[] }) => h.children.length)).toEqual([1, 0]);
    const documentId = created.body.data.documentId;

    const on = await app.request('GET', `/api/pages/${documentId}?status=draft&populate[holder][populate][children][on][default.leaf][fields][0]=label`);
    expect(on.body.data.holder.children).toEqual([
      { __component: 'default.leaf', id: expect.any(Number), label: 'a' },
      { __component: 'default.leaf', id: expect.any(Number), label: 'b' },
    ]);
    // Without a populate of its own, the zone is not read.
    expect((await app.request('GET', `/api/pages/${documentId}?status=draft&populate=holder`)).body.data.holder).not.toHaveProperty('children');

    const updated = await app.request('PUT', `/api/pages/${documentId}?status=draft&${CHILDREN}`, { data: { holder: { title: 'h2', children: [leaf('c')] } } });
    expect(updated.status).toBe(200);
    expect(children(updated.body.data)).toEqual(['c']);

    expect((await app.request('POST', `/api/pages/${documentId}/actions/publish`)).status).toBeLessThan(300);
    const published = await app.request('GET', `/api/pages/${documentId}?${CHILDREN}`);
    expect(children(published.body.data)).toEqual(['c']);
    // The draft changes alone; the published version keeps its own components.
    await app.request('PUT', `/api/pages/${documentId}?status=draft`, { data: { holder: { title: 'h3', children: [leaf('d'), leaf('e')] } } });
    expect(children((await app.request('GET', `/api/pages/${documentId}?${CHILDREN}`)).body.data)).toEqual(['c']);
    expect(children((await app.request('GET', `/api/pages/${documentId}?status=draft&${CHILDREN}`)).body.data)).toEqual(['d', 'e']);

    expect((await app.request('DELETE', `/api/pages/${documentId}`)).status).toBe(204);
    expect(await app.cairn.strapi.db.query('default.leaf').count()).toBe(0);
    expect(await app.cairn.strapi.db.query('default.holder').count()).toBe(0);
  });

  it('its items are checked as a top-level zone’s are', async () => {
    const unknown = await app.request('POST', '/api/pages', { data: { name: 'x', holder: { children: [{ __component: 'default.nope', label: 'x' }] } } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.details.errors[0]).toMatchObject({ path: ['holder', 'children', '0', '__component'] });
    const missing = await app.request('POST', '/api/pages', { data: { name: 'x', holder: { children: [{ __component: 'default.leaf' }] } } });
    expect(missing.status).toBe(400);
    const tooMany = await app.request('POST', '/api/pages', { data: { name: 'x', holder: { children: [leaf('1'), leaf('2'), leaf('3'), leaf('4')] } } });
    expect(tooMany.status).toBe(400);
    expect(await app.cairn.strapi.db.query('api::page.page').count()).toBe(0);
  });
});
