import type { Component, ContentType, Model, RelationAttribute } from '../model/types.js';
import type { FieldRef } from '../query/types.js';
import { MEDIA_MORPH_TABLE, relationJoin } from './strapi-layout/names.js';
import { listSide } from './strapi-store/list-side.js';
import type { Database } from './types.js';

/**
 * What Strapi's Query Engine populates, read as stored rows: each linked row with the row it belongs to (`owner`),
 * in each owner's list order. One statement per attribute (per component type in a dynamic zone), whatever the
 * number of owner rows. Code's API only (strapi.db.query(uid).findMany({ populate })): requests never come here.
 */
export interface LinkedRow {
  owner: number;
  /** A dynamic zone's or a component field's component type. */
  component?: string;
  /** The place in the owner's list, for merging a dynamic zone's types. */
  place: number;
  row: Record<string, unknown>;
}

const marks = (values: readonly unknown[]) => values.map(() => '?').join(', ');

function selectList(db: Database, alias: string, columns: readonly FieldRef[]): string {
  return columns.map((f) => `${alias}.${db.quote(f.column)} AS ${db.quote(`c_${f.column}`)}`).join(', ');
}

function rowOf(raw: Record<string, unknown>, columns: readonly FieldRef[]): Record<string, unknown> {
  return Object.fromEntries(columns.map((f) => [f.column, raw[`c_${f.column}`]]));
}

/** The rows a relation of `schema` links from `owners`, in each owner's list order. */
export async function relatedRows(
  db: Database,
  model: Model,
  schema: ContentType | Component,
  attribute: RelationAttribute,
  owners: readonly number[],
  columns: readonly FieldRef[],
): Promise<LinkedRow[]> {
  if (!owners.length) return [];
  const side = listSide(relationJoin(model, schema, attribute));
  const q = (name: string) => db.quote(name);
  const order = side.order ? `j.${q(side.order)}, ` : '';
  const rows = await db.query<Record<string, unknown>>(
    `SELECT j.${q(side.key)} AS ${q('o_')}, ${selectList(db, 't', columns)} FROM ${q(side.table)} j JOIN ${q(side.memberTable)} t ON t.id = j.${q(side.member)} ` +
      `WHERE j.${q(side.key)} IN (${marks(owners)}) ORDER BY j.${q(side.key)}, ${order}j.id`,
    [...owners],
  );
  return rows.map((raw, place) => ({ owner: Number(raw.o_), place, row: rowOf(raw, columns) }));
}

/** The component rows of type `component` in field `field` of `owners` (`<owner>_cmps`), in each field's order. */
export async function componentRows(
  db: Database,
  owner: ContentType | Component,
  field: string,
  component: Component,
  owners: readonly number[],
  columns: readonly FieldRef[],
): Promise<LinkedRow[]> {
  if (!owners.length) return [];
  const q = (name: string) => db.quote(name);
  const rows = await db.query<Record<string, unknown>>(
    `SELECT l.entity_id AS ${q('o_')}, l.${q('order')} AS ${q('p_')}, l.id AS ${q('l_')}, ${selectList(db, 'c', columns)} FROM ${q(owner.componentsTable)} l ` +
      `JOIN ${q(component.table)} c ON c.id = l.cmp_id WHERE l.field = ? AND l.component_type = ? AND l.entity_id IN (${marks(owners)}) ` +
      `ORDER BY l.entity_id, l.${q('order')}, l.id`,
    [field, component.uid, ...owners],
  );
  // A single component's `order` is NULL: its link id places it.
  return rows.map((raw) => ({ owner: Number(raw.o_), component: component.uid, place: Number(raw.p_ ?? raw.l_), row: rowOf(raw, columns) }));
}

/** The files in media field `field` of `owners` of `relatedType` (`files_related_mph`), in each field's order. */
export async function fileRows(db: Database, files: ContentType, relatedType: string, field: string, owners: readonly number[], columns: readonly FieldRef[]): Promise<LinkedRow[]> {
  if (!owners.length) return [];
  const q = (name: string) => db.quote(name);
  const rows = await db.query<Record<string, unknown>>(
    `SELECT m.related_id AS ${q('o_')}, ${selectList(db, 'f', columns)} FROM ${q(MEDIA_MORPH_TABLE)} m JOIN ${q(files.table)} f ON f.id = m.file_id ` +
      `WHERE m.related_type = ? AND m.field = ? AND m.related_id IN (${marks(owners)}) ORDER BY m.related_id, m.${q('order')}, m.id`,
    [relatedType, field, ...owners],
  );
  return rows.map((raw, place) => ({ owner: Number(raw.o_), place, row: rowOf(raw, columns) }));
}

/**
 * The admin users (`admin_users`) that column `column` (`created_by_id`, `updated_by_id`) of `owners` in `table`
 * names: Strapi's createdBy / updatedBy. Every column of the user row, keyed by its name as stored (`a.*`: a database
 * made by an older Strapi lacks some of 5.54's, and what it has is what Strapi would read).
 */
export async function creatorRows(db: Database, table: string, column: 'created_by_id' | 'updated_by_id', owners: readonly number[], usersTable: string): Promise<LinkedRow[]> {
  if (!owners.length) return [];
  const q = (name: string) => db.quote(name);
  const rows = await db.query<Record<string, unknown>>(
    `SELECT o.id AS ${q('o_')}, a.* FROM ${q(table)} o JOIN ${q(usersTable)} a ON a.id = o.${q(column)} WHERE o.id IN (${marks(owners)}) ORDER BY o.id`,
    [...owners],
  );
  return rows.map((raw, place) => {
    const { o_: owner, ...row } = raw;
    return { owner: Number(owner), place, row };
  });
}
