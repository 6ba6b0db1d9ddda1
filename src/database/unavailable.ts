import { ServiceUnavailableError } from '../errors/index.js';
import type { DialectName } from './types.js';

/** The socket to the server failed: refused, reset, timed out, unreachable. Node's codes, every driver. */
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);

/**
 * PostgreSQL SQLSTATEs: connection exceptions (class 08); the server shutting down, crashed or starting
 * (57P01-57P03, a restart's "terminating connection due to administrator command"); too many connections (53300);
 * a statement cancelled (57014: pg_cancel_backend, statement_timeout); conflicts a retry resolves: serialization
 * failure (40001), deadlock (40P01), lock not available (55P03).
 */
const POSTGRES_CODES = /^(08...|57P0[123]|53300|57014|40001|40P01|55P03)$/;
/** pg's own errors for a connection that ended or never came (they carry no code). */
const POSTGRES_MESSAGES = /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Client was closed)/;

/**
 * MySQL/MariaDB: the server shutting down (ER_SERVER_SHUTDOWN), too many connections, the connection or query
 * killed (KILL), a deadlock (of row locks, or of the auto-increment lock) or a lock wait timeout; mysql2's own
 * codes for a lost connection. Any error mysql2 marks `fatal` broke its connection.
 */
const MYSQL_CODES = new Set([
  'ER_SERVER_SHUTDOWN',
  'ER_CON_COUNT_ERROR',
  'ER_CONNECTION_KILLED',
  'ER_QUERY_INTERRUPTED',
  'ER_LOCK_DEADLOCK',
  'ER_AUTOINC_READ_FAILED',
  'ER_LOCK_WAIT_TIMEOUT',
  'PROTOCOL_CONNECTION_LOST',
  'PROTOCOL_SEQUENCE_TIMEOUT',
  'CAIRN_POOL_TIMEOUT',
]);
const MYSQL_MESSAGES = /^Can't add new command when connection is in closed state/;

/** SQLite: another process holds the lock past busy_timeout (SQLITE_BUSY, SQLITE_BUSY_SNAPSHOT...), or a table lock. */
const SQLITE_CODES = /^SQLITE_(BUSY|LOCKED)/;

/**
 * The error to answer when the database is out of reach or gave up for a reason that is not the request's: a
 * restart, a failover, a cut connection, a full server, a lock held too long by someone else. The request may
 * succeed if tried again shortly: a 503 ServiceUnavailableError with Retry-After, the driver's error as its
 * cause (logged). Undefined for any other error (a bad statement stays a 500 bug, a constraint a 4xx).
 */
export function databaseUnavailable(dialect: DialectName, error: unknown): ServiceUnavailableError | undefined {
  return isUnavailable(dialect, error) ? new ServiceUnavailableError(undefined, { cause: error }) : undefined;
}

function isUnavailable(dialect: DialectName, error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, message, fatal } = error as { code?: unknown; message?: unknown; fatal?: unknown };
  const text = typeof code === 'string' ? code : '';
  if (SOCKET_CODES.has(text)) return true;
  if (dialect === 'postgres') return POSTGRES_CODES.test(text) || POSTGRES_MESSAGES.test(String(message));
  if (dialect === 'mysql') return fatal === true || MYSQL_CODES.has(text) || MYSQL_MESSAGES.test(String(message));
  return SQLITE_CODES.test(text);
}
