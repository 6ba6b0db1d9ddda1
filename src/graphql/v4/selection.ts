import {
  getNamedType,
  Kind,
  type FieldNode,
  type GraphQLObjectType,
  type GraphQLResolveInfo,
  type SelectionNode,
  type SelectionSetNode,
} from 'graphql';
import type { Component, ContentType, Model } from '../../model/types.js';
import type { OutputShape, OutputValue } from '../../query/index.js';
import { collectFields, fieldGroups, mergedSelection, restFilters } from '../selection.js';
import type { ReadStyle } from '../read-selection.js';

/**
 * The selections under `data { attributes { ... } }` of wrapper fields (`<Type>EntityResponse`,
 * `...ResponseCollection`), merged: `data` and `attributes` may each be selected several times, in fragments too.
 */
export function attributesSelection(wrapper: GraphQLObjectType, nodes: readonly FieldNode[], info: GraphQLResolveInfo): SelectionSetNode {
  const selections: SelectionNode[] = [];
  const entity = getNamedType(wrapper.getFields().data.type) as GraphQLObjectType;
  for (const node of nodes) {
    for (const data of collectFields(node.selectionSet, wrapper.name, info)) {
      if (data.name.value !== 'data') continue;
      for (const attributes of collectFields(data.selectionSet, entity.name, info)) {
        if (attributes.name.value === 'attributes' && attributes.selectionSet) selections.push(...attributes.selectionSet.selections);
      }
    }
  }
  return { kind: Kind.SELECTION_SET, selections };
}

/** The attributes type inside a wrapper (`ArticleEntityResponse` → `Article`). */
export function attributesType(wrapper: GraphQLObjectType): GraphQLObjectType {
  const entity = getNamedType(wrapper.getFields().data.type) as GraphQLObjectType;
  return getNamedType(entity.getFields().attributes.type) as GraphQLObjectType;
}

/**
 * The shape of an entity `{ id, attributes, __typename }` as the `data` selections under `wrapper` ask for it,
 * or undefined when aliases select `data`, `id` or `attributes` twice under different keys (field resolvers
 * answer those).
 */
export function entityShape(wrapper: GraphQLObjectType, nodes: readonly FieldNode[], attributes: OutputShape, info: GraphQLResolveInfo): OutputShape | undefined {
  const entity = getNamedType(wrapper.getFields().data.type) as GraphQLObjectType;
  const dataGroups = fieldGroups(mergedSelection(nodes), wrapper.name, info).filter(([, n]) => n[0].name.value === 'data');
  if (dataGroups.length > 1) return undefined;
  const shape: Array<[string, OutputValue]> = [];
  const seen = new Set<string>();
  for (const [key, group] of fieldGroups(mergedSelection(dataGroups[0]?.[1] ?? []), entity.name, info)) {
    const name = group[0].name.value;
    if (seen.has(name) && name !== '__typename') return undefined;
    seen.add(name);
    if (name === '__typename') shape.push([key, { kind: 'literal', value: entity.name }]);
    else if (name === 'id') shape.push([key, { kind: 'field', name: 'documentId' }]);
    else shape.push([key, { kind: 'object', shape: attributes }]);
  }
  return shape;
}

/**
 * The value of a wrapper field (`{ data, __typename }`) on the parent row, its `data` the populate node `key`,
 * or undefined when `data` is selected under several keys.
 */
export function wrapperShape(wrapper: GraphQLObjectType, nodes: readonly FieldNode[], key: string, info: GraphQLResolveInfo): OutputShape | undefined {
  const shape: Array<[string, OutputValue]> = [];
  for (const [responseKey, group] of fieldGroups(mergedSelection(nodes), wrapper.name, info)) {
    const name = group[0].name.value;
    if (name === '__typename') shape.push([responseKey, { kind: 'literal', value: wrapper.name }]);
    else if (shape.some(([, v]) => v.kind === 'populate')) return undefined;
    else shape.push([responseKey, { kind: 'populate', key }]);
  }
  return shape;
}

/**
 * The seed's shape: a relation field is a wrapper (`{ data, __typename }`) around entities (`{ id, attributes }`);
 * nested lists of Draft & Publish types read the version their `publicationState` names (default LIVE); `id` in
 * filters is the documentId.
 */
export const v4Style: ReadStyle = {
  attributeOf: (fieldName) => fieldName,
  relation(wrapper, nodes, key, info) {
    const wrapperValue = wrapperShape(wrapper, nodes, key, info);
    return {
      type: attributesType(wrapper),
      selection: attributesSelection(wrapper, nodes, info),
      item: (attributes) => entityShape(wrapper, nodes, attributes, info),
      value: wrapperValue && { kind: 'object', shape: wrapperValue },
    };
  },
  filters: (model, target, raw) => v4Filters(model, target, raw),
  version(target, args) {
    if (!target.draftAndPublish || args.publicationState === undefined) return {};
    return args.publicationState === 'PREVIEW' ? { status: 'draft', preview: true } : { status: 'published' };
  },
};

/**
 * v4 filter input → REST filters: operators get their `$`, and `id` of a content-type is its documentId (the
 * `id` v4 clients send is the one Cairn answers with).
 */
export function v4Filters(model: Model, schema: ContentType | Component, filters: unknown): unknown {
  if (filters === null || typeof filters !== 'object' || Array.isArray(filters)) return filters;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(filters)) {
    if (key === 'and' || key === 'or') out[`$${key}`] = Array.isArray(value) ? value.map((v) => v4Filters(model, schema, v)) : value;
    else if (key === 'not') out.$not = v4Filters(model, schema, value);
    else if (key === 'id' && schema.modelType === 'contentType') out.documentId = restFilters(value);
    else if (key === 'localizations' && schema.modelType === 'contentType') out[key] = v4Filters(model, schema, value);
    else {
      const attribute = schema.attributes.get(key);
      if (attribute?.kind === 'relation' || attribute?.kind === 'media') out[key] = v4Filters(model, model.contentTypes.get(attribute.target)!, value);
      else if (attribute?.kind === 'component') out[key] = v4Filters(model, model.components.get(attribute.component)!, value);
      else out[key] = restFilters(value);
    }
  }
  return out;
}
