import type { Component, ContentType, Model, RelationAttribute } from '../../model/types.js';
import { joinTableOf, strapiRelationKind, type JoinTable } from '../strapi-layout/names.js';

/**
 * Which join tables hold a schema's rows, by Strapi's rules (strapi-layout/names.ts). Morph relations have no join
 * table of this form and are left out (Cairn's model keeps them, Strapi's content types in this layout have none).
 */

/** An owning relation of a schema and its join table. */
export interface OwningJoin {
  owner: ContentType | Component;
  attribute: RelationAttribute;
  table: JoinTable;
}

const hasJoinTable = (attribute: RelationAttribute) => attribute.owner && strapiRelationKind(attribute.relation) !== undefined;

/** The join tables where `schema`'s rows are the owner: one per owning relation attribute. */
export function owningJoins(model: Model, schema: ContentType | Component): OwningJoin[] {
  const joins: OwningJoin[] = [];
  for (const attribute of schema.attributes.values()) {
    if (attribute.kind === 'relation' && hasJoinTable(attribute)) joins.push({ owner: schema, attribute, table: joinTableOf(model, schema, attribute) });
  }
  return joins;
}

/**
 * The join tables where rows of content type `uid` are the target: every owning relation, of any content type or
 * component in the model, that targets it (a self relation included: its table is also one of `owningJoins`).
 */
export function incomingJoins(model: Model, uid: string): OwningJoin[] {
  const joins: OwningJoin[] = [];
  for (const schema of [...model.contentTypes.values(), ...model.components.values()]) {
    for (const join of owningJoins(model, schema)) if (join.attribute.target === uid) joins.push(join);
  }
  return joins;
}
