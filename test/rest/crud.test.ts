import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachDialect } from '../helpers/databases.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { kitchen } from '../fixtures/kitchen.js';

describeEachDialect('REST CRUD', (dialect) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(dialect, kitchen);
  });
  afterAll(async () => app?.close());

  const fullChef = {
    name: 'Ann',
    email: 'ann@example.com',
    age: 42,
    rating: 4.5,
    salary: 1234.5,
    big: '9007199254740097',
    born: '1980-02-29',
    shift: '08:30',
    hiredAt: '2020-01-02T03:04:05.678Z',
    tags: ['a', 1, null, { b: true }],
    kind: 'head',
    bio: '# Ann',
    secret: 'hunter22',
    note: 'private note',
    address: { city: 'Paris', zip: '75001', geo: { lat: 48.85, lng: 2.35 } },
  };

  describe('create and read', () => {
    let chef: any;
    it('POST answers 201 with the flat entry, typed values, no private fields', async () => {
      const res = await app.request('POST', '/api/chefs', { data: fullChef });
      expect(res.status).toBe(201);
      chef = res.body.data;
      expect(res.body.meta).toEqual({});
      expect(chef.documentId).toMatch(/^[a-z0-9]{24}$/);
      expect(typeof chef.id).toBe('number');
      expect(chef).toMatchObject({
        name: 'Ann',
        age: 42,
        rating: 4.5,
        salary: 1234.5,
        big: '9007199254740097',
        active: true,
        born: '1980-02-29',
        shift: '08:30:00.000',
        hiredAt: '2020-01-02T03:04:05.678Z',
        tags: ['a', 1, null, { b: true }],
        kind: 'head',
      });
      expect(chef.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      expect(chef.publishedAt).toMatch(/Z$/);
      expect(chef).not.toHaveProperty('secret');
      expect(chef).not.toHaveProperty('note');
      expect(chef).not.toHaveProperty('address');
      expect(chef).not.toHaveProperty('locale');
    });

    it('GET one returns the same entry; components only when populated', async () => {
      const res = await app.request('GET', `/api/chefs/${chef.documentId}`);
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual(chef);
      const populated = await app.request('GET', `/api/chefs/${chef.documentId}?populate[address][populate]=geo`);
      expect(populated.body.data.address).toMatchObject({ city: 'Paris', zip: '75001', geo: { lat: 48.85, lng: 2.35 } });
      const shallow = await app.request('GET', `/api/chefs/${chef.documentId}?populate=address`);
      expect(shallow.body.data.address).not.toHaveProperty('geo');
    });

    it('GET list wraps entries with pagination meta', async () => {
      const res = await app.request('GET', '/api/chefs');
      expect(res.status).toBe(200);
      expect(res.body.data).toHaveLength(1);
      expect(res.body.meta.pagination).toEqual({ page: 1, pageSize: 25, pageCount: 1, total: 1 });
    });

    it('PUT updates only the given attributes; a component given is replaced whole', async () => {
      const res = await app.request('PUT', `/api/chefs/${chef.documentId}?populate=address`, {
        data: { age: 43, address: { city: 'Lyon' } },
      });
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ name: 'Ann', age: 43, email: 'ann@example.com' });
      expect(res.body.data.address).toMatchObject({ city: 'Lyon', zip: null });
      const geo = await app.request('GET', `/api/chefs/${chef.documentId}?populate[address][populate]=geo`);
      expect(geo.body.data.address.geo).toBeNull();
    });

    it('PUT with null clears a value', async () => {
      const res = await app.request('PUT', `/api/chefs/${chef.documentId}`, { data: { email: null, tags: null } });
      expect(res.body.data.email).toBeNull();
      expect(res.body.data.tags).toBeNull();
    });

    it('DELETE answers 204 with no body, then the document is gone; deleting again is 204 too', async () => {
      const created = await app.request('POST', '/api/chefs', { data: { name: 'Bob' } });
      const id = created.body.data.documentId;
      const del = await app.request('DELETE', `/api/chefs/${id}`);
      expect(del.status).toBe(204);
      expect(del.raw).toBe('');
      expect((await app.request('GET', `/api/chefs/${id}`)).status).toBe(404);
      expect((await app.request('DELETE', `/api/chefs/${id}`)).status).toBe(204);
    });
  });

  describe('bad input', () => {
    const expectValidation = async (res: { status: number; body: any }, path?: string) => {
      expect(res.status).toBe(400);
      expect(res.body.data).toBeNull();
      expect(res.body.error.name).toBe('ValidationError');
      if (path) expect(res.body.error.details.errors.map((e: any) => e.path.join('.'))).toContain(path);
    };
    const cases: Array<[string, Record<string, unknown>, string]> = [
      ['missing required', { email: 'x@example.com' }, 'name'],
      ['string too short', { name: 'A' }, 'name'],
      ['regex', { name: 'lower' }, 'name'],
      ['bad email', { name: 'Ann', email: 'not-an-email' }, 'email'],
      ['integer from text', { name: 'Ann', age: 'five' }, 'age'],
      ['integer not whole', { name: 'Ann', age: 20.5 }, 'age'],
      ['under min', { name: 'Ann', age: 3 }, 'age'],
      ['over max', { name: 'Ann', age: 300 }, 'age'],
      ['bad enum', { name: 'Ann', kind: 'chef' }, 'kind'],
      ['bad date', { name: 'Ann', born: '2021-02-30' }, 'born'],
      ['bad datetime', { name: 'Ann', hiredAt: 'yesterday' }, 'hiredAt'],
      ['bad time', { name: 'Ann', shift: '25:00' }, 'shift'],
      ['bad boolean', { name: 'Ann', active: 'yes' }, 'active'],
      ['bad biginteger', { name: 'Ann', big: '12x' }, 'big'],
      ['object for string', { name: { $ne: 1 } }, 'name'],
      ['component not an object', { name: 'Ann', address: 'Paris' }, 'address'],
    ];
    for (const [label, data, path] of cases) {
      it(`${label} → 400 ValidationError at ${path}, nothing written`, async () => {
        const before = (await app.request('GET', '/api/chefs')).body.meta.pagination.total;
        await expectValidation(await app.request('POST', '/api/chefs', { data }), path);
        expect((await app.request('GET', '/api/chefs')).body.meta.pagination.total).toBe(before);
      });
    }

    it('unknown attribute and system fields in the body → 400 Invalid key', async () => {
      for (const key of ['nope', 'id', 'documentId', 'createdAt']) {
        const res = await app.request('POST', '/api/chefs', { data: { name: 'Ann', [key]: 1 } });
        expect(res.status).toBe(400);
        expect(res.body.error).toMatchObject({ name: 'ValidationError', message: `Invalid key ${key}` });
      }
    });

    it('unique attribute → 400 "This attribute must be unique"', async () => {
      expect((await app.request('POST', '/api/categories', { data: { name: 'Pizza' } })).status).toBe(201);
      const res = await app.request('POST', '/api/categories', { data: { name: 'Pizza' } });
      await expectValidation(res, 'name');
      expect(res.body.error.message).toBe('This attribute must be unique');
    });

    it('invalid uid → 400', async () => {
      await expectValidation(await app.request('POST', '/api/categories', { data: { name: 'Tapas', slug: 'Not valid!' } }), 'slug');
    });

    it('missing data wrapper, malformed JSON, oversized body, unknown routes', async () => {
      const noData = await app.request('POST', '/api/categories', { name: 'x' });
      expect(noData.status).toBe(400);
      expect(noData.body.error.message).toBe('Missing "data" payload in the request body');
      const badJson = await app.request('POST', '/api/categories', '{"data": {"name": ');
      expect(badJson.status).toBe(400);
      expect(badJson.body.error).toMatchObject({ name: 'ValidationError', message: 'Invalid JSON body' });
      const huge = await app.request('POST', '/api/categories', { data: { name: 'x'.repeat(2 * 1024 * 1024) } });
      expect(huge.status).toBe(413);
      expect(huge.body.error.name).toBe('PayloadTooLargeError');
      for (const url of ['/api/nope', '/api/chefs/x/y/z', '/nothing']) {
        const res = await app.request('GET', url);
        expect(res.status).toBe(404);
        expect(res.body.error.name).toBe('NotFoundError');
      }
      expect((await app.request('GET', '/api/chefs/doesnotexist0000000000000')).status).toBe(404);
      expect((await app.request('PUT', '/api/chefs/doesnotexist0000000000000', { data: { name: 'Xy' } })).status).toBe(404);
    });
  });

  describe('dynamic zones and relations', () => {
    let chef: string;
    let pizza: string;
    let sushi: string;
    beforeAll(async () => {
      chef = (await app.request('POST', '/api/chefs', { data: { name: 'Chloé' } })).body.data.documentId;
      pizza = (await app.request('POST', '/api/categories', { data: { name: 'Pizzeria' } })).body.data.documentId;
      sushi = (await app.request('POST', '/api/categories', { data: { name: 'Sushi' } })).body.data.documentId;
    });

    it('writes a dynamic zone and relations, reads them back populated in order', async () => {
      const res = await app.request('POST', '/api/restaurants?populate=*', {
        data: {
          name: 'Chez Chloé',
          chef,
          categories: [sushi, pizza],
          blocks: [
            { __component: 'sections.menu', title: 'Lunch', items: [{ lat: 1, lng: 2 }, { lat: 3, lng: 4 }] },
            { __component: 'sections.hero', title: 'Welcome' },
          ],
        },
      });
      expect(res.status).toBe(201);
      const entry = res.body.data;
      expect(entry.chef).toMatchObject({ documentId: chef, name: 'Chloé' });
      expect(entry.categories.map((c: any) => c.name)).toEqual(['Sushi', 'Pizzeria']);
      expect(entry.blocks.map((b: any) => b.__component)).toEqual(['sections.menu', 'sections.hero']);
      expect(entry.blocks[0]).toMatchObject({ title: 'Lunch' });
      expect(entry.blocks[0]).not.toHaveProperty('items');
      expect(entry.locale).toBe('en');
      const deep = await app.request('GET', `/api/restaurants/${entry.documentId}?populate[blocks][populate]=*`);
      expect(deep.body.data.blocks[0].items).toEqual([
        expect.objectContaining({ lat: 1, lng: 2 }),
        expect.objectContaining({ lat: 3, lng: 4 }),
      ]);
      const inverse = await app.request('GET', `/api/chefs/${chef}?populate=restaurants`);
      expect(inverse.body.data.restaurants.map((r: any) => r.name)).toEqual(['Chez Chloé']);
    });

    it('an unknown dynamic-zone component → 400, nothing written', async () => {
      const res = await app.request('POST', '/api/restaurants', {
        data: { name: 'Bad', blocks: [{ __component: 'sections.nope', title: 'x' }] },
      });
      expect(res.status).toBe(400);
      expect(res.body.error.details.errors[0].path).toEqual(['blocks', '0', '__component']);
    });

    it('a relation to a document that does not exist → 400 naming it, and nothing is written', async () => {
      const before = (await app.request('GET', '/api/restaurants?status=draft')).body.meta.pagination.total;
      const res = await app.request('POST', '/api/restaurants', {
        data: { name: 'Ghost', categories: [pizza, 'doesnotexist0000000000000'] },
      });
      expect(res.status).toBe(400);
      expect(res.body.error.message).toContain('doesnotexist0000000000000');
      expect((await app.request('GET', '/api/restaurants?status=draft')).body.meta.pagination.total).toBe(before);
    });

    it('null clears a to-one relation; deleting a document removes links to it', async () => {
      const r = (await app.request('POST', '/api/restaurants', { data: { name: 'Temp', chef, categories: [pizza] } })).body.data;
      const cleared = await app.request('PUT', `/api/restaurants/${r.documentId}?populate=chef`, { data: { chef: null } });
      expect(cleared.body.data.chef).toBeNull();
      await app.request('DELETE', `/api/categories/${pizza}`);
      const after = await app.request('GET', `/api/restaurants/${r.documentId}?populate=categories`);
      expect(after.body.data.categories).toEqual([]);
    });
  });

  describe('draft & publish and locales', () => {
    it('status=draft writes only the draft; a later PUT publishes', async () => {
      const draft = await app.request('POST', '/api/restaurants?status=draft', { data: { name: 'Draft only' } });
      expect(draft.status).toBe(201);
      expect(draft.body.data.publishedAt).toBeNull();
      const id = draft.body.data.documentId;
      expect((await app.request('GET', `/api/restaurants/${id}`)).status).toBe(404);
      expect((await app.request('GET', `/api/restaurants/${id}?status=draft`)).body.data.name).toBe('Draft only');
      const published = await app.request('PUT', `/api/restaurants/${id}`, { data: { name: 'Now live' } });
      expect(published.body.data.publishedAt).toMatch(/Z$/);
      expect((await app.request('GET', `/api/restaurants/${id}`)).body.data.name).toBe('Now live');
    });

    it('PUT ?locale=fr creates the fr version; unlocalized attributes are shared', async () => {
      const en = (await app.request('POST', '/api/restaurants', { data: { name: 'Garden', stars: 3 } })).body.data;
      const fr = await app.request('PUT', `/api/restaurants/${en.documentId}?locale=fr`, { data: { name: 'Jardin' } });
      expect(fr.status).toBe(200);
      expect(fr.body.data).toMatchObject({ name: 'Jardin', locale: 'fr', documentId: en.documentId });
      await app.request('PUT', `/api/restaurants/${en.documentId}?locale=fr`, { data: { stars: 5 } });
      expect((await app.request('GET', `/api/restaurants/${en.documentId}`)).body.data).toMatchObject({ name: 'Garden', stars: 5 });
      const withLocalizations = await app.request('GET', `/api/restaurants/${en.documentId}?populate=localizations`);
      expect(withLocalizations.body.data.localizations.map((l: any) => l.locale)).toEqual(['fr']);
      await app.request('DELETE', `/api/restaurants/${en.documentId}?locale=fr`);
      expect((await app.request('GET', `/api/restaurants/${en.documentId}?locale=fr`)).status).toBe(404);
      expect((await app.request('GET', `/api/restaurants/${en.documentId}`)).status).toBe(200);
    });

    it('the i18n locales route lists configured locales', async () => {
      const res = await app.request('GET', '/api/i18n/locales');
      expect(res.body).toEqual([
        expect.objectContaining({ code: 'en', name: 'English (en)', isDefault: true }),
        expect.objectContaining({ code: 'fr', name: 'French (fr)', isDefault: false }),
      ]);
    });
  });
});
