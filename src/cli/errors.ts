import { describeMissingPackage } from '../project/config-module.js';

/**
 * Failures a user can fix (a bad config, model or argument, a port in use, a database that refuses) print one line;
 * anything else is a bug and keeps its stack.
 */
const ONE_LINE_NAMES = new Set(['ConfigError', 'ModelError', 'ValidationError', 'LayoutMismatchError']);
const ONE_LINE_CODES = new Set([
  'CAIRN_START_FAILED',
  'CAIRN_DATABASE_NOT_EMPTY',
  'EADDRINUSE',
  'EADDRNOTAVAIL',
  'EACCES',
  'ECONNREFUSED',
  'ENOTFOUND',
  'ETIMEDOUT',
  'ER_ACCESS_DENIED_ERROR',
  'ER_BAD_DB_ERROR',
  '28P01', // PostgreSQL: password authentication failed
  '3D000', // PostgreSQL: database does not exist
  'SQLITE_CANTOPEN', // SQLite: no such file (read-only), or one that cannot be opened
]);

export function fatalMessage(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const missing = describeMissingPackage(error);
  if (missing) return missing;
  const code = (error as { code?: unknown }).code;
  if (ONE_LINE_NAMES.has(error.name) || (typeof code === 'string' && ONE_LINE_CODES.has(code))) return error.message;
  return error.stack ?? error.message;
}

export function reportFatal(error: unknown): never {
  process.stderr.write(`cairn: ${fatalMessage(error)}\n`);
  process.exit(1);
}
