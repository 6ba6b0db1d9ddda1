import type { ContentType, RelationAttribute } from '../../model/types.js';
import type { PopulateNode, ReadSpec } from '../../query/types.js';
import { compileFilter } from './compile-filter.js';
import { arrayOf, entryObject } from './compile-entry.js';
import type { CompileContext } from './context.js';
import { frag, join, sql, type Frag } from './frag.js';
import { linkCarriesStatus, versionConditions } from './relation-source.js';

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
    const cte = `cairn_pop_${hoisted.ctes.length}`;
    const t = targetCtx.alias('t');
    const object = entryObject(targetCtx, target, t, node);
    const conditions: Frag[] = versionConditions(targetCtx, target, t).map((c) => frag(c));
    conditions.push(
      frag(
        `${ctx.col(t, 'document_id')} IN (SELECT l.${ctx.dialect.quote('target_document_id')} FROM ${ctx.table(attribute.linkTable)} l JOIN ${PAGE} p ON p.${ctx.dialect.quote('id')} = l.${ctx.dialect.quote('entity_id')})`,
      ),
    );
    if (node.filters) conditions.push(compileFilter(targetCtx, node.filters, target, t));
    const localeKey = target.localized ? `, ${ctx.col(t, 'locale')} AS k_locale` : '';
    hoisted.ctes.push(
      sql`${cte} ${ctx.dialect.materialized} (SELECT ${ctx.col(t, 'document_id')} AS k_document${localeKey}, ${object} AS j FROM ${ctx.table(target.table)} ${t} WHERE ${join(conditions, ' AND ')})`,
    );
    // The entry's link is found first (index on entity_id), then its target's row in the CTE: joining the link
    // to the CTE instead would copy every target's JSON into a hash per entry on PostgreSQL.
    const l = ctx.alias('l');
    if (attribute.toMany) {
      const localeJoin = target.localized ? ` AND c.k_locale = ${ctx.col(l, 'target_locale')}` : '';
      const fromWhere = `${ctx.table(attribute.linkTable)} ${l} JOIN ${cte} c ON c.k_document = ${ctx.col(l, 'target_document_id')}${localeJoin} WHERE ${ctx.col(l, 'entity_id')} = ${ctx.col(rowAlias, 'id')}`;
      hoisted.values.set(name, arrayOf(ctx, frag(embedJson(ctx, 'c.j')), `${ctx.col(l, 'ord')}, ${ctx.col(l, 'id')}`, frag(fromWhere), node.window));
      continue;
    }
    const link = (column: string) =>
      `(SELECT ${ctx.col(l, column)} FROM ${ctx.table(attribute.linkTable)} ${l} WHERE ${ctx.col(l, 'entity_id')} = ${ctx.col(rowAlias, 'id')} ORDER BY ${ctx.col(l, 'ord')}, ${ctx.col(l, 'id')} LIMIT 1)`;
    const localeMatch = target.localized ? ` AND c.k_locale = ${link('target_locale')}` : '';
    hoisted.values.set(name, frag(`(SELECT ${embedJson(ctx, 'c.j')} FROM ${cte} c WHERE c.k_document = ${link('target_document_id')}${localeMatch})`));
  }
  return hoisted;
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
