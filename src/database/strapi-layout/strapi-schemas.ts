import type { Attribute, Component, ContentType, Model } from '../../model/types.js';
import { BUILTIN_STRAPI_SCHEMAS } from './builtin-schemas.js';
import type { StrapiAttribute, StrapiSchema } from './schema.js';
import { singularOf, strapiRelationKind } from './names.js';

/**
 * Every schema whose tables Strapi makes for this model: the app's content types and components, and Strapi's own
 * (builtin-schemas.ts), which replace the model's definitions of the same uids (Cairn's files, users and roles).
 */
export function strapiSchemasOf(model: Model): StrapiSchema[] {
  const builtin = new Set(BUILTIN_STRAPI_SCHEMAS.map((s) => s.uid));
  const own = [...model.contentTypes.values(), ...model.components.values()].filter((s) => !builtin.has(s.uid));
  return [...BUILTIN_STRAPI_SCHEMAS, ...own.map(fromModel)];
}

function fromModel(schema: ContentType | Component): StrapiSchema {
  return {
    uid: schema.uid,
    modelType: schema.modelType,
    collectionName: schema.collectionName ?? schema.table,
    singularName: singularOf(schema),
    attributes: [...schema.attributes.values()].flatMap((a) => attributeOf(schema, a) ?? []),
  };
}

function attributeOf(schema: ContentType | Component, attribute: Attribute): StrapiAttribute | undefined {
  const { name } = attribute;
  switch (attribute.kind) {
    case 'scalar':
      return { kind: 'scalar', name, type: attribute.type };
    case 'media':
      return { kind: 'media', name };
    case 'component':
    case 'dynamiczone':
      return { kind: 'component', name };
    case 'relation': {
      const relation = strapiRelationKind(attribute.relation);
      if (!relation) throw new Error(`${schema.uid}.${name}: a ${attribute.relation} relation has no table in Strapi's layout that Cairn plans`);
      return { kind: 'relation', name, relation, target: attribute.target, inversedBy: attribute.inversedBy, mappedBy: attribute.mappedBy };
    }
    case 'morph':
      // morphOne / morphMany read their target's columns or table: nothing of their own.
      if (attribute.relation === 'morphToMany') return { kind: 'morphToMany', name };
      if (attribute.relation === 'morphToOne') return { kind: 'morphToOne', name };
      return undefined;
  }
}
