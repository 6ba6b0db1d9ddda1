import type { Component, ComponentAttribute, ContentType, MediaAttribute, RelationAttribute } from '../../model/types.js';
import type { CompileContext } from './context.js';
import { stringLiteral } from './dialect.js';
import { MEDIA_MORPH_TABLE, relationJoin } from '../strapi-layout/names.js';

/**
 * How to reach the targets of a relation (or media) attribute from a parent row: the FROM clause, the
 * correlation condition, the natural order of the list, and the target's alias. Used by populate, by
 * relation filters (EXISTS) and by sorting on a relation's field, so the three always agree.
 *
 * Owning side: `<link> l JOIN <target> t ON t.document_id = l.target_document_id` (links name documents, so
 * a draft parent shows the targets' drafts and a published one their published versions; a link from a source
 * without Draft & Publish may name a version of its own in `target_status`, see `linkCarriesStatus`).
 * Inverse side: the owner's link table read backwards, `t.id = l.entity_id`, ordered by `inv_ord`.
 */
export interface RelationSource {
  from: string;
  where: string;
  orderBy: string;
  target: ContentType;
  alias: string;
}

export function relationSource(
  ctx: CompileContext,
  attribute: RelationAttribute | MediaAttribute,
  parentAlias: string,
  parent: ContentType | Component,
  parentStatus?: CompileContext['status'],
  anyVersion = false,
): RelationSource {
  const target = ctx.model.contentTypes.get(attribute.target);
  if (!target) throw new Error(`unknown relation target ${attribute.target}`);
  return strapiRelationSource(ctx, attribute, parentAlias, parent, target, parentStatus, anyVersion);
}

/**
 * Strapi's layout: links join version rows by id, so a row's links are already the versions it relates to (a draft
 * to drafts, a published row to published rows); only a source without Draft & Publish links both versions of a
 * target that has it, which the version condition chooses from (`anyVersion`: none, every linked row). Media rows are in one polymorphic table.
 */
function strapiRelationSource(
  ctx: CompileContext,
  attribute: RelationAttribute | MediaAttribute,
  parentAlias: string,
  parent: ContentType | Component,
  target: ContentType,
  parentStatus: CompileContext['status'] | undefined,
  anyVersion: boolean,
): RelationSource {
  const l = ctx.alias('l');
  const t = ctx.alias('t');
  if (attribute.kind === 'media') {
    return {
      from: `${ctx.table(MEDIA_MORPH_TABLE)} ${l} JOIN ${ctx.table(target.table)} ${t} ON ${ctx.col(t, 'id')} = ${ctx.col(l, 'file_id')}`,
      where: `${ctx.col(l, 'related_id')} = ${ctx.col(parentAlias, 'id')} AND ${ctx.col(l, 'related_type')} = ${stringLiteral(parent.uid)} AND ${ctx.col(l, 'field')} = ${stringLiteral(attribute.name)}`,
      orderBy: `${ctx.col(l, 'order')}, ${ctx.col(l, 'id')}`,
      target,
      alias: t,
    };
  }
  const { table, side } = relationJoin(ctx.model, parent, attribute);
  const [mine, theirs, order] =
    side === 'owner' ? [table.ownerColumn, table.targetColumn, table.orderColumn] : [table.targetColumn, table.ownerColumn, table.inverseOrderColumn];
  let joined: string;
  if (crossesVersions(ctx, parent, target, parentStatus)) {
    // The parent row links its own version's rows; the other version of each linked document is read instead
    // (v4's nested publicationState: a draft's related documents, LIVE).
    const s = ctx.alias('s');
    const sameLocale = `(${ctx.col(t, 'locale')} = ${ctx.col(s, 'locale')} OR (${ctx.col(t, 'locale')} IS NULL AND ${ctx.col(s, 'locale')} IS NULL))`;
    const on = [`${ctx.col(t, 'document_id')} = ${ctx.col(s, 'document_id')}`, sameLocale, ...versionConditions(ctx, target, t)];
    joined = `${ctx.table(target.table)} ${s} ON ${ctx.col(s, 'id')} = ${ctx.col(l, theirs)} JOIN ${ctx.table(target.table)} ${t} ON ${on.join(' AND ')}`;
  } else {
    const on = [`${ctx.col(t, 'id')} = ${ctx.col(l, theirs)}`, ...(anyVersion ? [] : linkedVersionConditions(ctx, target, t))];
    joined = `${ctx.table(target.table)} ${t} ON ${on.join(' AND ')}`;
  }
  return {
    from: `${ctx.table(table.name)} ${l} JOIN ${joined}`,
    where: `${ctx.col(l, mine)} = ${ctx.col(parentAlias, 'id')}`,
    orderBy: order ? `${ctx.col(l, order)}, ${ctx.col(l, 'id')}` : ctx.col(l, 'id'),
    target,
    alias: t,
  };
}

/**
 * Whether a populated relation reads another version of its targets than the parent row's own (Strapi's layout: a
 * parent and a target with Draft & Publish link the same version; v4's nested `publicationState` may ask the other).
 */
export function crossesVersions(ctx: CompileContext, parent: ContentType | Component, target: ContentType, parentStatus: CompileContext['status'] | undefined): boolean {
  if (parentStatus === undefined || parentStatus === ctx.status) return false;
  return parent.modelType === 'contentType' && parent.draftAndPublish && target.draftAndPublish;
}

/**
 * Whether links of this attribute may name a target version: owning relations to a Draft & Publish target from a
 * source without it (a content-type, or a component, which may sit in one). Elsewhere `target_status` is always ''.
 */
export function linkCarriesStatus(ctx: CompileContext, parent: ContentType | Component, attribute: RelationAttribute | MediaAttribute): boolean {
  if (attribute.kind !== 'relation' || !attribute.owner) return false;
  if (parent.modelType === 'contentType' && parent.draftAndPublish) return false;
  return Boolean(ctx.model.contentTypes.get(attribute.target)?.draftAndPublish);
}

/** The rows of a content-type that belong to the version asked for (Draft & Publish types only). */
export function versionConditions(ctx: CompileContext, contentType: ContentType, alias: string): string[] {
  if (!contentType.draftAndPublish) return [];
  return [`${ctx.col(alias, 'published_at')} IS ${ctx.status === 'draft' ? '' : 'NOT '}NULL`];
}

/**
 * The linked rows of a target that belong to the version asked for. Links join versions by row id (a draft to drafts,
 * a published row to published ones), so only a row without Draft & Publish links both versions of a target: with
 * `everyLinkedVersion` both are read (ReadSpec.everyLinkedVersion), as Strapi's populate without a status reads them.
 */
export function linkedVersionConditions(ctx: CompileContext, target: ContentType, alias: string): string[] {
  return ctx.everyLinkedVersion ? [] : versionConditions(ctx, target, alias);
}

/** Other locales' versions of the same document (the `localizations` pseudo-relation). */
export function localizationsSource(ctx: CompileContext, contentType: ContentType, parentAlias: string): RelationSource {
  const t = ctx.alias('t');
  return {
    from: `${ctx.table(contentType.table)} ${t}`,
    where: [
      `${ctx.col(t, 'document_id')} = ${ctx.col(parentAlias, 'document_id')}`,
      `${ctx.col(t, 'locale')} <> ${ctx.col(parentAlias, 'locale')}`,
      ...versionConditions(ctx, contentType, t),
    ].join(' AND '),
    orderBy: `${ctx.col(t, 'locale')}, ${ctx.col(t, 'id')}`,
    target: contentType,
    alias: t,
  };
}

/** How a parent row reaches its component rows of `attribute`: through the parent's `_cmps` table (Strapi's layout). */
export interface ComponentSource {
  from: string;
  where: string;
  component: Component;
  /** The `_cmps` row's alias (its `id`, `order`) and the component row's. */
  link: string;
  alias: string;
}

export function componentSource(ctx: CompileContext, parent: ContentType | Component, attribute: ComponentAttribute, parentAlias: string): ComponentSource {
  const component = ctx.model.components.get(attribute.component)!;
  const k = ctx.alias('k');
  const c = ctx.alias('c');
  return {
    from:
      `${ctx.table(parent.componentsTable)} ${k} JOIN ${ctx.table(component.table)} ${c} ON ${ctx.col(c, 'id')} = ${ctx.col(k, 'cmp_id')}` +
      ` AND ${ctx.col(k, 'component_type')} = ${stringLiteral(attribute.component)}`,
    where: `${ctx.col(k, 'entity_id')} = ${ctx.col(parentAlias, 'id')} AND ${ctx.col(k, 'field')} = ${stringLiteral(attribute.name)}`,
    component,
    link: k,
    alias: c,
  };
}
