import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachDialect } from '../helpers/databases.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { kitchen } from '../fixtures/kitchen.js';
import { sqlDialect } from '../../src/database/sql/index.js';

/**
 * `locale` on a content type that is not localized (`chef`). Strapi 5.54.0's i18n plugin gives every content type a
 * `locale` string attribute, private when the type is not localized: a body may carry it (checked as a string of at
 * most 255 characters, after the schema's attributes), no answer shows it, and no query may name it. The expected
 * answers are the reference server's, asked the same requests on a non-localized type.
 */
describeEachDialect('locale on a non-localized content type', (dialect) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(dialect, kitchen);
  });
  afterAll(async () => app?.close());

  const chef = (extra: Record<string, unknown>) => ({ data: { name: 'Ann', email: 'ann@example.com', ...extra } });
  const refused = (path: string, message: string, value: unknown) => ({
    data: null,
    error: { status: 400, name: 'ValidationError', message, details: { errors: [{ path: [path], message, name: 'ValidationError', value }] } },
  });

  describe('accepted, never shown', () => {
    it('a string, null or empty locale in the body is accepted; no answer has a locale', async () => {
      for (const locale of ['en', 'zz', null, '', 'x'.repeat(255)]) {
        const res = await app.request('POST', '/api/chefs', chef({ locale }));
        expect(res.status, JSON.stringify(locale)).toBe(201);
        expect(res.body.data).not.toHaveProperty('locale');
        const one = await app.request('GET', `/api/chefs/${res.body.data.documentId}?locale=en`);
        expect(one.status).toBe(200);
        expect(one.body.data).not.toHaveProperty('locale');
      }
      const list = await app.request('GET', '/api/chefs?locale=en');
      expect(list.status).toBe(200);
      expect(list.body.data).toHaveLength(5);
      for (const entry of list.body.data) expect(entry).not.toHaveProperty('locale');
    });

    it('?locale= on a create is ignored, and the answer has no locale', async () => {
      const res = await app.request('POST', '/api/chefs?locale=fr', chef({ name: 'Bea' }));
      expect(res.status).toBe(201);
      expect(res.body.data).not.toHaveProperty('locale');
    });

    it('an update may carry a string locale; the answer has none', async () => {
      const created = await app.request('POST', '/api/chefs', chef({ name: 'Cid' }));
      const res = await app.request('PUT', `/api/chefs/${created.body.data.documentId}`, { data: { locale: 'fr', age: 30 } });
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ name: 'Cid', age: 30 });
      expect(res.body.data).not.toHaveProperty('locale');
    });

    it("rows Strapi wrote with a locale read as any other: no answer shows it, whatever the column holds", async () => {
      // Strapi keeps a body's (or an entityService fixture's) `locale` in the column of a type without i18n: its
      // Document Service adds the locale to `data` on localized types only, and leaves the given one alone. Its
      // answers never show it: the attribute is private there, and the Content API's sanitizer removes private keys.
      const d = sqlDialect(dialect);
      const created = await app.request('POST', '/api/chefs', chef({ name: 'Eve', age: 30, locale: 'en' }));
      expect(created.status).toBe(201);
      const id = created.body.data.documentId;
      await app.cairn.db.execute(`UPDATE ${d.quote('chefs')} SET ${d.quote('locale')} = ? WHERE ${d.quote('document_id')} = ?`, ['en', id]);
      const restaurant = await app.request('POST', '/api/restaurants', { data: { name: 'Eve Bistro', chef: id } });
      expect(restaurant.status).toBe(201);

      const one = await app.request('GET', `/api/chefs/${id}?populate=restaurants`);
      expect(one.status).toBe(200);
      expect(one.body.data).toMatchObject({ documentId: id, name: 'Eve', age: 30, restaurants: [{ name: 'Eve Bistro' }] });
      expect(one.body.data).not.toHaveProperty('locale');
      const listed = await app.request('GET', '/api/chefs?filters[name][$eq]=Eve&sort=name');
      expect(listed.body.data).toHaveLength(1);
      expect(listed.body.data[0]).not.toHaveProperty('locale');
      const through = await app.request('GET', '/api/restaurants?filters[chef][name][$eq]=Eve&sort=chef.name&populate=chef');
      expect(through.status).toBe(200);
      expect(through.body.data).toHaveLength(1);
      expect(through.body.data[0].chef).toMatchObject({ documentId: id, name: 'Eve' });
      expect(through.body.data[0].chef).not.toHaveProperty('locale');

      const updated = await app.request('PUT', `/api/chefs/${id}`, { data: { age: 31 } });
      expect(updated.status).toBe(200);
      expect(updated.body.data).toMatchObject({ name: 'Eve', age: 31 });
      expect(updated.body.data).not.toHaveProperty('locale');
    });

    it('queries may not name it: fields, filters, sort answer 400 Invalid key locale', async () => {
      for (const [query, param] of [
        ['fields[0]=name&fields[1]=locale', 'fields'],
        ['filters[locale][$eq]=en', 'filters'],
        ['sort=locale', 'sort'],
      ]) {
        const res = await app.request('GET', `/api/chefs?${query}`);
        expect(res.status, query).toBe(400);
        expect(res.body.error).toMatchObject({ name: 'ValidationError', message: 'Invalid key locale', details: { key: 'locale', param } });
      }
    });
  });

  describe('refused as Strapi refuses it', () => {
    it('a number, boolean, object or list is not a string', async () => {
      const cases: Array<[unknown, string]> = [
        [5, '`5`'],
        [1.5, '`1.5`'],
        [true, '`true`'],
        [{ a: 1 }, '`{\n  "a": "1"\n}`'],
        [['en'], '`[\n  "\\"en\\""\n]`'],
      ];
      for (const [locale, shown] of cases) {
        const res = await app.request('POST', '/api/chefs', chef({ locale }));
        expect(res.status, JSON.stringify(locale)).toBe(400);
        expect(res.body).toEqual(refused('locale', `locale must be a \`string\` type, but the final value was: ${shown}.`, locale));
      }
    });

    it('more than 255 characters is too long', async () => {
      const locale = 'x'.repeat(256);
      const res = await app.request('POST', '/api/chefs', chef({ locale }));
      expect(res.status).toBe(400);
      expect(res.body).toEqual(refused('locale', 'locale must be at most 255 characters', locale));
    });

    it("is listed after the schema's own attributes, with every other error", async () => {
      const res = await app.request('POST', '/api/chefs', chef({ name: 'A', locale: 5 }));
      expect(res.status).toBe(400);
      expect(res.body.error.message).toBe('2 errors occurred');
      expect(res.body.error.details.errors.map((e: { path: string[] }) => e.path)).toEqual([['name'], ['locale']]);
    });

    it('an update is checked the same way, and nothing is written', async () => {
      const created = await app.request('POST', '/api/chefs', chef({ name: 'Dan' }));
      const url = `/api/chefs/${created.body.data.documentId}`;
      const res = await app.request('PUT', url, { data: { locale: 5, age: 40 } });
      expect(res.status).toBe(400);
      expect(res.body).toEqual(refused('locale', 'locale must be a `string` type, but the final value was: `5`.', 5));
      expect((await app.request('GET', url)).body.data.age).toBeNull();
    });
  });

  it('a localized type still takes its locale from the body (restaurants)', async () => {
    const res = await app.request('POST', '/api/restaurants', { data: { name: 'Chez', locale: 'fr' } });
    expect(res.status).toBe(201);
    expect(res.body.data.locale).toBe('fr');
  });
});
