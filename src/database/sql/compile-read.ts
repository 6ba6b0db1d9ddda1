import type { ContentType, Model } from '../../model/types.js';
import type { Filter, PopulateTree, ReadSpec, Status } from '../../query/types.js';
import type { DialectName } from '../types.js';
import { compileFilter } from './compile-filter.js';
import { entryObject } from './compile-entry.js';
import { compileSortKeys, type SortKey } from './compile-sort.js';
import { CompileContext } from './context.js';
import { sqlDialect, type RememberedTotal, type SqlDialect } from './dialect.js';
import { frag, join, sql, type Frag } from './frag.js';
import { versionConditions } from './relation-source.js';
import { hoistSharedRelations, PAGE } from './hoist.js';
import { bindParam, Slot } from './slots.js';

/**
 * A compiled read: one statement for the entries (each row: `doc`, the entry's JSON text). When the spec asks
 * for a total, every row also carries it (`total`, computed once by an uncorrelated subquery), so a list is one
 * round trip; `count` is the same total alone, for a page with no rows to carry it (a page past the end).
 */
export interface CompiledRead {
  data: Frag;
  count?: Frag;
  /**
   * The total column takes a remembered total (SqlDialect.rememberedTotal): `data` binds three more values after
   * the spec's, at the slot given, and a row's `total` is read with this (the total and its stamps).
   */
  remembersTotal?: (value: unknown) => RememberedTotal;
  limit: number;
  offset: number;
}

/** Which rows of the content-type a request sees: version, locale, filters, and optionally one document. */
function whereClause(
  ctx: CompileContext,
  contentType: ContentType,
  alias: string,
  filters: Filter | undefined,
  locale: string | undefined,
  documentId?: string | Slot,
): Frag {
  const conditions: Frag[] = versionConditions(ctx, contentType, alias).map((c) => frag(c));
  if (contentType.localized && locale && locale !== '*') {
    conditions.push(frag(`${ctx.col(alias, 'locale')} = ?`, [locale]));
  }
  if (documentId !== undefined) conditions.push(frag(`${ctx.col(alias, 'document_id')} = ?`, [bindParam(documentId, (id) => id)]));
  if (filters) conditions.push(compileFilter(ctx, filters, contentType, alias));
  return conditions.length ? sql` WHERE ${join(conditions, ' AND ')}` : frag('');
}

export function compileRead(
  model: Model,
  dialect: DialectName,
  contentType: ContentType,
  spec: ReadSpec,
  /** One document: its id, or a slot for it when compiling a shape (see read-statements.ts). */
  options: {
    documentId?: string | Slot;
    /** A list's first slot of the three values of a remembered total (see SqlDialect.rememberedTotal). */
    rememberedTotal?: Slot;
  } = {},
): CompiledRead {
  const ctx = new CompileContext(model, sqlDialect(dialect), spec.status, spec.preview === true && spec.status === 'draft', undefined, spec.withPrivate === true, spec.everyLinkedVersion === true);
  const t = ctx.alias('t');
  const where = whereClause(ctx, contentType, t, spec.filters, spec.locale, options.documentId);
  const keys = compileSortKeys(ctx, spec.sort, contentType, t);
  const oneDocument = options.documentId !== undefined;
  // One document: its first row is the answer (readOne), so no more are read. In one locale (or of a type without
  // locales) a document has one row in the status read, so there is nothing to sort.
  const { limit, offset } = oneDocument ? { limit: 1, offset: 0 } : window(spec);
  const oneRow = oneDocument && (!contentType.localized || (spec.locale !== undefined && spec.locale !== '*'));
  const from = `${ctx.table(contentType.table)} ${t}`;
  const hoisted = !oneDocument && limit > 1 ? hoistSharedRelations(ctx, contentType, spec, t) : undefined;
  const withCount = spec.pagination.withCount && !oneDocument;
  const total = withCount ? countOf(ctx, contentType, spec) : undefined;
  // The total rides along with each row: one round trip instead of two (PostgreSQL and MySQL pay per trip).
  const remembered = total && options.rememberedTotal && ctx.dialect.rememberedTotal;
  const totalColumn = !total ? frag('') : remembered ? rememberedTotalColumn(remembered, total, options.rememberedTotal!) : sql`, (${total}) AS total`;
  const rowsLimit = `LIMIT ${String(limit)} OFFSET ${String(offset)}`;
  let data: Frag;
  const pageFirst = Boolean(hoisted?.ctes.length) || (!oneDocument && pagesFirst(ctx.dialect, keys));
  if (pageFirst) {
    // The page is chosen first and JSON built for its rows only; shared populated objects are built once for it
    // (hoisted CTEs). The page carries its sort keys as columns: its rows are sorted again on them, not recomputed.
    const sortColumns = keys.map((key, i) => `, ${key.expr} AS ${sortColumn(i)}`).join('');
    const page = sql`${PAGE} AS (SELECT ${t}.*${sortColumns} FROM ${from}${where} ORDER BY ${orderBy(ctx, sortColumnKeys(keys), t)} ${rowsLimit})`;
    const object = entryObject(ctx, contentType, t, spec, [], hoisted?.values);
    data = sql`WITH ${join([page, ...(hoisted?.ctes ?? [])], ', ')} SELECT ${rowText(ctx, object)} AS doc${totalColumn} FROM ${PAGE} ${t} ORDER BY ${orderBy(ctx, sortColumnKeys(keys, t), t)}`;
  } else {
    const object = entryObject(ctx, contentType, t, spec);
    const order = oneRow ? '' : ` ORDER BY ${orderBy(ctx, keys, t)}`;
    data = sql`SELECT ${rowText(ctx, object)} AS doc${totalColumn} FROM ${from}${where}${order} ${rowsLimit}`;
  }
  return { data, count: total && sql`SELECT (${total}) AS total`, limit, offset, ...(remembered && { remembersTotal: remembered.unpack }) };
}

/** The total column taking a remembered total, which gives back the stamps to remember it with. */
function rememberedTotalColumn(remembered: NonNullable<SqlDialect['rememberedTotal']>, count: Frag, first: Slot): Frag {
  const stamps = [0, 1, 2].map((i) => bindParam(new Slot(first.index + i), (value) => value));
  return frag(`, ${remembered.total(count.sql)} AS total`, [...stamps, ...count.params]);
}

/** Whether this dialect picks a list's page before building its JSON (see SqlDialect.pageFirst). */
function pagesFirst(dialect: SqlDialect, keys: readonly SortKey[]): boolean {
  return dialect.pageFirst === 'always' || (dialect.pageFirst === 'sorted' && keys.length > 0);
}

/** The page's columns holding its sort keys, as named in the page's own query or, with `alias`, outside it. */
function sortColumnKeys(keys: readonly SortKey[], alias?: string): SortKey[] {
  return keys.map((key, i) => ({ expr: alias ? `${alias}.${sortColumn(i)}` : sortColumn(i), direction: key.direction }));
}

function sortColumn(i: number): string {
  return `cairn_sort_${i}`;
}

/** ORDER BY terms: the sort keys, then the row's id (a stable order for equal keys). */
function orderBy(ctx: CompileContext, keys: readonly SortKey[], alias: string): string {
  return [...keys.map((key) => ctx.dialect.orderTerm(key.expr, key.direction)), `${ctx.col(alias, 'id')} ASC`].join(', ');
}

function rowText(ctx: CompileContext, object: Frag): Frag {
  return frag(ctx.dialect.rowText(object.sql), object.params);
}

/**
 * `SELECT COUNT(*) ...` over the rows the list reads, in aliases of its own (`c0`...): it runs as a subquery of
 * the page statement, next to the page's `t0`. Uncorrelated, so every database computes it once per statement.
 */
function countOf(pageCtx: CompileContext, contentType: ContentType, spec: ReadSpec): Frag {
  const ctx = pageCtx.fresh(spec.status);
  const c = ctx.alias('c');
  return sql`SELECT COUNT(*) FROM ${ctx.table(contentType.table)} ${c}${whereClause(ctx, contentType, c, spec.filters, spec.locale)}`;
}

function window(spec: ReadSpec): { limit: number; offset: number } {
  const p = spec.pagination;
  if (p.mode === 'offset') return { limit: p.limit, offset: p.start };
  return { limit: p.pageSize, offset: (p.page - 1) * p.pageSize };
}

/** A spec that reads one entry with the same shape rules as a list (used by findOne and write responses). */
export function singleSpec(
  status: Status,
  locale: string | undefined,
  fields: string[] | undefined,
  populate: PopulateTree,
): ReadSpec {
  return {
    fields,
    populate,
    status,
    locale,
    sort: [],
    pagination: { mode: 'offset', start: 0, limit: 1, withCount: false },
  };
}
