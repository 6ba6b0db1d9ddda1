import { ServiceUnavailableError } from '../errors/index.js';
import type { DialectName } from './types.js';

/**
 * Errors after which running the whole transaction again may well succeed, and is safe because the server rolled
 * the first attempt back: a deadlock or serialization failure (another writer won), and a connection lost before
 * COMMIT was sent (a restart, a failover, pg_terminate_backend, KILL). A lock wait that timed out is not one of
 * them: it already waited its full time, and waiting again would only hold the client longer.
 */
const POSTGRES = /^(40001|40P01|57P0[123]|08...)$/;
/** ER_AUTOINC_READ_FAILED: what MariaDB answers when concurrent inserts contend for a table's auto-increment lock. */
const MYSQL = new Set(['ER_LOCK_DEADLOCK', 'ER_AUTOINC_READ_FAILED', 'ER_CONNECTION_KILLED', 'ER_SERVER_SHUTDOWN', 'PROTOCOL_CONNECTION_LOST']);
const SOCKET = new Set(['ECONNRESET', 'EPIPE', 'ECONNREFUSED']);
const PG_LOST = /^(Connection terminated|Client has encountered a connection error)/;

/** The driver's own error: statements wrap connection faults in a ServiceUnavailableError (unavailable.ts). */
function driverError(error: unknown): unknown {
  return error instanceof ServiceUnavailableError && error.cause !== undefined ? error.cause : error;
}

/**
 * A write that took document locks out of the global order, without waiting, met one held by another write
 * (documents/write-locks.ts lockForWrite): its transaction runs again, taking them in order this time.
 */
export class LockOrderConflict extends Error {
  constructor() {
    super('A document this write must lock is held by another write: the write runs again, taking its locks in order');
    this.name = 'LockOrderConflict';
  }
}

export function isTransientConflict(dialect: DialectName, error: unknown): boolean {
  if (error instanceof LockOrderConflict) return true;
  const cause = driverError(error);
  if (typeof cause !== 'object' || cause === null) return false;
  const { code, message, fatal } = cause as { code?: unknown; message?: unknown; fatal?: unknown };
  const text = typeof code === 'string' ? code : '';
  if (SOCKET.has(text)) return true;
  if (dialect === 'postgres') return POSTGRES.test(text) || PG_LOST.test(String(message));
  if (dialect === 'mysql') return MYSQL.has(text) || fatal === true;
  // SQLite: BEGIN IMMEDIATE takes the write lock first, so a write never deadlocks; SQLITE_BUSY came after the
  // busy timeout's full wait.
  return false;
}

/** How often a transaction runs at most, the first attempt included. */
export const TRANSACTION_ATTEMPTS = 4;

/**
 * The wait before attempt `n` (2, 3, ...): exponential with full jitter (10-40 ms, 20-80 ms, 40-160 ms), so that
 * writers that collided do not collide again in step.
 */
export function retryDelayMs(attempt: number, random = Math.random): number {
  const base = 10 * 2 ** (attempt - 2);
  return base + random() * 3 * base;
}
