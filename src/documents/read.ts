import type { ContentType } from '../model/types.js';
import type { ReadSpec } from '../query/types.js';
import { readEntries, readEntry } from '../database/store/index.js';
import type { DocumentsContext } from './context.js';

export type PaginationMeta =
  | { page: number; pageSize: number; pageCount?: number; total?: number }
  | { start: number; limit: number; total?: number };

/** A page of entries as JSON texts, straight from the database (the REST layer splices them into the response). */
export interface JsonPage {
  rows: string[];
  pagination: PaginationMeta;
}

/** A list read (one statement, and a count only when a page without rows can't carry it): its entries and pagination. */
export async function readPage(ctx: DocumentsContext, contentType: ContentType, spec: ReadSpec): Promise<JsonPage> {
  const { docs, total } = await readEntries(ctx.db, ctx.model, contentType, spec);
  return { rows: docs, pagination: paginationMeta(spec, total) };
}

/** Reads one document's entry (in the spec's status and locale) as JSON text, or null. */
export function readOne(ctx: DocumentsContext, contentType: ContentType, spec: ReadSpec, documentId: string | undefined): Promise<string | null> {
  return readEntry(ctx.db, ctx.model, contentType, spec, documentId);
}

/** A read's pagination as the answer shows it (`total`, `pageCount` only when counted). */
export function paginationMeta(spec: ReadSpec, total: number | undefined): PaginationMeta {
  const p = spec.pagination;
  if (p.mode === 'offset') return total === undefined ? { start: p.start, limit: p.limit } : { start: p.start, limit: p.limit, total };
  if (total === undefined) return { page: p.page, pageSize: p.pageSize };
  return { page: p.page, pageSize: p.pageSize, pageCount: Math.ceil(total / p.pageSize), total };
}
