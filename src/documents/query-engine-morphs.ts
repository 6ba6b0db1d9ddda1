import { morphListOwnerRows, morphListTargets, morphToOneOwnerRows, morphToOneTargets, type MorphTarget } from '../database/row-morph-links.js';
import type { LinkedRow } from '../database/row-links.js';
import { selectRows } from '../database/row-query.js';
import { morphTableOf } from '../database/strapi-layout/names.js';
import type { Database } from '../database/types.js';
import type { Attribute, Component, ContentType, Model, MorphAttribute } from '../model/types.js';
import { isPlainObject, parseRowWhere, rowFields } from '../query/index.js';
import type { FieldRef } from '../query/types.js';

type Schema = ContentType | Component;

/** What one linked type reads: its columns (all when undefined) and its populate, parsed once the type is known. */
export interface TypePopulate {
  select?: string[];
  populate: unknown;
}

/**
 * A morphToOne's or morphToMany's populate, as Strapi's Query Engine takes it: with `on`, only the types it names, each
 * read as it says; without, every type read alike (`select`, `populate`).
 */
export interface MorphPopulate {
  on?: Map<string, TypePopulate>;
  each: TypePopulate;
}

/**
 * Reads `{ select, populate, on }` of a morphToOne or morphToMany. `on`'s values are `true` or `{ select, populate }`;
 * `fields` there is accepted and, as in Strapi (its query builder reads `select`), every column is read.
 */
export function morphPopulate(model: Model, value: { select?: string[]; populate: unknown; on?: unknown }, error: (message: string) => Error): MorphPopulate {
  const each = { select: value.select, populate: value.populate };
  if (value.on === undefined) return { each };
  if (!isPlainObject(value.on)) throw error(`on must be { [uid]: { select, populate } }, not ${JSON.stringify(value.on)}`);
  const on = new Map<string, TypePopulate>();
  for (const [type, spec] of Object.entries(value.on)) {
    if (!model.contentTypes.has(type) && !model.components.has(type)) throw error(`on names ${JSON.stringify(type)}, which is no content type or component of the app`);
    if (spec === true || spec === undefined || spec === null) {
      on.set(type, { populate: undefined });
      continue;
    }
    if (!isPlainObject(spec)) throw error(`on.${type} must be true or { select, populate }, not ${JSON.stringify(spec)}`);
    const unknown = Object.keys(spec).filter((k) => !['select', 'populate', 'fields'].includes(k) && spec[k] !== undefined);
    if (unknown.length) throw error(`on.${type}: ${unknown.join(', ')} is not provided by Cairn (it takes select, populate)`);
    const select = spec.select === undefined ? undefined : Array.isArray(spec.select) ? spec.select.map(String) : [String(spec.select)];
    on.set(type, { select, populate: spec.populate });
  }
  return { on, each };
}

/** Reads rows of one type as the populate says: shaped, populated in turn (the engine's, given by the caller). */
export type TypeReader = (schema: Schema, raw: Record<string, unknown>[], populate: TypePopulate) => Promise<Record<string, unknown>[]>;

/**
 * A morphToOne's or morphToMany's linked rows of `owners`, by owner in list order, each `{ ...row, __type }` as
 * Strapi's morphToOne / morphToMany populate answers them. A link to a row gone, or to a type the app no longer has
 * or `on` leaves out, gives nothing. One statement for the links, then one per type.
 */
export async function morphTargetRows(
  db: Database,
  model: Model,
  schema: Schema,
  attribute: Attribute,
  owners: readonly number[],
  morph: MorphPopulate,
  read: TypeReader,
): Promise<Map<number, Record<string, unknown>[]>> {
  const links: MorphTarget[] =
    attribute.kind === 'morph' && attribute.relation === 'morphToMany'
      ? await morphListTargets(db, morphTableOf(schema, attribute.name), owners)
      : await morphToOneTargets(db, schema.table, owners);
  const wanted = links.filter((link) => !morph.on || morph.on.has(link.type));
  const rowsByType = new Map<string, Map<number, Record<string, unknown>>>();
  for (const type of new Set(wanted.map((link) => link.type))) {
    const target: Schema | undefined = model.contentTypes.get(type) ?? model.components.get(type);
    if (!target) continue;
    const spec = morph.on?.get(type) ?? morph.each;
    const ids = [...new Set(wanted.filter((link) => link.type === type).map((link) => link.id))];
    const raw = await selectRows(db, model, target, { filter: parseRowWhere(model, target, { id: { $in: ids } }), columns: columnsOf(target, spec.select), orderBy: [] });
    const rows = await read(target, raw, spec);
    rowsByType.set(type, new Map(rows.map((row) => [Number(row.id), row])));
  }
  const byOwner = new Map<number, Record<string, unknown>[]>();
  for (const link of wanted) {
    const row = rowsByType.get(link.type)?.get(link.id);
    // Spread first, as Strapi does, so that an attribute named __type cannot hide the link's type.
    if (row) byOwner.set(link.owner, [...(byOwner.get(link.owner) ?? []), { ...row, __type: link.type }]);
  }
  return byOwner;
}

/**
 * A morphOne's or morphMany's rows (of its `target`, whose `morphBy` attribute links `related` rows of `schema`): as
 * Strapi's morphX, without `__type`. Through a morphToMany, only links written from this inverse side count.
 */
export async function inverseMorphRows(db: Database, model: Model, schema: Schema, attribute: MorphAttribute, related: readonly number[], columns: readonly FieldRef[]): Promise<LinkedRow[]> {
  const owner = model.contentTypes.get(attribute.target!)!;
  const by = owner.attributes.get(attribute.morphBy!) as MorphAttribute;
  if (by.relation === 'morphToMany') return morphListOwnerRows(db, owner, morphTableOf(owner, by.name), related, schema.uid, attribute.name, columns);
  return morphToOneOwnerRows(db, owner, related, schema.uid, columns);
}

/** The columns read of a linked type: all, or those selected with `id` (links are matched by it). */
function columnsOf(schema: Schema, select: string[] | undefined): FieldRef[] {
  const fields = rowFields(schema);
  if (!select) return fields;
  const unknown = select.filter((name) => !fields.some((f) => f.name === name));
  if (unknown.length) throw new Error(`populate: select ${unknown.join(', ')}: not a column of ${schema.uid}`);
  return fields.filter((f) => f.name === 'id' || select.includes(f.name));
}
