import type { Component, ContentType, MediaAttribute, RelationAttribute } from '../../model/types.js';
import type { ColumnType, Filter, FieldRef, FilterValue, PublicationFilterMode } from '../../query/types.js';
import type { CompileContext } from './context.js';
import { frag, join, sql, type Frag } from './frag.js';
import { componentSource, linkCarriesStatus, relationSource } from './relation-source.js';
import { bindParam, type Slot } from './slots.js';

/**
 * Compiles a validated filter tree into a WHERE condition on `alias` (a row of `schema`). Relation and
 * component filters become EXISTS subqueries, so matching several related rows never duplicates a result.
 */
export function compileFilter(ctx: CompileContext, filter: Filter, schema: ContentType | Component, alias: string): Frag {
  switch (filter.kind) {
    case 'and':
    case 'or': {
      if (filter.items.length === 0) return frag(filter.kind === 'and' ? '1 = 1' : '1 = 0');
      const parts = filter.items.map((item) => compileFilter(ctx, item, schema, alias));
      return sql`(${join(parts, filter.kind === 'and' ? ' AND ' : ' OR ')})`;
    }
    case 'not':
      return sql`NOT (${compileFilter(ctx, filter.item, schema, alias)})`;
    case 'compare':
      return compileComparison(ctx, filter.field, filter.operator, filter.value, alias);
    case 'relation': {
      const attribute = schema.attributes.get(filter.attribute) as RelationAttribute | MediaAttribute;
      // Strapi's status filter reaches the root and populated targets, not a relation filter's join: from a source
      // without Draft & Publish (which links both versions of a target) any linked row matches, whatever the status.
      const anyVersion = linkCarriesStatus(ctx, schema, attribute);
      const source = relationSource(ctx, attribute, alias, schema, undefined, anyVersion);
      const inner = compileFilter(ctx, filter.filter, source.target, source.alias);
      return sql`EXISTS (SELECT 1 FROM ${source.from} WHERE ${source.where} AND ${inner})`;
    }
    case 'component': {
      const attribute = schema.attributes.get(filter.attribute);
      if (!attribute || attribute.kind !== 'component') throw new Error(`not a component: ${filter.attribute}`);
      const source = componentSource(ctx, schema, attribute, alias);
      const inner = compileFilter(ctx, filter.filter, source.component, source.alias);
      return sql`EXISTS (SELECT 1 FROM ${source.from} WHERE ${source.where} AND ${inner})`;
    }
    case 'publication':
      return frag(schema.modelType === 'contentType' && schema.draftAndPublish ? publicationCondition(ctx, schema, alias, filter.mode) : '1 = 1');
  }
}

/**
 * Strapi 5's publication cohorts, on the versions of the row's document: in the row's locale (pair modes), or in
 * any locale (`-document` modes). `modified`: the draft was saved after the published version (`updatedAt`).
 */
function publicationCondition(ctx: CompileContext, ct: ContentType, alias: string, mode: PublicationFilterMode): string {
  const sameLocale = (v: string) => (ct.localized && !mode.endsWith('-document') ? ` AND ${ctx.col(v, 'locale')} = ${ctx.col(alias, 'locale')}` : '');
  const version = (published: boolean) => {
    const v = ctx.alias('v');
    return `EXISTS (SELECT 1 FROM ${ctx.table(ct.table)} ${v} WHERE ${ctx.col(v, 'document_id')} = ${ctx.col(alias, 'document_id')}${sameLocale(v)} AND ${ctx.col(v, 'published_at')} IS ${published ? 'NOT ' : ''}NULL)`;
  };
  switch (mode) {
    case 'never-published':
    case 'never-published-document':
      return `NOT ${version(true)}`;
    // Strapi's cohorts by status (@strapi/utils publication-filter.js): a draft whose document (in any locale) has a
    // published version, or a published version whose document has a draft; both versions exist either way.
    case 'has-published-version-document':
    case 'has-published-version':
      return `(${version(true)} AND ${version(false)})`;
    // Published versions with a draft: no draft is one of them.
    case 'published-with-draft':
      return `(${ctx.col(alias, 'published_at')} IS NOT NULL AND ${version(false)})`;
    case 'published-without-draft':
      return `(${version(true)} AND NOT ${version(false)})`;
    case 'modified':
    case 'unmodified': {
      const d = ctx.alias('d');
      const p = ctx.alias('p');
      const pairLocale = ct.localized ? ` AND ${ctx.col(p, 'locale')} = ${ctx.col(d, 'locale')}` : '';
      return (
        `EXISTS (SELECT 1 FROM ${ctx.table(ct.table)} ${d} JOIN ${ctx.table(ct.table)} ${p} ON ${ctx.col(p, 'document_id')} = ${ctx.col(d, 'document_id')}${pairLocale}` +
        ` AND ${ctx.col(p, 'published_at')} IS NOT NULL WHERE ${ctx.col(d, 'document_id')} = ${ctx.col(alias, 'document_id')}${sameLocale(d)}` +
        ` AND ${ctx.col(d, 'published_at')} IS NULL AND ${ctx.col(d, 'updated_at')} ${mode === 'modified' ? '>' : '<='} ${ctx.col(p, 'updated_at')})`
      );
    }
  }
}

const TEXT_TYPES = new Set<ColumnType>(['string', 'text', 'richtext', 'enumeration', 'email', 'uid']);

/** The column as text, for substring operators on any type. */
function textOf(ctx: CompileContext, column: string, type: ColumnType): string {
  if (TEXT_TYPES.has(type)) return column;
  if (type === 'json' || type === 'blocks') return ctx.dialect.jsonText(column);
  return ctx.dialect.name === 'postgres' ? `${column}::text` : `CAST(${column} AS ${ctx.dialect.name === 'mysql' ? 'CHAR' : 'TEXT'})`;
}

/** `%`, `_` and the escape character itself are literal in Cairn's LIKE patterns. */
function escapeLike(value: string): string {
  return value.replace(/[!%_]/g, (c) => `!${c}`);
}

function compileComparison(
  ctx: CompileContext,
  field: FieldRef,
  operator: string,
  /** A value, or a slot standing for one when the statement is compiled for a shape (see slots.ts). */
  value: FilterValue | Slot,
  alias: string,
): Frag {
  const d = ctx.dialect;
  const column = ctx.col(alias, field.column);
  const bind = (v: unknown) => bindParam(v, (x) => ctx.bindValue(x, field.type));
  const isText = TEXT_TYPES.has(field.type);
  // Exact comparisons on text are case-sensitive everywhere (MariaDB's collations are not).
  const exact = isText ? d.likeCaseSensitive(column) : column;
  const str = (v: unknown) => bindParam(v, String);

  switch (operator) {
    case '$eq':
      return value === null ? frag(`${column} IS NULL`) : frag(`${exact} = ?`, [bind(value)]);
    case '$ne':
      return value === null ? frag(`${column} IS NOT NULL`) : frag(`NOT (${exact} = ?)`, [bind(value)]);
    case '$eqi':
      return frag(`${d.lower(textOf(ctx, column, field.type))} = ${d.lower('?')}`, [str(value)]);
    case '$nei':
      return frag(`NOT (${d.lower(textOf(ctx, column, field.type))} = ${d.lower('?')})`, [str(value)]);
    case '$lt':
      return frag(`${column} < ?`, [bind(value)]);
    case '$lte':
      return frag(`${column} <= ?`, [bind(value)]);
    case '$gt':
      return frag(`${column} > ?`, [bind(value)]);
    case '$gte':
      return frag(`${column} >= ?`, [bind(value)]);
    case '$in':
    case '$notIn': {
      const values = value as unknown[];
      if (values.length === 0) return frag(operator === '$in' ? '1 = 0' : '1 = 1');
      const list = `${exact} IN (${values.map(() => '?').join(', ')})`;
      return frag(operator === '$in' ? list : `NOT (${list})`, values.map(bind));
    }
    case '$between': {
      const [low, high] = value as unknown[];
      return frag(`${column} BETWEEN ? AND ?`, [bind(low), bind(high)]);
    }
    case '$null':
      return frag(`${column} IS ${value ? '' : 'NOT '}NULL`);
    case '$notNull':
      return frag(`${column} IS ${value ? 'NOT ' : ''}NULL`);
    case '$contains':
    case '$notContains':
    case '$startsWith':
    case '$endsWith':
      return negateFor(operator, substring(ctx, textOf(ctx, column, field.type), operator, value, false));
    case '$containsi':
    case '$notContainsi':
    case '$startsWithi':
    case '$endsWithi':
      return negateFor(operator, substring(ctx, textOf(ctx, column, field.type), operator, value, true));
    default:
      throw new Error(`unknown operator ${operator}`);
  }
}

function negateFor(operator: string, condition: Frag): Frag {
  return operator.startsWith('$not') ? sql`NOT (${condition})` : condition;
}

/** contains / startsWith / endsWith, case-sensitive or not. */
function substring(ctx: CompileContext, text: string, operator: string, value: unknown, insensitive: boolean): Frag {
  const d = ctx.dialect;
  const needle = bindParam(value, String);
  const kind = /contains/i.test(operator) ? 'contains' : /startsWith/i.test(operator) ? 'start' : 'end';
  if (d.name === 'sqlite') {
    // SQLite's LIKE ignores ASCII case and can't be switched per query: compare substrings instead.
    const haystack = insensitive ? d.lower(text) : text;
    const probe = insensitive ? d.lower('?') : '?';
    if (kind === 'contains') return frag(`instr(${haystack}, ${probe}) > 0`, [needle]);
    if (kind === 'start') return frag(`substr(${haystack}, 1, length(${probe})) = ${probe}`, [needle, needle]);
    return frag(`(length(${probe}) = 0 OR substr(${haystack}, -length(${probe})) = ${probe})`, [needle, needle, needle]);
  }
  const pattern = bindParam(value, (v) => {
    const escaped = escapeLike(String(v));
    return kind === 'contains' ? `%${escaped}%` : kind === 'start' ? `${escaped}%` : `%${escaped}`;
  });
  if (insensitive) return frag(`${d.lower(text)} LIKE ${d.lower('?')} ESCAPE '!'`, [pattern]);
  return frag(`${d.likeCaseSensitive(text)} LIKE ? ESCAPE '!'`, [pattern]);
}
