import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../helpers/databases.js';
import { openStrapiFixtureApp, type StrapiFixtureApp } from '../helpers/strapi-app.js';
import { allPages, compareSortValues } from '../helpers/sorted-pages.js';

type Entry = { id: number; name: string; categories: Array<{ name: string | null }> };

const compare = compareSortValues;

/**
 * Sorting through a to-many relation on a database Strapi made (its link tables, its version rows): no golden of
 * Strapi's answer exists for it, so the order rule is checked against the data the same response populates. Each
 * restaurant sorts by the least of its categories' names ascending, the greatest descending; none sorts as NULL
 * (first ascending, last descending); ties keep id order. Every entry shows once across the pages.
 */
describeEachDialect('sort through a to-many relation on a database that Strapi made', (dialect) => {
  let app: StrapiFixtureApp;
  beforeAll(async () => {
    app = await openStrapiFixtureApp(dialect);
  }, 60_000);
  afterAll(() => app?.close());

  const sortedPages = (direction: 'asc' | 'desc') =>
    allPages<Entry>(app, `/api/restaurants?sort=categories.name:${direction}&fields[0]=name&populate[categories][fields][0]=name`);

  for (const direction of ['asc', 'desc'] as const) {
    it(`sort=categories.name:${direction}`, async () => {
      const entries = await sortedPages(direction);
      expect(new Set(entries.map((e) => e.id)).size).toBe(entries.length);
      // The fixture has entries with no category and with several: the rule is exercised, not only assumed.
      expect(entries.some((e) => e.categories.length === 0)).toBe(true);
      expect(entries.some((e) => e.categories.length > 1)).toBe(true);
      const sign = direction === 'asc' ? 1 : -1;
      const key = (e: Entry): string | null =>
        e.categories.map((c) => c.name).reduce<string | null>((best, name) => (best === null || compare(name, best) * sign < 0 ? name : best), null);
      for (let i = 1; i < entries.length; i++) {
        const [before, after] = [entries[i - 1], entries[i]];
        const order = compare(key(before), key(after)) * sign;
        const where = `${before.name} (${String(key(before))}) before ${after.name} (${String(key(after))})`;
        expect(order, where).toBeLessThanOrEqual(0);
        if (order === 0) expect(before.id, where).toBeLessThan(after.id);
      }
      const nulls = entries.filter((e) => key(e) === null);
      expect(direction === 'asc' ? entries.slice(0, nulls.length) : entries.slice(entries.length - nulls.length)).toEqual(nulls);
    });
  }
});
