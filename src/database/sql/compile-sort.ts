import type { Component, ContentType, RelationAttribute } from '../../model/types.js';
import type { SortItem } from '../../query/types.js';
import type { CompileContext } from './context.js';
import { relationSource } from './relation-source.js';

const TEXT_TYPES = new Set(['string', 'text', 'richtext', 'enumeration', 'email', 'uid']);

/**
 * ORDER BY terms for sort items on rows of `schema` at `alias`. A field reached through relations is read by a
 * correlated scalar subquery (to-one chains), so sorting never multiplies rows. Text sorts by code point on
 * every database, as SQLite does, so the three dialects agree.
 */
export function compileSortTerms(
  ctx: CompileContext,
  items: readonly SortItem[],
  schema: ContentType | Component,
  alias: string,
): string {
  return items.map((item) => ctx.dialect.orderTerm(sortExpression(ctx, item, 0, schema, alias), item.direction)).join(', ');
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
  const attribute = schema.attributes.get(item.relations[depth]) as RelationAttribute;
  const source = relationSource(ctx, attribute, alias, schema);
  const inner = sortExpression(ctx, item, depth + 1, source.target, source.alias);
  return `(SELECT ${inner} FROM ${source.from} WHERE ${source.where} ORDER BY ${source.orderBy} LIMIT 1)`;
}
