import type { Component, ContentType, MediaAttribute, Model, RelationAttribute } from '../model/types.js';
import { allowsMime, notAllowedMessage } from '../model/media-types.js';
import type { Database } from '../database/types.js';
import { sqlDialect } from '../database/sql/index.js';
import { ValidationError } from '../errors/index.js';
import type { Anchor, LinkStatus, Position, RelationTarget } from './relation-ops.js';
import type { RelationPlan } from './write-plan.js';

/** Where relation writes happen: the source row's locale and the default locale for localized targets. */
export interface RelationScope {
  locale?: string;
  defaultLocale: string;
  /**
   * The entry written has Draft & Publish: its draft links the targets' drafts and its published version their
   * published versions, so a link never names a version of its own.
   */
  versioned: boolean;
}

/**
 * A link's target version: '' links the document (the reader's status picks the version), 'draft' or 'published'
 * one version whatever the reader asks. Stored as '' rather than NULL so the link table's unique index dedupes.
 */
export type StoredStatus = LinkStatus | '';

/** What one owner-side link names. */
interface LinkKey {
  documentId: string;
  locale: string;
  status: StoredStatus;
}

/**
 * Ordered relation links. Order keys are doubles: inserting between two neighbours takes the midpoint, so
 * placing one item anywhere in a list of N touches one row (the list is renumbered only when a gap is exhausted).
 */
export async function writeRelations(
  db: Database,
  model: Model,
  source: ContentType | Component,
  rowId: number,
  plans: RelationPlan[],
  scope: RelationScope,
): Promise<void> {
  for (const plan of plans) {
    const attribute = plan.attribute;
    if (attribute.kind === 'relation' && !attribute.owner) {
      await writeInverse(db, model, source as ContentType, rowId, attribute, plan, scope);
      continue;
    }
    const list = new LinkList(db, attribute.linkTable, 'entity_id', rowId, 'ord');
    const target = model.contentTypes.get(attribute.target)!;
    const toMany = attribute.kind === 'media' ? attribute.multiple : attribute.toMany;
    const sourceLocalized = source.modelType === 'contentType' && source.localized;
    const targetLocale = (t: RelationTarget) =>
      target.localized ? (t.locale ?? (sourceLocalized ? scope.locale : undefined) ?? scope.defaultLocale) : '';
    // An item's status only means something where the source has no versions of its own and the target has.
    const carriesStatus = attribute.kind === 'relation' && !scope.versioned && target.draftAndPublish;
    const targetStatus = (t: RelationTarget): StoredStatus => (carriesStatus ? (t.status ?? '') : '');
    // A position's anchor is narrowed by what this list's links can differ in, and nothing else.
    const anchor = (a: Anchor): Anchor => ({
      documentId: a.documentId,
      locale: target.localized ? a.locale : undefined,
      status: carriesStatus ? a.status : undefined,
    });
    const resolve = async (items: RelationTarget[], mustExist = true) =>
      (await resolveTargets(db, target, items, targetLocale, targetStatus, mustExist)).map((r) => ({ ...r, position: r.position && narrowed(r.position, anchor) }));
    const ops = plan.ops;
    if (ops.kind === 'set') {
      const resolved = await resolve(ops.targets);
      if (attribute.kind === 'media') await checkAllowedTypes(db, attribute, resolved.map((r) => r.documentId));
      await list.clear();
      for (const r of resolved) await list.append(r);
      continue;
    }
    for (const r of await resolve(ops.disconnect, false)) await list.remove(r);
    const connect = await resolve(ops.connect);
    if (!toMany && connect.length) await list.clear();
    for (const r of connect) await list.place(r, r.position);
  }
}

function narrowed(position: Position, anchor: (a: Anchor) => Anchor): Position {
  if ('before' in position) return { before: anchor(position.before) };
  if ('after' in position) return { after: anchor(position.after) };
  return position;
}

/** A media attribute's `allowedTypes` (images, videos, audios, files = anything else), checked on each file's mime. */
async function checkAllowedTypes(db: Database, attribute: MediaAttribute, documentIds: string[]): Promise<void> {
  if (!attribute.allowedTypes.length || !documentIds.length) return;
  const files = await db.query<{ mime: string; name: string }>(
    `SELECT mime, name FROM ${sqlDialect(db.dialect).quote('files')} WHERE document_id IN (${documentIds.map(() => '?').join(', ')})`,
    documentIds,
  );
  for (const file of files) {
    if (!allowsMime(attribute, file.mime)) throw new ValidationError(notAllowedMessage(attribute, file));
  }
}

interface ResolvedTarget extends LinkKey {
  position?: Position;
}

/**
 * Checks that every target exists (in its locale; in the version it names, if any) and maps media file ids to
 * documentIds.
 */
async function resolveTargets(
  db: Database,
  target: ContentType,
  items: RelationTarget[],
  localeOf: (t: RelationTarget) => string,
  statusOf: (t: RelationTarget) => StoredStatus,
  mustExist = true,
): Promise<ResolvedTarget[]> {
  if (!items.length) return [];
  const q = sqlDialect(db.dialect).quote;
  const numeric = items.filter((t) => typeof t.ref === 'number').map((t) => t.ref as number);
  const byId = new Map<number, string>();
  if (numeric.length) {
    const rows = await db.query<{ id: number; document_id: string }>(
      `SELECT id, document_id FROM ${q(target.table)} WHERE id IN (${numeric.map(() => '?').join(', ')})`,
      numeric,
    );
    for (const row of rows) byId.set(Number(row.id), row.document_id);
  }
  const resolved = items.map((t) => ({
    documentId: typeof t.ref === 'number' ? (byId.get(t.ref) ?? `#${t.ref}`) : t.ref,
    locale: localeOf(t),
    status: statusOf(t),
    position: t.position,
  }));
  if (!mustExist) return resolved;
  const ids = [...new Set(resolved.map((r) => r.documentId))];
  const version = target.draftAndPublish ? `, CASE WHEN published_at IS NULL THEN 'draft' ELSE 'published' END AS version` : '';
  const rows = await db.query<{ document_id: string; locale?: string; version?: LinkStatus }>(
    `SELECT DISTINCT document_id${target.localized ? ', locale' : ''}${version} FROM ${q(target.table)} WHERE document_id IN (${ids.map(() => '?').join(', ')})`,
    ids,
  );
  const found = new Set<string>();
  for (const row of rows) {
    const key = `${row.document_id}|${target.localized ? row.locale : ''}`;
    found.add(`${key}|`);
    if (row.version) found.add(`${key}|${row.version}`);
  }
  for (const r of resolved) {
    if (!found.has(`${r.documentId}|${r.locale}|${r.status}`)) {
      const shown = r.documentId.startsWith('#') ? r.documentId.slice(1) : r.documentId;
      const status = r.status ? `, status "${r.status}"` : '';
      throw new ValidationError(`Document with id "${shown}", locale "${target.localized ? r.locale : 'null'}"${status} not found`);
    }
  }
  return resolved;
}

/**
 * The inverse side (`mappedBy`) of a relation is stored in the owner's link table: writing it links the
 * related documents' rows to this document, ordered by `inv_ord`.
 */
async function writeInverse(
  db: Database,
  model: Model,
  source: ContentType,
  rowId: number,
  attribute: RelationAttribute,
  plan: RelationPlan,
  scope: RelationScope,
): Promise<void> {
  const q = sqlDialect(db.dialect).quote;
  const owner = model.contentTypes.get(attribute.target)!;
  const ownerAttribute = owner.attributes.get(attribute.mappedBy!) as RelationAttribute;
  const [me] = await db.query<{ document_id: string }>(`SELECT document_id FROM ${q(source.table)} WHERE id = ?`, [rowId]);
  const myLocale = source.localized ? (scope.locale ?? scope.defaultLocale) : '';
  const list = new LinkList(db, attribute.linkTable, 'target_document_id', me.document_id, 'inv_ord', {
    locale: myLocale,
    ownerTable: owner.table,
  });
  const localeOf = (t: RelationTarget) => (owner.localized ? (t.locale ?? scope.locale ?? scope.defaultLocale) : '');
  const rowsOf = async (r: ResolvedTarget) =>
    (
      await db.query<{ id: number }>(
        `SELECT id FROM ${q(owner.table)} WHERE document_id = ?${owner.localized ? ' AND locale = ?' : ''}`,
        owner.localized ? [r.documentId, r.locale] : [r.documentId],
      )
    ).map((row) => Number(row.id));
  const link = async (r: ResolvedTarget) => {
    for (const ownerRow of await rowsOf(r)) {
      const ownerList = new LinkList(db, attribute.linkTable, 'entity_id', ownerRow, 'ord');
      if (!ownerAttribute.toMany) await ownerList.clear();
      await list.placeRow(ownerRow, r.position);
    }
  };
  // The inverse side links every version row of the owner document: an item's status does not apply here.
  const resolve = (items: RelationTarget[], mustExist = true) => resolveTargets(db, owner, items, localeOf, () => '', mustExist);
  const ops = plan.ops;
  if (ops.kind === 'set') {
    const targets = await resolve(ops.targets);
    await list.clear();
    for (const r of targets) await link(r);
    return;
  }
  for (const r of await resolve(ops.disconnect, false)) {
    const ids = await rowsOf(r);
    if (ids.length) {
      await db.execute(
        `DELETE FROM ${q(attribute.linkTable)} WHERE target_document_id = ? AND target_locale = ? AND entity_id IN (${ids.map(() => '?').join(', ')})`,
        [me.document_id, myLocale, ...ids],
      );
    }
  }
  for (const r of await resolve(ops.connect)) await link(r);
}

/** Copies a row's outgoing links to another row (publishing a draft). */
export async function copyLinks(db: Database, schema: ContentType | Component, fromId: number, toId: number): Promise<void> {
  const q = sqlDialect(db.dialect).quote;
  for (const attribute of schema.attributes.values()) {
    if (!((attribute.kind === 'relation' && attribute.owner) || attribute.kind === 'media')) continue;
    await db.execute(
      `INSERT INTO ${q(attribute.linkTable)} (entity_id, target_document_id, target_locale, target_status, ord, inv_ord) SELECT ?, target_document_id, target_locale, target_status, ord, inv_ord FROM ${q(attribute.linkTable)} WHERE entity_id = ?`,
      [toId, fromId],
    );
  }
}

/**
 * One ordered list inside a link table: the rows sharing `keyColumn = key`, ordered by `orderColumn`.
 * Owner-side lists hold target documents; inverse-side lists hold owner rows (found through `ownerTable`).
 */
class LinkList {
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
    if (!this.inverse) return { sql: `${this.keyColumn} = ?`, params: [this.key] };
    return { sql: `${this.keyColumn} = ? AND target_locale = ?`, params: [this.key, this.inverse.locale] };
  }

  /** Condition selecting the member a position is relative to (any of its links unless the anchor names one). */
  private memberByAnchor(anchor: Anchor): { sql: string; params: unknown[] } {
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
    const other: LinkStatus = link.status === 'draft' ? 'published' : 'draft';
    await this.db.execute(`UPDATE ${table} SET target_status = ? WHERE ${member} AND target_status = ''`, [other, ...params]);
  }

  async append(link: LinkKey): Promise<void> {
    await this.place(link, undefined);
  }

  /**
   * Owner-side list: link a target at a position (an already linked one moves only if a position is given).
   * A document has either one link to the whole document or up to one link per version, never both, so no
   * version is listed twice: a version already covered by a whole-document link is that link, and a
   * whole-document link replaces the version links (keeping the first one's place).
   */
  async place(link: LinkKey, position: Position | undefined): Promise<void> {
    const table = this.q(this.table);
    const member = link.status
      ? { sql: `target_document_id = ? AND target_locale = ? AND target_status IN (?, '')`, params: [link.documentId, link.locale, link.status] }
      : { sql: 'target_document_id = ? AND target_locale = ?', params: [link.documentId, link.locale] };
    const row = { entity_id: this.key, target_document_id: link.documentId, target_locale: link.locale, target_status: link.status };
    if (!link.status) {
      // At most two rows: ordered here, as ORDER BY could lead the planner to walk the whole list by its order index.
      const existing = (
        await this.db.query<{ id: number; target_status: StoredStatus; o: number }>(
          `SELECT id, target_status, ${this.orderColumn} AS o FROM ${table} WHERE ${this.scope.sql} AND ${member.sql}`,
          [...this.scope.params, ...member.params],
        )
      ).sort((a, b) => Number(a.o) - Number(b.o) || Number(a.id) - Number(b.id));
      if (existing.length && existing[0].target_status !== '') {
        const [kept, ...dropped] = existing.map((r) => r.id);
        if (dropped.length) await this.db.execute(`DELETE FROM ${table} WHERE id IN (${dropped.map(() => '?').join(', ')})`, dropped);
        await this.db.execute(`UPDATE ${table} SET target_status = '' WHERE id = ?`, [kept]);
      }
      await this.placeMember({ id: existing[0]?.id ?? null }, position, row);
      return;
    }
    await this.placeMember(member, position, row);
  }

  /** Inverse-side list: link an owner row to this document at a position. */
  async placeRow(row: number, position: Position | undefined): Promise<void> {
    const member = { sql: 'entity_id = ?', params: [row] };
    await this.placeMember(member, position, { entity_id: row, target_document_id: this.key, target_locale: this.inverse!.locale });
  }

  /**
   * Moves the member (if it exists) or inserts `row`. The member is found by its condition, or given by the caller
   * as its link id (`null`: not linked yet).
   */
  private async placeMember(
    member: { sql: string; params: unknown[] } | { id: number | null },
    position: Position | undefined,
    row: Record<string, unknown>,
  ): Promise<void> {
    let existingId: number | null;
    if ('id' in member) existingId = member.id;
    else {
      const [found] = await this.db.query<{ id: number }>(
        `SELECT id FROM ${this.q(this.table)} WHERE ${this.scope.sql} AND ${member.sql}`,
        [...this.scope.params, ...member.params],
      );
      existingId = found ? found.id : null;
    }
    if (existingId !== null && !position) return;
    const order = await this.orderFor(position ?? { end: true });
    if (existingId !== null) {
      await this.db.execute(`UPDATE ${this.q(this.table)} SET ${this.orderColumn} = ? WHERE id = ?`, [order, existingId]);
      return;
    }
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

  private async orderFor(position: Position): Promise<number> {
    if ('start' in position) return ((await this.bound('MIN')) ?? 1) - 1;
    if ('end' in position) return ((await this.bound('MAX')) ?? 0) + 1;
    const ref = 'before' in position ? position.before : position.after;
    const m = this.memberByAnchor(ref);
    // A document has at most a few links (per locale and version): the first is the anchor, found without
    // ORDER BY, which could lead the planner to walk the whole list by its order index.
    const links = await this.db.query<{ o: number }>(
      `SELECT ${this.orderColumn} AS o FROM ${this.q(this.table)} WHERE ${this.scope.sql} AND ${m.sql}`,
      [...this.scope.params, ...m.params],
    );
    const anchor = links.length ? { o: Math.min(...links.map((l) => Number(l.o))) } : undefined;
    if (!anchor) {
      const asWritten = { ['before' in position ? 'before' : 'after']: ref.documentId, locale: ref.locale, status: ref.status };
      throw new ValidationError(
        `There was a problem connecting relation at position ${JSON.stringify(asWritten)}. The relation with id ${ref.documentId} needs to be connected first.`,
      );
    }
    const at = Number(anchor.o);
    const neighbour =
      'before' in position
        ? await this.bound('MAX', ` AND ${this.orderColumn} < ?`, [at])
        : await this.bound('MIN', ` AND ${this.orderColumn} > ?`, [at]);
    const order = neighbour === null ? at + ('before' in position ? -1 : 1) : (at + neighbour) / 2;
    if (order === at || order === neighbour) {
      await this.renumber();
      return this.orderFor(position);
    }
    return order;
  }

  /** Spreads the list's order keys to 1..n again (only when midpoints ran out of precision). */
  private async renumber(): Promise<void> {
    const rows = await this.db.query<{ id: number }>(
      `SELECT id FROM ${this.q(this.table)} WHERE ${this.scope.sql} ORDER BY ${this.orderColumn}, id`,
      this.scope.params,
    );
    let i = 1;
    for (const row of rows) await this.db.execute(`UPDATE ${this.q(this.table)} SET ${this.orderColumn} = ? WHERE id = ?`, [i++, row.id]);
  }
}
