import { componentRows, creatorRows, fileRows, relatedRows, type LinkedRow } from '../database/row-links.js';
import type { Database } from '../database/types.js';
import type { Attribute, Component, ContentType, Model } from '../model/types.js';
import { isPlainObject, rowFields } from '../query/index.js';
import type { FieldRef } from '../query/types.js';
import { inverseMorphRows, morphPopulate, morphTargetRows, type MorphPopulate } from './query-engine-morphs.js';
import { ADMIN_USER_UID, CREATOR_COLUMNS, creatorColumn, systemContentType } from '../model/system-types.js';

/** What to populate of one attribute: the columns (all when undefined) and what to populate in turn. */
export interface RowPopulate {
  select?: string[];
  populate: Map<string, RowPopulate>;
  /** A morphToOne's or morphToMany's: what each linked type reads (its types are known only once read). */
  morph?: MorphPopulate;
}

type Schema = ContentType | Component;

/** The attributes a Query Engine populate may name: relations (polymorphic too), components, dynamic zones, media. */
const populatable = (a: Attribute) => a.kind !== 'scalar';

/**
 * Strapi's Query Engine `populate`: `'*'` or `true` (every relation, polymorphic or not, component, dynamic zone, media
 * field and, on a content type, `createdBy` and `updatedBy`, as Strapi's metadata counts them all as relations), a name
 * or a dotted path (`'a.b'`), a list of them, or `{ a: true, b: { select, populate } }` (a polymorphic relation's also
 * `on: { uid: { select, populate } }`). Its other options (`where`, `orderBy`, `limit`, `count`...) are not provided:
 * an error names them.
 */
export function parseRowPopulate(uid: string, model: Model, schema: Schema, raw: unknown): Map<string, RowPopulate> {
  const result = new Map<string, RowPopulate>();
  const error = (message: string) => new Error(`strapi.db.query('${uid}'): populate ${message}`);
  const check = (name: string) => {
    if (creatorColumn(schema, name)) return;
    const attribute = schema.attributes.get(name);
    if (!attribute || !populatable(attribute)) throw error(`names ${JSON.stringify(name)}, which is no relation, component, dynamic zone or media of ${schema.uid}`);
  };
  const merge = (name: string, nested: RowPopulate) => {
    const current = result.get(name);
    if (!current) result.set(name, nested);
    else for (const [key, value] of nested.populate) current.populate.set(key, value);
  };
  // A morphToOne's or morphToMany's populate is kept for each type it meets; any other is parsed against its target.
  const nestedOf = (name: string, select: string[] | undefined, populate: unknown, on?: unknown): RowPopulate => {
    const morph = ownerMorph(schema, name);
    if (morph) return { select, populate: new Map(), morph: morphPopulate(model, { select, populate, on }, error) };
    if (on !== undefined) throw error(`of ${name}: on is for polymorphic relations (morphToOne, morphToMany)`);
    return { select, populate: populate === undefined ? new Map() : parseRowPopulate(uid, model, targetOf(model, schema, name, error), populate) };
  };
  if (raw === undefined || raw === null || raw === false) return result;
  if (raw === true || raw === '*') {
    for (const attribute of schema.attributes.values()) if (populatable(attribute)) result.set(attribute.name, nestedOf(attribute.name, undefined, undefined));
    if (schema.modelType === 'contentType') for (const name of Object.keys(CREATOR_COLUMNS)) if (creatorColumn(schema, name)) result.set(name, { populate: new Map() });
    return result;
  }
  const names = typeof raw === 'string' ? [raw] : Array.isArray(raw) && raw.every((item) => typeof item === 'string') ? raw : undefined;
  if (names) {
    for (const path of names) {
      const [head, ...rest] = path.split('.');
      check(head);
      merge(head, nestedOf(head, undefined, rest.length ? rest.join('.') : undefined));
    }
    return result;
  }
  if (!isPlainObject(raw)) throw error(`must be '*', a name, a list of names or an object, not ${JSON.stringify(raw)}`);
  for (const [name, value] of Object.entries(raw)) {
    check(name);
    if (value === false || value === undefined) continue;
    if (value === true || value === '*') {
      merge(name, nestedOf(name, undefined, undefined));
      continue;
    }
    if (!isPlainObject(value)) throw error(`of ${name} must be true or { select, populate }, not ${JSON.stringify(value)}`);
    const allowed = ownerMorph(schema, name) ? ['select', 'populate', 'on'] : ['select', 'populate'];
    const unknown = Object.keys(value).filter((k) => !allowed.includes(k) && value[k] !== undefined);
    if (unknown.length) throw error(`of ${name}: ${unknown.join(', ')} is not provided by Cairn (it takes ${allowed.join(', ')})`);
    const select = value.select === undefined ? undefined : Array.isArray(value.select) ? value.select.map(String) : [String(value.select)];
    merge(name, nestedOf(name, select, value.populate, value.on));
  }
  return result;
}

/** A morphToOne or morphToMany of `schema`: the side whose links may reach rows of any type. */
function ownerMorph(schema: Schema, name: string) {
  const attribute = schema.attributes.get(name);
  return attribute?.kind === 'morph' && (attribute.relation === 'morphToOne' || attribute.relation === 'morphToMany') ? attribute : undefined;
}

/** The schema a populated attribute's rows belong to (a dynamic zone: one of several, checked per item). */
function targetOf(model: Model, schema: Schema, name: string, error: (message: string) => Error): Schema {
  if (creatorColumn(schema, name)) return systemContentType(ADMIN_USER_UID)!;
  const attribute = schema.attributes.get(name)!;
  if (attribute.kind === 'relation') return model.contentTypes.get(attribute.target)!;
  if (attribute.kind === 'morph') return model.contentTypes.get(attribute.target!)!;
  if (attribute.kind === 'media') return model.contentTypes.get('plugin::upload.file')!;
  if (attribute.kind === 'component') return model.components.get(attribute.component)!;
  throw error(`into ${name}, a dynamic zone, is not provided by Cairn (populate the zone itself)`);
}

/** A Query Engine row of `schema`: every column (or those selected) by attribute name, typed by `convert`. */
export type RowShaper = (schema: Schema, raw: Record<string, unknown>, select: readonly FieldRef[]) => Record<string, unknown>;

/** Fills `rows` (each with its `id`) with what `populate` names, one statement per attribute and level. */
export async function populateRows(
  db: Database,
  model: Model,
  schema: Schema,
  rows: Record<string, unknown>[],
  populate: Map<string, RowPopulate>,
  shape: RowShaper,
): Promise<void> {
  const ids = rows.map((row) => Number(row.id));
  for (const [name, spec] of populate) {
    const creator = creatorColumn(schema, name);
    const attribute = creator ? undefined : schema.attributes.get(name);
    if (spec.morph && attribute?.kind === 'morph') {
      // Rows of any type, each with its `__type`: read, shaped and populated per type.
      const byOwner = await morphTargetRows(db, model, schema, attribute, ids, spec.morph, (target, raw, p) =>
        populateLevel(db, model, target, raw, { select: p.select, populate: parseRowPopulate(target.uid, model, target, p.populate) }, shape),
      );
      for (const row of rows) {
        const own = byOwner.get(Number(row.id)) ?? [];
        row[name] = attribute.toMany ? own : (own[0] ?? null);
      }
      continue;
    }
    const linked: Array<{ item: LinkedRow; schema: Schema }> = [];
    const columnsOf = (target: Schema) => selectedFields(target, spec.select);
    if (creator) {
      const users = systemContentType(ADMIN_USER_UID)!;
      for (const item of await creatorRows(db, schema.table, creator, ids, users.table)) linked.push({ item, schema: users });
    } else if (attribute?.kind === 'relation' || attribute?.kind === 'media') {
      const target = model.contentTypes.get(attribute.kind === 'media' ? 'plugin::upload.file' : attribute.target)!;
      const found =
        attribute.kind === 'relation'
          ? await relatedRows(db, model, schema, attribute, ids, columnsOf(target))
          : await fileRows(db, target, schema.uid, name, ids, columnsOf(target));
      for (const item of found) linked.push({ item, schema: target });
    } else if (attribute?.kind === 'morph') {
      // morphOne / morphMany: rows of their one target type.
      const target = model.contentTypes.get(attribute.target!)!;
      for (const item of await inverseMorphRows(db, model, schema, attribute, ids, columnsOf(target))) linked.push({ item, schema: target });
    } else if (attribute?.kind === 'component' || attribute?.kind === 'dynamiczone') {
      const uids = attribute.kind === 'component' ? [attribute.component] : attribute.components;
      for (const componentUid of uids) {
        const component = model.components.get(componentUid)!;
        for (const item of await componentRows(db, schema, name, component, ids, columnsOf(component))) linked.push({ item, schema: component });
      }
      linked.sort((a, b) => a.item.owner - b.item.owner || a.item.place - b.item.place);
    }
    // Each level's rows are shaped, then populated in turn (their ids are among their columns). An admin user row
    // holds the columns its table has (an older Strapi's lacks some).
    const bySchema = new Map<Schema, Record<string, unknown>[]>();
    const shaped = linked.map(({ item, schema: target }) => {
      const columns = creator ? columnsOf(target).filter((f) => f.column in item.row) : columnsOf(target);
      const row = shape(target, item.row, columns);
      if (attribute?.kind === 'dynamiczone') row.__component = item.component;
      bySchema.set(target, [...(bySchema.get(target) ?? []), row]);
      return { owner: item.owner, row };
    });
    for (const [target, targetRows] of bySchema) if (spec.populate.size) await populateRows(db, model, target, targetRows, spec.populate, shape);
    const many =
      attribute !== undefined &&
      (attribute.kind === 'dynamiczone' ||
        (attribute.kind === 'component' && attribute.repeatable) ||
        (attribute.kind === 'media' && attribute.multiple) ||
        ((attribute.kind === 'relation' || attribute.kind === 'morph') && attribute.toMany));
    const byOwner = new Map<number, Record<string, unknown>[]>();
    for (const { owner, row } of shaped) byOwner.set(owner, [...(byOwner.get(owner) ?? []), row]);
    for (const row of rows) {
      const own = byOwner.get(Number(row.id)) ?? [];
      row[name] = many ? own : (own[0] ?? null);
    }
  }
}

/** Rows of one schema read by id (a morph's linked rows of one type), shaped and populated as `populate` says. */
async function populateLevel(
  db: Database,
  model: Model,
  schema: Schema,
  raw: Record<string, unknown>[],
  populate: { select?: string[]; populate: Map<string, RowPopulate> },
  shape: RowShaper,
): Promise<Record<string, unknown>[]> {
  const columns = selectedFields(schema, populate.select);
  const rows = raw.map((row) => shape(schema, row, columns));
  if (populate.populate.size) await populateRows(db, model, schema, rows, populate.populate, shape);
  return rows;
}

/** The columns read of a populated schema: all, or those selected (with `id`, which nested populates need). */
export function selectedFields(schema: Schema, select: string[] | undefined): FieldRef[] {
  const fields = rowFields(schema);
  if (!select) return fields;
  const wanted = new Set(['id', ...select]);
  const unknown = select.filter((name) => !fields.some((f) => f.name === name));
  if (unknown.length) throw new Error(`populate: select ${unknown.join(', ')}: not a column of ${schema.uid}`);
  return fields.filter((f) => wanted.has(f.name));
}
