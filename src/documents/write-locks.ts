import type { ContentType, Model, RelationAttribute } from '../model/types.js';
import type { Database } from '../database/types.js';
import { documentLockKey } from '../database/document-locks.js';
import { documentIdsOfRows, documentsLinkingTo } from '../database/lock-targets.js';
import type { RelationTarget } from './relation-ops.js';
import type { RowPlan } from './write-plan.js';

/**
 * The documents a write changes, whose locks it takes first (database/document-locks.ts): its own, and every
 * document whose links or list order it changes. A relation item's target is locked on either side: from the
 * inverse side the write changes the owner's links, from the owner side the order of the target's inverse list.
 * `rereadAfterLocking` says that the set came from rows another write may have changed before the locks were
 * held (who links to this document): it is read once more under the locks.
 */
export interface LockSet {
  keys: string[];
  rereadAfterLocking: boolean;
}

/**
 * An update's or a create's locks; `plan` holds its relation writes, nested components' included. A write that
 * publishes takes a publish's locks too (publishLockSet).
 */
export async function writeLockSet(db: Database, model: Model, contentType: ContentType, documentId: string, plan: RowPlan, publishes = false): Promise<LockSet> {
  const set: LockSet = { keys: [documentLockKey(contentType.uid, documentId)], rereadAfterLocking: false };
  await addRelationTargets(db, model, documentId, plan, set);
  if (publishes) await addSelfLinking(db, model, contentType, documentId, set);
  return set;
}

/**
 * A publish's, an unpublish's or a discard's locks: its own, and the documents of the same type that link to it
 * through a relation to itself. Changing a document's versions rewrites their links too (Strapi's self-relation
 * rule, strapi-store/publish-links.ts mirrorSelfLinks: Y/P → X/P for every Y/D → X/D), so two such documents
 * published at once would insert the same link (a unique violation) or each miss the other's new published row.
 */
export async function publishLockSet(db: Database, model: Model, contentType: ContentType, documentId: string): Promise<LockSet> {
  const set: LockSet = { keys: [documentLockKey(contentType.uid, documentId)], rereadAfterLocking: false };
  await addSelfLinking(db, model, contentType, documentId, set);
  return set;
}

async function addSelfLinking(db: Database, model: Model, contentType: ContentType, documentId: string, set: LockSet) {
  for (const attribute of contentType.attributes.values()) {
    if (attribute.kind !== 'relation' || !attribute.owner || attribute.target !== contentType.uid) continue;
    const linking = await documentsLinkingTo(db, model, contentType, attribute, documentId);
    set.keys.push(...linking.map((id) => documentLockKey(contentType.uid, id)));
    set.rereadAfterLocking = true;
  }
}

async function addRelationTargets(db: Database, model: Model, documentId: string, plan: RowPlan, set: LockSet) {
  for (const { attribute, ops } of plan.relations) {
    if (attribute.kind !== 'relation') continue;
    const target = model.contentTypes.get(attribute.target);
    if (!target) continue;
    const items: RelationTarget[] = ops.kind === 'set' ? ops.targets : [...ops.connect, ...ops.disconnect];
    const documentIds = items.filter((t) => typeof t.ref === 'string').map((t) => t.ref as string);
    const rowIds = items.filter((t) => typeof t.ref === 'number').map((t) => t.ref as number);
    documentIds.push(...(await documentIdsOfRows(db, target.table, rowIds)));
    // An inverse-side `set` (content types only: components own their relations) replaces the list: the documents
    // linking here now lose their link.
    if (!attribute.owner && ops.kind === 'set') {
      const owning = target.attributes.get(attribute.mappedBy!) as RelationAttribute;
      documentIds.push(...(await documentsLinkingTo(db, model, target, owning, documentId)));
      set.rereadAfterLocking = true;
    }
    set.keys.push(...documentIds.map((id) => documentLockKey(target.uid, id)));
  }
  // A morphMany / morphOne writes its target's rows (their morph list or columns): the items' documents are locked.
  // (A morphToMany / morphToOne writes only its own row's links.)
  for (const { attribute, ops } of plan.morphs) {
    const target = attribute.target === undefined ? undefined : model.contentTypes.get(attribute.target);
    if (!target) continue;
    const items = ops.kind === 'set' ? ops.targets : [...ops.connect, ...ops.disconnect];
    const documentIds = items.filter((t) => typeof t.ref === 'string').map((t) => t.ref as string);
    documentIds.push(...(await documentIdsOfRows(db, target.table, items.filter((t) => typeof t.ref === 'number').map((t) => t.ref as number))));
    set.keys.push(...documentIds.map((id) => documentLockKey(target.uid, id)));
  }
  for (const component of plan.components) {
    for (const item of component.items) await addRelationTargets(db, model, documentId, item.row, set);
  }
}

/**
 * A delete's locks: its own, and the documents that link to it, whose links go with it. (Links from components
 * are removed too, without their document's lock: a component belongs to a document found only through its
 * parents' tables.)
 */
export async function deleteLockSet(db: Database, model: Model, contentType: ContentType, documentId: string): Promise<LockSet> {
  const set: LockSet = { keys: [documentLockKey(contentType.uid, documentId)], rereadAfterLocking: true };
  for (const owner of model.contentTypes.values()) {
    for (const attribute of owner.attributes.values()) {
      if (attribute.kind !== 'relation' || !attribute.owner || attribute.target !== contentType.uid) continue;
      const linking = await documentsLinkingTo(db, model, owner, attribute, documentId);
      set.keys.push(...linking.map((id) => documentLockKey(owner.uid, id)));
    }
  }
  return set;
}

/** Takes the locks; a set read from changeable rows is read again under them and what is new is locked too. */
export async function lockForWrite(db: Database, lockSet: () => Promise<LockSet>): Promise<void> {
  const first = await lockSet();
  await db.lock(first.keys);
  if (first.rereadAfterLocking) await db.lock((await lockSet()).keys);
}
