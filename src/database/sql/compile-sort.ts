import type { Component, ComponentAttribute, ContentType, MediaAttribute, RelationAttribute } from '../../model/types.js';
import type { SortItem } from '../../query/types.js';
import type { CompileContext } from './context.js';
import { componentSource, relationSource } from './relation-source.js';

const TEXT_TYPES = new Set(['string', 'text', 'richtext', 'enumeration', 'email', 'uid']);

/** One sort key: the expression sorted on (text already collated by code point) and its direction. */
export interface SortKey {
  expr: string;
  direction: 'asc' | 'desc';
}

/**
 * Sort keys for sort items on rows of `schema` at `alias`. A field reached through relations, media or components is
 * read by correlated scalar subqueries, so sorting never multiplies rows: a to-one step reads its first linked row
 * (a single component, a single file), a to-many step (a repeatable component, multiple files) the
 * least of its rows' values ascending and the greatest descending (MIN/MAX skip NULLs; no row, or only NULLs, is
 * NULL). That is the value Strapi's deep sort keeps when no reached value is NULL: it LEFT JOINs the path, numbers
 * each entry's joined rows in the requested direction and keeps the first. It asks for NULLs last there, but knex's
 * window `orderBy` drops that, so a reached NULL comes first where the database puts NULLs first (SQLite and MySQL
 * ascending, PostgreSQL descending) and sorts the entry as NULL: a difference in the README's table, for one answer
 * on every database. Each key takes its own extreme, as Strapi's separate joins
 * per key give (only its object form `sort[rel][a]=asc&sort[rel][b]=asc` shares one join, so one row, for both).
 * Text sorts by code point on every database, as SQLite does, so the three dialects agree (MIN/MAX of a collated
 * expression compare by that collation).
 */
export function compileSortKeys(
  ctx: CompileContext,
  items: readonly SortItem[],
  schema: ContentType | Component,
  alias: string,
): SortKey[] {
  return items.map((item) => ({ expr: sortExpression(ctx, item, 0, schema, alias), direction: item.direction }));
}

/** ORDER BY terms for sort items on rows of `schema` at `alias` (see compileSortKeys). */
export function compileSortTerms(
  ctx: CompileContext,
  items: readonly SortItem[],
  schema: ContentType | Component,
  alias: string,
): string {
  return compileSortKeys(ctx, items, schema, alias)
    .map((key) => ctx.dialect.orderTerm(key.expr, key.direction))
    .join(', ');
}

function sortExpression(
  ctx: CompileContext,
  item: SortItem,
  depth: number,
  schema: ContentType | Component,
  alias: string,
): string {
  if (depth === item.relations.length) {
    const column = ctx.col(alias, item.field.column);
    if (!TEXT_TYPES.has(item.field.type)) return column;
    if (ctx.dialect.name === 'postgres') return `${column} COLLATE "C"`;
    if (ctx.dialect.name === 'mysql') return `${column} COLLATE utf8mb4_bin`;
    return column;
  }
  const attribute = schema.attributes.get(item.relations[depth]) as RelationAttribute | MediaAttribute | ComponentAttribute;
  if (attribute.kind === 'component') return componentSortExpression(ctx, item, depth, schema, attribute, alias);
  const source = relationSource(ctx, attribute, alias, schema);
  const inner = sortExpression(ctx, item, depth + 1, source.target, source.alias);
  if (attribute.kind === 'media' ? attribute.multiple : attribute.toMany) {
    // Nested MIN(MIN(...)) is the least over every row the path reaches, as one join over the whole path gives.
    const extreme = item.direction === 'asc' ? 'MIN' : 'MAX';
    return `(SELECT ${extreme}(${inner}) FROM ${source.from} WHERE ${source.where})`;
  }
  return `(SELECT ${inner} FROM ${source.from} WHERE ${source.where} ORDER BY ${source.orderBy} LIMIT 1)`;
}

/**
 * A step through a component: one row for a single component, several for a repeatable one, whose least or greatest
 * value counts as a to-many's does.
 */
function componentSortExpression(
  ctx: CompileContext,
  item: SortItem,
  depth: number,
  schema: ContentType | Component,
  attribute: ComponentAttribute,
  alias: string,
): string {
  const source = componentSource(ctx, schema, attribute, alias);
  const inner = sortExpression(ctx, item, depth + 1, source.component, source.alias);
  if (attribute.repeatable) return `(SELECT ${item.direction === 'asc' ? 'MIN' : 'MAX'}(${inner}) FROM ${source.from} WHERE ${source.where})`;
  return `(SELECT ${inner} FROM ${source.from} WHERE ${source.where} ORDER BY ${ctx.col(source.link, 'id')} LIMIT 1)`;
}
