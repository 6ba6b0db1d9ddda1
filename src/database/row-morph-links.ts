import type { Component, ContentType } from '../model/types.js';
import type { FieldRef } from '../query/types.js';
import type { LinkedRow } from './row-links.js';
import { MORPH_TO_ONE_COLUMNS, type MorphTable } from './strapi-layout/names.js';
import type { Database } from './types.js';

/*
 * What Strapi's Query Engine populates of polymorphic relations (@strapi/database query/helpers/populate/apply.js
 * morphToMany, morphToOne, morphX), read as stored (store/morph-links.ts describes the layout). Code's API only.
 */

/** One link of an owner row to a row of any type: the linked row's id and its type's uid. */
export interface MorphTarget {
  owner: number;
  id: number;
  type: string;
}

const marks = (values: readonly unknown[]) => values.map(() => '?').join(', ');

/** The links of `owners` in a morphToMany table, in each owner's list order (`order`, then link id), whatever their `field`. */
export async function morphListTargets(db: Database, t: MorphTable, owners: readonly number[]): Promise<MorphTarget[]> {
  if (!owners.length) return [];
  const q = (name: string) => db.quote(name);
  const rows = await db.query<{ o: number | string; r: number | string | null; ty: string | null }>(
    `SELECT ${q(t.ownerColumn)} AS o, ${q(t.idColumn)} AS r, ${q(t.typeColumn)} AS ty FROM ${q(t.name)} WHERE ${q(t.ownerColumn)} IN (${marks(owners)}) ` +
      `ORDER BY ${q(t.ownerColumn)}, ${q('order')}, id`,
    [...owners],
  );
  return rows.flatMap((row) => (row.r && row.ty ? [{ owner: Number(row.o), id: Number(row.r), type: row.ty }] : []));
}

/** The morphToOne links of `owners` of `table` (its `target_id`, `target_type`): those set. */
export async function morphToOneTargets(db: Database, table: string, owners: readonly number[]): Promise<MorphTarget[]> {
  if (!owners.length) return [];
  const q = (name: string) => db.quote(name);
  const rows = await db.query<{ o: number | string; r: number | string | null; ty: string | null }>(
    `SELECT id AS o, ${q(MORPH_TO_ONE_COLUMNS.id)} AS r, ${q(MORPH_TO_ONE_COLUMNS.type)} AS ty FROM ${q(table)} WHERE id IN (${marks(owners)})`,
    [...owners],
  );
  return rows.flatMap((row) => (row.r && row.ty ? [{ owner: Number(row.o), id: Number(row.r), type: row.ty }] : []));
}

function selectList(db: Database, columns: readonly FieldRef[]): string {
  return columns.map((f) => `t.${db.quote(f.column)} AS ${db.quote(`c_${f.column}`)}`).join(', ');
}

function rowOf(raw: Record<string, unknown>, columns: readonly FieldRef[]): Record<string, unknown> {
  return Object.fromEntries(columns.map((f) => [f.column, raw[`c_${f.column}`]]));
}

/**
 * A morphOne / morphMany whose owner side is a morphToMany: the rows of `ownerSchema` whose list (table `t`) links
 * `related` rows of type `type` through inverse attribute `field`. As Strapi's morphX, only the links written from
 * that inverse side count (`field` = its name), in list order. `owner` of each answer is the related row.
 */
export async function morphListOwnerRows(
  db: Database,
  ownerSchema: ContentType | Component,
  t: MorphTable,
  related: readonly number[],
  type: string,
  field: string,
  columns: readonly FieldRef[],
): Promise<LinkedRow[]> {
  if (!related.length) return [];
  const q = (name: string) => db.quote(name);
  const rows = await db.query<Record<string, unknown>>(
    `SELECT j.${q(t.idColumn)} AS ${q('o_')}, ${selectList(db, columns)} FROM ${q(t.name)} j JOIN ${q(ownerSchema.table)} t ON t.id = j.${q(t.ownerColumn)} ` +
      `WHERE j.${q(t.idColumn)} IN (${marks(related)}) AND j.${q(t.typeColumn)} = ? AND j.${q('field')} = ? ORDER BY j.${q(t.idColumn)}, j.${q('order')}, j.id`,
    [...related, type, field],
  );
  return rows.map((raw, place) => ({ owner: Number(raw.o_), place, row: rowOf(raw, columns) }));
}

/**
 * A morphOne / morphMany whose owner side is a morphToOne: the rows of `ownerSchema` whose `target_id`,
 * `target_type` name one of `related` of type `type`, by id. `owner` of each answer is the related row.
 */
export async function morphToOneOwnerRows(db: Database, ownerSchema: ContentType | Component, related: readonly number[], type: string, columns: readonly FieldRef[]): Promise<LinkedRow[]> {
  if (!related.length) return [];
  const q = (name: string) => db.quote(name);
  const rows = await db.query<Record<string, unknown>>(
    `SELECT t.${q(MORPH_TO_ONE_COLUMNS.id)} AS ${q('o_')}, ${selectList(db, columns)} FROM ${q(ownerSchema.table)} t ` +
      `WHERE t.${q(MORPH_TO_ONE_COLUMNS.id)} IN (${marks(related)}) AND t.${q(MORPH_TO_ONE_COLUMNS.type)} = ? ORDER BY t.id`,
    [...related, type],
  );
  return rows.map((raw, place) => ({ owner: Number(raw.o_), place, row: rowOf(raw, columns) }));
}
