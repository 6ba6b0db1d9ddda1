import type { Database } from '../types.js';
import type { RelationJoin } from '../strapi-layout/names.js';
import { listSide } from './list-side.js';
import { LinkListError, rowIdOf } from './link-errors.js';
import { plannedPerRun } from '../statement-names.js';

/**
 * Which row of each member the copy links: 'same' (members without Draft & Publish, components: one row each), or
 * the member's version row of that status in the same document and locale ('published' when publishing, 'draft'
 * when discarding a draft); a member with no such version is dropped, as Strapi drops it.
 */
export type MemberVersion = 'same' | 'published' | 'draft';

/**
 * The other side's order value of each copied link (the member's own list):
 * - 'copy': the source link's value (Strapi's first publish: draft and published links tie there);
 * - `{ restoreFrom: rowId }`: the value the link of row `restoreFrom` (the version being replaced, still in place)
 *   to the same member had, else after every link of the member (Strapi's re-publish and discard-draft);
 * - 'append': after every link of the member (MAX + 1, a new link's rule).
 */
export type OtherOrder = 'copy' | 'append' | { restoreFrom: number };

export interface CopyLinks {
  /** The row whose links are copied (a draft) and the row that gets them (its new published version, no links yet). */
  from: number;
  to: number;
  members: MemberVersion;
  otherOrder?: OtherOrder;
}

/**
 * Gives row `to` the links row `from` has on this side of one join table, each member replaced by its counterpart
 * version, keeping this list's order values: one `INSERT ... SELECT`, whatever the list's length (publishing a
 * document runs one per join table). Refused when `to` already has links here (a copy fills an empty list: publishing
 * inserts a new row). Returns the number of links written.
 */
export async function copyLinksMapped(db: Database, join: RelationJoin, copy: CopyLinks): Promise<number> {
  const side = listSide(join);
  const from = rowIdOf(copy.from, side.table, 'the row copied from');
  const to = rowIdOf(copy.to, side.table, 'the row copied to');
  const restoreFrom = typeof copy.otherOrder === 'object' ? rowIdOf(copy.otherOrder.restoreFrom, side.table, 'the row whose other-side orders are restored') : undefined;
  const q = (name: string) => db.quote(name);
  const [t, key, member] = [q(side.table), q(side.key), q(side.member)];
  return db.transaction(async (trx) => {
    const rows = await trx.query<{ id: number }>(`SELECT id FROM ${q(side.keyTable)} WHERE id IN (?, ?)`, [from, to]);
    const found = new Set(rows.map((r) => Number(r.id)));
    for (const id of [from, to]) {
      if (!found.has(id)) throw new LinkListError('unknown-row', `${side.table}: ${side.keyTable} has no row ${id} to copy links ${id === from ? 'from' : 'to'}`, { table: side.table, row: id });
    }
    const [existing] = await trx.query<{ n: number | string }>(`SELECT COUNT(*) AS n FROM ${t} WHERE ${key} = ?`, [to]);
    if (Number(existing?.n ?? 0) > 0) {
      throw new LinkListError('links-exist', `${side.table}: ${side.keyTable} row ${to} already has ${Number(existing!.n)} links on this side: a copy fills an empty list`, {
        table: side.table,
        row: to,
      });
    }
    // `m` is the member the new link names: the source link's member itself, or its counterpart version.
    const counterpart = counterpartOf(db, t, key, side.memberTable, member, copy.members);
    const columns = [key, member];
    // `to` is a checked row id: written as a literal, as a parameter in a SELECT list has no type PostgreSQL can infer.
    const values = [String(to), counterpart.id];
    const params: unknown[] = [];
    if (side.order) {
      columns.push(q(side.order));
      values.push(`l.${q(side.order)}`);
    }
    if (side.otherOrder) {
      const x = q(side.otherOrder);
      const after = `COALESCE((SELECT MAX(x.${x}) FROM ${t} x WHERE x.${member} = ${counterpart.id}), 0) + 1`;
      columns.push(x);
      if (copy.otherOrder === undefined || copy.otherOrder === 'copy') values.push(`l.${x}`);
      else if (copy.otherOrder === 'append') values.push(after);
      else {
        values.push(`COALESCE((SELECT p.${x} FROM ${t} p WHERE p.${key} = ? AND p.${member} = ${counterpart.id}), ${after})`);
        params.push(restoreFrom);
      }
    }
    params.push(from);
    const result = await trx.execute(
      plannedPerRun(`INSERT INTO ${t} (${columns.join(', ')}) SELECT ${values.join(', ')} FROM ${t} l${counterpart.join} WHERE l.${key} = ?${counterpart.first}`),
      params,
    );
    return result.affectedRows;
  });
}

/**
 * The counterpart of `l`'s member in a mapped copy: its SQL id and the joins that find it (see copyLinksMapped).
 * `first` keeps one source link per counterpart: a list may link both versions of one document (a component
 * row Strapi linked to a draft and, on publishing it, to its published version too), which map to one member; the
 * first of them (lowest link id) is copied.
 */
function counterpartOf(db: Database, table: string, key: string, memberTable: string, member: string, members: MemberVersion): { join: string; id: string; first: string } {
  const q = (name: string) => db.quote(name);
  if (members === 'same') return { join: '', id: `l.${member}`, first: '' };
  return {
    join:
      ` JOIN ${q(memberTable)} s ON s.id = l.${member}` +
      ` JOIN ${q(memberTable)} m ON m.document_id = s.document_id` +
      ` AND (m.locale = s.locale OR (m.locale IS NULL AND s.locale IS NULL))` +
      ` AND m.published_at IS ${members === 'published' ? 'NOT ' : ''}NULL`,
    id: 'm.id',
    first:
      ` AND NOT EXISTS (SELECT 1 FROM ${table} l0 JOIN ${q(memberTable)} s0 ON s0.id = l0.${member}` +
      ` WHERE l0.${key} = l.${key} AND l0.id < l.id AND s0.document_id = s.document_id` +
      ` AND (s0.locale = s.locale OR (s0.locale IS NULL AND s.locale IS NULL)))`,
  };
}

/**
 * Makes row `to`'s list on this side of one join table equal to row `from`'s, each member replaced by its
 * counterpart version (as copyLinksMapped), where `to` may already have links: republishing into a kept row, or
 * aligning a target's list of owners. Three set-based statements, whatever the lengths:
 * - links of `to` to members the mapped copy does not have are deleted;
 * - links it keeps take `from`'s order value on this side and keep their other-side order (Strapi's "restored from the
 *   replaced version");
 * - links it lacks are inserted with `from`'s order value, the other side's order after every link of the member
 *   (MAX + 1).
 * Returns the number of links `to` has on this side afterwards.
 */
export async function replaceLinksMapped(db: Database, join: RelationJoin, copy: Omit<CopyLinks, 'otherOrder'>): Promise<number> {
  const side = listSide(join);
  const from = rowIdOf(copy.from, side.table, 'the row copied from');
  const to = rowIdOf(copy.to, side.table, 'the row copied to');
  if (from === to) throw new LinkListError('self-anchor', `${side.table}: a row's links cannot be copied onto itself (row ${from})`, { table: side.table, row: from });
  const q = (name: string) => db.quote(name);
  const [t, key, member] = [q(side.table), q(side.key), q(side.member)];
  const counterpart = counterpartOf(db, t, key, side.memberTable, member, copy.members);
  // The mapped copy: `from`'s links, each with the member `to` should link.
  const mapped = (select: string, extra = '') => `SELECT ${select} FROM ${t} l${counterpart.join} WHERE l.${key} = ?${extra}`;
  return db.transaction(async (trx) => {
    const rows = await trx.query<{ id: number }>(`SELECT id FROM ${q(side.keyTable)} WHERE id IN (?, ?)`, [from, to]);
    const found = new Set(rows.map((r) => Number(r.id)));
    for (const id of [from, to]) {
      if (!found.has(id)) throw new LinkListError('unknown-row', `${side.table}: ${side.keyTable} has no row ${id} to copy links ${id === from ? 'from' : 'to'}`, { table: side.table, row: id });
    }
    // MariaDB (10.3.1+) and the others let DELETE and UPDATE read the table they write in a subquery.
    await trx.execute(plannedPerRun(`DELETE FROM ${t} WHERE ${t}.${key} = ? AND NOT EXISTS (${mapped('1', ` AND ${counterpart.id} = ${t}.${member}`)})`), [to, from]);
    if (side.order) {
      // Every link left has its member in the mapped copy: joined to the copy's order per member. Only the links
      // whose order differs are written: a republished list mostly keeps its order, and rewriting a link row costs an
      // entry in each of the join table's indexes (11 ms for a list of 1,000 on PostgreSQL when every row was).
      const o = q(side.order);
      const orders = `(${mapped(`${counterpart.id} AS mm, MIN(l.${o}) AS v`)} GROUP BY ${counterpart.id}) x`;
      const differs = { mysql: `NOT (${t}.${o} <=> x.v)`, postgres: `${t}.${o} IS DISTINCT FROM x.v`, sqlite: `${t}.${o} IS NOT x.v` }[db.dialect];
      await trx.execute(
        plannedPerRun(
          db.dialect === 'mysql'
            ? `UPDATE ${t} JOIN ${orders} ON ${t}.${member} = x.mm SET ${t}.${o} = x.v WHERE ${t}.${key} = ? AND ${differs}`
            : `UPDATE ${t} SET ${o} = x.v FROM ${orders} WHERE ${t}.${key} = ? AND ${t}.${member} = x.mm AND ${differs}`,
        ),
        [from, to],
      );
    }
    const columns = [key, member];
    // `to` is a checked row id: a literal, as a parameter in a SELECT list has no type PostgreSQL can infer.
    const values = [String(to), counterpart.id];
    if (side.order) {
      columns.push(q(side.order));
      values.push(`l.${q(side.order)}`);
    }
    if (side.otherOrder) {
      const x = q(side.otherOrder);
      columns.push(x);
      values.push(`COALESCE((SELECT MAX(x.${x}) FROM ${t} x WHERE x.${member} = ${counterpart.id}), 0) + 1`);
    }
    await trx.execute(
      plannedPerRun(`INSERT INTO ${t} (${columns.join(', ')}) ${mapped(values.join(', '), ` AND NOT EXISTS (SELECT 1 FROM ${t} k WHERE k.${key} = ${to} AND k.${member} = ${counterpart.id})${counterpart.first}`)}`),
      [from],
    );
    const [count] = await trx.query<{ n: number | string }>(`SELECT COUNT(*) AS n FROM ${t} WHERE ${key} = ?`, [to]);
    return Number(count?.n ?? 0);
  });
}
