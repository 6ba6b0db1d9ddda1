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

/**
 * Both lists, worked out once per model (frozen once built): every write of a document asks for them, and the
 * incoming joins of a type walk the whole model.
 */
const owning = new WeakMap<Model, Map<ContentType | Component, readonly OwningJoin[]>>();
const incoming = new WeakMap<Model, Map<string, readonly OwningJoin[]>>();

function cached<K, V>(caches: WeakMap<Model, Map<K, V>>, model: Model, key: K, make: () => V): V {
  let ofModel = caches.get(model);
  if (!ofModel) caches.set(model, (ofModel = new Map()));
  let value = ofModel.get(key);
  if (value === undefined) ofModel.set(key, (value = make()));
  return value;
}

/** The join tables where `schema`'s rows are the owner: one per owning relation attribute. */
export function owningJoins(model: Model, schema: ContentType | Component): readonly OwningJoin[] {
  return cached(owning, model, schema, () => {
    const joins: OwningJoin[] = [];
    for (const attribute of schema.attributes.values()) {
      if (attribute.kind === 'relation' && hasJoinTable(attribute)) joins.push(Object.freeze({ owner: schema, attribute, table: joinTableOf(model, schema, attribute) }));
    }
    return Object.freeze(joins);
  });
}

/**
 * The join tables where rows of content type `uid` are the target: every owning relation, of any content type or
 * component in the model, that targets it (a self relation included: its table is also one of `owningJoins`).
 */
export function incomingJoins(model: Model, uid: string): readonly OwningJoin[] {
  return cached(incoming, model, uid, () => {
    const joins: OwningJoin[] = [];
    for (const schema of [...model.contentTypes.values(), ...model.components.values()]) {
      for (const join of owningJoins(model, schema)) if (join.attribute.target === uid) joins.push(join);
    }
    return Object.freeze(joins);
  });
}
