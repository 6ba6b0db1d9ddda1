import type { Component, ContentType, Model } from '../../model/types.js';
import type { Database } from '../types.js';
import { sqlDialect, StoredJson } from '../sql/index.js';
import { columnTypes } from './bind-types.js';
import { copyLinks } from './links.js';

/** A row's component in one of its fields, at its place in that field's list. */
export interface ComponentLink {
  cmp_id: number | string;
  component_type: string;
  field: string;
  ord: number;
}

/**
 * Rows and the components they own (`<table>_cmps`: a row's component rows, by field and order). Writing a
 * component attribute replaces its rows whole (documents/row-writer.ts decides what to write); deleting or copying
 * a row takes its components, nested ones included, and its own link rows with it.
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

  /** INSERT a row; returns its id. */
  async insert(schema: ContentType | Component, columns: Record<string, unknown>): Promise<number> {
    const types = columnTypes(schema);
    const names = Object.keys(columns);
    const values = names.map((n) => this.d.bindValue(columns[n], types.get(n) ?? 'string'));
    const text = names.length
      ? `INSERT INTO ${this.q(schema.table)} (${names.map((n) => this.q(n)).join(', ')}) VALUES (${names.map(() => '?').join(', ')}) RETURNING id`
      : `INSERT INTO ${this.q(schema.table)} ${this.d.defaultValues} RETURNING id`;
    const rows = await this.db.query<{ id: number | string }>(text, values);
    return Number(rows[0].id);
  }

  async update(schema: ContentType | Component, ids: number[], columns: Record<string, unknown>): Promise<void> {
    const names = Object.keys(columns);
    if (!names.length || !ids.length) return;
    const types = columnTypes(schema);
    await this.db.execute(
      `UPDATE ${this.q(schema.table)} SET ${names.map((n) => `${this.q(n)} = ?`).join(', ')} WHERE id IN (${ids.map(() => '?').join(', ')})`,
      [...names.map((n) => this.d.bindValue(columns[n], types.get(n) ?? 'string')), ...ids],
    );
  }

  /** The stored values of some columns of a row (undefined when the row is gone). */
  async columnValues(schema: ContentType | Component, rowId: number, columns: string[]): Promise<Record<string, unknown> | undefined> {
    const q = this.d.quote;
    const [row] = await this.db.query<Record<string, unknown>>(`SELECT ${columns.map(q).join(', ')} FROM ${q(schema.table)} WHERE id = ?`, [rowId]);
    return row;
  }

  /** Attaches component row `cmpId` to row `rowId`, in `field` at place `ord`. */
  async linkComponent(owner: ContentType | Component, rowId: number, cmpId: number, componentUid: string, field: string, ord: number): Promise<void> {
    await this.db.execute(
      `INSERT INTO ${this.q(owner.componentsTable)} (entity_id, cmp_id, component_type, field, ord) VALUES (?, ?, ?, ?, ?)`,
      [rowId, cmpId, componentUid, field, ord],
    );
  }

  /** A row's components in every field, in each field's order. */
  async componentLinks(schema: ContentType | Component, rowId: number): Promise<ComponentLink[]> {
    return this.db.query<ComponentLink>(
      `SELECT cmp_id, component_type, field, ord FROM ${this.q(schema.componentsTable)} WHERE entity_id = ? ORDER BY ord, id`,
      [rowId],
    );
  }

  /**
   * The components in `field` of the entry a row belongs to: for a content type, those of every version of the row's
   * document in its locale (its draft's and its published version's); for a component, the row's own.
   */
  async entryComponents(owner: ContentType | Component, rowId: number, field: string): Promise<Array<Pick<ComponentLink, 'cmp_id' | 'component_type'>>> {
    const cmps = this.q(owner.componentsTable);
    const table = this.q(owner.table);
    const sameLocale = owner.modelType === 'contentType' && owner.localized ? ' AND v.locale = m.locale' : '';
    return this.db.query<{ cmp_id: number | string; component_type: string }>(
      owner.modelType === 'contentType'
        ? `SELECT l.cmp_id, l.component_type FROM ${cmps} l JOIN ${table} v ON v.id = l.entity_id ` +
            `JOIN ${table} m ON m.document_id = v.document_id${sameLocale} WHERE m.id = ? AND l.field = ?`
        : `SELECT cmp_id, component_type FROM ${cmps} WHERE entity_id = ? AND field = ?`,
      [rowId, field],
    );
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
    const byType = new Map<string, number[]>();
    for (const link of links) byType.set(link.component_type, [...(byType.get(link.component_type) ?? []), Number(link.cmp_id)]);
    for (const [uid, ids] of byType) {
      const component = this.model.components.get(uid);
      if (component) await this.deleteRows(component, ids);
    }
    await this.db.execute(
      `DELETE FROM ${this.q(owner.componentsTable)} WHERE entity_id IN (${marks})${fieldCondition}`,
      field ? [...rowIds, field] : rowIds,
    );
  }

  /** Deletes rows with their components and their own link rows. */
  async deleteRows(schema: ContentType | Component, ids: number[]): Promise<void> {
    if (!ids.length) return;
    await this.deleteComponents(schema, ids);
    const marks = ids.map(() => '?').join(', ');
    for (const attribute of schema.attributes.values()) {
      if ((attribute.kind === 'relation' && attribute.owner) || attribute.kind === 'media') {
        await this.db.execute(`DELETE FROM ${this.q(attribute.linkTable)} WHERE entity_id IN (${marks})`, ids);
      }
    }
    await this.db.execute(`DELETE FROM ${this.q(schema.table)} WHERE id IN (${marks})`, ids);
  }

  /**
   * Copies a row with its components and relation links (publishing copies the draft), overriding some columns.
   * Returns the new row's id.
   */
  async copyRow(schema: ContentType | Component, fromId: number, overrides: Record<string, unknown>): Promise<number> {
    const types = columnTypes(schema);
    // json columns are read as their stored text (drivers parse some: pg's json, MySQL's JSON type), to be
    // written back as it is, even text that is not JSON (another tool's).
    const jsonColumns = [...types].filter(([, type]) => type === 'json' || type === 'blocks').map(([name]) => name);
    const jsonTexts = jsonColumns.map((name, i) => `, ${this.d.jsonText(this.q(name))} AS ${this.q(`cairn_json_${i}`)}`).join('');
    const [row] = await this.db.query<Record<string, unknown>>(`SELECT *${jsonTexts} FROM ${this.q(schema.table)} WHERE id = ?`, [fromId]);
    const columns: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(row)) {
      if (name === 'id' || !types.has(name)) continue;
      columns[name] = fromStored(value, types.get(name)!);
    }
    jsonColumns.forEach((name, i) => {
      const text = row[`cairn_json_${i}`];
      if (name in columns) columns[name] = text === null || text === undefined ? null : new StoredJson(String(text));
    });
    const newId = await this.insert(schema, { ...columns, ...overrides });
    await copyLinks(this.db, schema, fromId, newId);
    if (hasComponents(schema)) {
      for (const link of await this.componentLinks(schema, fromId)) {
        const component = this.model.components.get(link.component_type);
        if (!component) continue;
        const copyId = await this.copyRow(component, Number(link.cmp_id), {});
        await this.linkComponent(schema, newId, copyId, link.component_type, link.field, link.ord);
      }
    }
    return newId;
  }
}

/** Whether a row of `table` has this id. */
export async function rowExists(db: Database, table: string, id: number): Promise<boolean> {
  const rows = await db.query(`SELECT id FROM ${db.quote(table)} WHERE id = ?`, [id]);
  return rows.length > 0;
}

function hasComponents(schema: ContentType | Component): boolean {
  for (const a of schema.attributes.values()) if (a.kind === 'component' || a.kind === 'dynamiczone') return true;
  return false;
}

/** A value read back with SELECT *, turned into what `insert` expects (drivers differ on dates and JSON). */
function fromStored(value: unknown, type: string): unknown {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) {
    if (type === 'date') return value.toISOString().slice(0, 10);
    return value.toISOString();
  }
  if ((type === 'datetime' || type === 'timestamp') && typeof value === 'string' && !value.endsWith('Z')) {
    return `${value.replace(' ', 'T')}${value.includes('.') ? '' : '.000'}Z`;
  }
  if (type === 'boolean') return Boolean(value);
  return value;
}
