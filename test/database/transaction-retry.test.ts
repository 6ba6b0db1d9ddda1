import { describe, expect, it } from 'vitest';
import { describeEachDialect, useFreshDatabase } from '../helpers/databases.js';
import { inLockOrder, documentLockKey } from '../../src/database/document-locks.js';
import { isTransientConflict, LockOrderConflict, retryDelayMs, TRANSACTION_ATTEMPTS } from '../../src/database/transient.js';
import { ServiceUnavailableError } from '../../src/errors/index.js';
import type { Database } from '../../src/database/types.js';

/**
 * Transactions that lose a real deadlock run again, whole, and their write lands once; document locks are taken in
 * one order whatever order a write names them in.
 */

/** Resolves once both sides reached it. */
function rendezvous() {
  let arrived = 0;
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return () => {
    if (++arrived === 2) open();
    return opened;
  };
}

describeEachDialect('transaction retries', (dialect) => {
  const database = useFreshDatabase(dialect);
  if (dialect === 'sqlite') {
    it('SQLite takes the write lock at BEGIN: two writers cannot deadlock, both commit once', async () => {
      const db = database();
      await db.execute('CREATE TABLE sq (id INTEGER PRIMARY KEY, n INTEGER)');
      await Promise.all([1, 2].map((n) => db.transaction((trx) => trx.execute('INSERT INTO sq (n) VALUES (?)', [n]))));
      expect((await db.query<{ c: number }>('SELECT COUNT(*) AS c FROM sq'))[0].c).toBe(2);
    });
    return;
  }

  const setUp = async (db: Database) => {
    await db.execute('CREATE TABLE accounts (id INTEGER PRIMARY KEY, balance INTEGER NOT NULL)');
    await db.execute('CREATE TABLE moves (id INTEGER PRIMARY KEY, note VARCHAR(20) NOT NULL)');
    await db.execute('INSERT INTO accounts (id, balance) VALUES (1, 0), (2, 0)');
  };

  it('a deadlock: the loser runs again and its writes land once; neither caller sees an error', async () => {
    const db = database();
    await setUp(db);
    const meet = rendezvous();
    const runs = { ab: 0, ba: 0 };
    // Two transfers lock the two rows in opposite orders: the server kills one of them with a deadlock error.
    const transfer = (name: 'ab' | 'ba', first: number, second: number, id: number) =>
      db.transaction(async (trx) => {
        runs[name]++;
        await trx.execute('UPDATE accounts SET balance = balance + 1 WHERE id = ?', [first]);
        if (runs[name] === 1) await meet();
        await trx.execute('UPDATE accounts SET balance = balance + 1 WHERE id = ?', [second]);
        await trx.execute('INSERT INTO moves (id, note) VALUES (?, ?)', [id, name]);
      });
    await Promise.all([transfer('ab', 1, 2, 1), transfer('ba', 2, 1, 2)]);
    expect(runs.ab + runs.ba).toBe(3);
    expect(await db.query('SELECT id, balance FROM accounts ORDER BY id')).toEqual([
      { id: 1, balance: 2 },
      { id: 2, balance: 2 },
    ]);
    expect((await db.query<{ note: string }>('SELECT note FROM moves ORDER BY id')).map((r) => r.note)).toEqual(['ab', 'ba']);
  });

  it('an error that is the request\'s (a duplicate key) is not retried, and the transaction leaves nothing', async () => {
    const db = database();
    let runs = 0;
    const failing = db.transaction(async (trx) => {
      runs++;
      await trx.execute('INSERT INTO moves (id, note) VALUES (?, ?)', [10, 'first']);
      await trx.execute('INSERT INTO moves (id, note) VALUES (?, ?)', [10, 'again']);
    });
    await expect(failing).rejects.toThrow(/duplicate|unique/i);
    expect(runs).toBe(1);
    expect(await db.query('SELECT id FROM moves WHERE id = 10')).toEqual([]);
  });

  it('a lock held by another transaction: the write waits, then goes on', async () => {
    const db = database();
    const key = documentLockKey('api::a.a', 'doc1');
    let release!: () => void;
    const holding = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const held = new Promise<void>((resolve) => (locked = resolve));
    const order: string[] = [];
    const holder = db.transaction(async (trx) => {
      await trx.lock([key]);
      locked();
      await holding;
      order.push('holder done');
    });
    await held;
    const waiter = db.transaction(async (trx) => {
      await trx.lock([documentLockKey('api::a.a', 'other'), key]);
      order.push('waiter locked');
    });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(order).toEqual([]);
    release();
    await Promise.all([holder, waiter]);
    expect(order).toEqual(['holder done', 'waiter locked']);
    // Released at the end of each transaction (MySQL: on the connection, before it returns to the pool).
    await db.transaction((trx) => trx.lock([key]));
  });

  it('tryLock takes free keys and keeps them to the end; a key held elsewhere answers false at once', async () => {
    const db = database();
    const [free, busy] = [documentLockKey('api::a.a', 'free'), documentLockKey('api::a.a', 'busy')];
    let release!: () => void;
    const holding = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const held = new Promise<void>((resolve) => (locked = resolve));
    const holder = db.transaction(async (trx) => {
      await trx.lock([busy]);
      locked();
      await holding;
    });
    await held;
    let answered!: () => void;
    const answer = new Promise<void>((resolve) => (answered = resolve));
    let done!: () => void;
    const finish = new Promise<void>((resolve) => (done = resolve));
    const tries: boolean[] = [];
    const trier = db.transaction(async (trx) => {
      tries.push(await trx.tryLock([free]), await trx.tryLock([busy]), await trx.tryLock([free]));
      answered();
      await finish;
    });
    await answer;
    expect(tries).toEqual([true, false, true]);
    // `free` stays taken by the trier until its transaction ends: a third transaction cannot take it.
    expect(await db.transaction((trx) => trx.tryLock([free]))).toBe(false);
    done();
    release();
    await Promise.all([holder, trier]);
    expect(await db.transaction((trx) => trx.tryLock([free, busy]))).toBe(true);
  });

  it('an attempt that met a held lock out of order (LockOrderConflict) runs again at once, in order; a transaction that runs once never takes that way', async () => {
    const db = database();
    const seen: boolean[] = [];
    const started = Date.now();
    const value = await db.transaction(async (trx) => {
      seen.push(trx.locksInAnyOrder);
      if (seen.length === 1) throw new LockOrderConflict();
      return 'written';
    });
    expect(value).toBe('written');
    expect(seen).toEqual([true, false]);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(await db.transaction(async (trx) => trx.locksInAnyOrder, { once: true })).toBe(false);
  });

  it('lock() is for transactions only', async () => {
    await expect(database().lock(['x'])).rejects.toThrow(/inside a transaction/);
    await expect(database().tryLock(['x'])).rejects.toThrow(/inside a transaction/);
  });
});

describe('document lock order and retry policy', () => {
  it('one global order whatever order the keys come in, without duplicates', () => {
    const keys = Array.from({ length: 20 }, (_, i) => documentLockKey('api::article.article', `d${i}`));
    const ordered = inLockOrder(keys);
    expect(inLockOrder([...keys].reverse())).toEqual(ordered);
    expect(inLockOrder([...keys, ...keys])).toEqual(ordered);
    expect(new Set(ordered).size).toBe(20);
  });

  it('which failures run the transaction again', () => {
    const err = (fields: Record<string, unknown>) => Object.assign(new Error('x'), fields);
    expect(isTransientConflict('postgres', err({ code: '40P01' }))).toBe(true);
    expect(isTransientConflict('postgres', err({ code: '40001' }))).toBe(true);
    expect(isTransientConflict('postgres', new ServiceUnavailableError(undefined, { cause: err({ code: '57P01' }) }))).toBe(true);
    expect(isTransientConflict('mysql', err({ code: 'ER_LOCK_DEADLOCK' }))).toBe(true);
    expect(isTransientConflict('mysql', err({ code: 'ER_AUTOINC_READ_FAILED' }))).toBe(true);
    expect(isTransientConflict('mysql', err({ code: 'PROTOCOL_CONNECTION_LOST', fatal: true }))).toBe(true);
    // A lock wait that timed out already waited its full time; a constraint is the request's.
    expect(isTransientConflict('postgres', err({ code: '55P03' }))).toBe(false);
    expect(isTransientConflict('mysql', err({ code: 'ER_LOCK_WAIT_TIMEOUT' }))).toBe(false);
    expect(isTransientConflict('postgres', err({ code: '23505' }))).toBe(false);
    expect(isTransientConflict('sqlite', err({ code: 'SQLITE_BUSY' }))).toBe(false);
    expect(isTransientConflict('sqlite', new LockOrderConflict())).toBe(true);
  });

  it('waits grow and are jittered, bounded attempts', () => {
    expect(TRANSACTION_ATTEMPTS).toBeGreaterThan(1);
    expect(retryDelayMs(2, () => 0)).toBe(10);
    expect(retryDelayMs(2, () => 1)).toBe(40);
    expect(retryDelayMs(3, () => 0)).toBe(20);
    expect(retryDelayMs(4, () => 0.5)).toBe(100);
  });
});
