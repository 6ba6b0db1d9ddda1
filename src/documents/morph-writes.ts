import type { Component, ContentType, Model, MorphAttribute } from '../model/types.js';
import type { Database } from '../database/types.js';
import {
  readMorphList,
  readMorphOwners,
  readMorphToOne,
  readMorphToOneOwners,
  replaceMorphList,
  replaceMorphOwners,
  writeMorphToOne,
  type MorphLink,
} from '../database/store/index.js';
import { morphTableOf } from '../database/strapi-layout/names.js';
import { ValidationError } from '../errors/index.js';
import type { MorphOps, MorphPlan, MorphTarget } from './morph-ops.js';
import { orderConnected, type KeyedPosition, type OrderedItem } from './relation-order.js';
import { resolveTargets } from './relation-targets.js';
import { linkedRows, type StrapiRelationScope } from './strapi-relation-writes.js';

/**
 * Writes of Strapi 5's polymorphic relations (morphToMany, morphToOne, and their inverse sides morphMany, morphOne):
 * every item names its type (`__type`, a content-type uid) and the entry (`documentId`, or `id`: an entry id, or a
 * documentId where Strapi would misread it; morph-ops.ts); `connect`, `disconnect`, `set` and connect positions
 * (`before`/`after` an entry of the list, `start`, `end`) as for other relations. The version rows linked follow the
 * rules of other relations (a draft links drafts; publishing maps the draft's links to published rows:
 * database/store/morph-links.ts copyMorphLinks).
 */

/**
 * Writes a row's morph plans. `source` is a content type, or a component (a row of one of its entries: `scope` is
 * that entry's version and locale), which holds morphToOne and morphToMany relations only (the model refuses the
 * inverse sides there).
 */
export async function writeMorphs(db: Database, model: Model, source: ContentType | Component, rowId: number, plans: MorphPlan[], scope: StrapiRelationScope): Promise<void> {
  for (const plan of plans) {
    const { attribute } = plan;
    const rowsOf = (targets: MorphTarget[], mustExist = true) => linkedRowsOf(db, model, targets, scope, mustExist);
    switch (attribute.relation) {
      case 'morphToMany':
        await writeMorphToMany(db, model, source, rowId, attribute, plan.ops, scope);
        break;
      case 'morphToOne': {
        const ops = plan.ops;
        const current = ops.kind === 'set' ? ops.targets : ops.connect;
        if (ops.kind === 'change' && !current.length) {
          // A disconnect of what it links empties it.
          const gone = await rowsOf(ops.disconnect, false);
          const now = await readMorphToOne(db, source.table, rowId);
          if (now && gone.some((g) => g.relatedId === now.relatedId && g.type === now.type)) await writeMorphToOne(db, source.table, [rowId], null);
          break;
        }
        const [link] = (await rowsOf(current)).slice(-1);
        await writeMorphToOne(db, source.table, [rowId], link ? { relatedId: link.relatedId, type: link.type } : null);
        break;
      }
      case 'morphMany':
      case 'morphOne': {
        if (source.modelType !== 'contentType') throw new Error(`${source.uid}.${attribute.name}: a ${attribute.relation} relation in a component`);
        // The links are the target's: rows of `target` whose `morphBy` attribute links this row.
        const owner = model.contentTypes.get(attribute.target!)!;
        const by = owner.attributes.get(attribute.morphBy!) as MorphAttribute;
        if (by.relation === 'morphToMany') {
          const table = morphTableOf(owner, by.name);
          let owners = plan.ops.kind === 'set' ? [] : await readMorphOwners(db, table, rowId, source.uid, attribute.name);
          if (plan.ops.kind === 'set') owners = (await rowsOf(plan.ops.targets)).map((r) => r.relatedId);
          else {
            const gone = new Set((await rowsOf(plan.ops.disconnect, false)).map((r) => r.relatedId));
            const added = (await rowsOf(plan.ops.connect)).map((r) => r.relatedId);
            owners = [...owners.filter((o) => !gone.has(o) && !added.includes(o)), ...added];
          }
          await replaceMorphOwners(db, table, rowId, source.uid, attribute.name, attribute.toMany ? unique(owners) : unique(owners).slice(-1));
        } else {
          const current = await readMorphToOneOwners(db, owner.table, rowId, source.uid);
          let owners: number[];
          if (plan.ops.kind === 'set') owners = (await rowsOf(plan.ops.targets)).map((r) => r.relatedId);
          else {
            const gone = new Set((await rowsOf(plan.ops.disconnect, false)).map((r) => r.relatedId));
            owners = [...current.filter((o) => !gone.has(o)), ...(await rowsOf(plan.ops.connect)).map((r) => r.relatedId)];
          }
          if (!attribute.toMany) owners = owners.slice(-1);
          await writeMorphToOne(db, owner.table, current.filter((o) => !owners.includes(o)), null);
          await writeMorphToOne(db, owner.table, unique(owners), { relatedId: rowId, type: source.uid });
        }
        break;
      }
    }
  }
}

/** The version rows items link (as other relations: a draft its targets' drafts...), each with its type. */
async function linkedRowsOf(db: Database, model: Model, targets: MorphTarget[], scope: StrapiRelationScope, mustExist: boolean): Promise<Array<{ relatedId: number; type: string; index: number }>> {
  const result: Array<{ relatedId: number; type: string; index: number }> = [];
  for (const [index, t] of targets.entries()) {
    const target = model.contentTypes.get(t.type)!;
    const locale = target.localized ? (scope.locale ?? scope.defaultLocale) : '';
    const [resolved] = await resolveTargets(db, target, [{ ref: t.ref }], () => locale, () => '', mustExist);
    if (!resolved || resolved.documentId.startsWith('#')) continue;
    for (const relatedId of await linkedRows(db, target, resolved.documentId, locale || undefined, scope.version, '')) result.push({ relatedId, type: t.type, index });
  }
  return result;
}

/**
 * A morphToMany list: `set` replaces it; otherwise disconnected links go, then connected items are placed by
 * Strapi's rules for a connect (relation-order.ts: without a position, or `end`, last; `start` first; `before` /
 * `after` an entry of the list or of the same connect; an anchor in neither is a 400). The list is written back
 * whole, `order` 1..n, each link keeping its `field`; a new link's `field` is the attribute's name on an update and
 * NULL on a create, as Strapi writes them.
 */
async function writeMorphToMany(db: Database, model: Model, source: ContentType | Component, rowId: number, attribute: MorphAttribute, ops: MorphOps, scope: StrapiRelationScope): Promise<void> {
  const table = morphTableOf(source, attribute.name);
  const field = scope.created ? null : attribute.name;
  const keyOf = (l: { relatedId: number; type: string }) => `${l.type}|${l.relatedId}`;
  if (ops.kind === 'set') {
    const rows = await linkedRowsOf(db, model, ops.targets, scope, true);
    const links = uniqueBy(rows.map((r) => ({ relatedId: r.relatedId, type: r.type, field })), keyOf);
    await replaceMorphList(db, table, rowId, links);
    return;
  }
  const current = await readMorphList(db, table, rowId);
  const connected = await linkedRowsOf(db, model, ops.connect, scope, true);
  const connectedKeys = new Set(connected.map(keyOf));
  const gone = new Set((await linkedRowsOf(db, model, ops.disconnect, scope, false)).map(keyOf).filter((k) => !connectedKeys.has(k)));
  const kept = current.filter((l) => !gone.has(keyOf(l)));
  // Strapi's ordering over the whole list: each link a member `link:<i>` with orders 1..n.
  const window = kept.map((l, i) => ({ key: `link:${i}`, order: i + 1, prev: i > 0 ? i : null, next: i + 1 < kept.length ? i + 2 : null }));
  const memberKey = new Map(kept.map((l, i) => [keyOf(l), `link:${i}`]));
  const itemKey = (r: { relatedId: number; type: string }) => memberKey.get(keyOf(r)) ?? `new:${keyOf(r)}`;
  const anchorKey = async (anchor: { type: string; ref: string }, shown: MorphTarget): Promise<string> => {
    const rows = await linkedRowsOf(db, model, [{ type: anchor.type, ref: anchor.ref }], scope, false);
    for (const r of rows) {
      const key = memberKey.get(keyOf(r));
      if (key) return key;
      if (connectedKeys.has(keyOf(r))) return itemKey(r);
    }
    throw new ValidationError(
      `There was a problem connecting relation with id ${String(shown.ref)} at position ${JSON.stringify(shown.position)}. The relation with id ${anchor.ref} needs to be connected first.`,
    );
  };
  const ordered: OrderedItem[] = [];
  for (const r of connected) {
    const t = ops.connect[r.index];
    let p: KeyedPosition | undefined;
    if (t.position && 'before' in t.position) p = { before: await anchorKey(t.position.before, t) };
    else if (t.position && 'after' in t.position) p = { after: await anchorKey(t.position.after, t) };
    else p = t.position;
    ordered.push({ key: itemKey(r), position: p, shown: { ref: String(t.ref), position: t.position, anchor: t.position && 'before' in t.position ? t.position.before.ref : t.position && 'after' in t.position ? t.position.after.ref : undefined } });
  }
  const orders = ordered.length ? orderConnected(window, ordered) : new Map<string, number>();
  if (!orders) throw new Error('morph list: no room to order a connect in a list numbered 1..n');
  const byKey = new Map<string, MorphLink>(kept.map((l, i) => [`link:${i}`, l]));
  for (const r of connected) if (!byKey.has(itemKey(r))) byKey.set(itemKey(r), { relatedId: r.relatedId, type: r.type, field });
  const order = new Map<string, number>(window.map((w) => [w.key, w.order]));
  for (const [key, value] of orders) order.set(key, value);
  const links = [...byKey.entries()].sort((a, b) => (order.get(a[0]) ?? 0) - (order.get(b[0]) ?? 0)).map(([, link]) => link);
  await replaceMorphList(db, table, rowId, links);
}

const unique = (values: number[]) => [...new Set(values)];

function uniqueBy<T>(values: T[], key: (v: T) => string): T[] {
  const seen = new Set<string>();
  return values.filter((v) => (seen.has(key(v)) ? false : (seen.add(key(v)), true)));
}
