import { newDocumentId } from '../database/document-id.js';
import { RowStore } from '../database/store/index.js';
import { relationJoin } from '../database/strapi-layout/names.js';
import { StrapiLinkList, type LinkPosition } from '../database/strapi-store/index.js';
import type { Database } from '../database/types.js';
import type { Component, ContentType, Model, RelationAttribute } from '../model/types.js';
import { isPlainObject } from '../query/index.js';
import type { FieldRef } from '../query/types.js';
import { checkScalarType } from './scalar-values.js';

/** One row's data for Strapi's Query Engine: its columns (by column name) and its relation lists. */
export interface RowData {
  columns: Record<string, unknown>;
  relations: RelationWrite[];
}

/**
 * A relation list's change, as the Query Engine takes it (`toAssocs`): members are rows of the target by id. `set`
 * replaces the list (an id, `{ id }`, a list of them, or null), else `connect` (at the end unless a position is
 * given) and `disconnect`.
 */
interface RelationWrite {
  attribute: RelationAttribute;
  set?: number[];
  connect: Array<{ id: number; position: LinkPosition }>;
  disconnect: number[];
}

/** The system columns code may write through the Query Engine (Strapi's models give them as attributes). */
const SYSTEM_WRITABLE = new Set(['documentId', 'createdAt', 'updatedAt', 'publishedAt', 'locale']);

/**
 * Strapi's `processData`: a Query Engine write's `data` read into columns and relation changes. Scalars are cast to
 * their type (a value that is not one is an error naming it: Strapi's field `validate`); relations take row ids.
 * Keys that are no attribute are an error: Strapi drops them silently, which hides a typo in code.
 */
export function rowData(uid: string, schema: ContentType | Component, fields: readonly FieldRef[], data: unknown): RowData {
  if (!isPlainObject(data)) throw new Error(`strapi.db.query('${uid}'): data must be an object, not ${JSON.stringify(data)}`);
  const result: RowData = { columns: {}, relations: [] };
  for (const [key, value] of Object.entries(data)) {
    if (value === undefined) continue;
    const field = fields.find((f) => f.name === key);
    if (field) {
      if (field.name === 'id') throw new Error(`strapi.db.query('${uid}'): id is given by the database, not by data`);
      result.columns[field.column] = value === null ? null : castColumn(uid, schema, field, value);
      continue;
    }
    const attribute = schema.attributes.get(key);
    if (attribute?.kind === 'relation') {
      result.relations.push(relationWrite(uid, attribute, value));
      continue;
    }
    if (attribute) {
      throw new Error(`strapi.db.query('${uid}'): writing ${key} (${attribute.kind}) is not provided by Cairn's Query Engine: write it through strapi.documents('${uid}')`);
    }
    throw new Error(`strapi.db.query('${uid}'): ${key} is not an attribute of ${uid}`);
  }
  return result;
}

function castColumn(uid: string, schema: ContentType | Component, field: FieldRef, value: unknown): unknown {
  const attribute = schema.attributes.get(field.name);
  const type = attribute?.kind === 'scalar' ? attribute : { kind: 'scalar' as const, name: field.name, type: field.type === 'id' ? 'integer' : field.type };
  if (!attribute && !SYSTEM_WRITABLE.has(field.name)) throw new Error(`strapi.db.query('${uid}'): ${field.name} cannot be written`);
  const cast = checkScalarType(type as Parameters<typeof checkScalarType>[0], value);
  if (!cast.ok) throw new Error(`strapi.db.query('${uid}'): ${cast.message}`);
  return cast.value;
}

/** A row id as the Query Engine takes one: a whole number, a numeric string, or `{ id }`. */
function memberId(uid: string, attribute: RelationAttribute, value: unknown): number {
  const raw = isPlainObject(value) && 'id' in value ? value.id : value;
  const id = typeof raw === 'string' && /^\d+$/.test(raw) ? Number(raw) : raw;
  if (typeof id !== 'number' || !Number.isSafeInteger(id) || id < 1) {
    throw new Error(`strapi.db.query('${uid}'): ${attribute.name} takes row ids of ${attribute.target}, not ${JSON.stringify(value)}`);
  }
  return id;
}

function positionOf(uid: string, attribute: RelationAttribute, item: unknown): LinkPosition {
  const position = isPlainObject(item) ? item.position : undefined;
  if (position === undefined) return { end: true };
  if (isPlainObject(position)) {
    if (position.start === true) return { start: true };
    if (position.end === true) return { end: true };
    if (position.before !== undefined) return { before: memberId(uid, attribute, position.before) };
    if (position.after !== undefined) return { after: memberId(uid, attribute, position.after) };
  }
  throw new Error(`strapi.db.query('${uid}'): ${attribute.name}: invalid position ${JSON.stringify(position)}`);
}

function relationWrite(uid: string, attribute: RelationAttribute, value: unknown): RelationWrite {
  const ids = (v: unknown) => [...new Set((v === null || v === undefined ? [] : Array.isArray(v) ? v : [v]).map((item) => memberId(uid, attribute, item)))];
  const write: RelationWrite = { attribute, connect: [], disconnect: [] };
  if (value === null || Array.isArray(value) || typeof value !== 'object' || 'id' in value) return { ...write, set: ids(value) };
  const ops = value as Record<string, unknown>;
  const unknown = Object.keys(ops).filter((k) => !['set', 'connect', 'disconnect', 'options'].includes(k));
  if (unknown.length) throw new Error(`strapi.db.query('${uid}'): ${attribute.name}: unknown relation operation ${unknown.join(', ')} (set, connect, disconnect)`);
  if (ops.set !== undefined) return { ...write, set: ids(ops.set) };
  const connect = ops.connect === undefined || ops.connect === null ? [] : Array.isArray(ops.connect) ? ops.connect : [ops.connect];
  write.connect = connect.map((item) => ({ id: memberId(uid, attribute, item), position: positionOf(uid, attribute, item) }));
  write.disconnect = ids(ops.disconnect);
  return write;
}

/** Strapi's timestamps subscriber and its models' defaults: what a created row gets when its data does not say. */
export function creationDefaults(schema: ContentType | Component, columns: Record<string, unknown>): Record<string, unknown> {
  if (schema.modelType !== 'contentType') return columns;
  const now = new Date().toISOString();
  return { document_id: newDocumentId(), created_at: now, updated_at: now, ...columns };
}

/** Inserts rows with their relations, in one transaction; their ids in order. */
export async function insertRows(db: Database, model: Model, schema: ContentType | Component, rows: readonly RowData[]): Promise<number[]> {
  return db.transaction(async (trx) => {
    const store = new RowStore(trx, model);
    const ids: number[] = [];
    for (const row of rows) {
      const id = await store.insert(schema, creationDefaults(schema, row.columns));
      await writeRelations(trx, model, schema, id, row.relations);
      ids.push(id);
    }
    return ids;
  });
}

/** Updates rows' columns and relations, in one transaction (Strapi's `updatedAt` refreshed unless data gives it). */
export async function updateRows(db: Database, model: Model, schema: ContentType | Component, ids: readonly number[], row: RowData): Promise<void> {
  if (!ids.length) return;
  const columns = schema.modelType === 'contentType' ? { updated_at: new Date().toISOString(), ...row.columns } : row.columns;
  await db.transaction(async (trx) => {
    await new RowStore(trx, model).update(schema, [...ids], columns);
    for (const id of ids) await writeRelations(trx, model, schema, id, row.relations);
  });
}

/** Deletes rows with their components, media rows and links, in one transaction. */
export async function deleteRows(db: Database, model: Model, schema: ContentType | Component, ids: readonly number[]): Promise<void> {
  if (!ids.length) return;
  await db.transaction((trx) => new RowStore(trx, model).deleteRows(schema, [...ids]));
}

async function writeRelations(db: Database, model: Model, schema: ContentType | Component, rowId: number, writes: readonly RelationWrite[]): Promise<void> {
  for (const write of writes) {
    const list = new StrapiLinkList(db, relationJoin(model, schema, write.attribute), rowId);
    if (write.set) {
      await list.set(write.attribute.toMany ? write.set : write.set.slice(-1));
      continue;
    }
    for (const id of write.disconnect) if (await list.has(id)) await list.remove(id);
    for (const { id, position } of write.connect) {
      if (!write.attribute.toMany) await list.set([id]);
      else if (await list.has(id)) await list.move(id, position);
      else await list.insert(id, position);
    }
  }
}
