import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachDialect } from '../helpers/databases.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { kitchen } from '../fixtures/kitchen.js';

type Entry = { name: string; categories: Entry[]; restaurants: Entry[] };

/**
 * Sorting through to-many relations, as Strapi's deep sort does: through a to-many step an entry sorts by the least
 * of its values ascending and the greatest descending; no related row (or only NULLs) sorts as NULL: first ascending,
 * last descending. Ties keep id order. Text compares by code point ('Basil' < 'Zest' < 'apple' < 'mango').
 *
 *   R1 chef Ann  categories apple, Zest   (least Zest, greatest apple; first linked apple)
 *   R2 chef Ann  categories mango
 *   R3 chef Bob  categories mango, Basil  (least Basil; first linked mango)
 *   R4 chef Cy   no categories
 *   R5 no chef   categories apple
 *   chef Dee has no restaurants; category Olive none
 */
describeEachDialect('sort through to-many relations', (dialect) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(dialect, kitchen);
    const chefs: Record<string, string> = {};
    for (const [name, age] of [['Ann', 30], ['Bob', 45], ['Cy', 28], ['Dee', 50]] as const) {
      chefs[name] = (await app.request('POST', '/api/chefs', { data: { name, age } })).body.data.documentId;
    }
    const categories: Record<string, string> = {};
    for (const name of ['apple', 'Zest', 'mango', 'Basil', 'Olive']) {
      categories[name] = (await app.request('POST', '/api/categories', { data: { name } })).body.data.documentId;
    }
    const restaurants: Array<[string, string | null, string[]]> = [
      ['R1', 'Ann', ['apple', 'Zest']],
      ['R2', 'Ann', ['mango']],
      ['R3', 'Bob', ['mango', 'Basil']],
      ['R4', 'Cy', []],
      ['R5', null, ['apple']],
    ];
    for (const [name, chef, linked] of restaurants) {
      const res = await app.request('POST', '/api/restaurants', {
        data: { name, chef: chef ? chefs[chef] : null, categories: linked.map((c) => categories[c]) },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    }
  });
  afterAll(async () => app?.close());

  const get = async (url: string) => {
    const res = await app.request('GET', url);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body;
  };
  const names = async (query: string, plural: string) => (await get(`/api/${plural}?${query}`)).data.map((e: Entry) => e.name);

  it('ascending: the least related value (not the first linked); entries without one first', async () => {
    expect(await names('sort=categories.name', 'restaurants')).toEqual(['R4', 'R3', 'R1', 'R5', 'R2']);
    expect(await names('sort=categories.name:asc', 'restaurants')).toEqual(['R4', 'R3', 'R1', 'R5', 'R2']);
    expect(await names('sort[categories][name]=asc', 'restaurants')).toEqual(['R4', 'R3', 'R1', 'R5', 'R2']);
    expect(await names('sort[0][categories][name]=asc', 'restaurants')).toEqual(['R4', 'R3', 'R1', 'R5', 'R2']);
    expect(await names('sort=restaurants.name:asc', 'chefs')).toEqual(['Dee', 'Ann', 'Bob', 'Cy']);
  });

  it('descending: the greatest related value; entries without one last; ties in id order', async () => {
    expect(await names('sort=categories.name:desc', 'restaurants')).toEqual(['R2', 'R3', 'R1', 'R5', 'R4']);
    expect(await names('sort=restaurants.name:desc', 'chefs')).toEqual(['Cy', 'Bob', 'Ann', 'Dee']);
  });

  it('combined with another sort key, in either order', async () => {
    expect(await names('sort=categories.name:desc,name:desc', 'restaurants')).toEqual(['R3', 'R2', 'R5', 'R1', 'R4']);
    expect(await names('sort[0]=categories.name:asc&sort[1]=name:desc', 'restaurants')).toEqual(['R4', 'R3', 'R1', 'R5', 'R2']);
    // The first key decides: chef.name (to-one), then the least category.
    expect(await names('sort=chef.name:asc,categories.name:desc', 'restaurants')).toEqual(['R5', 'R2', 'R1', 'R3', 'R4']);
  });

  it('nested paths: to-many then to-many, to-one then to-many, to-many then to-one', async () => {
    // Ann reaches apple, Zest, mango; Bob Basil, mango; Cy (R4) and Dee nothing.
    expect(await names('sort=restaurants.categories.name:asc', 'chefs')).toEqual(['Cy', 'Dee', 'Bob', 'Ann']);
    expect(await names('sort=restaurants.categories.name:desc', 'chefs')).toEqual(['Ann', 'Bob', 'Cy', 'Dee']);
    expect(await names('sort=restaurants.categories.name:desc,name:desc', 'chefs')).toEqual(['Bob', 'Ann', 'Dee', 'Cy']);
    // Each restaurant by its chef's restaurants: R1 and R2 share Ann's {R1, R2}; R5 has no chef.
    expect(await names('sort=chef.restaurants.name:desc', 'restaurants')).toEqual(['R4', 'R3', 'R1', 'R2', 'R5']);
    expect(await names('sort=chef.restaurants.name:asc', 'restaurants')).toEqual(['R5', 'R1', 'R2', 'R3', 'R4']);
    // Each category by its restaurants' chefs' ages (R5 has no chef: its NULL is skipped); Olive has no restaurant.
    expect(await names('sort=restaurants.chef.age:asc,name:asc', 'categories')).toEqual(['Olive', 'Zest', 'apple', 'mango', 'Basil']);
    expect(await names('sort=restaurants.chef.age:desc,name:asc', 'categories')).toEqual(['Basil', 'mango', 'Zest', 'apple', 'Olive']);
  });

  it('with pagination (both forms, with the total) and filters', async () => {
    const page = await get('/api/restaurants?sort=categories.name&pagination[page]=2&pagination[pageSize]=2');
    expect(page.data.map((e: Entry) => e.name)).toEqual(['R1', 'R5']);
    expect(page.meta.pagination).toEqual({ page: 2, pageSize: 2, pageCount: 3, total: 5 });
    const offset = await get('/api/restaurants?sort=categories.name:desc&pagination[start]=3&pagination[limit]=5');
    expect(offset.data.map((e: Entry) => e.name)).toEqual(['R5', 'R4']);
    expect(offset.meta.pagination).toEqual({ start: 3, limit: 5, total: 5 });
    expect(await names('sort=categories.name&filters[name][$ne]=R3', 'restaurants')).toEqual(['R4', 'R1', 'R5', 'R2']);
    // Sorting does not multiply or drop entries.
    expect(await names('sort=restaurants.categories.name&populate[restaurants][fields][0]=name', 'chefs')).toHaveLength(4);
  });

  it('inside populate, and with the relation populated', async () => {
    const ann = await get('/api/chefs?filters[name][$eq]=Ann&populate[restaurants][sort]=categories.name:asc&populate[restaurants][fields][0]=name');
    expect(ann.data[0].restaurants.map((r: Entry) => r.name)).toEqual(['R1', 'R2']);
    const desc = await get('/api/chefs?filters[name][$eq]=Ann&populate[restaurants][sort]=categories.name:desc&populate[restaurants][fields][0]=name');
    expect(desc.data[0].restaurants.map((r: Entry) => r.name)).toEqual(['R2', 'R1']);
    const populated = await get('/api/restaurants?sort=categories.name&populate[categories][fields][0]=name&fields[0]=name');
    expect(populated.data.map((r: Entry) => [r.name, r.categories.map((c: Entry) => c.name)])).toEqual([
      ['R4', []],
      ['R3', ['mango', 'Basil']],
      ['R1', ['apple', 'Zest']],
      ['R5', ['apple']],
      ['R2', ['mango']],
    ]);
  });

  describe('still refused', () => {
    const cases: Array<[string, string]> = [
      ['sort=restaurants', 'Invalid key restaurants'],
      ['sort=restaurants:desc', 'Invalid key restaurants'],
      ['sort=restaurants.categories', 'Invalid key categories at restaurants'],
      ['sort=restaurants.blocks', 'Invalid key blocks at restaurants'],
      ['sort=restaurants.nope', 'Invalid key nope at restaurants'],
      ['sort=restaurants.chef.note', 'Invalid key note at restaurants.chef'],
      ['sort=restaurants.chef.secret', 'Invalid key secret at restaurants.chef'],
      ['sort=restaurants.categories.name:sideways', 'Invalid order'],
    ];
    for (const [query, message] of cases) {
      it(query, async () => {
        const res = await app.request('GET', `/api/chefs?${query}`);
        expect(res.status).toBe(400);
        expect(res.body.error.name).toBe('ValidationError');
        expect(res.body.error.message).toContain(message);
      });
    }
  });
});
