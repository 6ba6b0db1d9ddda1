import type { ContentType, RelationAttribute } from '../../model/types.js';
import type { PopulateNode, ReadSpec } from '../../query/types.js';
import { compileFilter } from './compile-filter.js';
import { arrayOf, entryObject } from './compile-entry.js';
import type { CompileContext } from './context.js';
import { frag, join, sql, type Frag } from './frag.js';
import { crossesVersions, linkCarriesStatus, linkedVersionConditions } from './relation-source.js';
import { joinTableOf } from '../strapi-layout/names.js';

/** Name of the CTE holding the page's rows. */
export const PAGE = 'cairn_page';

export interface Hoisted {
  /** CTEs to add after the page CTE. */
  ctes: Frag[];
  /** Attribute name -> the populated value, read from its CTE. */
  values: Map<string, Frag>;
}

/**
 * A populated relation whose targets populate further (a chef with all its restaurants, categories with theirs)
 * is the same JSON for every entry that shares a target. Built in a correlated subquery it would be rebuilt per
 * entry; here each distinct target referenced by the page is built once, in a CTE, and every entry picks its own
 * (to-one: the first link; to-many: its links in order, windowed like any populated list).
 */
export function hoistSharedRelations(ctx: CompileContext, contentType: ContentType, spec: ReadSpec, rowAlias: string): Hoisted {
  const hoisted: Hoisted = { ctes: [], values: new Map() };
  for (const [name, node] of spec.populate) {
    const attribute = contentType.attributes.get(node.attribute ?? name);
    // Links naming their own target version don't share one object per document: those stay correlated.
    if (!isHoistable(attribute, node) || linkCarriesStatus(ctx, contentType, attribute)) continue;
    const targetCtx = node.status ? ctx.withStatus(node.status, node.preview) : ctx;
    const target = ctx.model.contentTypes.get(attribute.target)!;
    // Another version than the links join: read through each link's document, correlated.
    if (crossesVersions(targetCtx, contentType, target, ctx.status)) continue;
    const cte = `cairn_pop_${hoisted.ctes.length}`;
    const t = targetCtx.alias('t');
    const object = entryObject(targetCtx, target, t, node);
    const links = ownedLinks(ctx, contentType, attribute);
    // Links name a target row.
    const key = ctx.col(t, 'id');
    const q = (column: string) => ctx.dialect.quote(column);
    const conditions: Frag[] = linkedVersionConditions(targetCtx, target, t).map((c) => frag(c));
    conditions.push(frag(`${key} IN (SELECT l.${q(links.target)} FROM ${ctx.table(links.table)} l JOIN ${PAGE} p ON p.${q('id')} = l.${q(links.owner)})`));
    if (node.filters) conditions.push(compileFilter(targetCtx, node.filters, target, t));
    hoisted.ctes.push(sql`${cte} ${ctx.dialect.materialized} (SELECT ${key} AS k_key, ${object} AS j FROM ${ctx.table(target.table)} ${t} WHERE ${join(conditions, ' AND ')})`);
    // The entry's link is found first (index on the owner column), then its target's row in the CTE: joining the
    // link to the CTE instead would copy every target's JSON into a hash per entry on PostgreSQL.
    const l = ctx.alias('l');
    const order = links.order ? `${ctx.col(l, links.order)}, ${ctx.col(l, 'id')}` : ctx.col(l, 'id');
    const mine = `${ctx.col(l, links.owner)} = ${ctx.col(rowAlias, 'id')}`;
    if (attribute.toMany) {
      const fromWhere = `${ctx.table(links.table)} ${l} JOIN ${cte} c ON c.k_key = ${ctx.col(l, links.target)} WHERE ${mine}`;
      hoisted.values.set(name, arrayOf(ctx, frag(embedJson(ctx, 'c.j')), order, frag(fromWhere), node.window));
      continue;
    }
    const link = (column: string) => `(SELECT ${ctx.col(l, column)} FROM ${ctx.table(links.table)} ${l} WHERE ${mine} ORDER BY ${order} LIMIT 1)`;
    hoisted.values.set(name, frag(`(SELECT ${embedJson(ctx, 'c.j')} FROM ${cte} c WHERE c.k_key = ${link(links.target)})`));
  }
  return hoisted;
}

/** An owning relation's link table, read from the owner's side: its owner and target columns, and its order. */
function ownedLinks(ctx: CompileContext, owner: ContentType, attribute: RelationAttribute): { table: string; owner: string; target: string; order?: string } {
  const table = joinTableOf(ctx.model, owner, attribute);
  return { table: table.name, owner: table.ownerColumn, target: table.targetColumn, order: table.orderColumn };
}

/** Owning-side relations that populate further, listed in link order (a `sort` of their own stays correlated). */
function isHoistable(attribute: unknown, node: PopulateNode): attribute is RelationAttribute {
  const a = attribute as RelationAttribute | undefined;
  return Boolean(a && a.kind === 'relation' && a.owner && node.populate.size > 0 && !node.count && !(a.toMany && node.sort?.length));
}

/** JSON kept in a CTE column comes back as text on SQLite and MariaDB: mark it as JSON again. */
function embedJson(ctx: CompileContext, column: string): string {
  if (ctx.dialect.name === 'sqlite') return `json(${column})`;
  if (ctx.dialect.name === 'mysql') return `JSON_EXTRACT(${column}, '$')`;
  return column;
}
