import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../helpers/databases.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { kitchen } from '../fixtures/kitchen.js';

/** `populate[attribute]=t|f`: Strapi's boolean spellings for an attribute's populate value. */
describeEachDialect("populate values 't' and 'f'", (dialect) => {
  let app: TestApp;
  let id: string;
  beforeAll(async () => {
    app = await startTestApp(dialect, kitchen);
    const chef = (await app.request('POST', '/api/chefs', { data: { name: 'Tee' } })).body.data.documentId;
    const blocks = [{ __component: 'sections.hero', title: 'Hi' }, { __component: 'sections.menu', title: 'Menu', items: [{ lat: 1, lng: 2 }] }];
    id = (await app.request('POST', '/api/restaurants', { data: { name: 'Tf', chef, blocks } })).body.data.documentId;
  });
  afterAll(async () => app?.close());

  it("t populates the attribute, f leaves it out (as true and false)", async () => {
    const on = await app.request('GET', `/api/restaurants/${id}?populate[chef]=t`);
    expect(on.status).toBe(200);
    expect(on.body.data.chef).toMatchObject({ name: 'Tee' });
    const off = await app.request('GET', `/api/restaurants/${id}?populate[chef]=f&populate[blocks]=t`);
    expect(off.status).toBe(200);
    expect(off.body.data.chef).toBeUndefined();
    expect(off.body.data.blocks.map((b: { __component: string }) => b.__component)).toEqual(['sections.hero', 'sections.menu']);
  });

  it("in a dynamic zone's on: t gives the component its fields, f leaves its nested components out", async () => {
    const res = await app.request('GET', `/api/restaurants/${id}?populate[blocks][on][sections.menu]=t&populate[blocks][on][sections.hero]=f`);
    expect(res.status).toBe(200);
    expect(res.body.data.blocks.find((b: { __component: string }) => b.__component === 'sections.menu')).toMatchObject({ title: 'Menu' });
  });

  it('other spellings stay a 400', async () => {
    for (const value of ['yes', 'T', 'F']) {
      const res = await app.request('GET', `/api/restaurants/${id}?populate[chef]=${value}`);
      expect(res.status, value).toBe(400);
      expect(res.body.error.name).toBe('ValidationError');
    }
  });
});
