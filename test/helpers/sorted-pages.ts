import { expect } from 'vitest';
import type { StrapiFixtureApp } from './strapi-app.js';

/** A value a sort compares: text by code point (Cairn's order on every database), numbers by value; NULL below all. */
export type SortValue = string | number | null;

export const compareSortValues = (a: SortValue, b: SortValue): number => {
  if (a === b) return 0;
  if (a === null) return -1;
  if (b === null) return 1;
  return a < b ? -1 : 1;
};

/** Every entry of a list request (`url` has its query already), page by page (100 a page), checked against the total. */
export async function allPages<Entry>(app: StrapiFixtureApp, url: string): Promise<Entry[]> {
  const entries: Entry[] = [];
  for (let page = 1; ; page++) {
    const response = await app.get(`${url}&pagination[pageSize]=100&pagination[page]=${page}`);
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json() as { data: Entry[]; meta: { pagination: { pageCount: number; total: number } } };
    entries.push(...body.data);
    if (page >= body.meta.pagination.pageCount) {
      expect(entries).toHaveLength(body.meta.pagination.total);
      return entries;
    }
  }
}
