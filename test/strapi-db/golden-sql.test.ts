import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../helpers/databases.js';
import { expectGoldenSql } from '../helpers/golden-sql.js';
import { isLocalesRecheck } from '../helpers/auth-statements.js';
import { openStrapiFixtureApp, type StrapiFixtureApp } from '../helpers/strapi-app.js';

/**
 * The statements Cairn sends for representative reads of a database that Strapi made (version-row links, the
 * polymorphic media table, `_cmps.order`), per dialect, in `golden-sql/<case>.<dialect>.sql`: one statement per
 * read, whatever the request populates or filters through (after the token's lookup). `UPDATE_GOLDENS=1` rewrites
 * them after a meant change.
 */
const GOLDEN_DIR = join(import.meta.dirname, 'golden-sql');

const cases: Array<{ name: string; url: string }> = [
  // A list with its total (carried by each row: one statement), a to-one, a to-many and media populated.
  { name: 'list-populate', url: '/api/restaurants?fields[0]=name&populate[chef][fields][0]=name&populate[categories][fields][0]=name&populate[cover][fields][0]=name&sort=name:asc&pagination[pageSize]=5' },
  // Relations that populate further are built once per target for the page (hoisted), by row id.
  { name: 'hoisted', url: '/api/articles?fields[0]=title&populate[author][populate][articles][fields][0]=title&pagination[pageSize]=3' },
  // The inverse side of a manyToOne, in the order of its inverse order column.
  { name: 'inverse-side', url: '/api/authors?fields[0]=name&populate[articles][fields][0]=title&pagination[pageSize]=2' },
  // Filters through relations follow the version rows' links.
  { name: 'deep-filter', url: '/api/articles?filters[categories][restaurants][chef][name][$startsWith]=A&fields[0]=title&pagination[pageSize]=2' },
  // Components and a dynamic zone, in `_cmps.order`; a datetime filter on SQLite's epoch milliseconds.
  { name: 'components', url: '/api/restaurants?filters[createdAt][$gt]=2020-01-01T00:00:00.000Z&populate[address][populate]=geo&populate[blocks][populate]=*&fields[0]=name&pagination[pageSize]=2' },
];

describeEachDialect('SQL for reads of a database that Strapi made', (dialect) => {
  let app: StrapiFixtureApp;
  beforeAll(async () => {
    app = await openStrapiFixtureApp(dialect);
    // The token's first use records when it was last used (Strapi's rule): not part of any read below.
    expect((await app.get('/api/categories?fields[0]=name')).statusCode).toBe(200);
  }, 60_000);
  afterAll(() => app?.close());

  for (const { name, url } of cases) {
    it(name, async () => {
      const statements: string[] = [];
      const stop = app.cairn.db.onQuery((sql) => {
        // The locales' recheck is sent by whichever request comes first after its period: not this request's own.
        if (!isLocalesRecheck(sql)) statements.push(sql.trim());
      });
      let status: number;
      try {
        status = (await app.get(url)).statusCode;
      } finally {
        stop();
      }
      expect(status).toBe(200);
      // The API token's lookup (as on every request with a token), then the read itself.
      expect(statements).toHaveLength(2);
      expect(statements[0]).toMatch(/ FROM strapi_api_tokens /);
      expectGoldenSql(GOLDEN_DIR, name, dialect, statements);
    });
  }
});
