import {
  GraphQLID,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  getNamedType,
  type GraphQLFieldConfigMap,
  type GraphQLFieldResolver,
  type GraphQLOutputType,
} from 'graphql';
import type { Component, ContentType } from '../../model/types.js';
import type { OutputValue } from '../../query/index.js';
import type { ReadStyle } from '../read-selection.js';
import { fieldGroups, mergedSelection, restFilters } from '../selection.js';

/**
 * What Strapi 5's two schemas differ in, for the types (../schema-types.ts) and the root fields (shape.ts) of both. Without
 * `v4CompatibilityMode` entries are flat: `documentId` and the attributes, lists in `nodes`. With it, Strapi 5 keeps
 * every operation and adds deprecated v4-style fields that lead back to the same values: an entry's `attributes`
 * and `data` are the entry itself, its `id` the row's id; a collection's `data` is its `nodes` and `meta` holds
 * `pagination` (its `pageInfo`). So `{ articles_connection { data { documentId attributes { title } } } }` works.
 */
export interface FlatShape {
  /** How a selection is read (relations, `_connection` twins, the entry's own wrapper fields). */
  readonly style: ReadStyle;
  /** The fields of a collection that list its entries: `nodes` (and `data`). */
  readonly listFields: ReadonlySet<string>;
  /** Fields an entry's or a component's type has before its attributes. */
  entryFields(schema: ContentType | Component, self: () => GraphQLObjectType): GraphQLFieldConfigMap<unknown, unknown>;
  /** Fields of a `<Type>EntityResponseCollection` (`pagination` given) or `<Type>RelationResponseCollection` besides `nodes` and `pageInfo`. */
  collectionFields(items: GraphQLOutputType, pagination?: GraphQLObjectType): GraphQLFieldConfigMap<unknown, unknown>;
}

/** Strapi 5's schema (`compat`: with `v4CompatibilityMode: true`), for one schema build (it memoizes a type). */
export function flatShape(compat: boolean): FlatShape {
  const listFields = new Set(compat ? ['nodes', 'data'] : ['nodes']);
  const selfFields = new Set(compat ? ['attributes', 'data'] : []);
  const style = flatStyle(listFields, selfFields);
  const idFields = (schema: ContentType | Component): GraphQLFieldConfigMap<unknown, unknown> =>
    schema.modelType === 'component' ? { id: { type: new GraphQLNonNull(GraphQLID) } } : { documentId: { type: new GraphQLNonNull(GraphQLID) } };
  if (!compat) return { style, listFields, entryFields: idFields, collectionFields: () => ({}) };

  let meta: GraphQLObjectType | undefined;
  return {
    style,
    listFields,
    entryFields(schema, self) {
      const wrapper = { type: new GraphQLNonNull(self()), deprecationReason: 'Use root level fields instead', resolve: entryItself };
      return {
        ...(schema.modelType === 'contentType' ? { id: { type: new GraphQLNonNull(GraphQLID), deprecationReason: 'Use `documentId` instead' } } : {}),
        ...idFields(schema),
        attributes: wrapper,
        data: wrapper,
      };
    },
    collectionFields(items, pagination) {
      const fields: GraphQLFieldConfigMap<unknown, unknown> = {
        data: { type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(items))), deprecationReason: 'Use `nodes` field instead', resolve: (c) => (c as { nodes: unknown }).nodes },
      };
      if (pagination) {
        meta ??= new GraphQLObjectType({ name: 'ResponseCollectionMeta', fields: { pagination: { type: new GraphQLNonNull(pagination) } } });
        fields.meta = { type: new GraphQLNonNull(meta), deprecationReason: 'Use the `pageInfo` field instead', resolve: (c) => ({ pagination: (c as { pageInfo: unknown }).pageInfo }) };
      }
      return fields;
    },
  };
}

/**
 * Strapi 5's reading of a selection: a relation field holds its targets directly (an entry, or a list), or
 * `{ nodes }` in its `_connection` twin; nested lists follow the request's status; filters name `documentId`
 * themselves. `selfFields` (compatibility mode's `attributes`, `data`) are the entry again.
 */
function flatStyle(listFields: ReadonlySet<string>, selfFields: ReadonlySet<string>): ReadStyle {
  return {
    attributeOf: (fieldName) => (fieldName.endsWith(CONNECTION) ? fieldName.slice(0, -CONNECTION.length) : fieldName),
    isSelf: (fieldName) => selfFields.has(fieldName),
    relation(fieldType, nodes, key, info) {
      if (!nodes[0].name.value.endsWith(CONNECTION)) return { type: fieldType, selection: mergedSelection(nodes), item: (fields) => fields, value: { kind: 'populate', key } };
      const groups = fieldGroups(mergedSelection(nodes), fieldType.name, info);
      const lists = groups.filter(([, group]) => listFields.has(group[0].name.value));
      const shape: Array<[string, OutputValue]> = groups.map(([responseKey, group]) => [
        responseKey,
        group[0].name.value === '__typename' ? { kind: 'literal', value: fieldType.name } : { kind: 'populate', key },
      ]);
      return {
        type: getNamedType(fieldType.getFields().nodes.type) as GraphQLObjectType,
        selection: mergedSelection(lists.flatMap(([, group]) => group)),
        item: (fields) => fields,
        // Several keys listing the entries (`nodes` and `data`, or aliases) would each need the list: resolvers answer.
        value: lists.length > 1 ? undefined : { kind: 'object', shape },
      };
    },
    filters: (_model, _target, raw) => restFilters(raw),
    version: () => ({}),
  };
}

/**
 * The resolver of an entry's `attributes` / `data` (compatibility mode): the entry itself, as the selection under
 * that key was read. Populated values read under it are keyed `<key>.<field>` (read-selection.ts keeps them apart
 * from the entry's own), so its view has them under their field's key.
 */
export const entryItself: GraphQLFieldResolver<unknown, unknown> = (parent, _args, _context, info) => {
  const entry = parent as Record<string, unknown>;
  const prefix = `${info.path.key}.`;
  const view: Record<string, unknown> = { ...entry };
  for (const [key, value] of Object.entries(entry)) if (key.startsWith(prefix)) view[key.slice(prefix.length)] = value;
  return view;
};

const CONNECTION = '_connection';
