import type { Attribute, Component, ContentType, Model } from '../../model/types.js';
import { BUILTIN_STRAPI_SCHEMAS } from './builtin-schemas.js';
import type { StrapiAttribute, StrapiSchema } from './schema.js';
import { singularOf, strapiRelationKind } from './names.js';

/**
 * Every schema whose tables Strapi makes for this model: the app's content types and components, and Strapi's own
 * (builtin-schemas.ts), which replace the model's definitions of the same uids (Cairn's files, users and roles).
 * A plugin type the app extends (`src/extensions`: the users-permissions user) is Strapi's own with the attributes
 * the extension adds: their columns, link tables and `_cmps` table, by the same rules as the app's.
 */
export function strapiSchemasOf(model: Model): StrapiSchema[] {
  const builtin = new Set(BUILTIN_STRAPI_SCHEMAS.map((s) => s.uid));
  const own = [...model.contentTypes.values(), ...model.components.values()].filter((s) => !builtin.has(s.uid));
  return [...BUILTIN_STRAPI_SCHEMAS.map((s) => withExtension(s, model.contentTypes.get(s.uid))), ...own.map(fromModel)];
}

/** Strapi's schema of a plugin type, with the attributes the model's (extended) definition has beyond it. */
function withExtension(schema: StrapiSchema, contentType: ContentType | undefined): StrapiSchema {
  if (!contentType) return schema;
  const names = new Set(schema.attributes.map((a) => a.name));
  const added = [...contentType.attributes.values()].filter((a) => !names.has(a.name));
  if (!added.length) return schema;
  return { ...schema, attributes: [...schema.attributes, ...added.flatMap((a) => attributeOf(contentType, a) ?? [])] };
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
