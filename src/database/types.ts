import type { Kysely } from 'kysely';
import type { LockOptions } from './process-lock.js';

export type DialectName = 'sqlite' | 'postgres' | 'mysql';

/** `config/database` after loading, in Strapi's shape: `{ connection: { client, connection, pool } }`. */
export interface DatabaseConfig {
  connection: {
    client: DialectName | 'better-sqlite3' | 'mysql2' | 'pg';
    connection: Record<string, unknown>;
    pool?: { min?: number; max?: number };
    /** Milliseconds a statement waits for a connection (to open, or a free one) before a 503; default 3000. */
    acquireConnectionTimeout?: number;
    useNullAsDefault?: boolean;
    debug?: boolean;
  };
  settings?: Record<string, unknown>;
}

export interface ExecuteResult {
  /** Rows changed by INSERT/UPDATE/DELETE. */
  affectedRows: number;
  /** Auto-increment id of the row an INSERT made (SQLite, MySQL; on PostgreSQL use `RETURNING id` with query()). */
  insertId?: number;
}

/**
 * A connection (or a transaction) to one database. SQL text uses `?` placeholders on every dialect; the
 * implementation rewrites them for PostgreSQL ($1, $2...). Identifiers are quoted by the caller with `quote()`.
 */
export interface Database {
  readonly dialect: DialectName;
  /** The underlying Kysely instance (schema builder, typed queries where convenient), loaded on first use. */
  kysely(): Promise<Kysely<any>>;
  /** Quote an identifier for this dialect: "name" or `name`. */
  quote(identifier: string): string;
  /** Run a statement that returns rows. */
  query<Row = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<Row[]>;
  /** Run a statement that changes rows. */
  execute(sql: string, params?: readonly unknown[]): Promise<ExecuteResult>;
  /**
   * Run `fn` in one transaction; nested calls reuse the outer transaction. A transient conflict runs `fn` again
   * (connection.ts) unless `once` is set: then it fails as it came (app code may have done what must not run twice).
   */
  transaction<T>(fn: (trx: Database) => Promise<T>, options?: { once?: boolean }): Promise<T>;
  /**
   * Inside a transaction: takes the write lock of each key (`documentLockKey`) until the transaction ends, in the
   * one global order every process uses (document-locks.ts). Keys already held are skipped.
   */
  lock(keys: Iterable<string>): Promise<void>;
  /**
   * Inside a transaction: takes the locks of the keys no one else holds, without waiting, in any order; true when
   * it took them all. Those it took stay held until the transaction ends either way.
   */
  tryLock(keys: Iterable<string>): Promise<boolean>;
  /**
   * Inside a transaction: whether it may take locks out of the global order without waiting (tryLock), ending the
   * attempt when one is held elsewhere: true on a first attempt of a transaction that runs again on a conflict.
   */
  readonly locksInAnyOrder: boolean;
  /** True inside `transaction()`. */
  readonly inTransaction: boolean;
  /**
   * Inside a transaction: calls `callback` once the outermost transaction has committed (never when it rolls back,
   * nor for an attempt that failed and ran again), and that `transaction()` call resolves once the callbacks have
   * settled, one after the other; outside a transaction, calls it at once. What Strapi's `onCommit` is for: work
   * that must see the write committed (events). `callback` must not throw or reject: the write stands, and its
   * failures are its own to handle.
   */
  onCommit(callback: () => Promise<void> | void): void;
  /** Listen to every statement sent to the server (tests count them). Returns an unsubscribe function. */
  onQuery(listener: (sql: string, params: readonly unknown[]) => void): () => void;
  /**
   * Runs `fn` holding a lock named `name` that every process sharing this database respects (PostgreSQL advisory
   * lock, MySQL GET_LOCK, a lock file for SQLite), on a connection of its own. The root connection only.
   */
  exclusive<T>(name: string, fn: () => Promise<T>, options?: LockOptions): Promise<T>;
  close(): Promise<void>;
}
