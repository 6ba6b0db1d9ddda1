import { newDocumentId } from '../database/document-id.js';
import {
  fileDocumentIds,
  linkFileRows,
  readMorphList,
  readMorphOwners,
  readMorphToOneOwners,
  replaceMorphList,
  replaceMorphOwners,
  RowStore,
  writeMorphToOne,
} from '../database/store/index.js';
import { morphTableOf, relationJoin } from '../database/strapi-layout/names.js';
import { StrapiLinkList, type LinkPosition } from '../database/strapi-store/index.js';
import type { Database } from '../database/types.js';
import type { Component, ComponentAttribute, ContentType, DynamicZoneAttribute, MediaAttribute, Model, MorphAttribute, RelationAttribute } from '../model/types.js';
import { isPlainObject } from '../query/index.js';
import type { FieldRef } from '../query/types.js';
import { checkScalarType } from './scalar-values.js';

/** One row's data for Strapi's Query Engine: its columns (by column name), relation lists, components and media. */
export interface RowData {
  columns: Record<string, unknown>;
  relations: RelationWrite[];
  components: ComponentWrite[];
  media: MediaWrite[];
  morphs: MorphWrite[];
}

/**
 * A polymorphic relation's change: on the owner side (morphToMany, morphToOne) rows of any type by `{ id, __type }`;
 * on the inverse side (morphMany, morphOne) rows of its target by id. `set` replaces, else `connect` appends and
 * `disconnect` removes.
 */
interface MorphWrite {
  attribute: MorphAttribute;
  set?: MorphMember[];
  connect: MorphMember[];
  disconnect: MorphMember[];
}

interface MorphMember {
  id: number;
  type: string;
}

/**
 * A component or dynamic-zone field's rows, replaced by these (component rows made beforehand, as Strapi's
 * document service makes them before its Query Engine call): `{ id, __pivot: { component_type } }` or, in a
 * dynamic zone, `{ id, __component }`.
 */
interface ComponentWrite {
  attribute: ComponentAttribute | DynamicZoneAttribute;
  items: Array<{ id: number; component: string }>;
}

/** A media field's files (by file row id), replaced by these. */
interface MediaWrite {
  attribute: MediaAttribute;
  fileIds: number[];
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
  const result: RowData = { columns: {}, relations: [], components: [], media: [], morphs: [] };
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
    if (attribute?.kind === 'component' || attribute?.kind === 'dynamiczone') {
      result.components.push(componentWrite(uid, attribute, value));
      continue;
    }
    if (attribute?.kind === 'morph') {
      result.morphs.push(morphWrite(uid, attribute, value));
      continue;
    }
    if (attribute?.kind === 'media') {
      const items = listOf(value);
      if (!attribute.multiple && items.length > 1) throw new Error(`strapi.db.query('${uid}'): ${key} holds one file, not ${items.length}`);
      result.media.push({ attribute, fileIds: [...new Set(items.map((item) => rowIdOf(uid, key, 'plugin::upload.file', item)))] });
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
function rowIdOf(uid: string, field: string, target: string, value: unknown): number {
  const raw = isPlainObject(value) && 'id' in value ? value.id : value;
  const id = typeof raw === 'string' && /^\d+$/.test(raw) ? Number(raw) : raw;
  if (typeof id !== 'number' || !Number.isSafeInteger(id) || id < 1) {
    throw new Error(`strapi.db.query('${uid}'): ${field} takes row ids of ${target}, not ${JSON.stringify(value)}`);
  }
  return id;
}

const memberId = (uid: string, attribute: RelationAttribute, value: unknown) => rowIdOf(uid, attribute.name, attribute.target, value);

function componentWrite(uid: string, attribute: ComponentAttribute | DynamicZoneAttribute, value: unknown): ComponentWrite {
  const items = listOf(value);
  const many = attribute.kind === 'dynamiczone' || attribute.repeatable;
  if (!many && items.length > 1) throw new Error(`strapi.db.query('${uid}'): ${attribute.name} holds one component, not ${items.length}`);
  return {
    attribute,
    items: items.map((item) => {
      const id = rowIdOf(uid, attribute.name, 'its components', item);
      if (attribute.kind === 'component') return { id, component: attribute.component };
      const pivot = isPlainObject(item) && isPlainObject(item.__pivot) ? item.__pivot.component_type : undefined;
      const component = isPlainObject(item) ? (item.__component ?? pivot) : undefined;
      if (typeof component !== 'string' || !attribute.components.includes(component)) {
        throw new Error(`strapi.db.query('${uid}'): ${attribute.name} takes { id, __component } of ${attribute.components.join(', ')}, not ${JSON.stringify(item)}`);
      }
      return { id, component };
    }),
  };
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

/** A value the Query Engine takes one of or a list of: null and undefined are none. */
const listOf = (value: unknown): unknown[] => (value === null || value === undefined ? [] : Array.isArray(value) ? value : [value]);

/** A relation's operations (`{ set }` or `{ connect, disconnect }`), any other key refused. */
function checkedOperations(uid: string, field: string, ops: Record<string, unknown>): Record<string, unknown> {
  const unknown = Object.keys(ops).filter((k) => !['set', 'connect', 'disconnect', 'options'].includes(k));
  if (unknown.length) throw new Error(`strapi.db.query('${uid}'): ${field}: unknown relation operation ${unknown.join(', ')} (set, connect, disconnect)`);
  return ops;
}

function relationWrite(uid: string, attribute: RelationAttribute, value: unknown): RelationWrite {
  const ids = (v: unknown) => [...new Set(listOf(v).map((item) => memberId(uid, attribute, item)))];
  const write: RelationWrite = { attribute, connect: [], disconnect: [] };
  if (value === null || Array.isArray(value) || typeof value !== 'object' || 'id' in value) return { ...write, set: ids(value) };
  const ops = checkedOperations(uid, attribute.name, value as Record<string, unknown>);
  if (ops.set !== undefined) return { ...write, set: ids(ops.set) };
  write.connect = listOf(ops.connect).map((item) => ({ id: memberId(uid, attribute, item), position: positionOf(uid, attribute, item) }));
  write.disconnect = ids(ops.disconnect);
  return write;
}

function morphWrite(uid: string, attribute: MorphAttribute, value: unknown): MorphWrite {
  const owner = attribute.relation === 'morphToMany' || attribute.relation === 'morphToOne';
  const member = (item: unknown): MorphMember => {
    if (!owner) return { id: rowIdOf(uid, attribute.name, attribute.target!, item), type: attribute.target! };
    const type = isPlainObject(item) ? item.__type : undefined;
    if (typeof type !== 'string') throw new Error(`strapi.db.query('${uid}'): ${attribute.name} takes { id, __type }, not ${JSON.stringify(item)}`);
    return { id: rowIdOf(uid, attribute.name, type, item), type };
  };
  const members = (v: unknown) => listOf(v).map(member);
  if (!isPlainObject(value) || 'id' in value) return { attribute, set: members(value), connect: [], disconnect: [] };
  const ops = checkedOperations(uid, attribute.name, value);
  if (ops.set !== undefined) return { attribute, set: members(ops.set), connect: [], disconnect: [] };
  return { attribute, connect: members(ops.connect), disconnect: members(ops.disconnect) };
}

/**
 * Strapi's timestamps subscriber and its models' defaults: what a created row gets when its data does not say. Its
 * content types' `publishedAt` defaults to the time of the write on every type, Draft & Publish or not (a draft row
 * is one whose data says `publishedAt: null`, as its Document Service writes drafts).
 */
function creationDefaults(schema: ContentType | Component, columns: Record<string, unknown>): Record<string, unknown> {
  if (schema.modelType !== 'contentType') return columns;
  const now = new Date().toISOString();
  return { document_id: newDocumentId(), created_at: now, updated_at: now, published_at: now, ...columns };
}

/** Inserts rows with their relations, in one transaction; their ids in order. */
export async function insertRows(db: Database, model: Model, schema: ContentType | Component, rows: readonly RowData[]): Promise<number[]> {
  return db.transaction(async (trx) => {
    const store = new RowStore(trx, model);
    const ids: number[] = [];
    for (const row of rows) {
      const id = await store.insert(schema, creationDefaults(schema, row.columns));
      await writeLinks(store, schema, id, row);
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
    const store = new RowStore(trx, model);
    await store.update(schema, [...ids], columns);
    for (const id of ids) await writeLinks(store, schema, id, row);
  });
}

/** Deletes rows with their components, media rows and links, in one transaction. */
export async function deleteRows(db: Database, model: Model, schema: ContentType | Component, ids: readonly number[]): Promise<void> {
  if (!ids.length) return;
  await db.transaction((trx) => new RowStore(trx, model).deleteRows(schema, [...ids]));
}

/** A row's relation lists, component links and media rows, as its data gives them. */
async function writeLinks(store: RowStore, schema: ContentType | Component, rowId: number, row: RowData): Promise<void> {
  await writeRelations(store.db, store.model, schema, rowId, row.relations);
  for (const write of row.components) {
    const kept = await store.attachComponents(schema, rowId, write.attribute.name, write.items, write.attribute.kind === 'component' && !write.attribute.repeatable);
    if (kept < write.items.length) throw new Error(`${schema.uid}.${write.attribute.name}: no component row ${JSON.stringify(write.items)}`);
  }
  for (const write of row.morphs) await writeMorph(store.db, store.model, schema, rowId, write);
  for (const write of row.media) {
    const documentIds = await fileDocumentIds(store.db, write.fileIds);
    if (documentIds.length < write.fileIds.length) throw new Error(`${schema.uid}.${write.attribute.name}: no file with id ${write.fileIds.join(', ')}`);
    await linkFileRows(store.db, schema.uid, rowId, write.attribute.name, documentIds, 'replace');
  }
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

/**
 * One polymorphic relation of a row, as Strapi's entity manager writes it: a morphToMany's list (`order` 1..n, `field`
 * NULL from the owner side), a morphToOne's columns on the row (a content type's or a component's), and from the
 * inverse side (a content type's only) the target rows' links to this row (`field`: the inverse attribute's name).
 */
async function writeMorph(db: Database, model: Model, source: ContentType | Component, rowId: number, write: MorphWrite): Promise<void> {
  const { attribute } = write;
  const same = (a: MorphMember) => (b: MorphMember) => a.id === b.id && a.type === b.type;
  const edited = (current: MorphMember[]) => [...current.filter((m) => !write.disconnect.some(same(m)) && !write.connect.some(same(m))), ...write.connect];
  switch (attribute.relation) {
    case 'morphToMany': {
      const table = morphTableOf(source, attribute.name);
      const current = write.set ? [] : (await readMorphList(db, table, rowId)).map((l) => ({ id: l.relatedId, type: l.type }));
      const list = write.set ?? edited(current);
      await replaceMorphList(db, table, rowId, list.map((m) => ({ relatedId: m.id, type: m.type, field: null })));
      return;
    }
    case 'morphToOne': {
      const [link] = (write.set ?? write.connect).slice(-1);
      if (!link && write.set === undefined && !write.disconnect.length) return;
      await writeMorphToOne(db, source.table, [rowId], link ? { relatedId: link.id, type: link.type } : null);
      return;
    }
    default: {
      if (source.modelType !== 'contentType') throw new Error(`${source.uid}.${attribute.name}: a ${attribute.relation} relation in a component`);
      const owner = model.contentTypes.get(attribute.target!)!;
      const by = owner.attributes.get(attribute.morphBy!) as MorphAttribute;
      if (by.relation === 'morphToMany') {
        const table = morphTableOf(owner, by.name);
        const current = write.set ? [] : (await readMorphOwners(db, table, rowId, source.uid, attribute.name)).map((id) => ({ id, type: owner.uid }));
        const owners = (write.set ?? edited(current)).map((m) => m.id);
        await replaceMorphOwners(db, table, rowId, source.uid, attribute.name, owners);
        return;
      }
      const current = await readMorphToOneOwners(db, owner.table, rowId, source.uid);
      const wanted = (write.set ?? edited(current.map((id) => ({ id, type: owner.uid })))).map((m) => m.id);
      const linked = attribute.relation === 'morphOne' ? wanted.slice(-1) : wanted;
      await writeMorphToOne(db, owner.table, current.filter((id) => !linked.includes(id)), null);
      await writeMorphToOne(db, owner.table, linked, { relatedId: rowId, type: source.uid });
    }
  }
}
