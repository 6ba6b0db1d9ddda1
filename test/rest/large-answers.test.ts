import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../helpers/databases.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { kitchen } from '../fixtures/kitchen.js';

/**
 * Populated lists are aggregated by the database (json_group_array, array_agg, JSON_ARRAYAGG). MariaDB's stops at
 * group_concat_max_len, 1 MiB by default: a list longer than that must still come back whole.
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
