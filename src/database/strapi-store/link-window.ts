import type { Database } from '../types.js';
import { plannedPerRun } from '../statement-names.js';
import type { WindowMember } from '../store/link-types.js';

/** The quoted names one list's statements use: its table, the column holding the list's row, its order column. */
export interface WindowSide {
  t: string;
  key: string;
  order: string;
}

/**
 * What Strapi loads to order a connect (documents/relation-order.ts): the anchors' links, the links that share the
 * list's first order value and those that share its last, each with its neighbours' order values in read order
 * (order value, then link id; links without an order value are not in it). A link tied with its neighbour sees its
 * equal value, which leaves no room between them, so the orderer renumbers the list before placing anything there.
 *
 * Strapi's `*_lnk` tables index the list's row and the order column each alone, never together, and Cairn adds no
 * index, so every exact answer reads the row's whole list: this statement runs about ten such reads (each MIN, MAX
 * and neighbour), O(list) each. On SQLite `walkWindow` answers the same from a few bounded walks instead.
 */
export async function exactWindow(db: Database, side: WindowSide, rowId: number, anchors: readonly number[]): Promise<WindowMember[]> {
  const { t, key, order: o } = side;
  const byId = anchors.length ? `SELECT w.id, w.${o} AS o, ${neighbours(side)} FROM ${t} w WHERE w.${key} = ? AND w.id IN (${marks(anchors)}) UNION ALL ` : '';
  const rows = await db.query<{ id: number; o: number; prev: number | null; next: number | null }>(plannedPerRun(`${byId}${ends(side)}`), [
    ...(anchors.length ? [rowId, rowId, rowId, ...anchors] : []),
    rowId,
    rowId,
    rowId,
    rowId,
    rowId,
  ]);
  return windowOf(rows);
}

/** A list's links to some members (by member row id), with their order values. */
export type MemberLinks = Map<number, { id: number; order: number | null }>;

/**
 * The links of `members` (`member` is the column holding them) and `exactWindow` for the links of `anchorMembers`
 * (some of `members`), in one statement: what a connect reads of its list before it writes anything.
 */
export async function linksAndWindow(
  db: Database,
  side: WindowSide & { member: string },
  rowId: number,
  members: readonly number[],
  anchorMembers: readonly number[],
): Promise<{ links: MemberLinks; window: WindowMember[] }> {
  return (await linksAndWindows(db, side, [rowId], members, anchorMembers))[0];
}

/**
 * `linksAndWindow` for the lists of several rows on the same side of one join table, in one statement: each row's
 * part is the single row's, tagged with the row's place in `rowIds`. The answers come in `rowIds`' order.
 */
export async function linksAndWindows(
  db: Database,
  side: WindowSide & { member: string },
  rowIds: readonly number[],
  members: readonly number[],
  anchorMembers: readonly number[],
): Promise<Array<{ links: MemberLinks; window: WindowMember[] }>> {
  const { t, key, order: o, member } = side;
  // Neighbours only for the anchors' links (a CASE evaluates its subqueries only for the rows it picks).
  const [prev, next] = neighbourTerms(side);
  const anchored = anchorMembers.length ? `w.${member} IN (${marks(anchorMembers)})` : '1 = 0';
  const parts: string[] = [];
  const params: unknown[] = [];
  // `i` is a position this function chose: a literal, as in the rest of the statement.
  for (const [i, rowId] of rowIds.entries()) {
    parts.push(
      `SELECT ${i} AS r, w.id, w.${member} AS m, w.${o} AS o, CASE WHEN ${anchored} THEN ${prev} END AS prev, CASE WHEN ${anchored} THEN ${next} END AS next ` +
        `FROM ${t} w WHERE w.${key} = ? AND w.${member} IN (${marks(members)}) UNION ALL ` +
        ends({ t, key, order: o }, `${i} AS r, `, `NULL AS m, `),
    );
    params.push(...anchorMembers, rowId, ...anchorMembers, rowId, rowId, ...members, rowId, rowId, rowId, rowId, rowId);
  }
  const rows = await db.query<{ r: number; id: number; m: number | null; o: number | null; prev: number | null; next: number | null }>(plannedPerRun(parts.join(' UNION ALL ')), params);
  const anchors = new Set(anchorMembers);
  return rowIds.map((_, i) => {
    const links: MemberLinks = new Map();
    const inWindow: typeof rows = [];
    for (const r of rows) {
      if (Number(r.r) !== i) continue;
      if (r.m === null) inWindow.push(r);
      else {
        links.set(Number(r.m), { id: Number(r.id), order: numberOrNull(r.o) });
        if (anchors.has(Number(r.m)) && r.o !== null) inWindow.push(r);
      }
    }
    return { links, window: windowOf(inWindow.map((r) => ({ ...r, o: Number(r.o) }))) };
  });
}

/** A link's neighbours in read order (order value, then id): the value before it and the value after it. */
function neighbourTerms({ t, key, order: o }: WindowSide): [string, string] {
  return [
    `(SELECT MAX(p.${o}) FROM ${t} p WHERE p.${key} = ? AND p.${o} <= w.${o} AND (p.${o} < w.${o} OR p.id < w.id))`,
    `(SELECT MIN(n.${o}) FROM ${t} n WHERE n.${key} = ? AND n.${o} >= w.${o} AND (n.${o} > w.${o} OR n.id > w.id))`,
  ];
}

const neighbours = (side: WindowSide): string => neighbourTerms(side).map((term, i) => `${term} AS ${i ? 'next' : 'prev'}`).join(', ');

/**
 * The links sharing the list's first value and those sharing its last, with their neighbours (five row-id
 * parameters); `before` and `extra` are columns added before and after the link id.
 */
function ends(side: WindowSide, before = '', extra = ''): string {
  const { t, key, order: o } = side;
  return `SELECT ${before}w.id, ${extra}w.${o} AS o, ${neighbours(side)} FROM ${t} w WHERE w.${key} = ? AND w.${o} IN ((SELECT MIN(${o}) FROM ${t} WHERE ${key} = ?), (SELECT MAX(${o}) FROM ${t} WHERE ${key} = ?))`;
}

function windowOf(rows: ReadonlyArray<{ id: number; o: number; prev: number | null; next: number | null }>): WindowMember[] {
  const members = new Map<string, WindowMember>();
  for (const r of rows) members.set(`link:${r.id}`, { key: `link:${r.id}`, order: Number(r.o), prev: numberOrNull(r.prev), next: numberOrNull(r.next) });
  return [...members.values()];
}

/**
 * Index entries a walk along the order index reads before it gives up on the list's row: enough for a list whose
 * values few other rows' lists share; when many do (Strapi numbers every list 1..n, so all lists share their first
 * values), the walk stops here and reads the row's own list instead.
 */
const WALK = 64;
/** Links read past the first (or last) order value: a tie longer than this is left to `exactWindow`. */
const TIES = 16;

interface Entry {
  id: number;
  o: number;
}

/** A list's links met going one way from a point, in that order, and whether none is left beyond the last met. */
interface Walk {
  entries: Entry[];
  complete: boolean;
}

/** Where a walk starts: after (1) or before (-1) a link, or from the list's first (1) or last (-1) link. */
interface From {
  direction: 1 | -1;
  at?: Entry;
}

/**
 * `exactWindow`'s answer on SQLite without reading the whole list. SQLite's order index holds (order value, rowid) and
 * the link id is the rowid, so walking it is walking every list in read order at once (each walk still orders by
 * value and id: the answer does not depend on the plan, only its cost): the row's links met on the way are its
 * neighbours. Each walk reads at most WALK index entries; a walk that meets other rows' links only (their
 * values overlap this list's) reads the row's own list instead (`ownWalk`, O(list), as the planner reads it through
 * the row's index: the order index is kept out of that statement, since with many rows it would read theirs). An
 * anchor without an order value, or a tie longer than TIES, falls back to `exactWindow`. Same members, same values.
 */
export async function walkWindow(db: Database, side: WindowSide, rowId: number, anchors: readonly number[]): Promise<WindowMember[]> {
  const { t, key, order: o } = side;
  const at = anchors.length
    ? await db.query<{ id: number; o: number | null }>(plannedPerRun(`SELECT id, ${o} AS o FROM ${t} WHERE ${key} = ? AND id IN (${marks(anchors)})`), [rowId, ...anchors])
    : [];
  if (at.some((a) => a.o === null)) return exactWindow(db, side, rowId, anchors);
  const starts: From[] = [{ direction: 1 }, { direction: -1 }];
  for (const a of at) starts.push({ direction: -1, at: entry(a) }, { direction: 1, at: entry(a) });
  const walks = await indexWalks(db, side, rowId, starts);
  for (const [i, walk] of walks.entries()) {
    // A walk from an anchor needs one link; a walk from an end needs the links tied with the first met, and one more.
    const enough = (w: Walk) => w.complete || (starts[i].at ? w.entries.length > 0 : w.entries.some((e) => e.o !== w.entries[0].o));
    if (!enough(walk)) walks[i] = await ownWalk(db, side, rowId, starts[i], starts[i].at ? 1 : TIES);
    if (!enough(walks[i])) return exactWindow(db, side, rowId, anchors);
  }
  const members = new Map<string, WindowMember>();
  const add = (id: number, order: number, prev: number | null, next: number | null) => members.set(`link:${id}`, { key: `link:${id}`, order, prev, next });
  for (const [i, a] of at.entries()) {
    const [before, after] = [walks[2 + 2 * i], walks[3 + 2 * i]];
    add(Number(a.id), Number(a.o), before.entries[0]?.o ?? null, after.entries[0]?.o ?? null);
  }
  // The links of the first value (walked up) and of the last (walked down): each one's neighbour toward that end is
  // the tied link walked before it (none for the end link itself), its other neighbour the link walked after it.
  for (const [end, walk] of [
    [1, walks[0]],
    [-1, walks[1]],
  ] as const) {
    const tied = walk.entries.filter((e) => e.o === walk.entries[0]?.o);
    for (const [j, e] of tied.entries()) {
      const toward = j > 0 ? e.o : null;
      const away = walk.entries[j + 1]?.o ?? null;
      if (end === 1) add(e.id, e.o, toward, away);
      else add(e.id, e.o, away, toward);
    }
  }
  return [...members.values()];
}

/**
 * One statement for every walk along the order index: each reads the next WALK entries from its start (covering
 * entries only for the count; the row's links among them with their ids), so it is bounded whatever the list's length.
 */
async function indexWalks(db: Database, { t, key, order: o }: WindowSide, rowId: number, starts: From[]): Promise<Walk[]> {
  const parts: string[] = [];
  const params: unknown[] = [];
  for (const [i, from] of starts.entries()) {
    const { where, whereParams, orderBy } = walkFrom(o, from);
    const ahead = (columns: string) => `SELECT ${columns} FROM ${t} WHERE ${where} ORDER BY ${orderBy} LIMIT ${WALK}`;
    // `i` and the limits are integers this module chose: literals, as in the rest of the statement.
    const own = `SELECT * FROM (${ahead(`id, ${o} AS o, ${key} AS k`)}) a WHERE k = ? ORDER BY ${walkFrom('o', from).orderBy} LIMIT ${linksWanted(from)}`;
    parts.push(`SELECT ${i} AS w, id, o FROM (${own}) b`);
    params.push(...whereParams, rowId);
    parts.push(`SELECT ${i} AS w, NULL AS id, COUNT(*) AS o FROM (${ahead(o)}) c`);
    params.push(...whereParams);
  }
  const rows = await db.query<{ w: number; id: number | null; o: number }>(plannedPerRun(parts.join(' UNION ALL ')), params);
  const walks: Walk[] = starts.map(() => ({ entries: [], complete: false }));
  for (const r of rows) {
    const walk = walks[Number(r.w)];
    if (r.id === null) walk.complete = Number(r.o) < WALK;
    else walk.entries.push({ id: Number(r.id), o: Number(r.o) });
  }
  for (const [i, walk] of walks.entries()) {
    walk.entries.sort(readOrder(starts[i].direction));
    // The row's links were cut at linksWanted: more may follow even when the index had no more entries.
    if (walk.entries.length >= linksWanted(starts[i])) walk.complete = false;
  }
  return walks;
}

/**
 * The first `limit` links of the row's own list from `from`: O(list). `+order` keeps the order index out of the
 * plan: through it SQLite would read every row's links in that range; through the row's index it reads only this list.
 */
async function ownWalk(db: Database, { t, key, order: o }: WindowSide, rowId: number, from: From, limit: number): Promise<Walk> {
  const { where, whereParams, orderBy } = walkFrom(`+${o}`, from);
  const rows = await db.query<{ id: number; o: number }>(plannedPerRun(`SELECT id, ${o} AS o FROM ${t} WHERE ${key} = ? AND ${where} ORDER BY ${orderBy} LIMIT ${limit + 1}`), [
    rowId,
    ...whereParams,
  ]);
  const entries = rows.map((r) => ({ id: Number(r.id), o: Number(r.o) }));
  return { entries, complete: entries.length <= limit };
}

/** The links a walk returns at most: one from an anchor; from an end, a tie of TIES links and the one after it. */
const linksWanted = (from: From): number => (from.at ? 1 : TIES + 1);

/** The condition and order of a walk: links strictly after (or before) `from.at` in read order, or all with a value. */
function walkFrom(o: string, from: From): { where: string; whereParams: unknown[]; orderBy: string } {
  const up = from.direction > 0;
  const orderBy = `${o} ${up ? 'ASC' : 'DESC'}, id ${up ? 'ASC' : 'DESC'}`;
  if (!from.at) return { where: `${o} IS NOT NULL`, whereParams: [], orderBy };
  const [cmp, strict] = up ? ['>=', '>'] : ['<=', '<'];
  // The range on the order value alone is what the index serves; the id breaks ties among equal values.
  return { where: `${o} ${cmp} ? AND (${o} ${strict} ? OR id ${strict} ?)`, whereParams: [from.at.o, from.at.o, from.at.id], orderBy };
}

function readOrder(direction: 1 | -1): (a: Entry, b: Entry) => number {
  return (a, b) => direction * (a.o - b.o || a.id - b.id);
}

const entry = (r: { id: number; o: number | null }): Entry => ({ id: Number(r.id), o: Number(r.o) });

function numberOrNull(value: unknown): number | null {
  return value === null || value === undefined ? null : Number(value);
}

const marks = (values: readonly unknown[]): string => values.map(() => '?').join(', ');
