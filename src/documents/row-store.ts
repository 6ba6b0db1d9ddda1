import type { Component, ContentType, Model } from '../model/types.js';
import type { Database } from '../database/types.js';
import { sqlDialect, StoredJson } from '../database/sql/index.js';
import { ApplicationError } from '../errors/index.js';
import { columnTypes } from './columns.js';
import type { ComponentPlan, RowPlan } from './write-plan.js';
import { writeRelations, copyLinks, type RelationScope } from './link-store.js';

/**
 * Rows and their components. Components are owned by one row: writing a component attribute replaces its
 * rows (and their nested components) whole, as the reference does ("fields not given become null").
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
      : `INSERT INTO ${this.q(schema.table)} DEFAULT VALUES RETURNING id`;
    const rows = await this.db.query<{ id: number | string }>(
      this.db.dialect === 'mysql' && !names.length ? `INSERT INTO ${this.q(schema.table)} () VALUES () RETURNING id` : text,
      values,
    );
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

  /** Writes a new row's components and relations (the row itself is inserted by the caller). */
  async writeChildren(schema: ContentType | Component, rowId: number, plan: RowPlan, scope: RelationScope): Promise<void> {
    for (const componentPlan of plan.components) await this.replaceComponents(schema, rowId, componentPlan, scope);
    if (plan.relations.length) await writeRelations(this.db, this.model, schema, rowId, plan.relations, scope);
  }

  private async replaceComponents(owner: ContentType | Component, rowId: number, plan: ComponentPlan, scope: RelationScope) {
    await this.checkGivenIds(owner, rowId, plan);
    await this.deleteComponents(owner, [rowId], plan.attribute);
    let ord = 1;
    for (const item of plan.items) {
      const cmpId = await this.insert(item.component, item.row.columns);
      await this.db.execute(
        `INSERT INTO ${this.q(owner.componentsTable)} (entity_id, cmp_id, component_type, field, ord) VALUES (?, ?, ?, ?, ?)`,
        [rowId, cmpId, item.component.uid, plan.attribute, ord++],
      );
      await this.writeChildren(item.component, cmpId, item.row, scope);
    }
  }

  /**
   * An update may send a component back with its `id` (as read): Strapi then requires it to be one of the entry's
   * components in that field (of that component, in a dynamic zone), and refuses the write otherwise. The entry is
   * the document's version in this locale: its draft or its published version (a client sends back what a
   * published read showed; Strapi 5 knows only the draft's and refuses those, Strapi v4 had one row).
   */
  private async checkGivenIds(owner: ContentType | Component, rowId: number, plan: ComponentPlan): Promise<void> {
    const given = plan.items.filter((item) => 'id' in item);
    if (!given.length) return;
    const cmps = this.q(owner.componentsTable);
    const table = this.q(owner.table);
    const sameLocale = owner.modelType === 'contentType' && owner.localized ? ' AND v.locale = m.locale' : '';
    const links = await this.db.query<{ cmp_id: number | string; component_type: string }>(
      owner.modelType === 'contentType'
        ? `SELECT l.cmp_id, l.component_type FROM ${cmps} l JOIN ${table} v ON v.id = l.entity_id ` +
            `JOIN ${table} m ON m.document_id = v.document_id${sameLocale} WHERE m.id = ? AND l.field = ?`
        : `SELECT cmp_id, component_type FROM ${cmps} WHERE entity_id = ? AND field = ?`,
      [rowId, plan.attribute],
    );
    const own = new Set(links.map((link) => `${String(link.cmp_id)}|${link.component_type}`));
    for (const item of given) {
      if (!own.has(`${String(item.id)}|${item.component.uid}`)) {
        throw new ApplicationError(`Some of the provided components in ${plan.attribute} are not related to the entity`);
      }
    }
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
      const links = await this.db.query<{ cmp_id: number; component_type: string; field: string; ord: number }>(
        `SELECT cmp_id, component_type, field, ord FROM ${this.q(schema.componentsTable)} WHERE entity_id = ? ORDER BY ord, id`,
        [fromId],
      );
      for (const link of links) {
        const component = this.model.components.get(link.component_type);
        if (!component) continue;
        const copyId = await this.copyRow(component, Number(link.cmp_id), {});
        await this.db.execute(
          `INSERT INTO ${this.q(schema.componentsTable)} (entity_id, cmp_id, component_type, field, ord) VALUES (?, ?, ?, ?, ?)`,
          [newId, copyId, link.component_type, link.field, link.ord],
        );
      }
    }
    return newId;
  }
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
