import { afterAll, beforeAll, expect, it } from 'vitest';
import { createDatabase } from '../../src/database/index.js';
import type { Database } from '../../src/database/types.js';
import { describeEachDialect, freshDatabaseConfig } from '../helpers/databases.js';

/** `exclusive` across two connections to one database, as two processes starting together hold them. */
describeEachDialect('Database.exclusive', (dialect) => {
  let first: Database;
  let second: Database;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    const fresh = await freshDatabaseConfig(dialect);
    drop = fresh.drop;
    first = await createDatabase(fresh.config);
    second = await createDatabase(fresh.config);
  });
  afterAll(async () => {
    await first?.close();
    await second?.close();
    await drop?.();
  });

  const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  it('one holder at a time: the other waits (and is told), then runs; the work may use the pool meanwhile', async () => {
    const events: string[] = [];
    const work = (name: string, db: Database) => async () => {
      events.push(`${name} in`);
      await db.query('SELECT 1 AS one');
      await pause(300);
      events.push(`${name} out`);
      return name;
    };
    const a = first.exclusive('test', work('a', first));
    await pause(50);
    let waited = false;
    const b = second.exclusive('test', work('b', second), { onWait: () => (waited = true) });
    expect(await Promise.all([a, b])).toEqual(['a', 'b']);
    expect(events).toEqual(['a in', 'a out', 'b in', 'b out']);
    expect(waited).toBe(true);
  });

  it('a holder that fails releases the lock; other names do not wait', async () => {
    await expect(first.exclusive('test', async () => Promise.reject(new Error('setup failed')))).rejects.toThrow('setup failed');
    let waited = false;
    expect(await second.exclusive('test', async () => 'free', { onWait: () => (waited = true) })).toBe('free');
    expect(waited).toBe(false);
    const outer = first.exclusive('one', () => pause(200));
    await pause(50);
    expect(await second.exclusive('other', async () => 'not blocked', { onWait: () => (waited = true) })).toBe('not blocked');
    expect(waited).toBe(false);
    await outer;
  });
});
