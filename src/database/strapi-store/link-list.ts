import type { Database } from '../types.js';
import type { RelationJoin } from '../strapi-layout/names.js';
import { listSide, quotedSide, type ListSide } from './list-side.js';
import { LinkListError, rowIdOf } from './link-errors.js';
import { plannedPerRun } from '../statement-names.js';

/** Where a member goes: before or after another member (a row id already in the list), first, or last. */
export type LinkPosition = { before: number } | { after: number } | { start: true } | { end: true };

/** One link of the list, in list order: the member's row id and the two order values it carries. */
export interface LinkEntry {
  member: number;
  /** This list's order value (null on a to-one side, or where Strapi left it NULL). */
  order: number | null;
  /** The member's position in its own list on the other side (null when the relation has no such column). */
  otherOrder: number | null;
}

/** Rows per statement when a whole list is written (well under every dialect's bound-parameter limit). */
const CHUNK = 500;

/**
 * The ordered links of one row on one side of a Strapi 5 join table (`*_lnk`): the owner side lists target rows by
 * `orderColumn`, the inverse side lists owner rows by `inverseOrderColumn`; members are row ids (version rows: the
 * caller picks which version of a document it links). Strapi reads a list ordered by its order column only (then by
 * link id here, as Cairn's read compiler does), so any increasing values are valid: a member placed between two
 * neighbours takes their midpoint and only its own row is written; the list is renumbered 1..n (one statement) only
 * when the gap has no room left (ties, as Strapi leaves between a draft's and a published row's links, count as no
 * room). Values never go below 0 (MySQL's columns are `double unsigned`).
 *
 * A new link's other-side order is the MAX over every link of that member + 1, Strapi's rule for links created from
 * either side (docs/strapi-5-writes.md, 5.2). A side without an order column is a to-one side (a manyToOne owner, the
 * inverse of a oneToOne or oneToMany): it holds at most one member. Which owner a target may keep on the other side
 * (Strapi's "steal" for oneToOne, oneToMany) is the caller's rule: this class writes one side of one list.
 *
 * Every operation runs in one transaction (the caller's, when `db` is one). Concurrent writers of one list must be
 * serialised by the caller (the Document Service's document locks).
 */
export class StrapiLinkList {
  readonly side: ListSide;
  readonly rowId: number;
  private rowChecked = false;
  private readonly t: string;
  private readonly key: string;
  private readonly member: string;
  private readonly order: string | undefined;
  private readonly otherOrder: string | undefined;

  constructor(
    private readonly db: Database,
    join: RelationJoin,
    rowId: number,
  ) {
    this.side = listSide(join);
    this.rowId = rowIdOf(rowId, this.side.table, `the list's row (${this.side.key})`);
    ({ t: this.t, key: this.key, member: this.member, order: this.order, otherOrder: this.otherOrder } = quotedSide(db, this.side));
  }

  /** False on a to-one side: no order column, at most one member. */
  get ordered(): boolean {
    return this.order !== undefined;
  }

  /** The members' row ids, in list order. */
  async members(): Promise<number[]> {
    return (await this.entries()).map((e) => e.member);
  }

  /** The links in list order (by order value, then link id; by link id on a to-one side). */
  async entries(): Promise<LinkEntry[]> {
    // Reads need no transaction of their own (on SQLite, one costs a commit).
    await this.checkRow(this.db);
    const o = this.order ?? 'NULL';
    const x = this.otherOrder ?? 'NULL';
    const rows = await this.db.query<{ m: number; o: number | null; x: number | null }>(
      `SELECT ${this.member} AS m, ${o} AS o, ${x} AS x FROM ${this.t} WHERE ${this.key} = ? ORDER BY ${this.order ? `${this.order}, ` : ''}id`,
      [this.rowId],
    );
    return rows.map((r) => ({ member: Number(r.m), order: numberOrNull(r.o), otherOrder: numberOrNull(r.x) }));
  }

  async has(member: number): Promise<boolean> {
    const id = this.memberId(member);
    await this.checkRow(this.db);
    return this.linkOf(this.db, id);
  }

  /** Links `member` last. */
  async append(member: number): Promise<void> {
    await this.insert(member, { end: true });
  }

  /** Links `member` at `position`; refused when it is already in the list (use `move`). */
  async insert(member: number, position: LinkPosition = { end: true }): Promise<void> {
    const id = this.memberId(member);
    await this.atomically(async (db) => {
      await this.checkRow(db);
      const [state] = await db.query<{ found: number | null; linked: number | null; other: number | null }>(
        `SELECT (SELECT id FROM ${db.quote(this.side.memberTable)} WHERE id = ?) AS found, ` +
          `(SELECT id FROM ${this.t} WHERE ${this.key} = ? AND ${this.member} = ?) AS linked, ` +
          `(SELECT ${this.member} FROM ${this.t} WHERE ${this.key} = ? ${this.order ? 'AND 1 = 0' : ''} LIMIT 1) AS other`,
        [id, this.rowId, id, this.rowId],
      );
      if (state?.found === null || state?.found === undefined) throw this.unknownMember(id);
      if (state.linked !== null && state.linked !== undefined) {
        throw new LinkListError(
          'already-linked',
          `${this.side.table}: ${this.side.memberTable} row ${id} is already in the list of ${this.side.keyTable} row ${this.rowId} (unique ${this.side.key}, ${this.side.member})`,
          this.details(id),
        );
      }
      if (state.other !== null && state.other !== undefined) throw this.toOne(Number(state.other));
      const order = await this.place(db, position, undefined);
      const values: Array<[string, unknown]> = [
        [this.key, this.rowId],
        [this.member, id],
      ];
      if (this.order) values.push([this.order, order]);
      if (this.otherOrder) values.push([this.otherOrder, await this.nextOtherOrder(db, id)]);
      await db.execute(`INSERT INTO ${this.t} (${values.map(([c]) => c).join(', ')}) VALUES (${values.map(() => '?').join(', ')})`, values.map(([, v]) => v));
    });
  }

  /** Moves a member already in the list to `position`; its link row (and its other-side order) is kept. */
  async move(member: number, position: LinkPosition): Promise<void> {
    const id = this.memberId(member);
    await this.atomically(async (db) => {
      await this.checkRow(db);
      if (!(await this.linkOf(db, id))) throw this.notAMember(id, 'it cannot be moved');
      const order = await this.place(db, position, id);
      if (this.order) await db.execute(`UPDATE ${this.t} SET ${this.order} = ? WHERE ${this.key} = ? AND ${this.member} = ?`, [order, this.rowId, id]);
    });
  }

  /** Unlinks `member`; refused when it is not in the list. The rest keep their values (no renumbering needed). */
  async remove(member: number): Promise<void> {
    const id = this.memberId(member);
    await this.atomically(async (db) => {
      await this.checkRow(db);
      const { affectedRows } = await db.execute(`DELETE FROM ${this.t} WHERE ${this.key} = ? AND ${this.member} = ?`, [this.rowId, id]);
      if (!affectedRows) throw this.notAMember(id, 'it cannot be removed');
    });
  }

  /** Unlinks every member; returns how many links went. */
  async clear(): Promise<number> {
    return this.atomically(async (db) => {
      await this.checkRow(db);
      return (await db.execute(`DELETE FROM ${this.t} WHERE ${this.key} = ?`, [this.rowId])).affectedRows;
    });
  }

  /**
   * Replaces the list by `members`, in that order, with order values 1..n (Strapi's `set`): links to members kept
   * stay the same rows (their other-side order kept), the others are deleted, new ones get the other side's MAX + 1.
   */
  async set(members: readonly number[]): Promise<void> {
    const ids = members.map((m) => this.memberId(m));
    const seen = new Set<number>();
    for (const id of ids) {
      if (seen.has(id)) throw new LinkListError('duplicate', `${this.side.table}: set: ${this.side.memberTable} row ${id} is given twice`, this.details(id));
      seen.add(id);
    }
    if (!this.order && ids.length > 1) {
      throw new LinkListError(
        'to-one',
        `${this.side.table}: set: ${this.side.keyTable} row ${this.rowId} links at most one ${this.side.memberTable} row on this side (no order column), got ${ids.length}`,
        this.details(),
      );
    }
    await this.atomically(async (db) => {
      await this.checkRow(db);
      await this.checkMembers(db, ids);
      const existing = await db.query<{ id: number; m: number }>(`SELECT id, ${this.member} AS m FROM ${this.t} WHERE ${this.key} = ?`, [this.rowId]);
      const linkOf = new Map(existing.map((r) => [Number(r.m), Number(r.id)]));
      const dropped = existing.filter((r) => !seen.has(Number(r.m))).map((r) => Number(r.id));
      for (const part of chunks(dropped)) await db.execute(`DELETE FROM ${this.t} WHERE id IN (${marks(part)})`, part);
      const rank = new Map(ids.map((id, i) => [id, i + 1]));
      if (this.order) {
        const kept = ids.filter((id) => linkOf.has(id));
        for (const part of chunks(kept)) {
          // The ranks are integers this method made: written as literals, so no dialect has to guess a parameter's type.
          const cases = part.map((id) => `WHEN ? THEN ${rank.get(id)}`).join(' ');
          await db.execute(`UPDATE ${this.t} SET ${this.order} = CASE id ${cases} END WHERE id IN (${marks(part)})`, [
            ...part.map((id) => linkOf.get(id)),
            ...part.map((id) => linkOf.get(id)),
          ]);
        }
      }
      const added = ids.filter((id) => !linkOf.has(id));
      for (const part of chunks(added)) {
        const other = await this.nextOtherOrders(db, part);
        const columns = [this.key, this.member, ...(this.order ? [this.order] : []), ...(this.otherOrder ? [this.otherOrder] : [])];
        const rows = part.map((id) => [this.rowId, id, ...(this.order ? [rank.get(id)] : []), ...(this.otherOrder ? [other.get(id)] : [])]);
        await db.execute(`INSERT INTO ${this.t} (${columns.join(', ')}) VALUES ${rows.map((r) => `(${marks(r)})`).join(', ')}`, rows.flat());
      }
    });
  }

  /** Spreads the list's order values to 1..n in its current order: one statement, whatever the list's length. */
  async renumber(): Promise<void> {
    await this.atomically(async (db) => {
      await this.checkRow(db);
      await this.renumberIn(db);
    });
  }

  private async renumberIn(db: Database): Promise<void> {
    const o = this.order;
    if (!o) return;
    // The list's length decides the plan (statement-names.ts).
    const ranked = `SELECT id, ROW_NUMBER() OVER (ORDER BY ${o}, id) AS n FROM ${this.t} WHERE ${this.key} = ?`;
    if (db.dialect === 'mysql') {
      // A window function makes MariaDB/MySQL materialise the derived table, so it may read the table it updates.
      await db.execute(plannedPerRun(`UPDATE ${this.t} JOIN (${ranked}) r ON ${this.t}.id = r.id SET ${this.t}.${o} = r.n`), [this.rowId]);
    } else {
      await db.execute(plannedPerRun(`UPDATE ${this.t} SET ${o} = r.n FROM (${ranked}) r WHERE ${this.t}.id = r.id`), [this.rowId]);
    }
  }

  /** The order value for `position` (undefined on a to-one side), renumbering once when the gap has no room. */
  private async place(db: Database, position: LinkPosition, moving: number | undefined): Promise<number | undefined> {
    const anchor = 'before' in position ? position.before : 'after' in position ? position.after : undefined;
    const anchorId = anchor === undefined ? undefined : this.memberId(anchor, 'an anchor');
    if (anchorId !== undefined && anchorId === moving) {
      throw new LinkListError('self-anchor', `${this.side.table}: ${this.side.memberTable} row ${anchorId} cannot be placed relative to itself`, this.details(anchorId));
    }
    if (!this.order) {
      // A to-one side holds no other member to be placed against.
      if (anchorId !== undefined) throw this.notAMember(anchorId, 'it cannot be an anchor');
      return undefined;
    }
    for (let attempt = 0; ; attempt++) {
      const value = await this.orderFor(db, position, anchorId, moving);
      if (value !== undefined) return value;
      if (attempt > 0) throw new Error(`${this.side.table}: no order value found for ${this.side.keyTable} row ${this.rowId} after renumbering`);
      await this.renumberIn(db);
    }
  }

  /** The order value for `position` from the neighbours it falls between, or undefined when they leave no room. */
  private async orderFor(db: Database, position: LinkPosition, anchor: number | undefined, moving: number | undefined): Promise<number | undefined> {
    const o = this.order!;
    const skip = moving === undefined ? '' : ` AND ${this.member} <> ?`;
    const skipParams = moving === undefined ? [] : [moving];
    if (anchor === undefined) {
      const start = 'start' in position;
      const [r] = await db.query<{ v: number | null }>(plannedPerRun(`SELECT ${start ? 'MIN' : 'MAX'}(${o}) AS v FROM ${this.t} WHERE ${this.key} = ?${skip}`), [this.rowId, ...skipParams]);
      const bound = numberOrNull(r?.v);
      if (bound === null) return 1;
      return start ? midpoint(0, bound) : bound + 1 > bound ? bound + 1 : undefined;
    }
    const before = 'before' in position;
    // The anchor's value, its nearest neighbour on the placing side, and whether a link ties with the anchor on that
    // side (the same value, ordered by id): then there is no room between them.
    const neighbour = `SELECT ${before ? 'MAX' : 'MIN'}(p.${o}) FROM ${this.t} p WHERE p.${this.key} = ? AND p.${o} ${before ? '<' : '>'} a.${o}${skip.replace(' AND ', ' AND p.')}`;
    const ties = `SELECT COUNT(*) FROM ${this.t} p WHERE p.${this.key} = ? AND p.${o} = a.${o} AND p.id ${before ? '<' : '>'} a.id${skip.replace(' AND ', ' AND p.')}`;
    const [r] = await db.query<{ o: number | null; n: number | null; ties: number | string }>(
      plannedPerRun(`SELECT a.${o} AS o, (${neighbour}) AS n, (${ties}) AS ties FROM ${this.t} a WHERE a.${this.key} = ? AND a.${this.member} = ?`),
      [this.rowId, ...skipParams, this.rowId, ...skipParams, this.rowId, anchor],
    );
    if (!r) throw this.notAMember(anchor, 'it cannot be an anchor');
    const at = numberOrNull(r.o);
    if (at === null || Number(r.ties) > 0) return undefined;
    const next = numberOrNull(r.n);
    if (before) return midpoint(next ?? 0, at);
    return next === null ? (at + 1 > at ? at + 1 : undefined) : midpoint(at, next);
  }

  /** The other side's order value for a new link to `member`: after every link that member has. */
  private async nextOtherOrder(db: Database, member: number): Promise<number> {
    const [r] = await db.query<{ v: number | null }>(`SELECT MAX(${this.otherOrder!}) AS v FROM ${this.t} WHERE ${this.member} = ?`, [member]);
    return (numberOrNull(r?.v) ?? 0) + 1;
  }

  private async nextOtherOrders(db: Database, members: number[]): Promise<Map<number, number>> {
    if (!this.otherOrder) return new Map();
    const rows = await db.query<{ m: number; v: number | null }>(
      `SELECT ${this.member} AS m, MAX(${this.otherOrder}) AS v FROM ${this.t} WHERE ${this.member} IN (${marks(members)}) GROUP BY ${this.member}`,
      members,
    );
    const max = new Map(rows.map((r) => [Number(r.m), numberOrNull(r.v) ?? 0]));
    return new Map(members.map((m) => [m, (max.get(m) ?? 0) + 1]));
  }

  private async linkOf(db: Database, member: number): Promise<boolean> {
    return (await db.query(`SELECT id FROM ${this.t} WHERE ${this.key} = ? AND ${this.member} = ?`, [this.rowId, member])).length > 0;
  }

  private async checkRow(db: Database): Promise<void> {
    if (this.rowChecked) return;
    const rows = await db.query(`SELECT id FROM ${db.quote(this.side.keyTable)} WHERE id = ?`, [this.rowId]);
    if (!rows.length) {
      throw new LinkListError(
        'unknown-row',
        `${this.side.table}: ${this.side.keyTable} has no row ${this.rowId} (the row whose list ${this.side.key} = ${this.rowId} would be)`,
        this.details(),
      );
    }
    this.rowChecked = true;
  }

  private async checkMembers(db: Database, ids: number[]): Promise<void> {
    for (const part of chunks(ids)) {
      const rows = await db.query<{ id: number }>(`SELECT id FROM ${db.quote(this.side.memberTable)} WHERE id IN (${marks(part)})`, part);
      const found = new Set(rows.map((r) => Number(r.id)));
      const missing = part.find((id) => !found.has(id));
      if (missing !== undefined) throw this.unknownMember(missing);
    }
  }

  private memberId(value: unknown, what = 'a member'): number {
    return rowIdOf(value, this.side.table, `${what} (a ${this.side.memberTable} row)`);
  }

  private details(member?: number): { table: string; row: number; member?: number } {
    return { table: this.side.table, row: this.rowId, ...(member === undefined ? {} : { member }) };
  }

  private unknownMember(id: number): LinkListError {
    return new LinkListError('unknown-member', `${this.side.table}: ${this.side.memberTable} has no row ${id} to link to ${this.side.keyTable} row ${this.rowId}`, this.details(id));
  }

  private notAMember(id: number, consequence: string): LinkListError {
    return new LinkListError(
      'not-a-member',
      `${this.side.table}: ${this.side.memberTable} row ${id} is not in the list of ${this.side.keyTable} row ${this.rowId}: ${consequence}`,
      this.details(id),
    );
  }

  private toOne(current: number): LinkListError {
    return new LinkListError(
      'to-one',
      `${this.side.table}: ${this.side.keyTable} row ${this.rowId} already links ${this.side.memberTable} row ${current}, and this side links one row (no order column): remove it first`,
      this.details(current),
    );
  }

  private atomically<T>(fn: (db: Database) => Promise<T>): Promise<T> {
    return this.db.transaction(fn);
  }
}

/** The value halfway between two neighbours, or undefined when doubles have no value strictly between them. */
function midpoint(low: number, high: number): number | undefined {
  const value = low + (high - low) / 2;
  return value > low && value < high ? value : undefined;
}

function numberOrNull(value: unknown): number | null {
  return value === null || value === undefined ? null : Number(value);
}

const marks = (values: readonly unknown[]): string => values.map(() => '?').join(', ');

function chunks<T>(values: readonly T[]): T[][] {
  const parts: T[][] = [];
  for (let i = 0; i < values.length; i += CHUNK) parts.push(values.slice(i, i + CHUNK));
  return parts;
}
