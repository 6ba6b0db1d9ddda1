import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../helpers/databases.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { kitchen } from '../fixtures/kitchen.js';

/**
 * Populated lists are aggregated by the database (json_group_array, array_agg, JSON_ARRAYAGG). MariaDB's stops at
 * group_concat_max_len, 1 MiB by default: a list longer than that must still come back whole. Past
 * max_allowed_packet, MariaDB's JSON functions give NULL: a clear 400, never an empty or cut answer.
 */
describeEachDialect('large populated answers', (dialect) => {
  let app: TestApp;
  let category: string;
  const RESTAURANTS = 25;
  const BIO = 60_000;
  beforeAll(async () => {
    app = await startTestApp(dialect, kitchen);
    category = (await app.request('POST', '/api/categories', { data: { name: 'Big' } })).body.data.documentId;
    for (let i = 0; i < RESTAURANTS; i++) {
      const chef = (await app.request('POST', '/api/chefs', { data: { name: `Chef ${i}`, bio: `${String(i).padStart(2, '0')}${'b'.repeat(BIO - 2)}` } })).body.data.documentId;
      await app.request('POST', '/api/restaurants', { data: { name: `R${String(i).padStart(2, '0')}`, chef, categories: [category] } });
    }
  });
  afterAll(async () => app?.close());

  it('an entry over 16 MB: whole on SQLite and PostgreSQL; on MariaDB (max_allowed_packet) a 400, never a cut or empty answer', async () => {
    const huge = (await app.request('POST', '/api/categories', { data: { name: 'Huge' } })).body.data.documentId;
    const BIG_BIO = 900_000;
    for (let i = 0; i < 20; i++) {
      const chef = (await app.request('POST', '/api/chefs', { data: { name: `Big chef ${i}`, bio: 'c'.repeat(BIG_BIO) } })).body.data.documentId;
      await app.request('POST', '/api/restaurants', { data: { name: `H${String(i).padStart(2, '0')}`, chef, categories: [huge] } });
    }
    for (const url of [`/api/categories/${huge}?populate[restaurants][populate]=chef`, `/api/categories?filters[name]=Huge&populate[restaurants][populate]=chef`]) {
      const res = await app.request('GET', url);
      if (dialect === 'mysql') {
        // MariaDB's JSON functions give NULL past max_allowed_packet (16 MB by default), with only a warning.
        expect(res.status, url).toBe(400);
        expect(res.body.error).toMatchObject({ name: 'ApplicationError', message: expect.stringContaining('too large') });
        continue;
      }
      expect(res.status, url).toBe(200);
      const entry = Array.isArray(res.body.data) ? res.body.data[0] : res.body.data;
      expect(entry.restaurants).toHaveLength(20);
      for (const r of entry.restaurants) expect(r.chef.bio).toHaveLength(BIG_BIO);
    }
  });

  it('a populated list over 1 MiB comes back whole', async () => {
    const res = await app.request('GET', `/api/categories/${category}?populate[restaurants][populate]=chef&populate[restaurants][sort]=name`);
    expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(200);
    const restaurants = res.body.data.restaurants as Array<{ name: string; chef: { bio: string } }>;
    expect(restaurants).toHaveLength(RESTAURANTS);
    restaurants.forEach((r, i) => {
      expect(r.name).toBe(`R${String(i).padStart(2, '0')}`);
      expect(r.chef.bio).toHaveLength(BIO);
      expect(r.chef.bio.slice(0, 2)).toBe(String(i).padStart(2, '0'));
    });
  });
});
