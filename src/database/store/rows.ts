import { copyMorphLinks, deleteMorphRows } from './morph-links.js';
import type { Attribute, Component, ContentType, Model } from '../../model/types.js';
import type { Database } from '../types.js';
import type { ColumnType } from '../../query/types.js';
import { layoutBindValue, sqlDialect } from '../sql/index.js';
import { incomingJoins, owningJoins } from '../strapi-store/relations-of.js';
import { copyNonDraftSourceLinks, mirrorSelfLinks, selfLinkAnswers, selfLinkQuestions } from '../strapi-store/publish-links.js';
import { checkedRowId, copyComponentRow, copyInverseLinks, copyColumns, copyColumnsAsking, copyComponents, copyOwnLinks, storedColumns } from '../strapi-store/version-copy.js';
import { columnTypes } from './bind-types.js';
import { copyFileRows, deleteFileRows } from './media-links.js';

/** A row's component in one of its fields, at its place in that field's list. */
export interface ComponentLink {
  cmp_id: number | string;
  component_type: string;
  field: string;
  /** Strapi's `order`: NULL for a single component, 1..n in a list or a dynamic zone. */
  ord: number | null;
}

/**
 * Rows and the components they own (`<table>_cmps`: a row's component rows, by field and order). Writing a
 * component attribute replaces its rows whole (documents/row-writer.ts decides what to write); deleting or copying
 * a row takes its components, nested ones included, and its own link rows with it.
 *
 * The model is the one renamed by Strapi's rules (strapi-layout/named-model.ts),
 * values are bound in Strapi's stored form (SQLite datetimes as epoch milliseconds), `_cmps` orders by `order`
 * (NULL for a single component), media rows live in `files_related_mph`, relations in join tables by row id, and a
 * version is copied by the database (copyVersion) rather than read and written back.
 */
export class RowStore {
  constructor(
    readonly db: Database,
    readonly model: Model,
  ) {}

  private get d() {
    return sqlDialect(this.db.dialect);
  }

  private q(name: string): string {
    return this.d.quote(name);
  }

  /** A value as the layout stores it in a column of `type` (sql/context.ts layoutBindValue). */
  private bind(value: unknown, type: ColumnType): unknown {
    return layoutBindValue(this.d, value, type);
  }

  /** The `_cmps` column holding a component's place in its field (Strapi's `order` is a keyword: quoted). */
  private get ordColumn(): string {
    return this.q('order');
  }

  /** INSERT a row; returns its id. */
  async insert(schema: ContentType | Component, columns: Record<string, unknown>): Promise<number> {
    const types = columnTypes(schema);
    const names = Object.keys(columns);
    const values = names.map((n) => this.bind(columns[n], types.get(n) ?? 'string'));
    const text = names.length
      ? `INSERT INTO ${this.q(schema.table)} (${names.map((n) => this.q(n)).join(', ')}) VALUES (${names.map(() => '?').join(', ')}) RETURNING id`
      : `INSERT INTO ${this.q(schema.table)} ${this.d.defaultValues} RETURNING id`;
    const rows = await this.db.query<{ id: number | string }>(text, values);
    return Number(rows[0].id);
  }

  async update(schema: ContentType | Component, ids: number[], columns: Record<string, unknown>): Promise<void> {
    const values = this.bound(schema, columns);
    if (!values.length || !ids.length) return;
    await this.db.execute(
      `UPDATE ${this.q(schema.table)} SET ${values.map(([n]) => `${this.q(n)} = ?`).join(', ')} WHERE id IN (${ids.map(() => '?').join(', ')})`,
      [...values.map(([, v]) => v), ...ids],
    );
  }

  /** Column values as the layout stores them, by the schema's column types. */
  bound(schema: ContentType | Component, columns: Record<string, unknown>): Array<[string, unknown]> {
    const types = columnTypes(schema);
    return Object.entries(columns).map(([name, value]) => [name, this.bind(value, types.get(name) ?? 'string')]);
  }

  /**
   * The stored values of some columns of a row (undefined when the row is gone), as the driver reads them: in
   * Strapi's layout on SQLite a datetime is its epoch milliseconds, a boolean 0 or 1 (what `insert` takes back).
   */
  async columnValues(schema: ContentType | Component, rowId: number, columns: string[]): Promise<Record<string, unknown> | undefined> {
    const q = this.d.quote;
    const [row] = await this.db.query<Record<string, unknown>>(`SELECT ${columns.map(q).join(', ')} FROM ${q(schema.table)} WHERE id = ?`, [rowId]);
    return row;
  }

  /**
   * Attaches component row `cmpId` to row `rowId`, in `field` at place `ord`: 1..n in a list or a dynamic zone; in
   * Strapi's layout null for a single component (Strapi's `order` is NULL there).
   */
  async linkComponent(owner: ContentType | Component, rowId: number, cmpId: number, componentUid: string, field: string, ord: number | null): Promise<void> {
    await this.db.execute(
      `INSERT INTO ${this.q(owner.componentsTable)} (entity_id, cmp_id, component_type, field, ${this.ordColumn}) VALUES (?, ?, ?, ?, ?)`,
      [rowId, cmpId, componentUid, field, ord],
    );
  }

  /**
   * Makes `field` of row `rowId` hold exactly these existing component rows, in this order (Strapi's Query Engine
   * attaching components by id): the field's former links go, their component rows stay. Nothing is written when a
   * component row does not exist; returns how many do.
   */
  async attachComponents(owner: ContentType | Component, rowId: number, field: string, items: ReadonlyArray<{ id: number; component: string }>, single: boolean): Promise<number> {
    for (const [uid, ids] of groupBy(items)) {
      const component = this.model.components.get(uid);
      const found = component ? await this.db.query(`SELECT id FROM ${this.q(component.table)} WHERE id IN (${ids.map(() => '?').join(', ')})`, ids) : [];
      if (found.length < new Set(ids).size) return items.length - (new Set(ids).size - found.length);
    }
    await this.db.execute(`DELETE FROM ${this.q(owner.componentsTable)} WHERE entity_id = ? AND field = ?`, [rowId, field]);
    let ord = 1;
    for (const item of items) await this.linkComponent(owner, rowId, item.id, item.component, field, single ? null : ord++);
    return items.length;
  }

  /** A row's components in every field, in each field's order. */
  async componentLinks(schema: ContentType | Component, rowId: number): Promise<ComponentLink[]> {
    const order = this.ordColumn;
    const links = await this.db.query<ComponentLink>(
      `SELECT cmp_id, component_type, field, ${order} AS ord FROM ${this.q(schema.componentsTable)} WHERE entity_id = ? ORDER BY ${order}, id`,
      [rowId],
    );
    // A REAL column: drivers may hand back 1.0 as text (MariaDB's double), or the number.
    return links.map((link) => ({ ...link, ord: link.ord === null ? null : Number(link.ord) }));
  }

  /**
   * The components in `field` of the entry a row belongs to: for a content type, those of every version of the row's
   * document in its locale (its draft's and its published version's); for a component, the row's own.
   */
  async entryComponents(owner: ContentType | Component, rowId: number, field: string): Promise<Array<Pick<ComponentLink, 'cmp_id' | 'component_type'> & { entity_id: number }>> {
    const cmps = this.q(owner.componentsTable);
    const table = this.q(owner.table);
    const sameLocale = owner.modelType === 'contentType' && owner.localized ? ' AND v.locale = m.locale' : '';
    const links = await this.db.query<{ cmp_id: number | string; component_type: string; entity_id: number | string }>(
      owner.modelType === 'contentType'
        ? `SELECT l.cmp_id, l.component_type, l.entity_id FROM ${cmps} l JOIN ${table} v ON v.id = l.entity_id ` +
            `JOIN ${table} m ON m.document_id = v.document_id${sameLocale} WHERE m.id = ? AND l.field = ?`
        : `SELECT cmp_id, component_type, entity_id FROM ${cmps} WHERE entity_id = ? AND field = ?`,
      [rowId, field],
    );
    return links.map((link) => ({ ...link, entity_id: Number(link.entity_id) }));
  }

  /**
   * Empties `field` of row `rowId` before it is written again: its `_cmps` rows go, and so do the component rows
   * (with what hangs off them) but those in `keep`, which the caller links again.
   */
  async detachComponents(owner: ContentType | Component, rowId: number, field: string, keep: ReadonlyArray<{ id: number; component: string }>): Promise<void> {
    const kept = new Set(keep.map((item) => `${item.id}|${item.component}`));
    const links = await this.db.query<{ cmp_id: number | string; component_type: string }>(
      `SELECT cmp_id, component_type FROM ${this.q(owner.componentsTable)} WHERE entity_id = ? AND field = ?`,
      [rowId, field],
    );
    const dropped = links.map((link) => ({ id: Number(link.cmp_id), component: link.component_type })).filter((item) => !kept.has(`${item.id}|${item.component}`));
    for (const [uid, ids] of groupBy(dropped)) {
      const component = this.model.components.get(uid);
      if (component) await this.deleteRows(component, ids);
    }
    await this.db.execute(`DELETE FROM ${this.q(owner.componentsTable)} WHERE entity_id = ? AND field = ?`, [rowId, field]);
  }

  /**
   * Makes rows `toIds` of a content type hold what row `fromId` holds in `attributes` (Strapi's i18n sync of a
   * document's non-localized values to its other locales): scalar columns copied by the database, each component
   * field's components replaced by fresh copies of `fromId`'s, each media field's files linked as `fromId` links them.
   */
  async copyFields(contentType: ContentType, fromId: number, toIds: readonly number[], attributes: readonly Attribute[], members: 'published' | 'draft' | 'same'): Promise<void> {
    const columns = attributes.flatMap((a) => (a.kind === 'scalar' ? [a.column] : []));
    for (const toId of toIds) {
      if (columns.length) await copyColumns(this.db, contentType, fromId, toId, columns);
      for (const attribute of attributes) {
        if (attribute.kind === 'component' || attribute.kind === 'dynamiczone') {
          await this.detachComponents(contentType, toId, attribute.name, []);
          await copyComponents(this.db, this.model, contentType, fromId, toId, members, attribute.name);
        } else if (attribute.kind === 'media') await copyFileRows(this.db, contentType.uid, fromId, toId, attribute.name);
      }
    }
  }

  /** A deep copy of component row `id`, attached to nothing, its relations kept on `members` versions; its id. */
  copyComponent(component: Component, id: number, members: 'published' | 'draft' | 'same'): Promise<number> {
    return copyComponentRow(this.db, this.model, component, id, members);
  }

  /** Deletes the components attached to rows (all fields, or one), depth first. */
  async deleteComponents(owner: ContentType | Component, rowIds: number[], field?: string): Promise<void> {
    if (!rowIds.length || !hasComponents(owner)) return;
    const marks = rowIds.map(() => '?').join(', ');
    const fieldCondition = field ? ' AND field = ?' : '';
    const links = await this.db.query<{ cmp_id: number; component_type: string }>(
      `SELECT cmp_id, component_type FROM ${this.q(owner.componentsTable)} WHERE entity_id IN (${marks})${fieldCondition}`,
      field ? [...rowIds, field] : rowIds,
    );
    for (const [uid, ids] of groupBy(links.map((link) => ({ id: Number(link.cmp_id), component: link.component_type })))) {
      const component = this.model.components.get(uid);
      if (component) await this.deleteRows(component, ids);
    }
    await this.db.execute(
      `DELETE FROM ${this.q(owner.componentsTable)} WHERE entity_id IN (${marks})${fieldCondition}`,
      field ? [...rowIds, field] : rowIds,
    );
  }

  /**
   * Deletes rows with their components and their own link rows. In Strapi's layout also their media rows and their
   * links in every join table where they are on either side (owner, or target of any schema's relation): Strapi
   * leaves those to `ON DELETE CASCADE`, written out here so that nothing depends on SQLite's foreign-key switch.
   * No list is renumbered (Strapi's cascades renumber nothing either).
   */
  async deleteRows(schema: ContentType | Component, ids: number[]): Promise<void> {
    if (!ids.length) return;
    await this.deleteComponents(schema, ids);
    const marks = ids.map(() => '?').join(', ');
    if ([...schema.attributes.values()].some((a) => a.kind === 'media')) await deleteFileRows(this.db, schema.uid, ids);
    await deleteMorphRows(this.db, this.model, schema, ids);
    const sides = [
      ...owningJoins(this.model, schema).map(({ table }) => `${this.q(table.name)} WHERE ${this.q(table.ownerColumn)}`),
      ...(schema.modelType === 'contentType' ? incomingJoins(this.model, schema.uid).map(({ table }) => `${this.q(table.name)} WHERE ${this.q(table.targetColumn)}`) : []),
    ];
    for (const side of new Set(sides)) await this.db.execute(`DELETE FROM ${side} IN (${marks})`, ids);
    await this.db.execute(`DELETE FROM ${this.q(schema.table)} WHERE id IN (${marks})`, ids);
  }

  /**
   * Strapi's layout: makes row `toId` (or, when undefined, a NEW row inserted by `INSERT ... SELECT`) a copy of
   * version row `fromId`, in one transaction, every stored value copied by the database:
   * - every column but `id`, then `overrides` (e.g. `published_at`) bound as `update` binds;
   * - its components replaced by fresh copies of `fromId`'s (every level, new ids, `_cmps` rows with their `order`,
   *   the copies' media rows and own relation links);
   * - its `files_related_mph` rows replaced by `fromId`'s;
   * - its own-side links (every owning relation) replaced by `fromId`'s, each member mapped to its `members` version
   *   (a target without Draft & Publish: the same row; a D&P target without that version: dropped). A new row gets
   *   the other side's orders copied (first publish); an existing one keeps them for members it keeps (restored),
   *   MAX + 1 for new members;
   * - with `members: 'published'`, the lists of owners WITHOUT Draft & Publish that link it made equal to those
   *   linking `fromId` (Strapi links such owners to both versions).
   * Links where the row is the target of a D&P owner are left alone. Returns the row written. Unknown rows, a row
   * copied onto itself and overrides of columns the table does not have are refused before anything is written.
   *
   * `links` names the only owning relations whose lists are copied, when the caller knows the others are equal
   * already (a published row that was the draft's copy before a write the caller applies to both): then the lists
   * of owners without Draft & Publish are left alone too, and a long list costs nothing to publish.
   */
  async copyVersion(
    contentType: ContentType,
    fromId: number,
    toId: number | undefined,
    overrides: Record<string, unknown>,
    members: 'published' | 'draft',
    options: { links?: readonly string[] } = {},
  ): Promise<number> {
    if (options.links && toId === undefined) throw new Error(`${contentType.uid}: a new row gets every list copied`);
    return this.db.transaction((trx) => copyVersionRow(new RowStore(trx, this.model), contentType, fromId, toId, overrides, members, options.links));
  }
}

/**
 * Strapi's layout: makes row `toId` of a content type (or, when undefined, a new row) a copy of version row `fromId`
 * for publishing (`members: 'published'`) or discarding a draft (`'draft'`). See RowStore.copyVersion.
 */
async function copyVersionRow(
  store: RowStore,
  contentType: ContentType,
  fromId: number,
  toId: number | undefined,
  overrides: Record<string, unknown>,
  members: 'published' | 'draft',
  links: readonly string[] | undefined,
): Promise<number> {
  const { db, model } = store;
  const table = contentType.table;
  checkedRowId(fromId, table, 'the row copied from');
  if (toId !== undefined) {
    checkedRowId(toId, table, 'the row copied to');
    if (toId === fromId) throw new Error(`${table}: row ${fromId} cannot be copied onto itself`);
  }
  const unknown = Object.keys(overrides).filter((name) => !storedColumns(contentType).includes(name));
  if (unknown.length) throw new Error(`${table} has no column ${unknown.join(', ')} to override`);

  const columns = storedColumns(contentType).filter((name) => !(name in overrides));
  // Checks that both rows exist, saying which does not.
  // The copy asks what mirrorSelfLinks reads first (the row's self links), saving it a statement where it can.
  const questions = selfLinkQuestions(db, model, contentType, fromId);
  const { id: rowId, answers } = await copyColumnsAsking(db, contentType, fromId, toId, columns, store.bound(contentType, overrides), questions);
  if (toId !== undefined) await store.deleteComponents(contentType, [rowId]);
  await copyComponents(db, model, contentType, fromId, rowId, members);
  if ([...contentType.attributes.values()].some((a) => a.kind === 'media')) await copyFileRows(db, contentType.uid, fromId, rowId);
  await copyOwnLinks(db, model, contentType, fromId, rowId, members, toId === undefined, links);
  await copyInverseLinks(db, model, contentType, fromId, rowId, members, toId === undefined, links);
  await copyMorphLinks(db, model, contentType, fromId, rowId, members);
  // Strapi's publish and discard-draft also add links other rows hold (docs/strapi-5-writes.md §4): every time,
  // whatever `links` says, as they depend on the other rows' versions, not on this row's lists.
  const versionLinks = { contentType, from: fromId, to: rowId, status: members };
  await copyNonDraftSourceLinks(db, model, versionLinks);
  await mirrorSelfLinks(db, model, versionLinks, answers && selfLinkAnswers(model, contentType, answers));
  return rowId;
}

/** Whether a row of `table` has this id. */
export async function rowExists(db: Database, table: string, id: number): Promise<boolean> {
  const rows = await db.query(`SELECT id FROM ${db.quote(table)} WHERE id = ?`, [id]);
  return rows.length > 0;
}

function groupBy(items: ReadonlyArray<{ id: number; component: string }>): Map<string, number[]> {
  const byType = new Map<string, number[]>();
  for (const item of items) byType.set(item.component, [...(byType.get(item.component) ?? []), item.id]);
  return byType;
}

function hasComponents(schema: ContentType | Component): boolean {
  for (const a of schema.attributes.values()) if (a.kind === 'component' || a.kind === 'dynamiczone') return true;
  return false;
}
