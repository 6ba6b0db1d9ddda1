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
    collectionName: schema.table,
    singularName: singularOf(schema),
    attributes: [...schema.attributes.values()].map((a) => attributeOf(schema, a)),
  };
}

function attributeOf(schema: ContentType | Component, attribute: Attribute): StrapiAttribute {
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
      // Cairn's model allows morph relations on plugin types only, and none of its own has one.
      if (!relation) throw new Error(`${schema.uid}.${name}: a ${attribute.relation} relation has no table in Strapi's layout that Cairn plans`);
      return { kind: 'relation', name, relation, target: attribute.target, inversedBy: attribute.inversedBy, mappedBy: attribute.mappedBy };
    }
  }
}
