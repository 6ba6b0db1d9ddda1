import type { Component, ContentType, Model, RelationAttribute } from '../../model/types.js';
import { snakeCase } from '../../model/names.js';

/**
 * Strapi 5's names for the tables and columns that hold relations, by its own rules
 * (`@strapi/database` `metadata/relations.js`, `createJoinTable`; see docs/strapi-5-layout.md, 4): one join
 * table per owning relation, joining version rows by id, with order columns only on the sides Strapi orders.
 */
export interface JoinTable {
  /** `<collectionName>_<attribute>_lnk`. */
  name: string;
  /** The owner's row: `<owner singular>_id`. */
  ownerColumn: string;
  /** The target's row: `<target singular>_id`, or `inv_<singular>_id` on a self-relation. */
  targetColumn: string;
  /** The target's position in the owner's list (`<target singular>_ord`): anyToMany relations only. */
  orderColumn?: string;
  /** The owner's position in the target's list (`<owner singular>_ord`): bidirectional manyToAny relations only. */
  inverseOrderColumn?: string;
}

/** How a relation attribute reaches its targets: through its own join table, or the owner's read backwards. */
export interface RelationJoin {
  table: JoinTable;
  /** 'owner': this attribute's rows are `ownerColumn`; 'inverse': they are `targetColumn` (a mappedBy side). */
  side: 'owner' | 'inverse';
}

const TO_MANY = new Set(['oneToMany', 'manyToMany', 'manyWay']);
const MANY_TO = new Set(['manyToOne', 'manyToMany']);

/** The name Strapi gives a schema's rows in link columns: a content type's singular name, a component's file name. */
export function singularOf(schema: ContentType | Component): string {
  return schema.modelType === 'contentType' ? schema.info.singularName : schema.uid.slice(schema.uid.indexOf('.') + 1);
}

/** The join table of an owning relation `attribute` of `owner`. */
export function joinTableOf(model: Model, owner: ContentType | Component, attribute: RelationAttribute): JoinTable {
  const target = model.contentTypes.get(attribute.target);
  if (!target) throw new Error(`unknown relation target ${attribute.target}`);
  const ownerName = snakeCase(singularOf(owner));
  const targetName = snakeCase(singularOf(target));
  const ownerColumn = `${ownerName}_id`;
  const targetColumn = ownerColumn === `${targetName}_id` ? `inv_${targetName}_id` : `${targetName}_id`;
  const bidirectional = attribute.inversedBy !== undefined;
  const orderColumn = TO_MANY.has(attribute.relation) ? `${targetName}_ord` : undefined;
  let inverseOrderColumn = bidirectional && MANY_TO.has(attribute.relation) ? `${ownerName}_ord` : undefined;
  if (attribute.relation === 'manyToMany' && inverseOrderColumn === orderColumn) inverseOrderColumn = `inv_${inverseOrderColumn}`;
  return { name: `${owner.table}_${snakeCase(attribute.name)}_lnk`, ownerColumn, targetColumn, orderColumn, inverseOrderColumn };
}

/** The join table a relation attribute reads, and from which side. */
export function relationJoin(model: Model, schema: ContentType | Component, attribute: RelationAttribute): RelationJoin {
  if (attribute.owner) return { table: joinTableOf(model, schema, attribute), side: 'owner' };
  const owner = model.contentTypes.get(attribute.target);
  const owning = attribute.mappedBy === undefined ? undefined : owner?.attributes.get(attribute.mappedBy);
  if (!owner || owning?.kind !== 'relation') throw new Error(`${schema.uid}.${attribute.name}: no owning side ${attribute.target}.${attribute.mappedBy}`);
  return { table: joinTableOf(model, owner, owning), side: 'inverse' };
}

/** Strapi's one table for every media field of every type: rows `(file_id, related_id, related_type, field, order)`. */
export const MEDIA_MORPH_TABLE = 'files_related_mph';
