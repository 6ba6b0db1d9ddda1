import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../helpers/databases.js';
import { openStrapiFixtureApp, type StrapiFixtureApp } from '../helpers/strapi-app.js';
import { allPages, compareSortValues, type SortValue } from '../helpers/sorted-pages.js';

type Value = SortValue;
type Entry = { id: number; name: string } & Record<string, unknown>;
const compare = compareSortValues;

/** The least (ascending) or greatest (descending) non-null value, as a to-many step sorts; none: NULL. */
const extreme = (values: Value[], direction: 'asc' | 'desc'): Value =>
  values.reduce<Value>((best, v) => (v === null ? best : best === null || compare(v, best) * (direction === 'asc' ? 1 : -1) < 0 ? v : best), null);

/**
 * Sorting through a component (`address.city`, a nested one `address.geo.lat`), through media (`cover.name`) and
 * through a relation then a component (`restaurants.address.city`), on a database Strapi made (its `_cmps` tables and
 * `files_related_mph`). Strapi 5.54 sorts by all of these (and refuses a dynamic zone, `Invalid key`); its answers on
 * a database it seeded were compared by hand (the first pages equal). Here each order is checked against the values
 * the same response populates: ascending with entries without a value first, ties in id order, every entry once.
 */
describeEachDialect('sort through components and media on a database that Strapi made', (dialect) => {
  let app: StrapiFixtureApp;
  beforeAll(async () => {
    app = await openStrapiFixtureApp(dialect);
  }, 60_000);
  afterAll(() => app?.close());

  const sortedPages = (url: string) => allPages<Entry>(app, url);

  const expectSorted = (entries: Entry[], key: (e: Entry) => Value, direction: 'asc' | 'desc', withoutValue = true) => {
    expect(new Set(entries.map((e) => e.id)).size).toBe(entries.length);
    // The fixture has entries with and without a value, and several values: the rule is exercised, not assumed.
    expect(entries.some((e) => key(e) === null)).toBe(withoutValue);
    expect(new Set(entries.map(key).filter((v) => v !== null)).size).toBeGreaterThan(2);
    const sign = direction === 'asc' ? 1 : -1;
    for (let i = 1; i < entries.length; i++) {
      const [before, after] = [entries[i - 1], entries[i]];
      const order = compare(key(before), key(after)) * sign;
      const where = `${before.name} (${String(key(before))}) before ${after.name} (${String(key(after))})`;
      expect(order, where).toBeLessThanOrEqual(0);
      if (order === 0) expect(before.id, where).toBeLessThan(after.id);
    }
  };

  type Address = { city: string | null; geo: { lat: number | null } | null } | null;
  for (const direction of ['asc', 'desc'] as const) {
    it(`a component's field: sort=address.city:${direction}`, async () => {
      const entries = await sortedPages(`/api/restaurants?sort=address.city:${direction},id:asc&fields[0]=name&populate[address]=true`);
      expectSorted(entries, (e) => (e.address as Address)?.city ?? null, direction);
    });

    it(`a nested component's field, object form: sort[address][geo][lat]=${direction}`, async () => {
      const entries = await sortedPages(`/api/restaurants?sort[address][geo][lat]=${direction}&sort[id]=asc&fields[0]=name&populate[address][populate]=geo`);
      expectSorted(entries, (e) => (e.address as Address)?.geo?.lat ?? null, direction);
    });

    it(`a media field's file: sort=cover.name:${direction}`, async () => {
      const entries = await sortedPages(`/api/restaurants?sort=cover.name:${direction},id:asc&fields[0]=name&populate[cover][fields][0]=name`);
      expectSorted(entries, (e) => (e.cover as { name: string } | null)?.name ?? null, direction);
    });

    it(`a component through a to-many relation: sort=restaurants.address.city:${direction}`, async () => {
      const entries = await sortedPages(`/api/chefs?sort=restaurants.address.city:${direction},id:asc&fields[0]=name&populate[restaurants][populate]=address`);
      const key = (e: Entry) => extreme((e.restaurants as Array<{ address: Address }>).map((r) => r.address?.city ?? null), direction);
      // Every chef has a restaurant with an address; some have restaurants without one too, whose NULL the
      // least and greatest values skip.
      expect(entries.some((e) => (e.restaurants as Array<{ address: Address }>).some((r) => r.address === null))).toBe(true);
      expectSorted(entries, key, direction, false);
    });
  }

  it('a dynamic zone is no step of a sort, nor a component or a file itself a sort key: 400 Invalid key', async () => {
    for (const [url, key] of [
      ['/api/restaurants?sort=blocks.title:asc', 'blocks'],
      ['/api/restaurants?sort[blocks][title]=asc', 'blocks'],
      ['/api/restaurants?sort=address:asc', 'address'],
      ['/api/restaurants?sort=cover:asc', 'cover'],
      ['/api/restaurants?sort=address.nope:asc', 'nope at address'],
    ] as const) {
      const response = await app.get(url);
      expect(response.statusCode, url).toBe(400);
      expect(response.json().error, url).toMatchObject({ name: 'ValidationError', message: `Invalid key ${key}` });
    }
  });
});
