import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../helpers/databases.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { openStrapiFixtureApp, type StrapiFixtureApp } from '../helpers/strapi-app.js';
import { STRAPI_FIXTURE_DIR } from '../helpers/strapi-fixture.js';
import { databaseSnapshot } from '../helpers/db-snapshot.js';
import { isoDatetime } from '../../src/database/strapi-layout/rows.js';

describeEachDialect('Cairn on a database that Strapi made', (dialect) => {
  let app: StrapiFixtureApp;
  let before: unknown;
  beforeAll(async () => {
    app = await openStrapiFixtureApp(dialect);
    before = await databaseSnapshot(app.cairn.db);
  }, 60_000);
  afterAll(() => app?.close());

  it('lists the locales Strapi stores, as Strapi answers them', async () => {
    const rows = await app.cairn.db.query<Record<string, unknown>>('SELECT id, document_id, code, created_at FROM i18n_locale ORDER BY id');
    const response = await app.get('/api/i18n/locales');
    expect(response.statusCode).toBe(200);
    const body = response.json() as Array<Record<string, unknown>>;
    expect(body.map((l) => [l.id, l.documentId, l.code, l.createdAt, l.isDefault])).toEqual(
      rows.map((r) => [Number(r.id), r.document_id, r.code, isoDatetime(r.created_at), r.code === 'en']),
    );
    // Every date is ISO 8601 to the millisecond, whatever the dialect stores.
    for (const locale of body) expect(locale.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  it('reads entries with their relations, media and components from Strapi\'s tables', async () => {
    const response = await app.get(
      '/api/restaurants?filters[name][$eq]=Red Lantern 003&fields[0]=name&populate[chef][fields][0]=name&populate[cover][fields][0]=name&populate[blocks]=true',
    );
    expect(response.statusCode).toBe(200);
    const [entry] = response.json().data;
    expect(entry).toMatchObject({ name: 'Red Lantern 003', chef: { name: 'Sofia Lefèvre' }, cover: { name: 'wide.png' } });
    expect(entry.blocks.map((b: { __component: string }) => b.__component)).toEqual(['sections.hero', 'sections.hero']);
  });

  it("serves the files Strapi stored in public/uploads at the urls of its files rows, formats included", async () => {
    const files = await app.cairn.db.query<{ url: string; formats: unknown }>('SELECT url, formats FROM files ORDER BY id');
    const urls = files.flatMap((f) => {
      const formats = (typeof f.formats === 'string' ? JSON.parse(f.formats) : f.formats) as Record<string, { url: string }> | null;
      return [f.url, ...Object.values(formats ?? {}).map((format) => format.url)];
    });
    expect(urls.length).toBeGreaterThan(files.length);
    for (const url of urls) {
      const response = await app.request('GET', url, undefined, '');
      expect(response.statusCode, url).toBe(200);
      expect(response.rawPayload.equals(readFileSync(join(STRAPI_FIXTURE_DIR, 'uploads', dialect, url.replace('/uploads/', ''))))).toBe(true);
    }
  });

  it('leaves every table as Strapi made it: same layout, same row counts', async () => {
    expect(await databaseSnapshot(app.cairn.db)).toEqual(before);
  });
});
