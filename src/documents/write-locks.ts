import type { ContentType, Model, RelationAttribute } from '../model/types.js';
import type { Database } from '../database/types.js';
import { documentLockKey } from '../database/document-locks.js';
import { LockOrderConflict } from '../database/transient.js';
import { documentIdsOfRows, documentsLinkingTo } from '../database/lock-targets.js';
import type { RelationTarget } from './relation-ops.js';
import type { RowPlan } from './write-plan.js';

/**
 * The documents a write changes, whose locks it takes first (database/document-locks.ts): its own, and every
 * document whose links or list order it changes. A relation item's target is locked on either side: from the
 * inverse side the write changes the owner's links, from the owner side the order of the target's inverse list.
 * `keys` are known from the write and from rows that never change (a row's document); `linking` reads the rest:
 * the documents that link to this one, which other writes may change until the locks are held (lockForWrite).
 */
export interface LockSet {
  keys: string[];
  linking?: () => Promise<string[]>;
}

/**
 * An update's or a create's locks; `plan` holds its relation writes, nested components' included. A write that
 * publishes takes a publish's locks too (publishLockSet).
 */
export async function writeLockSet(db: Database, model: Model, contentType: ContentType, documentId: string, plan: RowPlan, publishes = false): Promise<LockSet> {
  const set: LockSet = { keys: [documentLockKey(contentType.uid, documentId)] };
  await addRelationTargets(db, model, documentId, plan, set);
  if (publishes) addSelfLinking(db, model, contentType, documentId, set);
  return set;
}

/**
 * A publish's, an unpublish's or a discard's locks: its own, and the documents of the same type that link to it
 * through a relation to itself. Changing a document's versions rewrites their links too (Strapi's self-relation
 * rule, strapi-store/publish-links.ts mirrorSelfLinks: Y/P → X/P for every Y/D → X/D), so two such documents
 * published at once would insert the same link (a unique violation) or each miss the other's new published row.
 */
export function publishLockSet(db: Database, model: Model, contentType: ContentType, documentId: string): Promise<LockSet> {
  const set: LockSet = { keys: [documentLockKey(contentType.uid, documentId)] };
  addSelfLinking(db, model, contentType, documentId, set);
  return Promise.resolve(set);
}

function addSelfLinking(db: Database, model: Model, contentType: ContentType, documentId: string, set: LockSet) {
  for (const attribute of contentType.attributes.values()) {
    if (attribute.kind !== 'relation' || !attribute.owner || attribute.target !== contentType.uid) continue;
    addLinking(set, contentType.uid, () => documentsLinkingTo(db, model, contentType, attribute, documentId));
  }
}

/** Adds a read of documents of `uid` that link to the write's document to the set's `linking`. */
function addLinking(set: LockSet, uid: string, read: () => Promise<string[]>): void {
  const before = set.linking;
  set.linking = async () => [...(before ? await before() : []), ...(await read()).map((id) => documentLockKey(uid, id))];
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
      addLinking(set, target.uid, () => documentsLinkingTo(db, model, target, owning, documentId));
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
export function deleteLockSet(db: Database, model: Model, contentType: ContentType, documentId: string): Promise<LockSet> {
  const set: LockSet = { keys: [documentLockKey(contentType.uid, documentId)] };
  for (const owner of model.contentTypes.values()) {
    for (const attribute of owner.attributes.values()) {
      if (attribute.kind !== 'relation' || !attribute.owner || attribute.target !== contentType.uid) continue;
      addLinking(set, owner.uid, () => documentsLinkingTo(db, model, owner, attribute, documentId));
    }
  }
  return Promise.resolve(set);
}

/**
 * Takes a write's locks. Who links to a document changes only under that document's lock (a link is made or
 * removed by a write that locks both ends, or that holds the linking document's), so once the write holds its
 * own lock and those of the documents linking to it, that set stays as it is.
 *
 * First attempt: the known keys are locked (waiting, in the global order), then `linking` is read under them and
 * those documents' locks are taken without waiting: two statements. One held by another write ends the attempt
 * (LockOrderConflict: waiting for it out of order could close a circle of waits), and the transaction runs again
 * with the ordered protocol, as does a transaction that cannot run again (`db.locksInAnyOrder` false): `linking` is
 * read first, everything is locked in the global order, and `linking` read again under the locks (what appeared
 * meanwhile is locked then, waiting: a rare circle there is the server's deadlock, which runs the write again).
 */
export async function lockForWrite(db: Database, lockSet: () => Promise<LockSet>): Promise<void> {
  const set = await lockSet();
  if (!set.linking) return db.lock(set.keys);
  if (db.locksInAnyOrder) {
    await db.lock(set.keys);
    if (!(await db.tryLock(await set.linking()))) throw new LockOrderConflict();
    return;
  }
  await db.lock([...set.keys, ...(await set.linking())]);
  await db.lock(await set.linking());
}
