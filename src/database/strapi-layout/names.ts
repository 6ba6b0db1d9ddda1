import type { Component, ContentType, Model, RelationAttribute, RelationKind } from '../../model/types.js';
import type { StrapiRelationKind } from './schema.js';
import * as ids from './identifiers.js';

/**
 * Strapi 5's names for the tables and columns that hold relations, by its own rules
 * (`@strapi/database` `metadata/relations.js`, `createJoinTable`; see docs/strapi-5-layout.md, 4): one join
 * table per owning relation, joining version rows by id, with order columns only on the sides Strapi orders.
 * Every name goes through Strapi's identifier rules (identifiers.ts), so long names are shortened as Strapi does.
 */
export interface JoinTable {
  /** `<table>_<attribute>_lnk`. */
  name: string;
  /** The owner's row: `<owner singular>_id`. */
  ownerColumn: string;
  /** The target's row: `<target singular>_id`, or `inv_<singular>_id` on a self-relation. */
  targetColumn: string;
  /** The target's position in the owner's list (`<target singular>_ord`): anyToMany relations only. */
  orderColumn?: string;
  /** The owner's position in the target's list (`<owner singular>_ord`): bidirectional manyToAny relations only. */
  inverseOrderColumn?: string;
  /** The owner's and the target's tables (what the link's foreign keys reference). */
  ownerTable: string;
  targetTable: string;
}

/** How a relation attribute reaches its targets: through its own join table, or the owner's read backwards. */
export interface RelationJoin {
  table: JoinTable;
  /** 'owner': this attribute's rows are `ownerColumn`; 'inverse': they are `targetColumn` (a mappedBy side). */
  side: 'owner' | 'inverse';
}

/** One side of a relation, as its names need it. */
export interface RelationSide {
  /** `collectionName` as the schema writes it. */
  collectionName: string;
  singularName: string;
}

/** Strapi's database layer knows four relation kinds: a one-way relation is the unidirectional form of one. */
const RELATION_KINDS: Partial<Record<RelationKind, StrapiRelationKind>> = {
  oneToOne: 'oneToOne',
  oneToMany: 'oneToMany',
  manyToOne: 'manyToOne',
  manyToMany: 'manyToMany',
  oneWay: 'oneToOne',
  manyWay: 'oneToMany',
};

/** The kind Strapi's database layer gives a Cairn relation; undefined for morph relations (no join table of this form). */
export const strapiRelationKind = (kind: RelationKind): StrapiRelationKind | undefined => RELATION_KINDS[kind];

const TO_MANY = new Set<StrapiRelationKind>(['oneToMany', 'manyToMany']);
const MANY_TO = new Set<StrapiRelationKind>(['manyToOne', 'manyToMany']);

/** The table Strapi makes for a schema: its collectionName, shortened to 55 characters when longer. */
export const strapiTableName = (collectionName: string): string => ids.tableName(collectionName);

/** The column of an attribute: its name in lodash's snake_case, shortened when longer than 55 characters. */
export const strapiColumnName = (attributeName: string): string => ids.columnName(ids.strapiSnakeCase(attributeName));

/** The name Strapi gives a schema's rows in link columns: a content type's singular name, a component's file name. */
export function singularOf(schema: ContentType | Component): string {
  return schema.modelType === 'contentType' ? schema.info.singularName : schema.uid.slice(schema.uid.indexOf('.') + 1);
}

/** The join table of an owning relation `attribute` (`bidirectional`: it has inversedBy) from `owner` to `target`. */
export function joinTableNames(owner: RelationSide, attribute: { name: string; relation: StrapiRelationKind; bidirectional: boolean }, target: RelationSide): JoinTable {
  const snake = ids.strapiSnakeCase;
  const ownerTable = strapiTableName(owner.collectionName);
  const ownerColumn = ids.joinColumnAttributeIdName(snake(owner.singularName));
  let targetColumn = ids.joinColumnAttributeIdName(snake(target.singularName));
  if (targetColumn === ownerColumn) targetColumn = ids.inverseJoinColumnAttributeIdName(snake(target.singularName));
  const orderColumn = TO_MANY.has(attribute.relation) ? ids.orderColumnName(snake(target.singularName)) : undefined;
  let inverseOrderColumn = attribute.bidirectional && MANY_TO.has(attribute.relation) ? ids.orderColumnName(snake(owner.singularName)) : undefined;
  if (attribute.relation === 'manyToMany' && inverseOrderColumn === orderColumn) inverseOrderColumn = ids.inverseOrderColumnName(snake(owner.singularName));
  return {
    // The owner's table name as Strapi's metadata holds it (already shortened), snake_cased again.
    name: ids.joinTableName(snake(ownerTable), snake(attribute.name)),
    ownerColumn,
    targetColumn,
    orderColumn,
    inverseOrderColumn,
    ownerTable,
    targetTable: strapiTableName(target.collectionName),
  };
}

/**
 * Join tables worked out, by model and attribute: a write asks for the same ones every time, and Strapi's naming
 * rules (lodash's snake_case on each part) cost more than the rest of the lookup. A model is frozen once built.
 */
const joinTables = new WeakMap<Model, WeakMap<RelationAttribute, JoinTable>>();

/** The join table of an owning relation `attribute` of `owner`. */
export function joinTableOf(model: Model, owner: ContentType | Component, attribute: RelationAttribute): JoinTable {
  let ofModel = joinTables.get(model);
  if (!ofModel) joinTables.set(model, (ofModel = new WeakMap()));
  let table = ofModel.get(attribute);
  if (!table) ofModel.set(attribute, (table = Object.freeze(namedJoinTable(model, owner, attribute))));
  return table;
}

function namedJoinTable(model: Model, owner: ContentType | Component, attribute: RelationAttribute): JoinTable {
  const target = model.contentTypes.get(attribute.target);
  if (!target) throw new Error(`unknown relation target ${attribute.target}`);
  const relation = strapiRelationKind(attribute.relation);
  if (!relation) throw new Error(`${owner.uid}.${attribute.name}: a ${attribute.relation} relation has no join table in Strapi's layout`);
  const side = (schema: ContentType | Component): RelationSide => ({ collectionName: schema.table, singularName: singularOf(schema) });
  return joinTableNames(side(owner), { name: attribute.name, relation, bidirectional: attribute.inversedBy !== undefined }, side(target));
}

/** The join table a relation attribute reads, and from which side. */
export function relationJoin(model: Model, schema: ContentType | Component, attribute: RelationAttribute): RelationJoin {
  if (attribute.owner) return { table: joinTableOf(model, schema, attribute), side: 'owner' };
  const owner = model.contentTypes.get(attribute.target);
  const owning = attribute.mappedBy === undefined ? undefined : owner?.attributes.get(attribute.mappedBy);
  if (!owner || owning?.kind !== 'relation') throw new Error(`${schema.uid}.${attribute.name}: no owning side ${attribute.target}.${attribute.mappedBy}`);
  return { table: joinTableOf(model, owner, owning), side: 'inverse' };
}

/**
 * Strapi's one table for every media field of every type: rows `(file_id, related_id, related_type, field, order)`;
 * `morphTableName('files', 'related')`, written out so that loading this module computes nothing (lodash loads on
 * first use).
 */
export const MEDIA_MORPH_TABLE = 'files_related_mph';

/** A morphToMany's table: `(<owner singular>_id, <attribute>_id, <attribute>_type, field, order)` (Strapi's createMorphToMany). */
export interface MorphTable {
  name: string;
  ownerTable: string;
  ownerColumn: string;
  idColumn: string;
  typeColumn: string;
}

/** The `_mph` table of morphToMany `attributeName` of `owner` (its collection and singular name). */
export function morphTableNames(owner: RelationSide, attributeName: string): MorphTable {
  const ownerTable = strapiTableName(owner.collectionName);
  return {
    name: ids.morphTableName(ownerTable, attributeName),
    ownerTable,
    ownerColumn: ids.morphColumnJoinTableIdName(owner.singularName),
    idColumn: ids.morphColumnAttributeIdName(attributeName),
    typeColumn: ids.morphColumnTypeName(attributeName),
  };
}

/** Morph tables worked out, by schema (frozen once built) and attribute name, as joinTables. */
const morphTables = new WeakMap<ContentType | Component, Map<string, MorphTable>>();

/** The `_mph` table of morphToMany `attributeName` of a content type of the model. */
export function morphTableOf(schema: ContentType | Component, attributeName: string): MorphTable {
  let ofSchema = morphTables.get(schema);
  if (!ofSchema) morphTables.set(schema, (ofSchema = new Map()));
  let table = ofSchema.get(attributeName);
  if (!table) ofSchema.set(attributeName, (table = Object.freeze(morphTableNames({ collectionName: schema.table, singularName: singularOf(schema) }, attributeName))));
  return table;
}

/** A morphToOne's columns on its owner's table: Strapi names them after `target`, whatever the attribute. */
export const MORPH_TO_ONE_COLUMNS = { id: 'target_id', type: 'target_type' } as const;
