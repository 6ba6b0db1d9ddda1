import { afterAll, beforeAll, expect, it } from 'vitest';
import { createDatabase } from '../../src/database/connection.js';
import { readEntries } from '../../src/database/store/index.js';
import type { Database } from '../../src/database/types.js';
import { parseDocumentParams } from '../../src/query/index.js';
import { describeEachDialect } from '../helpers/databases.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { kitchen } from '../fixtures/kitchen.js';

/**
 * A list's total follows every change to the rows it counts, whoever makes it: this app's writes, another
 * connection's (another process, Strapi beside Cairn), a transaction that reads its own changes then rolls back.
 * On SQLite the total is remembered between requests while the connection's stamps (data_version, total_changes)
 * are unchanged (SqlDialect.rememberedTotal); elsewhere each list counts. Same requests, same answers, everywhere.
 */
describeEachDialect('list totals follow changes', (dialect) => {
  let app: TestApp;
  let other: Database;
  const total = async (url = '/api/restaurants') => {
    const res = await app.request('GET', url);
    expect(res.status, res.raw).toBe(200);
    return res.body.meta.pagination.total as number;
  };
  const create = async (name: string, stars: number) => {
    const res = await app.request('POST', '/api/restaurants', { data: { name, stars } });
    expect(res.status, res.raw).toBe(201);
    return res.body.data.documentId as string;
  };

  beforeAll(async () => {
    app = await startTestApp(dialect, kitchen);
    // Another connection (SQLite: another handle on the same file) to the app's database.
    other = await createDatabase(app.cairn.config.database as never);
  }, 60_000);
  afterAll(async () => {
    await other?.close();
    await app?.close();
  });

  it('counts again after this app writes, per filter value', async () => {
    expect(await total()).toBe(0);
    await create('Ana', 3);
    expect(await total()).toBe(1);
    expect(await total()).toBe(1);
    await create('Bo', 5);
    expect(await total()).toBe(2);
    expect(await total('/api/restaurants?filters[stars][$gte]=4')).toBe(1);
    expect(await total('/api/restaurants?filters[stars][$gte]=3')).toBe(2);
    expect(await total('/api/restaurants?filters[stars][$gte]=4')).toBe(1);
    expect(await total('/api/restaurants?filters[stars][$gte]=4&status=draft')).toBe(1);
    await create('Cy', 4);
    expect(await total('/api/restaurants?filters[stars][$gte]=4')).toBe(2);
    expect(await total('/api/restaurants?filters[stars][$gte]=4&status=draft')).toBe(2);
  });

  it('counts again after another connection writes', async () => {
    const before = await total();
    expect(await total()).toBe(before);
    const table = other.quote('restaurants');
    await other.execute(`DELETE FROM ${table} WHERE ${other.quote('name')} = ? AND ${other.quote('published_at')} IS NOT NULL`, ['Ana']);
    expect(await total()).toBe(before - 1);
    expect(await total('/api/restaurants?status=draft')).toBe(before);
  });

  it('a total read inside a transaction that rolls back is not kept', async () => {
    const before = await total();
    const { model, readSettings } = app.cairn;
    const contentType = model.contentTypes.get('api::restaurant.restaurant')!;
    const spec = parseDocumentParams(model, contentType, {}, readSettings);
    expect((await readEntries(app.cairn.db, model, contentType, spec)).total).toBe(before);
    const rollback = new Error('roll back');
    await expect(
      app.cairn.db.transaction(async (trx) => {
        await trx.execute(`DELETE FROM ${trx.quote('restaurants')} WHERE ${trx.quote('published_at')} IS NOT NULL`);
        expect((await readEntries(trx, model, contentType, spec)).total).toBe(0);
        throw rollback;
      }),
    ).rejects.toBe(rollback);
    expect((await readEntries(app.cairn.db, model, contentType, spec)).total).toBe(before);
    expect(await total()).toBe(before);
  });

  // Only SQLite remembers totals (elsewhere each list counts): the test is skipped on the other dialects.
  it.runIf(dialect === 'sqlite')('on SQLite a total counted once is given back to the next read with the stamps it was counted at', async () => {
    const all = await total();
    const sent: unknown[][] = [];
    const stop = app.cairn.db.onQuery((sql, params) => {
      if (sql.includes('pragma_data_version')) sent.push([...params]);
    });
    try {
      expect(await total()).toBe(all);
      expect(await total()).toBe(all);
    } finally {
      stop();
    }
    // The list statement binds the remembered stamps and total (then the count's own values): a read after a read
    // with nothing changed binds what the first gave back (the count's subquery then does not run), never NaN.
    expect(sent).toHaveLength(2);
    const params = sent[1];
    const stamped = params.some((value, i) => i >= 2 && value === all && Number.isInteger(params[i - 2]) && Number.isInteger(params[i - 1]));
    expect(stamped, JSON.stringify(params)).toBe(true);
    expect(sent[0]).toEqual(sent[1]);
  });

  it('a page past the end still has its total', async () => {
    const all = await total();
    const res = await app.request('GET', '/api/restaurants?pagination[page]=50');
    expect(res.status, res.raw).toBe(200);
    expect(res.body.data).toEqual([]);
    expect(res.body.meta.pagination.total).toBe(all);
  });
});
