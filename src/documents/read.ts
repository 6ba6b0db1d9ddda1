import type { ContentType } from '../model/types.js';
import type { ReadSpec } from '../query/types.js';
import { readStatements } from '../database/sql/index.js';
import type { DocumentsContext } from './context.js';
import { answerTooLargeError } from '../database/answer-limits.js';

export type PaginationMeta =
  | { page: number; pageSize: number; pageCount?: number; total?: number }
  | { start: number; limit: number; total?: number };

/** A page of entries as JSON texts, straight from the database (the REST layer splices them into the response). */
export interface JsonPage {
  rows: string[];
  pagination: PaginationMeta;
}

/**
 * Runs a list read: one statement, whose rows carry the total when one is asked for. A page without rows (past
 * the end, or nothing matches) has none to carry it: only then does the COUNT run on its own.
 */
export async function readPage(ctx: DocumentsContext, contentType: ContentType, spec: ReadSpec): Promise<JsonPage> {
  const compiled = readStatements(ctx.model, ctx.db.dialect).list(contentType, spec);
  const rows = await ctx.db.query<{ doc: unknown; total?: number | string }>(compiled.data.sql, compiled.data.params);
  let total: number | undefined;
  if (compiled.count) {
    total = rows.length ? Number(rows[0].total) : Number((await ctx.db.query<{ total: number | string }>(compiled.count.sql, compiled.count.params))[0].total);
  }
  const docs = new Array<string>(rows.length);
  for (let i = 0; i < rows.length; i++) docs[i] = docText(rows[i].doc);
  return { rows: docs, pagination: paginationMeta(spec, total) };
}

/** Reads one document's entry (in the spec's status and locale) as JSON text, or null. */
export async function readOne(
  ctx: DocumentsContext,
  contentType: ContentType,
  spec: ReadSpec,
  documentId: string | undefined,
): Promise<string | null> {
  const statement = readStatements(ctx.model, ctx.db.dialect).one(contentType, spec, documentId);
  const rows = await ctx.db.query<{ doc: string }>(statement.sql, statement.params);
  return rows.length ? docText(rows[0].doc) : null;
}

/**
 * Drivers may hand back JSON already parsed (MySQL's JSON type); the API wants text. An entry's JSON is never NULL
 * unless the database gave up building it (MariaDB, past max_allowed_packet): that is no entry to answer with.
 */
function docText(doc: unknown): string {
  if (doc === null || doc === undefined) throw answerTooLargeError();
  return typeof doc === 'string' ? doc : JSON.stringify(doc);
}

function paginationMeta(spec: ReadSpec, total: number | undefined): PaginationMeta {
  const p = spec.pagination;
  if (p.mode === 'offset') return total === undefined ? { start: p.start, limit: p.limit } : { start: p.start, limit: p.limit, total };
  if (total === undefined) return { page: p.page, pageSize: p.pageSize };
  return { page: p.page, pageSize: p.pageSize, pageCount: Math.ceil(total / p.pageSize), total };
}
