import type { Component, ContentType, DynamicZoneAttribute, MorphAttribute } from '../../model/types.js';
import { ADMIN_USER_UID, creatorColumn, systemContentType } from '../../model/system-types.js';
import { MORPH_TO_ONE_COLUMNS, morphTableOf } from '../strapi-layout/names.js';
import type { ColumnType, OutputShape, PopulateNode, PopulateTree, SortItem } from '../../query/types.js';
import { compileFilter } from './compile-filter.js';
import { compileSortTerms } from './compile-sort.js';
import type { CompileContext } from './context.js';
import { stringLiteral } from './dialect.js';
import { frag, join, sql, type Frag } from './frag.js';
import { localizationsSource, relationSource, type RelationSource } from './relation-source.js';

type Pair = readonly [string, Frag];

const SYSTEM_COLUMNS: Partial<Record<string, { column: string; type: ColumnType }>> = {
  createdAt: { column: 'created_at', type: 'datetime' },
  updatedAt: { column: 'updated_at', type: 'datetime' },
  publishedAt: { column: 'published_at', type: 'datetime' },
  locale: { column: 'locale', type: 'string' },
};

/** What to build for one row: REST's form (fields, populate) or, with `shape`, exactly that JSON. */
export interface EntryPlan {
  fields?: readonly string[];
  populate: PopulateTree;
  shape?: OutputShape;
}

/**
 * The JSON object of one row of `schema` (a content-type entry, a component, or a dynamic-zone item), with its
 * populated relations, media, components and dynamic zones nested inside as correlated subqueries.
 */
export function entryObject(
  ctx: CompileContext,
  schema: ContentType | Component,
  alias: string,
  plan: EntryPlan,
  /** Pairs first in REST's form (a dynamic-zone item's `__component`). */
  leading: Pair[] = [],
  /** Populated values computed elsewhere (relations hoisted into a CTE by the top-level list). */
  precomputed?: ReadonlyMap<string, Frag>,
  /** Pairs last in REST's form (a morph item's `__type`). */
  trailing: Pair[] = [],
): Frag {
  const { fields, populate } = plan;
  if (plan.shape) return shapedObject(ctx, schema, alias, plan.shape, populate, precomputed);
  const pairs: Pair[] = [...leading, ['id', frag(ctx.col(alias, 'id'))]];
  const isContentType = schema.modelType === 'contentType';
  if (isContentType) pairs.push(['documentId', frag(ctx.col(alias, 'document_id'))]);

  const wanted = fields ? new Set(fields) : undefined;
  for (const attribute of schema.attributes.values()) {
    if (attribute.kind !== 'scalar' || (!ctx.withPrivate && schema.privateAttributes.has(attribute.name))) continue;
    if (wanted && !wanted.has(attribute.name)) continue;
    pairs.push([attribute.name, fieldValue(ctx, schema, alias, attribute.name)]);
  }
  if (isContentType) {
    for (const name of Object.keys(SYSTEM_COLUMNS)) {
      // A type without locales keeps a `locale` column (NULL, or stale after i18n was turned off): code reads it as
      // Strapi's Query Engine gives it; REST and GraphQL never show it.
      if (name === 'locale' && !schema.localized && !ctx.withPrivate) continue;
      if (wanted && !wanted.has(name)) continue;
      pairs.push([name, fieldValue(ctx, schema, alias, name)]);
    }
  }
  for (const [name, node] of populate) pairs.push([name, precomputed?.get(name) ?? populatedValue(ctx, schema, alias, name, node)]);
  pairs.push(...trailing);
  return buildObject(ctx, pairs);
}

/** An OutputShape printed as one JSON object of the row. */
function shapedObject(
  ctx: CompileContext,
  schema: ContentType | Component,
  alias: string,
  shape: OutputShape,
  populate: PopulateTree,
  precomputed?: ReadonlyMap<string, Frag>,
): Frag {
  const pairs = shape.map(([key, out]): Pair => {
    switch (out.kind) {
      case 'literal':
        return [key, frag(stringLiteral(out.value))];
      case 'object':
        return [key, shapedObject(ctx, schema, alias, out.shape, populate, precomputed)];
      case 'field':
        return [key, fieldValue(ctx, schema, alias, out.name, out.as)];
      case 'populate': {
        const node = populate.get(out.key);
        if (!node) throw new Error(`shape names ${out.key}, which is not populated`);
        return [key, precomputed?.get(out.key) ?? populatedValue(ctx, schema, alias, out.key, node)];
      }
    }
  });
  return buildObject(ctx, pairs);
}

/** A column of the row as JSON: a scalar attribute, `id`, `documentId` or a system field. */
function fieldValue(ctx: CompileContext, schema: ContentType | Component, alias: string, name: string, as?: 'number' | 'string'): Frag {
  let column: string;
  let type: ColumnType;
  const system = SYSTEM_COLUMNS[name];
  const attribute = schema.attributes.get(name);
  if (name === 'id') [column, type] = [ctx.col(alias, 'id'), 'integer'];
  else if (name === 'documentId') [column, type] = [ctx.col(alias, 'document_id'), 'string'];
  else if (system && schema.modelType === 'contentType') {
    column = name === 'publishedAt' && ctx.preview && schema.draftAndPublish ? publishedSibling(ctx, schema, alias) : ctx.col(alias, system.column);
    type = system.type;
  } else if (attribute?.kind === 'scalar') [column, type] = [ctx.col(alias, attribute.column), attribute.type as ColumnType];
  else throw new Error(`no column ${name}`);
  // The caller's JSON form: an id as a string, a big integer as a number.
  if (as === 'string') type = 'biginteger';
  else if (as === 'number') type = 'integer';
  return frag(ctx.jsonValue(column, type));
}

/** `published_at` of the published version of the same document and locale (preview of a draft row). */
function publishedSibling(ctx: CompileContext, contentType: ContentType, alias: string): string {
  const p = ctx.alias('p');
  const locale = contentType.localized ? ` AND ${ctx.col(p, 'locale')} = ${ctx.col(alias, 'locale')}` : '';
  return `(SELECT ${ctx.col(p, 'published_at')} FROM ${ctx.table(contentType.table)} ${p} WHERE ${ctx.col(p, 'document_id')} = ${ctx.col(alias, 'document_id')}${locale} AND ${ctx.col(p, 'published_at')} IS NOT NULL)`;
}

function buildObject(ctx: CompileContext, pairs: Pair[]): Frag {
  const text = ctx.dialect.jsonObject(pairs.map(([key, value]) => [key, value.sql] as const));
  return frag(text, pairs.flatMap(([, value]) => value.params));
}

function populatedValue(
  ctx: CompileContext,
  schema: ContentType | Component,
  alias: string,
  name: string,
  node: PopulateNode,
): Frag {
  const attributeName = node.attribute ?? name;
  // A node may read another version of its targets than the request's (v4's publicationState per relation).
  const targetCtx = node.status ? ctx.withStatus(node.status, node.preview) : ctx;
  if (attributeName === 'localizations' && schema.modelType === 'contentType') {
    return targetList(targetCtx, localizationsSource(targetCtx, schema, alias), node, true);
  }
  const creator = creatorColumn(schema, attributeName);
  if (creator) return targetList(targetCtx, creatorSource(targetCtx, schema, alias, creator), node, false);
  const attribute = schema.attributes.get(attributeName);
  if (!attribute) throw new Error(`cannot populate ${attributeName}`);
  switch (attribute.kind) {
    case 'relation':
      return targetList(targetCtx, relationSource(targetCtx, attribute, alias, schema, ctx.status), node, attribute.toMany);
    case 'media':
      return targetList(targetCtx, relationSource(targetCtx, attribute, alias, schema), node, attribute.multiple);
    case 'component':
      return componentValue(ctx, schema, alias, attribute.name, attribute.component, attribute.repeatable, node);
    case 'dynamiczone':
      return dynamicZoneValue(ctx, schema, alias, attribute, node);
    case 'morph':
      return morphValue(targetCtx, schema, alias, attribute, node);
    default:
      throw new Error(`cannot populate scalar ${name}`);
  }
}

/** createdBy / updatedBy (code's reads only): the admin user a column of the row names (`admin_users`), or none. */
function creatorSource(ctx: CompileContext, schema: ContentType | Component, alias: string, column: string): RelationSource {
  const users = systemContentType(ADMIN_USER_UID)!;
  const u = ctx.alias('u');
  return { from: `${ctx.table(users.table)} ${u}`, where: `${ctx.col(u, 'id')} = ${ctx.col(alias, column)}`, orderBy: ctx.col(u, 'id'), target: users, alias: u };
}

/** A populated relation: an object or null (to-one), an array (to-many), or `{ count }`. */
function targetList(ctx: CompileContext, source: RelationSource, node: PopulateNode, toMany: boolean): Frag {
  const filter = node.filters ? sql` AND ${compileFilter(ctx, node.filters, source.target, source.alias)}` : frag('');
  if (node.count) return countObject(ctx, source.from, sql`${source.where}${filter}`);
  const orderBy = orderFor(ctx, node.sort, source);
  if (!toMany && byId(ctx)) {
    const first = sql`(SELECT ${ctx.col(source.alias, 'id')} FROM ${source.from} WHERE ${source.where}${filter} ORDER BY ${orderBy} LIMIT 1)`;
    return rowById(ctx, source.target, source.target.table, node, first);
  }
  const object = entryObject(ctx, source.target, source.alias, node);
  if (!toMany) return sql`(SELECT ${object} FROM ${source.from} WHERE ${source.where}${filter} ORDER BY ${orderBy} LIMIT 1)`;
  return arrayOf(ctx, object, orderBy, sql`${source.from} WHERE ${source.where}${filter}`, node.window);
}

/** `{ "count": n }` over the rows of `from` that `where` keeps: a populate's `count`. */
function countObject(ctx: CompileContext, from: string, where: Frag): Frag {
  const counted = sql`(SELECT COUNT(*) FROM ${from} WHERE ${where})`;
  return frag(ctx.dialect.jsonObject([['count', counted.sql]]), counted.params);
}

/**
 * `[...]` of `object` over the rows of `fromWhere` (a FROM clause and its WHERE), in `orderBy` order, all of
 * them or only a window of them ('[]' when none).
 */
export function arrayOf(ctx: CompileContext, object: Frag, orderBy: string, fromWhere: Frag, window?: { start: number; limit: number }): Frag {
  const d = ctx.dialect;
  const aggregate = window
    ? frag(d.windowedArrayAgg(object.sql, orderBy, fromWhere.sql, window.start, window.limit), [...object.params, ...fromWhere.params])
    : sql`SELECT ${aggregateFrag(ctx, object, orderBy)} FROM ${fromWhere}`;
  return frag(d.emptyArrayDefault(aggregate.sql), aggregate.params);
}

/**
 * Whether a to-one (relation, media, component) picks its row's id first (see SqlDialect.oneRowById): Strapi's link
 * and component tables have no index giving the ORDER BY, and on SQLite the sort may drop the object's JSON subtype.
 */
function byId(ctx: CompileContext): boolean {
  return ctx.dialect.oneRowById;
}

/**
 * The object of the row of `table` whose id `first` answers (a subquery ordered and limited to one row), or null.
 * The object is built outside the subquery's ORDER BY, so no sorter drops its JSON subtype; the same row and the
 * same answer as one subquery building the object of its first row.
 */
function rowById(ctx: CompileContext, schema: ContentType | Component, table: string, plan: EntryPlan, first: Frag): Frag {
  const o = ctx.alias('o');
  return sql`(SELECT ${entryObject(ctx, schema, o, plan)} FROM ${ctx.table(table)} ${o} WHERE ${ctx.col(o, 'id')} = ${first})`;
}

function aggregateFrag(ctx: CompileContext, object: Frag, orderBy: string): Frag {
  return frag(ctx.dialect.jsonArrayAgg(object.sql, orderBy), object.params);
}

function orderFor(ctx: CompileContext, sort: readonly SortItem[] | undefined, source: RelationSource): string {
  if (!sort || sort.length === 0) return source.orderBy;
  return `${compileSortTerms(ctx, sort, source.target, source.alias)}, ${source.orderBy}`;
}

/** A component attribute: an object or null, or an array for repeatable components, in their stored order. */
function componentValue(
  ctx: CompileContext,
  owner: ContentType | Component,
  alias: string,
  field: string,
  componentUid: string,
  repeatable: boolean,
  node: PopulateNode,
): Frag {
  const component = ctx.model.components.get(componentUid)!;
  const k = ctx.alias('k');
  const c = ctx.alias('c');
  const from = `${ctx.table(owner.componentsTable)} ${k} JOIN ${ctx.table(component.table)} ${c} ON ${ctx.col(c, 'id')} = ${ctx.col(k, 'cmp_id')}`;
  const linked = `${ctx.col(k, 'entity_id')} = ${ctx.col(alias, 'id')} AND ${ctx.col(k, 'field')} = ${stringLiteral(field)} AND ${ctx.col(k, 'component_type')} = ${stringLiteral(componentUid)}`;
  // `populate[compo][filters]` keeps the matching items (a single component that does not match reads null).
  const where = node.filters ? sql`${linked} AND ${compileFilter(ctx, node.filters, component, c)}` : frag(linked);
  // Strapi counts a component's rows as a relation's (`populate[address][count]=true` → `{ count: 0 | 1 }`).
  if (node.count) return countObject(ctx, from, where);
  const orderBy = componentOrder(ctx, node.sort, component, c, k);
  if (!repeatable && byId(ctx)) return rowById(ctx, component, component.table, node, sql`(SELECT ${ctx.col(c, 'id')} FROM ${from} WHERE ${where} ORDER BY ${orderBy} LIMIT 1)`);
  const object = entryObject(ctx, component, c, node);
  if (!repeatable) return sql`(SELECT ${object} FROM ${from} WHERE ${where} ORDER BY ${orderBy} LIMIT 1)`;
  // A window (GraphQL's pagination of a repeatable component) reads only its items.
  return arrayOf(ctx, object, orderBy, sql`${from} WHERE ${where}`, node.window);
}

/** Components in their stored order, after `populate[compo][sort]` when given. */
function componentOrder(ctx: CompileContext, sort: readonly SortItem[] | undefined, component: Component, c: string, k: string): string {
  const stored = `${ctx.col(k, COMPONENT_ORDER)}, ${ctx.col(k, 'id')}`;
  return sort?.length ? `${compileSortTerms(ctx, sort, component, c)}, ${stored}` : stored;
}

/**
 * A dynamic zone: its items in order, each `{ __component, id, ...fields }`. One pass over the owner's component
 * links, LEFT JOINed to each allowed component table, with a CASE choosing the item's object. With `on`, as in
 * Strapi, only the components it names are read, each kept where its own `filters` match.
 */
function dynamicZoneValue(
  ctx: CompileContext,
  owner: ContentType | Component,
  alias: string,
  attribute: DynamicZoneAttribute,
  node: PopulateNode,
): Frag {
  const k = ctx.alias('k');
  const joins: string[] = [];
  const cases: Frag[] = [];
  const read: string[] = [];
  const filtered: Frag[] = [];
  for (const uid of attribute.components) {
    const component = ctx.model.components.get(uid)!;
    const c = ctx.alias('c');
    const sub = node.on ? node.on.get(uid) : node;
    const object = entryObject(ctx, component, c, sub ?? { populate: new Map() }, [['__component', frag(stringLiteral(uid))]]);
    joins.push(
      `LEFT JOIN ${ctx.table(component.table)} ${c} ON ${ctx.col(k, 'component_type')} = ${stringLiteral(uid)} AND ${ctx.col(c, 'id')} = ${ctx.col(k, 'cmp_id')}`,
    );
    cases.push(sql`WHEN ${stringLiteral(uid)} THEN ${object}`);
    if (sub) read.push(uid);
    const filters = node.on?.get(uid)?.filters;
    if (filters) filtered.push(sql`(${ctx.col(k, 'component_type')} = ${stringLiteral(uid)} AND ${compileFilter(ctx, filters, component, c)})`);
  }
  // Items of the components read: by type alone (an IN list the index serves), or each type through its filters.
  const unfiltered = read.filter((uid) => !node.on?.get(uid)?.filters);
  const kept = [...(unfiltered.length ? [frag(`${ctx.col(k, 'component_type')} IN (${unfiltered.map(stringLiteral).join(', ')})`)] : []), ...filtered];
  const itemsKept = kept.length === 0 ? frag('1 = 0') : kept.length === 1 ? kept[0] : sql`(${join(kept, ' OR ')})`;
  const caseExpr = frag(
    `CASE ${ctx.col(k, 'component_type')} ${cases.map((c) => c.sql).join(' ')} END`,
    cases.flatMap((c) => c.params),
  );
  const orderBy = `${ctx.col(k, COMPONENT_ORDER)}, ${ctx.col(k, 'id')}`;
  const aggregate = sql`SELECT ${aggregateFrag(ctx, caseExpr, orderBy)} FROM ${ctx.table(owner.componentsTable)} ${k} ${joins.join(' ')} WHERE ${ctx.col(k, 'entity_id')} = ${ctx.col(alias, 'id')} AND ${ctx.col(k, 'field')} = ${stringLiteral(attribute.name)} AND ${itemsKept}`;
  return frag(ctx.dialect.emptyArrayDefault(aggregate.sql), aggregate.params);
}

/**
 * A polymorphic relation, as Strapi's populate reads it (`@strapi/database` populate/apply.js): a morphToMany's
 * links in list order, a morphToOne's link, each item its row's object with `__type` last, links whose row is gone
 * (or whose type `on` leaves out) skipped; a morphMany / morphOne the rows of its target whose morph attribute links
 * this row. The links name version rows: no version condition.
 */
function morphValue(ctx: CompileContext, owner: ContentType | Component, alias: string, attribute: MorphAttribute, node: PopulateNode): Frag {
  const d = ctx.dialect;
  if (attribute.target !== undefined) {
    // morphOne / morphMany: rows of the target, through its morphToMany table or its morphToOne columns.
    const target = ctx.model.contentTypes.get(attribute.target)!;
    const by = target.attributes.get(attribute.morphBy!) as MorphAttribute;
    const o = ctx.alias('o');
    const type = stringLiteral(owner.uid);
    let from: string;
    let where: string;
    let orderBy: string;
    if (by.relation === 'morphToMany') {
      const t = morphTableOf(target, by.name);
      const m = ctx.alias('m');
      from = `${ctx.table(t.name)} ${m} JOIN ${ctx.table(target.table)} ${o} ON ${ctx.col(o, 'id')} = ${ctx.col(m, t.ownerColumn)}`;
      where = `${ctx.col(m, t.idColumn)} = ${ctx.col(alias, 'id')} AND ${ctx.col(m, t.typeColumn)} = ${type} AND ${ctx.col(m, 'field')} = ${stringLiteral(attribute.name)}`;
      orderBy = `${ctx.col(m, 'order')}, ${ctx.col(m, 'id')}`;
    } else {
      from = `${ctx.table(target.table)} ${o}`;
      where = `${ctx.col(o, MORPH_TO_ONE_COLUMNS.id)} = ${ctx.col(alias, 'id')} AND ${ctx.col(o, MORPH_TO_ONE_COLUMNS.type)} = ${type}`;
      orderBy = ctx.col(o, 'id');
    }
    const filtered = node.filters ? sql`${frag(where)} AND ${compileFilter(ctx, node.filters, target, o)}` : frag(where);
    if (node.count) return countObject(ctx, from, filtered);
    if (!attribute.toMany) return rowById(ctx, target, target.table, node, sql`(SELECT ${ctx.col(o, 'id')} FROM ${frag(from)} WHERE ${filtered} ORDER BY ${orderBy} LIMIT 1)`);
    return arrayOf(ctx, entryObject(ctx, target, o, node), orderBy, sql`${frag(from)} WHERE ${filtered}`);
  }
  const types = [...(node.on ?? new Map<string, PopulateNode>())].flatMap(([uid, sub]) => {
    const target = ctx.model.contentTypes.get(uid);
    return target ? [{ uid, target, sub }] : [];
  });
  const typed = (uid: string, target: ContentType, c: string, sub: PopulateNode) => entryObject(ctx, target, c, sub, [], undefined, [['__type', frag(stringLiteral(uid))]]);
  if (attribute.relation === 'morphToOne') {
    const typeColumn = ctx.col(alias, MORPH_TO_ONE_COLUMNS.type);
    if (node.count) {
      // Strapi: 1 when the row names a type the populate reads (and an id), else 0.
      const named = types.length ? `${typeColumn} IN (${types.map(({ uid }) => stringLiteral(uid)).join(', ')}) AND ${ctx.col(alias, MORPH_TO_ONE_COLUMNS.id)} IS NOT NULL` : '1 = 0';
      return frag(d.jsonObject([['count', `CASE WHEN ${named} THEN 1 ELSE 0 END`]]));
    }
    if (!types.length) return frag('NULL');
    const cases = types.map(({ uid, target, sub }) => {
      const c = ctx.alias('c');
      return sql`WHEN ${stringLiteral(uid)} THEN (SELECT ${typed(uid, target, c, sub)} FROM ${ctx.table(target.table)} ${c} WHERE ${ctx.col(c, 'id')} = ${ctx.col(alias, MORPH_TO_ONE_COLUMNS.id)})`;
    });
    return frag(`CASE ${typeColumn} ${cases.map((c) => c.sql).join(' ')} ELSE NULL END`, cases.flatMap((c) => c.params));
  }
  const t = morphTableOf(owner, attribute.name);
  const m = ctx.alias('m');
  const linked = `${ctx.col(m, t.ownerColumn)} = ${ctx.col(alias, 'id')}`;
  if (!types.length) {
    if (node.count) return frag(d.jsonObject([['count', '0']]));
    return frag(d.emptyArrayDefault(`SELECT ${d.jsonArrayAgg(d.jsonObject([]), ctx.col(m, 'id'))} FROM ${ctx.table(t.name)} ${m} WHERE 1 = 0`));
  }
  const joins: string[] = [];
  const cases: Frag[] = [];
  const present: string[] = [];
  for (const { uid, target, sub } of types) {
    const c = ctx.alias('c');
    joins.push(`LEFT JOIN ${ctx.table(target.table)} ${c} ON ${ctx.col(m, t.typeColumn)} = ${stringLiteral(uid)} AND ${ctx.col(c, 'id')} = ${ctx.col(m, t.idColumn)}`);
    cases.push(sql`WHEN ${stringLiteral(uid)} THEN ${typed(uid, target, c, sub)}`);
    present.push(`${ctx.col(c, 'id')} IS NOT NULL`);
  }
  const from = `${ctx.table(t.name)} ${m} ${joins.join(' ')}`;
  const where = `${linked} AND (${present.join(' OR ')})`;
  if (node.count) return countObject(ctx, from, frag(where));
  const caseExpr = frag(`CASE ${ctx.col(m, t.typeColumn)} ${cases.map((c) => c.sql).join(' ')} END`, cases.flatMap((c) => c.params));
  const aggregate = sql`SELECT ${aggregateFrag(ctx, caseExpr, `${ctx.col(m, 'order')}, ${ctx.col(m, 'id')}`)} FROM ${frag(from)} WHERE ${frag(where)}`;
  return frag(d.emptyArrayDefault(aggregate.sql), aggregate.params);
}

/** The position of a component in its owner's list: Strapi's `_cmps.order` (NULL for a single one). */
const COMPONENT_ORDER = 'order';
