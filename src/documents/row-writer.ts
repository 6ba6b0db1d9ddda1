import type { Component, ContentType } from '../model/types.js';
import type { RowStore } from '../database/store/index.js';
import { ApplicationError } from '../errors/index.js';
import type { ComponentPlan, RelationPlan, RowPlan } from './write-plan.js';
import { writeMedia } from './relation-writes.js';
import { writeMorphs } from './morph-writes.js';
import { writeStrapiRelations, type StrapiRelationScope } from './strapi-relation-writes.js';

/**
 * Writes what hangs off a row written from a plan: its components and relations (the row itself is inserted or
 * updated by the caller). Components are owned by one row: writing a component attribute replaces its rows (and
 * their nested components) whole, as the reference does ("fields not given become null").
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

async function replaceComponents(store: RowStore, owner: ContentType | Component, rowId: number, plan: ComponentPlan, scope: StrapiRelationScope) {
  await checkGivenIds(store, owner, rowId, plan);
  await store.deleteComponents(owner, [rowId], plan.attribute);
  // Strapi's `_cmps.order` is NULL for a single component, 1..n in a list or a dynamic zone.
  const single = isSingleComponent(owner, plan.attribute);
  let ord = 1;
  for (const item of plan.items) {
    const cmpId = await store.insert(item.component, item.row.columns);
    await store.linkComponent(owner, rowId, cmpId, item.component.uid, plan.attribute, single ? null : ord++);
    // A component row is new: its lists are written as a created row's (Strapi's 0, 1, 2... for a connect).
    await writeChildren(store, item.component, cmpId, item.row, { ...scope, created: true });
  }
}

/** Whether `field` of `owner` holds one component (neither repeatable nor a dynamic zone). */
function isSingleComponent(owner: ContentType | Component, field: string): boolean {
  const attribute = owner.attributes.get(field);
  return attribute?.kind === 'component' && !attribute.repeatable;
}

/**
 * An update may send a component back with its `id` (as read): Strapi then requires it to be one of the entry's
 * components in that field (of that component, in a dynamic zone), and refuses the write otherwise. The entry is
 * the document's version in this locale: its draft or its published version (a client sends back what a
 * published read showed; Strapi 5 knows only the draft's and refuses those, Strapi v4 had one row).
 */
async function checkGivenIds(store: RowStore, owner: ContentType | Component, rowId: number, plan: ComponentPlan): Promise<void> {
  const given = plan.items.filter((item) => 'id' in item);
  if (!given.length) return;
  const links = await store.entryComponents(owner, rowId, plan.attribute);
  const own = new Set(links.map((link) => `${String(link.cmp_id)}|${link.component_type}`));
  for (const item of given) {
    if (!own.has(`${String(item.id)}|${item.component.uid}`)) {
      throw new ApplicationError(`Some of the provided components in ${plan.attribute} are not related to the entity`);
    }
  }
}
