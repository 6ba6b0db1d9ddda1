import type { Component, ContentType, Model } from '../model/types.js';
import type { FieldRef, Filter } from '../query/types.js';
import { CompileContext } from './sql/context.js';
import { compileFilter } from './sql/compile-filter.js';
import { sqlDialect } from './sql/dialect.js';
import type { Database } from './types.js';

/** One read of rows, as Strapi's Query Engine reads them: every version and locale, the columns named. */
export interface RowRead {
  /** A parsed `where` (query/parse-filters.ts `parseRowWhere`). */
  filter: Filter;
  columns: readonly FieldRef[];
  orderBy: readonly { field: FieldRef; desc: boolean }[];
  limit?: number;
  offset?: number;
}

/**
 * The rows of `schema`'s table that `filter` matches, as the driver returns them (keyed by column name), in one
 * statement. Relation filters follow the links as stored (a row's links are its version's, see relation-source.ts).
 */
export async function selectRows(db: Database, model: Model, schema: ContentType | Component, read: RowRead): Promise<Record<string, unknown>[]> {
  const ctx = new CompileContext(model, sqlDialect(db.dialect), 'draft');
  const where = compileFilter(ctx, read.filter, schema, 'r');
  const columns = read.columns.map((f) => ctx.col('r', f.column)).join(', ');
  const order = [...read.orderBy.map((o) => `${ctx.col('r', o.field.column)} ${o.desc ? 'DESC' : 'ASC'}`), ctx.col('r', 'id')].join(', ');
  let page = '';
  if (read.limit !== undefined || read.offset !== undefined) {
    // Written into the text (whole numbers, checked): MySQL's prepared statements take no LIMIT placeholder.
    const limit = read.limit ?? Number.MAX_SAFE_INTEGER;
    const offset = read.offset ?? 0;
    if (![limit, offset].every((n) => Number.isSafeInteger(n) && n >= 0)) throw new Error(`limit and offset must be whole numbers >= 0, not ${limit} and ${offset}`);
    page = ` LIMIT ${limit} OFFSET ${offset}`;
  }
  return db.query(`SELECT ${columns} FROM ${ctx.table(schema.table)} r WHERE ${where.sql} ORDER BY ${order}${page}`, [...where.params]);
}

/** How many rows of `schema`'s table `filter` matches. */
export async function countRows(db: Database, model: Model, schema: ContentType | Component, filter: Filter): Promise<number> {
  const ctx = new CompileContext(model, sqlDialect(db.dialect), 'draft');
  const where = compileFilter(ctx, filter, schema, 'r');
  const [row] = await db.query<{ n: number | string }>(`SELECT COUNT(*) AS n FROM ${ctx.table(schema.table)} r WHERE ${where.sql}`, [...where.params]);
  return Number(row?.n ?? 0);
}
