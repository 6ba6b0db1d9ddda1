import type { Component, ContentType } from '../model/types.js';
import type { RowStore } from '../database/store/index.js';
import { ApplicationError, ValidationError } from '../errors/index.js';
import type { ComponentPlan, RelationPlan, RowPlan } from './write-plan.js';
import { writeMedia } from './relation-writes.js';
import { writeMorphs } from './morph-writes.js';
import { writeStrapiRelations, type StrapiRelationScope } from './strapi-relation-writes.js';

/**
 * Writes what hangs off a row written from a plan: its components and relations (the row itself is inserted or
 * updated by the caller). Components are owned by one row: writing a component attribute replaces its list, each
 * item a new row ("fields not given become null") or, given with its `id`, that row patched.
 */
export async function writeChildren(store: RowStore, schema: ContentType | Component, rowId: number, plan: RowPlan, scope: StrapiRelationScope): Promise<void> {
  for (const componentPlan of plan.components) await replaceComponents(store, schema, rowId, componentPlan, scope);
  if (plan.morphs.length) await writeMorphs(store.db, store.model, schema, rowId, plan.morphs, scope);
  if (!plan.relations.length) return;
  // Strapi's layout keeps media apart from relations (`files_related_mph`, not a join table).
  const relations: RelationPlan[] = [];
  for (const relationPlan of plan.relations) {
    if (relationPlan.attribute.kind === 'media') await writeMedia(store.db, store.model, schema, rowId, relationPlan.attribute, relationPlan);
    else relations.push(relationPlan);
  }
  if (relations.length) await writeStrapiRelations(store.db, store.model, schema, rowId, relations, scope);
}

/**
 * Writes a component attribute as Strapi 5's updateComponents does: an item with an `id` patches that component row
 * in place (the fields it gives; the rest keep their values), an item without one is a new row, and the field's
 * components that are not given again are deleted. The `_cmps` rows are then written again in the given order.
 */
async function replaceComponents(store: RowStore, owner: ContentType | Component, rowId: number, plan: ComponentPlan, scope: StrapiRelationScope) {
  const given = await resolveGivenIds(store, owner, rowId, plan);
  await store.detachComponents(owner, rowId, plan.attribute, [...given.values()].filter((item) => item.own));
  // Strapi's `_cmps.order` is NULL for a single component, 1..n in a list or a dynamic zone.
  const single = isSingleComponent(owner, plan.attribute);
  let ord = 1;
  for (const item of plan.items) {
    const existing = given.get(item);
    let cmpId: number;
    if (!existing) cmpId = await store.insert(item.component, item.row.columns);
    else {
      // The other version's component (what a published read showed): the item patches a copy of it.
      cmpId = existing.own ? existing.id : await store.copyComponent(item.component, existing.id, copyMembers(scope.version));
      await store.update(item.component, [cmpId], item.row.columns);
    }
    await store.linkComponent(owner, rowId, cmpId, item.component.uid, plan.attribute, single ? null : ord++);
    // A new component row's lists are written as a created row's (Strapi's 0, 1, 2... for a connect).
    await writeChildren(store, item.component, cmpId, item.row, { ...scope, created: !existing });
  }
}

/** The members a copied component's links keep, for the version row it is copied into. */
const copyMembers = (version: StrapiRelationScope['version']) => (version === 'single' ? 'same' : version);

/** Whether `field` of `owner` holds one component (neither repeatable nor a dynamic zone). */
function isSingleComponent(owner: ContentType | Component, field: string): boolean {
  const attribute = owner.attributes.get(field);
  return attribute?.kind === 'component' && !attribute.repeatable;
}

/**
 * An update may send a component back with its `id` (as read): Strapi then requires it to be one of the entry's
 * components in that field (of that component, in a dynamic zone), and refuses the write otherwise. The entry is
 * the document's version in this locale: its draft or its published version (a client sends back what a
 * published read showed; Strapi 5 knows only the draft's and refuses those, Strapi v4 had one row). Answers, for
 * each item with an id, the component row it names and whether the written row owns it. One row given twice would
 * be linked twice, and a patch of one would show in both: refused.
 */
async function resolveGivenIds(store: RowStore, owner: ContentType | Component, rowId: number, plan: ComponentPlan): Promise<Map<ComponentPlan['items'][number], { id: number; component: string; own: boolean }>> {
  const resolved = new Map<ComponentPlan['items'][number], { id: number; component: string; own: boolean }>();
  const given = plan.items.filter((item) => 'id' in item);
  if (!given.length) return resolved;
  const links = await store.entryComponents(owner, rowId, plan.attribute);
  const seen = new Set<string>();
  for (const item of given) {
    const link = links.find((l) => String(l.cmp_id) === String(item.id) && l.component_type === item.component.uid);
    if (!link) throw new ApplicationError(`Some of the provided components in ${plan.attribute} are not related to the entity`);
    const key = `${String(link.cmp_id)}|${link.component_type}`;
    if (seen.has(key)) throw new ValidationError(`The component ${String(item.id)} is given more than once in ${plan.attribute}`);
    seen.add(key);
    resolved.set(item, { id: Number(link.cmp_id), component: link.component_type, own: link.entity_id === rowId });
  }
  return resolved;
}
