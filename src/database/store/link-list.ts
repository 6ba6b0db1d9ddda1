import type { Status } from '../../query/types.js';
import type { Database } from '../types.js';
import { sqlDialect } from '../sql/index.js';

/**
 * A link's target version: '' links the document (the reader's status picks the version), 'draft' or 'published'
 * one version whatever the reader asks. Stored as '' rather than NULL so the link table's unique index dedupes.
 */
export type StoredStatus = Status | '';

/** What one owner-side link names. */
export interface LinkKey {
  documentId: string;
  locale: string;
  status: StoredStatus;
}

/** The member a position is relative to: a target document, narrowed to one locale or version when given. */
export interface LinkAnchor {
  documentId: string;
  locale?: string;
  status?: Status;
}

/** A list entry Strapi would load to order a connect (an anchor, the first or the last), with its neighbours' keys. */
export interface WindowMember {
  key: string;
  order: number;
  prev: number | null;
  next: number | null;
}

/**
 * One ordered list inside a link table: the rows sharing `keyColumn = key`, ordered by `orderColumn`.
 * Owner-side lists hold target documents; inverse-side lists hold owner rows (found through `ownerTable`).
 */
export class LinkList {
  private readonly q: (s: string) => string;

  constructor(
    private readonly db: Database,
    private readonly table: string,
    private readonly keyColumn: 'entity_id' | 'target_document_id',
    private readonly key: number | string,
    private readonly orderColumn: 'ord' | 'inv_ord',
    /** Inverse lists: the locale of this document the links point to, and the owner's table. */
    private readonly inverse?: { locale: string; ownerTable: string },
  ) {
    this.q = sqlDialect(db.dialect).quote;
  }

  private get scope(): { sql: string; params: unknown[] } {
    return this.scopeOf('');
  }

  /** The condition selecting this list's links, on the table aliased `alias` (none: unqualified). */
  private scopeOf(alias: string): { sql: string; params: unknown[] } {
    const at = alias ? `${alias}.` : '';
    if (!this.inverse) return { sql: `${at}${this.keyColumn} = ?`, params: [this.key] };
    return { sql: `${at}${this.keyColumn} = ? AND ${at}target_locale = ?`, params: [this.key, this.inverse.locale] };
  }

  /** Condition selecting the member a position is relative to (any of its links unless the anchor names one). */
  private memberByAnchor(anchor: LinkAnchor): { sql: string; params: unknown[] } {
    if (this.inverse) {
      return { sql: `entity_id IN (SELECT id FROM ${this.q(this.inverse.ownerTable)} WHERE document_id = ?)`, params: [anchor.documentId] };
    }
    const conditions = ['target_document_id = ?'];
    const params: unknown[] = [anchor.documentId];
    if (anchor.locale !== undefined) {
      conditions.push('target_locale = ?');
      params.push(anchor.locale);
    }
    if (anchor.status !== undefined) {
      conditions.push(`target_status IN (?, '')`);
      params.push(anchor.status);
    }
    return { sql: conditions.join(' AND '), params };
  }

  async clear(): Promise<void> {
    await this.db.execute(`DELETE FROM ${this.q(this.table)} WHERE ${this.scope.sql}`, this.scope.params);
  }

  /**
   * Owner-side list: unlink a target. Without a status every link to the document (in that locale) goes; with one,
   * that version's link goes, and a link to the whole document keeps linking the other version.
   */
  async remove(link: LinkKey): Promise<void> {
    const table = this.q(this.table);
    const member = `${this.scope.sql} AND target_document_id = ? AND target_locale = ?`;
    const params = [...this.scope.params, link.documentId, link.locale];
    if (!link.status) {
      await this.db.execute(`DELETE FROM ${table} WHERE ${member}`, params);
      return;
    }
    await this.db.execute(`DELETE FROM ${table} WHERE ${member} AND target_status = ?`, [...params, link.status]);
    const other: Status = link.status === 'draft' ? 'published' : 'draft';
    await this.db.execute(`UPDATE ${table} SET target_status = ? WHERE ${member} AND target_status = ''`, [other, ...params]);
  }

  /** Owner-side list (`set`): link a target at the end, unless it is linked already. */
  async append(link: LinkKey): Promise<void> {
    if ((await this.linkOf(link)) !== null) return;
    const row = { entity_id: this.key, target_document_id: link.documentId, target_locale: link.locale, target_status: link.status };
    await this.insert(row, ((await this.bound('MAX')) ?? 0) + 1);
  }

  /**
   * Owner-side list: the link a target already has here, or null. A document has either one link to the whole
   * document or up to one link per version, never both, so no version is listed twice: a version already covered
   * by a whole-document link is that link, and a whole-document link replaces the version links (keeping the
   * first one's place).
   */
  async linkOf(link: LinkKey): Promise<number | null> {
    const table = this.q(this.table);
    if (link.status) {
      const [found] = await this.db.query<{ id: number }>(
        `SELECT id FROM ${table} WHERE ${this.scope.sql} AND target_document_id = ? AND target_locale = ? AND target_status IN (?, '')`,
        [...this.scope.params, link.documentId, link.locale, link.status],
      );
      return found ? Number(found.id) : null;
    }
    // At most two rows: ordered here, as ORDER BY could lead the planner to walk the whole list by its order index.
    const existing = (
      await this.db.query<{ id: number; target_status: StoredStatus; o: number }>(
        `SELECT id, target_status, ${this.orderColumn} AS o FROM ${table} WHERE ${this.scope.sql} AND target_document_id = ? AND target_locale = ?`,
        [...this.scope.params, link.documentId, link.locale],
      )
    ).sort((a, b) => Number(a.o) - Number(b.o) || Number(a.id) - Number(b.id));
    if (!existing.length) return null;
    const [kept, ...dropped] = existing.map((r) => Number(r.id));
    if (existing[0].target_status !== '') {
      if (dropped.length) await this.db.execute(`DELETE FROM ${table} WHERE id IN (${dropped.map(() => '?').join(', ')})`, dropped);
      await this.db.execute(`UPDATE ${table} SET target_status = '' WHERE id = ?`, [kept]);
    }
    return kept;
  }

  /** Owner-side list: the links `remove` deletes for these targets (a version's link, or every link to the document). */
  async linksOf(links: LinkKey[]): Promise<Set<number>> {
    const ids = new Set<number>();
    for (const link of links) {
      const rows = await this.db.query<{ id: number }>(
        `SELECT id FROM ${this.q(this.table)} WHERE ${this.scope.sql} AND target_document_id = ? AND target_locale = ?${link.status ? ' AND target_status = ?' : ''}`,
        [...this.scope.params, link.documentId, link.locale, ...(link.status ? [link.status] : [])],
      );
      for (const row of rows) ids.add(Number(row.id));
    }
    return ids;
  }

  /** The link a position's anchor names: the first of the member's links (any of them unless the anchor names one). */
  async anchorLink(anchor: LinkAnchor): Promise<number | null> {
    const m = this.memberByAnchor(anchor);
    // A document has at most a few links (per locale and version): the first is found without ORDER BY, which could
    // lead the planner to walk the whole list by its order index.
    const links = await this.db.query<{ id: number; o: number }>(
      `SELECT id, ${this.orderColumn} AS o FROM ${this.q(this.table)} WHERE ${this.scope.sql} AND ${m.sql}`,
      [...this.scope.params, ...m.params],
    );
    if (!links.length) return null;
    links.sort((a, b) => Number(a.o) - Number(b.o) || Number(a.id) - Number(b.id));
    return Number(links[0].id);
  }

  /** Inverse-side list: the link of an owner row to this document, or null. */
  async linkOfRow(ownerRow: number): Promise<number | null> {
    const [found] = await this.db.query<{ id: number }>(`SELECT id FROM ${this.q(this.table)} WHERE ${this.scope.sql} AND entity_id = ?`, [...this.scope.params, ownerRow]);
    return found ? Number(found.id) : null;
  }

  /** Inverse-side list: the links of these owner rows to this document. */
  async linksOfRows(ownerRows: number[]): Promise<number[]> {
    if (!ownerRows.length) return [];
    const rows = await this.db.query<{ id: number }>(
      `SELECT id FROM ${this.q(this.table)} WHERE ${this.scope.sql} AND entity_id IN (${ownerRows.map(() => '?').join(', ')})`,
      [...this.scope.params, ...ownerRows],
    );
    return rows.map((r) => Number(r.id));
  }

  /** Inverse-side list: unlink these owner rows from this document. */
  async unlinkRows(ownerRows: number[]): Promise<void> {
    await this.db.execute(`DELETE FROM ${this.q(this.table)} WHERE ${this.scope.sql} AND entity_id IN (${ownerRows.map(() => '?').join(', ')})`, [
      ...this.scope.params,
      ...ownerRows,
    ]);
  }

  /** Inverse-side list of a to-one owner: the owner row's links to other documents go (it links one). */
  async unlinkOwnerElsewhere(ownerRow: number): Promise<void> {
    await this.db.execute(`DELETE FROM ${this.q(this.table)} WHERE entity_id = ? AND NOT (${this.scope.sql})`, [ownerRow, ...this.scope.params]);
  }

  /** Inverse-side list (`set`): link an owner row to this document at the end, unless it is linked already. */
  async placeRow(ownerRow: number): Promise<void> {
    if ((await this.linkOfRow(ownerRow)) !== null) return;
    await this.insert({ entity_id: ownerRow, target_document_id: this.key, target_locale: this.inverse!.locale }, ((await this.bound('MAX')) ?? 0) + 1);
  }

  /**
   * What Strapi loads to order a connect (documents/relation-order.ts): the anchors' links, the first and the last link, each
   * with the keys of its neighbours in the list.
   */
  async window(anchors: Array<number | null>): Promise<WindowMember[]> {
    const table = this.q(this.table);
    const o = this.orderColumn;
    const { sql: scope, params } = this.scope;
    const scoped = (alias: string) => this.scopeOf(alias).sql;
    const neighbours =
      `(SELECT MAX(p.${o}) FROM ${table} p WHERE ${scoped('p')} AND p.${o} < t.${o}) AS prev, ` +
      `(SELECT MIN(n.${o}) FROM ${table} n WHERE ${scoped('n')} AND n.${o} > t.${o}) AS next`;
    const ids = anchors.filter((id): id is number => id !== null);
    // One statement whatever the list's length: the anchors (by id only: each is one of this list's links, and with
    // the list's condition SQLite walks the list), then the first and last links (every link sharing their key).
    const byId = ids.length ? `SELECT t.id, t.${o} AS o, ${neighbours} FROM ${table} t WHERE t.id IN (${ids.map(() => '?').join(', ')}) UNION ALL ` : '';
    const rows = await this.db.query<{ id: number; o: number; prev: number | null; next: number | null }>(
      `${byId}SELECT t.id, t.${o} AS o, ${neighbours} FROM ${table} t WHERE ${scoped('t')} AND t.${o} IN ` +
        `((SELECT MIN(${o}) FROM ${table} WHERE ${scope}), (SELECT MAX(${o}) FROM ${table} WHERE ${scope}))`,
      [...(ids.length ? [...params, ...params, ...ids] : []), ...params, ...params, ...params, ...params, ...params],
    );
    const number = (v: number | null) => (v === null || v === undefined ? null : Number(v));
    const members = new Map<string, WindowMember>();
    for (const r of rows) members.set(`link:${r.id}`, { key: `link:${r.id}`, order: Number(r.o), prev: number(r.prev), next: number(r.next) });
    return [...members.values()];
  }

  /** The nearest link before (-1) or after (1) link `id` that `skip` does not exclude, or null. */
  async survivingNeighbour(id: number, direction: -1 | 1, skip: (id: number) => boolean): Promise<number | null> {
    const table = this.q(this.table);
    const [start] = await this.db.query<{ o: number }>(`SELECT ${this.orderColumn} AS o FROM ${table} WHERE id = ?`, [id]);
    let order = start ? Number(start.o) : null;
    while (order !== null) {
      order = await this.bound(direction < 0 ? 'MAX' : 'MIN', ` AND ${this.orderColumn} ${direction < 0 ? '<' : '>'} ?`, [order]);
      if (order === null) return null;
      const rows = await this.db.query<{ id: number }>(`SELECT id FROM ${table} WHERE ${this.scope.sql} AND ${this.orderColumn} = ?`, [...this.scope.params, order]);
      const kept = rows.map((r) => Number(r.id)).find((candidate) => !skip(candidate));
      if (kept !== undefined) return kept;
    }
    return null;
  }

  async setOrder(id: number, order: number): Promise<void> {
    await this.db.execute(`UPDATE ${this.q(this.table)} SET ${this.orderColumn} = ? WHERE id = ?`, [order, id]);
  }

  /** Inserts a link at `order`; on the other side's list it goes last. */
  async insert(row: Record<string, unknown>, order: number): Promise<void> {
    const values: Record<string, unknown> = { ...row, [this.orderColumn]: order };
    const other = this.orderColumn === 'ord' ? 'inv_ord' : 'ord';
    values[other] = await this.appendOrderOnOtherSide(values);
    const names = Object.keys(values);
    await this.db.execute(
      `INSERT INTO ${this.q(this.table)} (${names.join(', ')}) VALUES (${names.map(() => '?').join(', ')})`,
      names.map((n) => values[n]),
    );
  }

  /** A new link is appended to the end of the other side's list. */
  private async appendOrderOnOtherSide(row: Record<string, unknown>): Promise<number> {
    const [column, key, orderColumn] =
      this.orderColumn === 'ord' ? ['target_document_id', row.target_document_id, 'inv_ord'] : ['entity_id', row.entity_id, 'ord'];
    const [r] = await this.db.query<{ m: number | null }>(
      `SELECT MAX(${orderColumn}) AS m FROM ${this.q(this.table)} WHERE ${column} = ?`,
      [key],
    );
    return Number(r?.m ?? 0) + 1;
  }

  private async bound(fn: 'MIN' | 'MAX', condition = '', params: unknown[] = []): Promise<number | null> {
    const [r] = await this.db.query<{ v: number | null }>(
      `SELECT ${fn}(${this.orderColumn}) AS v FROM ${this.q(this.table)} WHERE ${this.scope.sql}${condition}`,
      [...this.scope.params, ...params],
    );
    return r?.v === null || r?.v === undefined ? null : Number(r.v);
  }

  /** Spreads the list's order keys to 1..n again (only when midpoints ran out of precision). */
  async renumber(): Promise<void> {
    const rows = await this.db.query<{ id: number }>(
      `SELECT id FROM ${this.q(this.table)} WHERE ${this.scope.sql} ORDER BY ${this.orderColumn}, id`,
      this.scope.params,
    );
    let i = 1;
    for (const row of rows) await this.db.execute(`UPDATE ${this.q(this.table)} SET ${this.orderColumn} = ? WHERE id = ?`, [i++, row.id]);
  }
}
