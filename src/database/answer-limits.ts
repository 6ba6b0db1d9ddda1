import { answerTooLargeError, type ApplicationError } from '../errors/index.js';
import type { DialectName } from './types.js';

/** PostgreSQL: program_limit_exceeded (a jsonb over 256 MB...), out_of_memory. */
const POSTGRES_LIMIT_CODES = new Set(['54000', '53200']);

/**
 * The error to answer when the database refused to build an answer that outgrew its limits: SQLite's 1 GB strings
 * (SQLITE_TOOBIG), PostgreSQL's 1 GB values ("invalid memory alloc request size") and limit errors. The request
 * asked for too much, typically a populate that fans out (each chef's restaurants' chefs' restaurants...): a 400
 * that says so, not a 500. Undefined for any other error. (MariaDB raises no error: see answerTooLargeError.)
 */
export function answerTooLarge(dialect: DialectName, error: unknown): ApplicationError | undefined {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  const tooLarge =
    (dialect === 'sqlite' && code === 'SQLITE_TOOBIG') ||
    (dialect === 'postgres' && (POSTGRES_LIMIT_CODES.has(String(code)) || /invalid memory alloc request size/.test(String(message))));
  return tooLarge ? answerTooLargeError() : undefined;
}

/**
 * The request asked for more than the database builds into one value (errors/index.ts). Also what a read answers
 * when an entry's JSON came back NULL: MariaDB's JSON functions return NULL (with only a warning) past
 * max_allowed_packet.
 */
export { answerTooLargeError };
