import { constants } from 'node:buffer';
import { answerTooLargeError } from '../errors/index.js';
import type { PaginationMeta } from '../documents/index.js';

/**
 * Responses are spliced from the entries' JSON texts as the database produced them: no parse and re-stringify
 * of every entry on the hot path.
 */
export function listBody(rows: string[], pagination: PaginationMeta): string {
  // Each entry fits in a string (the driver made it), the page may not: a 400 that says so, not a RangeError's 500.
  let length = 0;
  for (const row of rows) length += row.length + 1;
  if (length > LONGEST_BODY) throw answerTooLargeError();
  return `{"data":[${rows.join(',')}],"meta":${JSON.stringify({ pagination })}}`;
}

/** The longest string V8 holds, less room for the envelope. */
const LONGEST_BODY = constants.MAX_STRING_LENGTH - 4096;

export function entryBody(row: string): string {
  return `{"data":${row},"meta":{}}`;
}

export const JSON_TYPE = 'application/json; charset=utf-8';
