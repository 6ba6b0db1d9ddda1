import { componentRows, fileRows, relatedRows, type LinkedRow } from '../database/row-links.js';
import type { Database } from '../database/types.js';
import type { Attribute, Component, ContentType, Model } from '../model/types.js';
import { isPlainObject, rowFields } from '../query/index.js';
import type { FieldRef } from '../query/types.js';

/** What to populate of one attribute: the columns (all when undefined) and what to populate in turn. */
export interface RowPopulate {
  select?: string[];
  populate: Map<string, RowPopulate>;
}

type Schema = ContentType | Component;

/** The attributes a Query Engine populate may name: relations, components, dynamic zones, media. */
const populatable = (a: Attribute) => a.kind === 'relation' || a.kind === 'component' || a.kind === 'dynamiczone' || a.kind === 'media';

/**
 * Strapi's Query Engine `populate`: `'*'` or `true` (every relation, component, dynamic zone and media field), a
 * name or a dotted path (`'a.b'`), a list of them, or `{ a: true, b: { select, populate } }`. Its other options
 * (`where`, `orderBy`, `limit`, `on`...) and polymorphic relations are not provided: an error names them.
 */
export function parseRowPopulate(uid: string, model: Model, schema: Schema, raw: unknown): Map<string, RowPopulate> {
  const result = new Map<string, RowPopulate>();
  const error = (message: string) => new Error(`strapi.db.query('${uid}'): populate ${message}`);
  const attributeOf = (name: string) => {
    const attribute = schema.attributes.get(name);
    if (attribute?.kind === 'morph') throw error(`of ${name}, a polymorphic relation, is not provided by Cairn: populate it with strapi.documents('${uid}')`);
    if (!attribute || !populatable(attribute)) throw error(`names ${JSON.stringify(name)}, which is no relation, component, dynamic zone or media of ${schema.uid}`);
    return attribute;
  };
  const merge = (name: string, nested: RowPopulate) => {
    const current = result.get(name);
    if (!current) result.set(name, nested);
    else for (const [key, value] of nested.populate) current.populate.set(key, value);
  };
  if (raw === undefined || raw === null || raw === false) return result;
  if (raw === true || raw === '*') {
    for (const attribute of schema.attributes.values()) {
      if (attribute.kind === 'morph') throw error(`'*' meets ${attribute.name}, a polymorphic relation, which Cairn does not populate here: name the others`);
      if (populatable(attribute)) result.set(attribute.name, { populate: new Map() });
    }
    return result;
  }
  const names = typeof raw === 'string' ? [raw] : Array.isArray(raw) && raw.every((item) => typeof item === 'string') ? raw : undefined;
  if (names) {
    for (const path of names) {
      const [head, ...rest] = path.split('.');
      const attribute = attributeOf(head);
      const nested = rest.length ? parseRowPopulate(uid, model, targetOf(model, attribute, error), rest.join('.')) : new Map();
      merge(head, { populate: nested });
    }
    return result;
  }
  if (!isPlainObject(raw)) throw error(`must be '*', a name, a list of names or an object, not ${JSON.stringify(raw)}`);
  for (const [name, value] of Object.entries(raw)) {
    const attribute = attributeOf(name);
    if (value === false || value === undefined) continue;
    if (value === true || value === '*') {
      merge(name, { populate: new Map() });
      continue;
    }
    if (!isPlainObject(value)) throw error(`of ${name} must be true or { select, populate }, not ${JSON.stringify(value)}`);
    const unknown = Object.keys(value).filter((k) => k !== 'select' && k !== 'populate' && value[k] !== undefined);
    if (unknown.length) throw error(`of ${name}: ${unknown.join(', ')} is not provided by Cairn (it takes select, populate)`);
    const select = value.select === undefined ? undefined : Array.isArray(value.select) ? value.select.map(String) : [String(value.select)];
    const target = targetOf(model, attribute, error);
    merge(name, { select, populate: parseRowPopulate(uid, model, target, value.populate) });
  }
  return result;
}

/** The schema a populated attribute's rows belong to (a dynamic zone: one of several, checked per item). */
function targetOf(model: Model, attribute: Attribute, error: (message: string) => Error): Schema {
  if (attribute.kind === 'relation') return model.contentTypes.get(attribute.target)!;
  if (attribute.kind === 'media') return model.contentTypes.get('plugin::upload.file')!;
  if (attribute.kind === 'component') return model.components.get(attribute.component)!;
  throw error(`into ${attribute.name}, a dynamic zone, is not provided by Cairn (populate the zone itself)`);
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
    const attribute = schema.attributes.get(name)!;
    const linked: Array<{ item: LinkedRow; schema: Schema }> = [];
    const columnsOf = (target: Schema) => selectedFields(target, spec.select);
    if (attribute.kind === 'relation' || attribute.kind === 'media') {
      const target = model.contentTypes.get(attribute.kind === 'media' ? 'plugin::upload.file' : attribute.target)!;
      const found =
        attribute.kind === 'relation'
          ? await relatedRows(db, model, schema, attribute, ids, columnsOf(target))
          : await fileRows(db, target, schema.uid, name, ids, columnsOf(target));
      for (const item of found) linked.push({ item, schema: target });
    } else if (attribute.kind === 'component' || attribute.kind === 'dynamiczone') {
      const uids = attribute.kind === 'component' ? [attribute.component] : attribute.components;
      for (const componentUid of uids) {
        const component = model.components.get(componentUid)!;
        for (const item of await componentRows(db, schema, name, component, ids, columnsOf(component))) linked.push({ item, schema: component });
      }
      linked.sort((a, b) => a.item.owner - b.item.owner || a.item.place - b.item.place);
    }
    // Each level's rows are shaped, then populated in turn (their ids are among their columns).
    const bySchema = new Map<Schema, Record<string, unknown>[]>();
    const shaped = linked.map(({ item, schema: target }) => {
      const row = shape(target, item.row, columnsOf(target));
      if (attribute.kind === 'dynamiczone') row.__component = item.component;
      bySchema.set(target, [...(bySchema.get(target) ?? []), row]);
      return { owner: item.owner, row };
    });
    for (const [target, targetRows] of bySchema) if (spec.populate.size) await populateRows(db, model, target, targetRows, spec.populate, shape);
    const many = attribute.kind === 'dynamiczone' || (attribute.kind === 'component' && attribute.repeatable) || (attribute.kind === 'media' && attribute.multiple) || (attribute.kind === 'relation' && attribute.toMany);
    const byOwner = new Map<number, Record<string, unknown>[]>();
    for (const { owner, row } of shaped) byOwner.set(owner, [...(byOwner.get(owner) ?? []), row]);
    for (const row of rows) {
      const own = byOwner.get(Number(row.id)) ?? [];
      row[name] = many ? own : (own[0] ?? null);
    }
  }
}

/** The columns read of a populated schema: all, or those selected (with `id`, which nested populates need). */
function selectedFields(schema: Schema, select: string[] | undefined): FieldRef[] {
  const fields = rowFields(schema);
  if (!select) return fields;
  const wanted = new Set(['id', ...select]);
  const unknown = select.filter((name) => !fields.some((f) => f.name === name));
  if (unknown.length) throw new Error(`populate: select ${unknown.join(', ')}: not a column of ${schema.uid}`);
  return fields.filter((f) => wanted.has(f.name));
}
