import { answerTooLargeError } from '../errors/index.js';
import type { PaginationMeta } from '../documents/index.js';

/**
 * Responses are spliced from the entries' JSON texts as the database produced them: no parse and re-stringify
 * of every entry on the hot path.
 */
export function listBody(rows: string[], pagination: PaginationMeta): string {
  try {
    return `{"data":[${rows.join(',')}],"meta":${JSON.stringify({ pagination })}}`;
  } catch (error) {
    // Each entry fits in a string (the driver made it), the page may not (V8 checks the length before it copies):
    // a 400 that says so, not a RangeError's 500.
    if (error instanceof RangeError) throw answerTooLargeError();
    throw error;
  }
}

export function entryBody(row: string): string {
  return `{"data":${row},"meta":{}}`;
}

export const JSON_TYPE = 'application/json; charset=utf-8';
