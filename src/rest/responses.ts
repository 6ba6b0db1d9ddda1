import type { PaginationMeta } from '../documents/index.js';

/**
 * Responses are spliced from the entries' JSON texts as the database produced them: no parse and re-stringify
 * of every entry on the hot path.
 */
export function listBody(rows: string[], pagination: PaginationMeta): string {
  return `{"data":[${rows.join(',')}],"meta":${JSON.stringify({ pagination })}}`;
}

export function entryBody(row: string): string {
  return `{"data":${row},"meta":{}}`;
}

export const JSON_TYPE = 'application/json; charset=utf-8';
