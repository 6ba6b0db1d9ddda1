import { ValidationError } from '../errors/index.js';
import type { WindowMember } from '../database/store/index.js';

/**
 * Where connected items land in an ordered relation list, exactly as Strapi 5 decides it (its database layer's
 * `relationsOrderer` and `sortConnectArray`), so a list edited with mixed shorthand and positioned items ends in
 * Strapi's order. Strapi's rules, which differ from "apply each position in turn":
 * - every connected item is (re)placed: a shorthand item, or `end`, goes after the list's last entry, even one
 *   already in the list (it moves to the end);
 * - an item positioned relative to another item of the same `connect` is placed after that one, whatever their
 *   order in the request; a cycle is a 400;
 * - `start` goes before the first entry of what Strapi loaded (the list's first entry, unless an earlier item of
 *   the request moved it);
 * - items that land in the same gap keep the order in which Strapi's array holds them.
 * Strapi works on integer order keys (1..n) and loads only a window of the list: the anchors, the first and the
 * last entry. Cairn's keys are arbitrary doubles, so the window is given with each member's neighbours' keys: the
 * window is mapped onto Strapi's integer ranks (adjacent members one apart, others three, the two ranks between
 * standing for their neighbours), Strapi's algorithm runs there, and each new rank is mapped back between the two
 * real keys that bound its gap. No query here: ordered-connect.ts loads the window (database/strapi-store/link-rows.ts) and writes the result.
 */

/** A position whose anchor is already resolved to a member or item key. */
export type KeyedPosition = { before: string } | { after: string } | { start: true } | { end: true };

export interface OrderedItem {
  key: string;
  position?: KeyedPosition;
  /** For error messages: the item and its position as the request wrote them. */
  shown: { ref: string; position?: unknown; anchor?: string };
}

interface Computed {
  key: string;
  init: boolean;
  order: number;
}

/**
 * The new order key of each item (by key), or undefined when the keys around a gap have no room left between
 * them (the caller renumbers the list and asks again).
 */
export function orderConnected(window: WindowMember[], items: OrderedItem[], floor?: number): Map<string, number> | undefined {
  for (const item of items) {
    const p = item.position;
    if (p && (('before' in p && p.before === item.key) || ('after' in p && p.after === item.key))) {
      // Strapi answers a 500 here.
      throw new ValidationError(`The relation with id ${item.shown.ref} cannot be connected at a position relative to itself`);
    }
  }
  // In read order: by order value, then link id (`link:<id>` keys), as lists are read.
  const sorted = [...window].sort((a, b) => a.order - b.order || linkIdOf(a.key) - linkIdOf(b.key));
  // Strapi's ranks: members adjacent in the list are one apart; between members that are not, two ranks stand for
  // the entries between them: the first member's successor and the second's predecessor (the same entry or not).
  const rankOf = new Map<string, number>();
  const keyAtRank = new Map<number, number>();
  let rank = 0;
  sorted.forEach((member, i) => {
    rank = i === 0 ? 1 : rank + (sorted[i - 1].next === member.order ? 1 : 3);
    rankOf.set(member.key, rank);
    keyAtRank.set(rank, member.order);
    if (member.prev !== null && !keyAtRank.has(rank - 1)) keyAtRank.set(rank - 1, member.prev);
    if (member.next !== null) keyAtRank.set(rank + 1, member.next);
  });
  const computed: Computed[] = sorted.map((m) => ({ key: m.key, init: true, order: rankOf.get(m.key)! }));
  const maxOrder = computed.length ? computed[computed.length - 1].order : 0;

  for (const item of sortConnectArray(items, new Set(rankOf.keys()))) {
    const at = computed.findIndex((c) => c.key === item.key);
    if (at >= 0) computed.splice(at, 1);
    insert(computed, item, maxOrder);
  }
  return realOrders(computed, keyAtRank, floor);
}

/** Strapi's `insertRelation`: the item's rank-space order and its place in the array. */
function insert(computed: Computed[], item: OrderedItem, maxOrder: number): void {
  const position = item.position;
  const entry: Computed = { key: item.key, init: false, order: 0 };
  let index: number;
  if (position && ('before' in position || 'after' in position)) {
    const anchorKey = 'before' in position ? position.before : position.after;
    index = computed.findIndex((c) => c.key === anchorKey);
    if (index < 0) throw connectedFirst(item);
    const anchor = computed[index];
    const step = 'before' in position ? -0.5 : 0.5;
    entry.order = anchor.init ? anchor.order + step : anchor.order;
    if ('after' in position) index += 1;
  } else if (position && 'start' in position) {
    const first = computed[0];
    entry.order = first ? (first.init ? first.order - 0.5 : first.order) : 0.5;
    index = 0;
  } else {
    entry.order = maxOrder + 0.5;
    index = computed.length;
  }
  computed.splice(index, 0, entry);
}

/**
 * Strapi's `sortConnectArray`: items positioned relative to another item of the request come after it. Anchors
 * neither in the list nor in the request are a 400.
 */
function sortConnectArray(items: OrderedItem[], inList: ReadonlySet<string>): OrderedItem[] {
  const anchorOf = (item: OrderedItem) => (item.position && 'before' in item.position ? item.position.before : item.position && 'after' in item.position ? item.position.after : undefined);
  const byKey = new Map<string, OrderedItem>();
  let needsSorting = false;
  for (const item of items) {
    const anchor = anchorOf(item);
    if (!anchor || (!inList.has(anchor) && !byKey.has(anchor))) needsSorting = true;
    if (!byKey.has(item.key)) byKey.set(item.key, item);
  }
  if (!needsSorting) return items;
  const sorted: OrderedItem[] = [];
  const done = new Set<string>();
  const visit = (item: OrderedItem, branch: ReadonlySet<string>): void => {
    const anchor = anchorOf(item);
    if (anchor && branch.has(anchor)) {
      throw new ValidationError(
        'A circular reference was found in the connect array. One relation is trying to connect before/after another one that is trying to connect before/after it',
      );
    }
    if (done.has(item.key)) return;
    done.add(item.key);
    if (!anchor || inList.has(anchor)) {
      sorted.push(item);
      return;
    }
    const other = byKey.get(anchor);
    if (!other) throw connectedFirst(item);
    visit(other, new Set([...branch, item.key]));
    sorted.push(item);
  };
  for (const item of items) visit(item, new Set());
  return sorted;
}

function connectedFirst(item: OrderedItem): ValidationError {
  return new ValidationError(
    `There was a problem connecting relation with id ${item.shown.ref} at position ${JSON.stringify(item.shown.position)}. The relation with id ${item.shown.anchor} needs to be connected first.`,
  );
}

/**
 * Strapi's `getOrderMap` (items sharing a rank-space order take fractions of its gap in array order), then each
 * gap mapped back to the real keys that bound it. Undefined when a gap has no room left.
 */
function realOrders(computed: Computed[], keyAtRank: ReadonlyMap<number, number>, floor: number | undefined): Map<string, number> | undefined {
  const groups = new Map<number, Computed[]>();
  for (const c of computed) {
    const group = groups.get(c.order);
    if (group) group.push(c);
    else groups.set(c.order, [c]);
  }
  const ranked: Array<{ key: string; rank: number }> = [];
  for (const [order, group] of groups) {
    let offset = 1;
    for (const c of group) if (!c.init) ranked.push({ key: c.key, rank: order + (offset++ / (group.length + 1)) * 0.49 });
  }
  // Every new rank lies strictly inside a gap (floor(rank), floor(rank) + 1) between two list entries.
  const byGap = new Map<number, Array<{ key: string; rank: number }>>();
  for (const r of ranked) {
    const gap = Math.floor(r.rank);
    const inGap = byGap.get(gap);
    if (inGap) inGap.push(r);
    else byGap.set(gap, [r]);
  }
  const result = new Map<string, number>();
  for (const [gap, inGap] of byGap) {
    inGap.sort((a, b) => a.rank - b.rank);
    const low = keyAtRank.get(gap);
    const high = keyAtRank.get(gap + 1);
    const m = inGap.length;
    // Below the first entry, keys stay above `floor` when the list has one (MySQL's order columns in Strapi's
    // tables are unsigned): they share the room between it and the first entry.
    const bottom = low ?? floor;
    let previous = bottom ?? -Infinity;
    for (const [i, r] of inGap.entries()) {
      let key: number;
      if (bottom !== undefined && high !== undefined) key = bottom + ((high - bottom) * (i + 1)) / (m + 1);
      else if (high !== undefined) key = high - (m - i);
      else if (low !== undefined) key = low + i + 1;
      else key = i + 1;
      if (!(key > previous) || (high !== undefined && !(key < high))) return undefined;
      previous = key;
      result.set(r.key, key);
    }
  }
  return result;
}

/** The link id in a window key (`link:<id>`). */
function linkIdOf(key: string): number {
  return Number(key.slice(key.indexOf(':') + 1));
}
