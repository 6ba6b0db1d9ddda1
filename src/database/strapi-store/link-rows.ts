import type { Database } from '../types.js';
import type { RelationJoin } from '../strapi-layout/names.js';
import type { WindowMember } from '../store/link-types.js';
import { StrapiLinkList } from './link-list.js';
import { quotedSide } from './list-side.js';
import { rowIdOf } from './link-errors.js';
import { exactWindow, linksAndWindows, walkWindow, type MemberLinks } from './link-window.js';

/** What a connect reads of its list in one statement: its items' links and its window (link-window.ts). */
type ListRead = { links: MemberLinks; window: WindowMember[] };

/**
 * The same change applied to two rows' lists, one after the other: a publishing update whose published row is the
 * draft's copy gives the draft's lists and then the published row's the same connect (documents/service.ts). When
 * the first row's connect reads a list, the partner row's list is read in the same statement and kept here until
 * the partner's connect asks for the same members; asked for other members, it reads its own. The caller's
 * guarantee: nothing writes the partner's lists in between.
 */
export class PairedListReads {
  private readonly kept = new Map<string, { request: string; read: ListRead }>();

  constructor(
    /** The table of the two rows, the first one, and the one read with it. */
    private readonly table: string,
    private readonly first: number,
    private readonly partner: number,
  ) {}

  /** The row whose list is read with row `rowId`'s of `table`, if any. */
  partnerOf(table: string, rowId: number): number | undefined {
    return table === this.table && rowId === this.first ? this.partner : undefined;
  }

  keep(list: string, request: string, read: ListRead): void {
    this.kept.set(list, { request, read });
  }

  /** The read kept for `list`, if it was for the same request; it is handed out once. */
  take(list: string, request: string): ListRead | undefined {
    const kept = this.kept.get(list);
    this.kept.delete(list);
    return kept?.request === request ? kept.read : undefined;
  }
}

/**
 * The links of one row on one side of a Strapi 5 join table, addressed by link id: what a relation write from a
 * request needs besides `StrapiLinkList` (which addresses members). Strapi's ordering of a `connect`
 * (documents/relation-order.ts, run by documents/ordered-connect.ts) works on the links it loads, so this class
 * gives it the window, order writes and inserts it needs (ordered-connect.ts OrderedLinks), over `*_lnk` columns. Members are row ids; the caller has already checked them (they come from the target's table).
 */
export class StrapiLinkRows {
  /** Member-level operations on the same list (set, members). */
  readonly list: StrapiLinkList;
  private readonly t: string;
  private readonly key: string;
  private readonly member: string;
  private readonly order: string | undefined;
  private readonly otherOrder: string | undefined;
  /** The window read with the links (orderedLinksOf), kept for the next `window` call until this list is written. */
  private primed: { window: WindowMember[]; anchors: Set<number> } | undefined;

  constructor(
    private readonly db: Database,
    join: RelationJoin,
    rowId: number,
    /** Reads shared with another row's same change (publishing in sync), if any. */
    private readonly paired?: PairedListReads,
  ) {
    this.list = new StrapiLinkList(db, join, rowId);
    ({ t: this.t, key: this.key, member: this.member, order: this.order, otherOrder: this.otherOrder } = quotedSide(db, this.list.side));
  }

  /**
   * Order values stay above 0: MySQL's order columns in Strapi's tables are `double unsigned`, and items placed before
   * the first link share the room between 0 and it (a list renumbered 1..n when that room runs out).
   */
  readonly floor = 0;

  get rowId(): number {
    return this.list.rowId;
  }

  /** False on a to-one side (no order column). */
  get ordered(): boolean {
    return this.order !== undefined;
  }

  /** Member row id -> its link id, for those of `members` this list links. */
  async linksOf(members: readonly number[]): Promise<Map<number, number>> {
    const links = await this.orderedLinksOf(members);
    return new Map([...links].map(([member, link]) => [member, link.id]));
  }

  /**
   * Member row id -> its link id and order value (null on a to-one side), for those of `members` this list links:
   * what a connect needs of its items and of its anchors' rows, in one statement. Given `windowFor` (the members
   * of `members` that a connect's positions name), that statement also reads the window the connect's first
   * `window` call asks for, unless this list is written in between (and on SQLite, whose windows are index walks).
   */
  async orderedLinksOf(members: readonly number[], windowFor?: readonly number[]): Promise<MemberLinks> {
    this.primed = undefined;
    if (!members.length) return new Map();
    if (windowFor && this.order && this.db.dialect !== 'sqlite') {
      const { links, window } = await this.readLinksAndWindow(members, windowFor);
      const anchors = new Set(windowFor.flatMap((m) => (links.has(m) ? [links.get(m)!.id] : [])));
      this.primed = { window, anchors };
      return links;
    }
    const rows = await this.db.query<{ id: number; m: number; o: number | null }>(
      `SELECT id, ${this.member} AS m, ${this.order ?? 'NULL'} AS o FROM ${this.t} WHERE ${this.key} = ? AND ${this.member} IN (${marks(members)})`,
      [this.rowId, ...members],
    );
    return new Map(rows.map((r) => [Number(r.m), { id: Number(r.id), order: numberOrNull(r.o) }]));
  }

  /** linksAndWindow for this list: kept from the partner's read, or read now (with the partner's list, if paired). */
  private async readLinksAndWindow(members: readonly number[], windowFor: readonly number[]): Promise<ListRead> {
    const request = JSON.stringify([members, windowFor]);
    const listOf = (rowId: number) => `${this.list.side.table}|${this.key}|${rowId}`;
    const kept = this.paired?.take(listOf(this.rowId), request);
    if (kept) return kept;
    const partner = this.paired?.partnerOf(this.list.side.keyTable, this.rowId);
    const side = { t: this.t, key: this.key, order: this.order!, member: this.member };
    const [own, other] = await linksAndWindows(this.db, side, partner === undefined ? [this.rowId] : [this.rowId, partner], members, windowFor);
    if (partner !== undefined) this.paired!.keep(listOf(partner), request, other);
    return own;
  }

  /**
   * What Strapi loads to order a connect: the anchors' links, the first and the last link, each with its
   * neighbours' order values (documents/relation-order.ts). On SQLite from bounded walks along the order index,
   * elsewhere in one statement (link-window.ts).
   */
  async window(anchors: Array<number | null>): Promise<WindowMember[]> {
    const side = { t: this.t, key: this.key, order: this.ordered$() };
    const ids = anchors.filter((id): id is number => id !== null);
    const primed = this.primed;
    this.primed = undefined;
    if (primed && ids.every((id) => primed.anchors.has(id))) return primed.window;
    return this.db.dialect === 'sqlite' ? walkWindow(this.db, side, this.rowId, ids) : exactWindow(this.db, side, this.rowId, ids);
  }

  /** The nearest link before (-1) or after (1) link `id` that `skip` does not exclude, or null. */
  async survivingNeighbour(id: number, direction: -1 | 1, skip: (id: number) => boolean): Promise<number | null> {
    const o = this.ordered$();
    const [start] = await this.db.query<{ o: number | null }>(`SELECT ${o} AS o FROM ${this.t} WHERE id = ?`, [id]);
    let order = numberOrNull(start?.o);
    while (order !== null) {
      const [r] = await this.db.query<{ v: number | null }>(
        `SELECT ${direction < 0 ? 'MAX' : 'MIN'}(${o}) AS v FROM ${this.t} WHERE ${this.key} = ? AND ${o} ${direction < 0 ? '<' : '>'} ?`,
        [this.rowId, order],
      );
      order = numberOrNull(r?.v);
      if (order === null) return null;
      const rows = await this.db.query<{ id: number }>(`SELECT id FROM ${this.t} WHERE ${this.key} = ? AND ${o} = ? ORDER BY id`, [this.rowId, order]);
      const kept = rows.map((row) => Number(row.id)).find((candidate) => !skip(candidate));
      if (kept !== undefined) return kept;
    }
    return null;
  }

  /** Sets link `id`'s order value in this list (the link keeps its row and its other-side order). */
  async setOrder(id: number, order: number): Promise<void> {
    this.primed = undefined;
    await this.db.execute(`UPDATE ${this.t} SET ${this.ordered$()} = ? WHERE id = ? AND ${this.key} = ?`, [order, id, this.rowId]);
  }

  /** Inserts a link to `row.member` at `order` in this list; in the member's own list it goes last (MAX + 1). */
  async insert(row: Record<string, unknown>, order: number): Promise<void> {
    await this.insertLink(rowIdOf(row.member, this.list.side.table, 'a member'), order);
  }

  /** Links `member` (a to-one side: no order here); in the member's own list it goes last. */
  async link(member: number): Promise<void> {
    await this.insertLink(member, undefined);
  }

  private async insertLink(member: number, order: number | undefined): Promise<void> {
    this.primed = undefined;
    const values: Array<[string, unknown]> = [
      [this.key, this.rowId],
      [this.member, member],
    ];
    if (this.order) values.push([this.order, order ?? null]);
    const columns = values.map(([c]) => c);
    const params = values.map(([, v]) => v);
    if (!this.otherOrder) {
      await this.db.execute(`INSERT INTO ${this.t} (${columns.join(', ')}) VALUES (${marks(values)})`, params);
      return;
    }
    // Last in the member's own list, read and written in one statement (MySQL reads the table it inserts into
    // through a temporary copy, which it allows for INSERT ... SELECT).
    await this.db.execute(
      `INSERT INTO ${this.t} (${[...columns, this.otherOrder].join(', ')}) SELECT ${marks(values)}, COALESCE(MAX(${this.otherOrder}), 0) + 1 FROM ${this.t} WHERE ${this.member} = ?`,
      [...params, member],
    );
  }

  /**
   * Spreads this list's order values to `first`, `first` + 1... in its order: 0..n-1 is what Strapi's create with
   * `connect` writes (docs/strapi-5-writes.md 5.1); 1..n when a connect finds no room left between two values.
   */
  async renumber(first = 1): Promise<void> {
    if (this.ordered) await this.spread(first);
  }

  private async spread(first: number): Promise<void> {
    this.primed = undefined;
    const o = this.ordered$();
    // `first` is an integer this module chose: written as a literal (no dialect has to guess a parameter's type).
    const ranked = `SELECT id, ROW_NUMBER() OVER (ORDER BY ${o}, id) + ${Math.trunc(first) - 1} AS n FROM ${this.t} WHERE ${this.key} = ?`;
    if (this.db.dialect === 'mysql') {
      // A window function makes MariaDB/MySQL materialise the derived table, so it may read the table it updates.
      await this.db.execute(`UPDATE ${this.t} JOIN (${ranked}) r ON ${this.t}.id = r.id SET ${this.t}.${o} = r.n`, [this.rowId]);
    } else {
      await this.db.execute(`UPDATE ${this.t} SET ${o} = r.n FROM (${ranked}) r WHERE ${this.t}.id = r.id`, [this.rowId]);
    }
  }

  /** Deletes these links of this list; returns the members they linked. */
  async unlink(linkIds: readonly number[]): Promise<number[]> {
    if (!linkIds.length) return [];
    this.primed = undefined;
    const where = `${this.key} = ? AND id IN (${marks(linkIds)})`;
    const rows = await this.db.query<{ m: number }>(`SELECT ${this.member} AS m FROM ${this.t} WHERE ${where}`, [this.rowId, ...linkIds]);
    await this.db.execute(`DELETE FROM ${this.t} WHERE ${where}`, [this.rowId, ...linkIds]);
    return rows.map((r) => Number(r.m));
  }

  /** Deletes this list's links to members other than `kept` (a to-one side being replaced); returns their members. */
  async unlinkAllBut(kept: readonly number[]): Promise<number[]> {
    const except = kept.length ? ` AND ${this.member} NOT IN (${marks(kept)})` : '';
    const rows = await this.db.query<{ id: number }>(`SELECT id FROM ${this.t} WHERE ${this.key} = ?${except}`, [this.rowId, ...kept]);
    return this.unlink(rows.map((r) => Number(r.id)));
  }



  /**
   * Strapi's "steal" on a relation whose members have one owner (bidirectional oneToOne, and the owners of a
   * oneToMany written from its inverse side): the links of `members` from rows of this side other than `ownRows`
   * (the rows of this list's document: its other versions and locales keep theirs) are deleted. Returns how many.
   */
  async unlinkMembersElsewhere(members: readonly number[], ownRows: readonly number[]): Promise<number> {
    if (!members.length) return 0;
    this.primed = undefined;
    const keys = ownRows.length ? ownRows : [this.rowId];
    const result = await this.db.execute(`DELETE FROM ${this.t} WHERE ${this.member} IN (${marks(members)}) AND ${this.key} NOT IN (${marks(keys)})`, [
      ...members,
      ...keys,
    ]);
    return result.affectedRows;
  }

  private ordered$(): string {
    if (!this.order) throw new Error(`${this.list.side.table}: the ${this.list.side.key} side has no order column`);
    return this.order;
  }
}

function numberOrNull(value: unknown): number | null {
  return value === null || value === undefined ? null : Number(value);
}

const marks = (values: readonly unknown[]): string => values.map(() => '?').join(', ');
