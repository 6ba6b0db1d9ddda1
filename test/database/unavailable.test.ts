import { describe, expect, it } from 'vitest';
import { databaseUnavailable } from '../../src/database/unavailable.js';
import type { DialectName } from '../../src/database/types.js';

/**
 * Which driver errors are a 503 (the database out of reach, or a conflict a retry resolves) and which stay what
 * they are (a constraint is the request's, a syntax error Cairn's bug). The real faults are in
 * test/app/database-faults.test.ts; these are the shapes drivers give, some hard to provoke on demand.
 */
const error = (fields: Record<string, unknown>) => Object.assign(new Error(String(fields.message ?? 'x')), fields);

const unavailable: Array<[DialectName, Record<string, unknown>]> = [
  ['postgres', { code: '57P01', message: 'terminating connection due to administrator command' }],
  ['postgres', { code: '57P03', message: 'the database system is starting up' }],
  ['postgres', { code: '08006', message: 'connection failure' }],
  ['postgres', { code: '53300', message: 'sorry, too many clients already' }],
  ['postgres', { code: '40P01', message: 'deadlock detected' }],
  ['postgres', { code: '40001', message: 'could not serialize access due to concurrent update' }],
  ['postgres', { code: '55P03', message: 'could not obtain lock on row' }],
  ['postgres', { message: 'Connection terminated unexpectedly' }],
  ['postgres', { message: 'timeout exceeded when trying to connect' }],
  ['postgres', { code: 'ECONNREFUSED', message: 'connect ECONNREFUSED 127.0.0.1:5432' }],
  ['mysql', { code: 'ECONNRESET', message: 'read ECONNRESET', fatal: true }],
  ['mysql', { code: 'PROTOCOL_CONNECTION_LOST', message: 'Connection lost: The server closed the connection.', fatal: true }],
  ['mysql', { code: 'ER_SERVER_SHUTDOWN', message: 'Server shutdown in progress' }],
  ['mysql', { code: 'ER_LOCK_DEADLOCK', message: 'Deadlock found when trying to get lock; try restarting transaction' }],
  ['mysql', { code: 'ER_AUTOINC_READ_FAILED', message: 'Failed to read auto-increment value from storage engine' }],
  ['mysql', { code: 'ER_LOCK_WAIT_TIMEOUT', message: 'Lock wait timeout exceeded; try restarting transaction' }],
  ['mysql', { message: "Can't add new command when connection is in closed state" }],
  ['sqlite', { code: 'SQLITE_BUSY', message: 'database is locked' }],
  ['sqlite', { code: 'SQLITE_BUSY_SNAPSHOT', message: 'database is locked' }],
  ['sqlite', { code: 'SQLITE_LOCKED', message: 'database table is locked' }],
];

const others: Array<[DialectName, unknown]> = [
  ['postgres', error({ code: '23505', message: 'duplicate key value violates unique constraint' })],
  ['postgres', error({ code: '42601', message: 'syntax error at or near "FROM"' })],
  ['postgres', error({ code: '22P02', message: 'invalid input syntax for type integer' })],
  ['mysql', error({ code: 'ER_DUP_ENTRY', message: "Duplicate entry 'a' for key 'name'" })],
  ['mysql', error({ code: 'ER_PARSE_ERROR', message: 'You have an error in your SQL syntax' })],
  ['sqlite', error({ code: 'SQLITE_CONSTRAINT_UNIQUE', message: 'UNIQUE constraint failed: tags.name' })],
  ['sqlite', error({ code: 'SQLITE_ERROR', message: 'no such table: tags' })],
  // A code of another database's family means nothing here.
  ['sqlite', error({ code: '57P01', message: 'x' })],
  ['postgres', error({ code: 'SQLITE_BUSY', message: 'x' })],
  ['postgres', new TypeError("Cannot read properties of undefined (reading 'id')")],
  ['postgres', undefined],
  ['postgres', 'a string'],
];

describe('databaseUnavailable', () => {
  it.each(unavailable)('%s %j: a 503 ServiceUnavailableError with the driver error as its cause', (dialect, fields) => {
    const cause = error(fields);
    const mapped = databaseUnavailable(dialect, cause);
    expect(mapped?.toResponse()).toEqual({
      data: null,
      error: { status: 503, name: 'ServiceUnavailableError', message: 'The database is unavailable, try again shortly', details: {} },
    });
    expect(mapped?.retryAfter).toBe(1);
    expect(mapped?.cause).toBe(cause);
  });

  it.each(others)('%s %s: not a database fault (undefined)', (dialect, given) => {
    expect(databaseUnavailable(dialect, given)).toBeUndefined();
  });
});
