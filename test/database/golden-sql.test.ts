import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../helpers/databases.js';
import { expectGoldenSql } from '../helpers/golden-sql.js';
import { contentStatements, isLocalesRecheck } from '../helpers/auth-statements.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { kitchen } from '../fixtures/kitchen.js';

/**
 * Golden SQL: the exact statements Cairn sends for representative requests (a list, a deep populate, a deep
 * filter, a dynamic zone, a positioned relation write, a publish), per database, checked in beside this test in
 * `golden-sql/<case>.<dialect>.sql`. A change to the SQL Cairn generates shows here as a diff to review; when it is
 * meant, `UPDATE_GOLDENS=1 npx vitest run test/database/golden-sql.test.ts` writes the new files.
 */
const GOLDEN_DIR = join(dirname(fileURLToPath(import.meta.url)), 'golden-sql');

interface Case {
  name: string;
  request: (ids: Ids) => [method: string, url: string, body?: unknown];
}
interface Ids {
  restaurant: string;
  thai: string;
  vegan: string;
}

const cases: Case[] = [
  { name: 'list', request: () => ['GET', '/api/restaurants?fields[0]=name&fields[1]=stars&sort=name:asc&pagination[pageSize]=10'] },
  {
    name: 'deep-populate',
    request: () => ['GET', '/api/chefs?populate[restaurants][populate][categories][fields][0]=name&populate[address][populate]=geo'],
  },
  {
    name: 'deep-filter',
    request: () => ['GET', '/api/restaurants?filters[chef][restaurants][categories][name][$eq]=Thai&filters[stars][$gte]=3&locale=en'],
  },
  {
    name: 'dynamic-zone',
    request: (ids) => ['GET', `/api/restaurants/${ids.restaurant}?populate[blocks][on][sections.menu][populate]=items&populate[blocks][on][sections.hero]=true`],
  },
  {
    name: 'relation-write',
    request: (ids) => [
      'PUT',
      `/api/restaurants/${ids.restaurant}?status=draft`,
      { data: { categories: { connect: [{ documentId: ids.vegan, position: { before: ids.thai } }] } } },
    ],
  },
  { name: 'publish', request: (ids) => ['POST', `/api/restaurants/${ids.restaurant}/actions/publish`] },
];

describeEachDialect('golden SQL', (dialect) => {
  let app: TestApp;
  const ids = {} as Ids;
  beforeAll(async () => {
    app = await startTestApp(dialect, kitchen);
    const created = async (url: string, data: unknown) => {
      const res = await app.request('POST', url, { data });
      expect(res.status, res.raw).toBe(201);
      return res.body.data.documentId as string;
    };
    ids.thai = await created('/api/categories', { name: 'Thai' });
    ids.vegan = await created('/api/categories', { name: 'Vegan' });
    const chef = await created('/api/chefs', { name: 'Ann', address: { city: 'Oslo', geo: { lat: 1, lng: 2 } } });
    ids.restaurant = await created('/api/restaurants', {
      name: 'Ana',
      stars: 4,
      chef,
      categories: [ids.thai],
      blocks: [
        { __component: 'sections.hero', title: 'Hi' },
        { __component: 'sections.menu', title: 'Menu', items: [{ lat: 1, lng: 1 }] },
      ],
    });
  }, 60_000);
  afterAll(async () => app?.close());

  for (const { name, request } of cases) {
    it(name, async () => {
      const statements: string[] = [];
      const stop = app.cairn.db.onQuery((sql) => {
        // The locales' recheck is sent by whichever request comes first after its period: not this request's own.
        if (!isLocalesRecheck(sql)) statements.push(sql.trim());
      });
      let status: number;
      try {
        const [method, url, body] = request(ids);
        status = (await app.request(method, url, body)).status;
      } finally {
        stop();
      }
      expect(status).toBeLessThan(300);
      if (name !== 'relation-write' && name !== 'publish') {
        // A read: the API token's lookup (as on every request with a token), then one statement for the read.
        expect(statements.length - contentStatements(statements).length, statements.join('\n---\n')).toBe(1);
        expect(contentStatements(statements), statements.join('\n---\n')).toHaveLength(1);
      }
      expectGoldenSql(GOLDEN_DIR, name, dialect, statements);
    });
  }
});
