import { setTimeout as sleep } from 'node:timers/promises';

/**
 * A lock every process sharing a database respects, held on a connection of its own (outside the pool, so the
 * work done under it may use every pooled connection): PostgreSQL's advisory lock, MySQL's GET_LOCK, and for
 * SQLite an exclusive transaction on a lock file beside the database. All three are released by the server (or
 * the OS) when the holding process dies, so a crashed start-up never leaves a lock behind.
 */
export type ProcessLock = <T>(name: string, fn: () => Promise<T>, options?: LockOptions) => Promise<T>;

export interface LockOptions {
  /** Called once when another process holds the lock, before waiting for it. */
  onWait?(): void;
}

/** How long a process waits for another one's lock before giving up with an error. */
export const LOCK_WAIT_MS = 10 * 60_000;
/** PostgreSQL: the first key of the two-key form, a lock space apart from single-key locks. */
const PG_LOCK_SPACE = 72616953;
/** SQLite: how often a waiting process tries again (better-sqlite3 would block the event loop while it waits). */
const SQLITE_POLL_MS = 50;

const timedOut = (name: string) => new Error(`gave up after ${LOCK_WAIT_MS / 60_000} minutes waiting for the "${name}" lock another process holds`);

interface PgClient {
  query(sql: string, params?: unknown[]): Promise<{ rows: Array<Record<string, unknown>> }>;
  end(): Promise<void>;
}

export function postgresLock(connect: () => Promise<PgClient>): ProcessLock {
  return async (name, fn, options) => {
    const client = await connect();
    try {
      const params = [PG_LOCK_SPACE, name];
      const [{ locked }] = (await client.query('SELECT pg_try_advisory_lock($1::int, hashtext($2)) AS locked', params)).rows;
      if (!locked) {
        options?.onWait?.();
        await client.query(`SET lock_timeout = ${LOCK_WAIT_MS}`);
        try {
          await client.query('SELECT pg_advisory_lock($1::int, hashtext($2))', params);
        } catch (error) {
          throw (error as { code?: string }).code === '55P03' ? timedOut(name) : error;
        }
      }
      try {
        return await fn();
      } finally {
        await client.query('SELECT pg_advisory_unlock($1::int, hashtext($2))', params);
      }
    } finally {
      await client.end();
    }
  };
}

interface MysqlConnection {
  query(sql: string, params?: unknown[]): Promise<[unknown, unknown]>;
  end(): Promise<void>;
}

export function mysqlLock(connect: () => Promise<MysqlConnection>): ProcessLock {
  return async (name, fn, options) => {
    const connection = await connect();
    // Named locks are server-wide: the database's name (hashed, names stop at 64 characters) scopes this one.
    const lockName = `CONCAT(?, SHA1(DATABASE()))`;
    const prefix = `cairn_${name}_`;
    const getLock = async (seconds: number) => {
      const [rows] = await connection.query(`SELECT GET_LOCK(${lockName}, ?) AS l`, [prefix, seconds]);
      return (rows as Array<{ l: number | null }>)[0].l;
    };
    try {
      if ((await getLock(0)) !== 1) {
        options?.onWait?.();
        const got = await getLock(LOCK_WAIT_MS / 1000);
        if (got !== 1) throw got === 0 ? timedOut(name) : new Error(`MySQL could not take the "${name}" lock`);
      }
      try {
        return await fn();
      } finally {
        await connection.query(`SELECT RELEASE_LOCK(${lockName}) AS l`, [prefix]);
      }
    } finally {
      await connection.end();
    }
  };
}

interface SqliteHandle {
  exec(sql: string): unknown;
  close(): unknown;
}

/** `open` opens (creating it if needed) the lock file as a database of its own; an in-memory database needs no lock. */
export function sqliteLock(filename: string, open: (file: string) => SqliteHandle): ProcessLock {
  return async (name, fn, options) => {
    if (filename === ':memory:' || filename === '') return fn();
    const handle = open(`${filename}-${name}.lock`);
    try {
      for (let waited = 0; ; waited += SQLITE_POLL_MS) {
        try {
          handle.exec('BEGIN EXCLUSIVE');
          break;
        } catch (error) {
          if ((error as { code?: string }).code !== 'SQLITE_BUSY') throw error;
          if (waited === 0) options?.onWait?.();
          if (waited > LOCK_WAIT_MS) throw timedOut(name);
          await sleep(SQLITE_POLL_MS);
        }
      }
      try {
        return await fn();
      } finally {
        handle.exec('COMMIT');
      }
    } finally {
      handle.close();
    }
  };
}
