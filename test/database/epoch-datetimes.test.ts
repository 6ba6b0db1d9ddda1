import Database from 'better-sqlite3';
import { expect, it } from 'vitest';
import type { Model } from '../../src/model/types.js';
import { CompileContext } from '../../src/database/sql/context.js';
import { sqlDialect } from '../../src/database/sql/dialect.js';

/**
 * Strapi's SQLite stores datetimes as epoch milliseconds; Cairn answers them as ISO text built by SQLite
 * (CompileContext.jsonValue), as JavaScript's toISOString prints them: to the millisecond, before 1970 too, and
 * ISO text stored by another writer as it is. SQLite only: the other dialects store timestamps.
 */
it('SQLite epoch milliseconds are answered as toISOString prints them', () => {
  const context = new CompileContext({} as Model, sqlDialect('sqlite'), 'published', false);
  const db = new Database(':memory:');
  db.exec('CREATE TABLE t (v datetime)');
  const insert = db.prepare('INSERT INTO t VALUES (?)');
  // Edges (the epoch, each millisecond digit, year and leap-day boundaries, 9999), then a spread from 1900 to 2100.
  const values = [0, 1, 7, 999, 1000, 1508, -1, -999, 946684799999, 951782400000, 1795611500714, 253402300799999];
  let x = 12345;
  for (let i = 0; i < 20000; i++) {
    x = (x * 1103515245 + 12345) % 2147483648;
    values.push(Math.floor((x / 2147483648) * 6311433600000) - 2208988800000);
  }
  for (const v of values) insert.run(v);
  const rows = db.prepare(`SELECT v, ${context.jsonValue('v', 'datetime')} AS iso FROM t`).all() as Array<{ v: number; iso: string }>;
  const wrong = rows.filter((r) => r.iso !== new Date(r.v).toISOString());
  expect(wrong).toEqual([]);
  db.exec(`DELETE FROM t; INSERT INTO t VALUES ('2024-01-02T03:04:05.678Z')`);
  expect(db.prepare(`SELECT ${context.jsonValue('v', 'datetime')} AS iso FROM t`).get()).toEqual({ iso: '2024-01-02T03:04:05.678Z' });
});
