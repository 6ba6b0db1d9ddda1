import { createHash } from 'node:crypto';
import type { DialectName } from './types.js';

/**
 * Write locks on documents, held until the transaction ends, that every process on the database respects. A write
 * takes the locks of every document whose rows or links it changes before it reads anything, all at once and in
 * one global order (by the key's hash), so two writes never wait for each other in a circle; a lock found to be
 * needed later (a list that changed meanwhile) is taken then, and a deadlock that this can cause is detected by
 * the server and retried (transient.ts).
 *
 * - PostgreSQL: transaction-level advisory locks (`pg_advisory_xact_lock`), released by COMMIT/ROLLBACK.
 * - MySQL/MariaDB: named locks (`GET_LOCK`), which belong to the session: the connection that took them releases
 *   them after the transaction ends, before it goes back to the pool (connection.ts).
 * - SQLite: nothing to do; every write transaction holds the database's write lock from BEGIN IMMEDIATE.
 */

/** PostgreSQL: the first key of the two-key form, apart from start-up locks (process-lock.ts) and apps' own. */
const PG_DOCUMENT_LOCK_SPACE = 72616954;
/** How long a write waits for another's document lock before a 503 (PostgreSQL's is its lock_timeout). */
export const DOCUMENT_LOCK_WAIT_S = 10;

/** The key of one document of one content type, in every locale. */
export function documentLockKey(uid: string, documentId: string): string {
  return `${uid}|${documentId}`;
}

/**
 * A single type's key, held by a create from its check that the type has no document until it commits: two first
 * writes at once then make one document. (A documentId is never empty, so no document's key is this one.)
 */
export function singleTypeLockKey(uid: string): string {
  return `${uid}|`;
}

/** A signed 32-bit hash of the key: the lock's identity on PostgreSQL, and the global order on every database. */
export function lockHash(key: string): number {
  return createHash('sha1').update(key).digest().readInt32BE(0);
}

/** The keys, without duplicates, in the one order every process takes them in. */
export function inLockOrder(keys: Iterable<string>): string[] {
  return [...new Set(keys)]
    .map((key) => ({ key, hash: lockHash(key) }))
    .sort((a, b) => a.hash - b.hash || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    .map((k) => k.key);
}

/**
 * The statements that take these keys' locks, in the order given (inLockOrder), and whether a row that comes back
 * means one failed. PostgreSQL takes them all in one statement: the function runs once per array element, in the
 * array's order (a function scan of `unnest`), each waiting as long as the lock_timeout. MySQL takes one key a
 * statement, each GET_LOCK with its own timeout, so that a timeout stops before the next key is taken.
 */
export function lockStatements(dialect: DialectName, keys: readonly string[]): Array<{ sql: string; params: unknown[] }> {
  if (!keys.length) return [];
  if (dialect === 'postgres') {
    const marks = keys.map(() => '?').join(', ');
    return [{ sql: `SELECT pg_advisory_xact_lock(${PG_DOCUMENT_LOCK_SPACE}, k) AS locked FROM unnest(ARRAY[${marks}]::int[]) AS k`, params: keys.map(lockHash) }];
  }
  if (dialect === 'mysql') return keys.map((key) => ({ sql: MYSQL_GET_LOCK, params: [key, DOCUMENT_LOCK_WAIT_S] }));
  return [];
}

/** Named locks are server-wide and their names stop at 64 characters: the database's name is hashed in. */
const MYSQL_GET_LOCK = `SELECT GET_LOCK(CONCAT('cairn_doc_', SHA1(CONCAT(DATABASE(), '|', ?))), ?) AS locked`;

/**
 * The statement that takes these keys' locks only where no one holds them, waiting for none (so it may run in any
 * order: a transaction that waits for nothing closes no circle of waits), and answers one row per key with `locked`
 * 1 or 0 (PostgreSQL: true or false). The keys taken stay held, until the transaction ends, whatever the others'.
 * MySQL: GET_LOCK with no wait, one statement for all (its select list is evaluated left to right).
 */
export function tryLockStatement(dialect: DialectName, keys: readonly string[]): { sql: string; params: unknown[] } | undefined {
  if (!keys.length || dialect === 'sqlite') return undefined;
  const marks = keys.map(() => '?').join(', ');
  if (dialect === 'postgres') {
    return { sql: `SELECT pg_try_advisory_xact_lock(${PG_DOCUMENT_LOCK_SPACE}, k) AS locked FROM unnest(ARRAY[${marks}]::int[]) AS k`, params: keys.map(lockHash) };
  }
  const select = keys.map((_, i) => MYSQL_GET_LOCK.replace('SELECT ', '').replace(' AS locked', ` AS locked_${i}`));
  return { sql: `SELECT ${select.join(', ')}`, params: keys.flatMap((key) => [key, 0]) };
}

/** Whether tryLockStatement's answer says every key was taken. */
export function allTaken(rows: ReadonlyArray<Record<string, unknown>>): boolean {
  return rows.every((row) => Object.values(row).every((value) => value === true || Number(value) === 1));
}

/** MySQL: what a connection runs after its transaction ended when it took document locks. */
export const RELEASE_SESSION_LOCKS = 'SELECT RELEASE_ALL_LOCKS() AS released';

/** GET_LOCK answers 1 when it got the lock, 0 on timeout, NULL on an error (the connection killed meanwhile). */
export function lockTimedOut(dialect: DialectName, row: Record<string, unknown> | undefined): boolean {
  return dialect === 'mysql' && Number(row?.locked) !== 1;
}
