import type { Anchor, Position } from './relation-ops.js';
import { orderConnected, type KeyedPosition, type OrderedItem } from './relation-order.js';
import type { WindowMember } from '../database/store/index.js';

/** What connecting needs of a list (database/strapi-store/link-rows.ts): its links, keyed by link id. */
export interface OrderedLinks {
  /** What Strapi loads to order a connect: the anchors' links, the first and the last, with their neighbours. */
  window(anchors: Array<number | null>): Promise<WindowMember[]>;
  /** The nearest link before (-1) or after (1) link `id` that `skip` does not exclude, or null. */
  survivingNeighbour(id: number, direction: -1 | 1, skip: (id: number) => boolean): Promise<number | null>;
  setOrder(id: number, order: number): Promise<void>;
  insert(row: Record<string, unknown>, order: number): Promise<void>;
  renumber(): Promise<void>;
  /** Order values stay above this one, when the list's column has a bound (Strapi's unsigned columns on MySQL). */
  readonly floor?: number;
}

/** A connect item of an ordered list: its key (`link:<id>` if the list has it, else `new:...`) and its row if new. */
export interface ConnectMember {
  key: string;
  ref: string;
  position?: Position;
  insert: Record<string, unknown>;
}

/**
 * Connects `members` in Strapi's order (relation-order.ts): positions on links the request disconnects move to the
 * nearest surviving neighbour (as Strapi rewrites them), `disconnect` runs, then the window Strapi loads (anchors,
 * first, last) is read and each member's key written.
 */
export async function connectOrdered(
  list: OrderedLinks,
  members: ConnectMember[],
  anchorKey: (anchor: Anchor) => Promise<string | undefined>,
  removed: ReadonlySet<number>,
  disconnect: () => Promise<void>,
): Promise<void> {
  const items: OrderedItem[] = [];
  for (const member of members) {
    const p = member.position;
    const shown = { ref: member.ref, position: p && shownPosition(p) };
    if (!p || 'start' in p || 'end' in p) {
      items.push({ key: member.key, position: p as KeyedPosition | undefined, shown });
      continue;
    }
    const anchor = 'before' in p ? p.before : p.after;
    const to = (await anchorKey(anchor)) ?? `missing:${anchor.documentId}`;
    items.push({ key: member.key, shown: { ...shown, anchor: anchor.documentId }, position: 'before' in p ? { before: to } : { after: to } });
  }
  await rewriteRemovedAnchors(list, items, removed);
  await disconnect();
  if (!items.length) return;
  for (let attempt = 0; ; attempt++) {
    const window = await list.window(items.flatMap((i) => (i.position && ('before' in i.position || 'after' in i.position) ? [linkId('before' in i.position ? i.position.before : i.position.after)] : [])));
    const orders = orderConnected(window, items, list.floor);
    if (orders) {
      for (const member of members) {
        const order = orders.get(member.key)!;
        const id = linkId(member.key);
        if (id !== null) await list.setOrder(id, order);
        else await list.insert(member.insert, order);
      }
      return;
    }
    // The keys around a gap ran out of precision: spread the list to 1..n and place again (once is enough).
    if (attempt > 0) throw new Error('relation order keys exhausted after renumbering');
    await list.renumber();
  }
}

const linkId = (key: string): number | null => (key.startsWith('link:') ? Number(key.slice(5)) : null);

function shownPosition(position: Position): unknown {
  if ('before' in position) return { before: position.before.documentId };
  if ('after' in position) return { after: position.after.documentId };
  return position;
}

/**
 * Strapi's rewrite of a position whose anchor the same request disconnects: the items go where the anchor was,
 * after its nearest surviving predecessor (or before its successor, or at the start), in request order, `before`
 * items first. Survivors are entries neither disconnected nor connected by the request.
 */
async function rewriteRemovedAnchors(list: OrderedLinks, items: OrderedItem[], removed: ReadonlySet<number>): Promise<void> {
  if (!removed.size) return;
  const moving = new Set(items.map((i) => linkId(i.key)).filter((id): id is number => id !== null));
  const groups = new Map<number, { before: OrderedItem[]; after: OrderedItem[] }>();
  for (const item of items) {
    const p = item.position;
    if (!p || !('before' in p || 'after' in p)) continue;
    const anchor = linkId('before' in p ? p.before : p.after);
    if (anchor === null || !removed.has(anchor)) continue;
    const group = groups.get(anchor) ?? { before: [], after: [] };
    groups.set(anchor, group);
    ('before' in p ? group.before : group.after).push(item);
  }
  for (const [anchor, group] of groups) {
    const skip = (id: number) => removed.has(id) || moving.has(id);
    const previous = await list.survivingNeighbour(anchor, -1, skip);
    const next = await list.survivingNeighbour(anchor, 1, skip);
    let after: string | undefined = previous === null ? undefined : `link:${previous}`;
    for (const item of [...group.before, ...group.after]) {
      item.position = after !== undefined ? { after } : next !== null ? { before: `link:${next}` } : { start: true };
      after = item.key;
    }
  }
}
