import {
  getArgumentValues,
  getNamedType,
  isObjectType,
  isUnionType,
  Kind,
  type FieldNode,
  type GraphQLObjectType,
  type GraphQLResolveInfo,
  type SelectionNode,
  type SelectionSetNode,
} from 'graphql';
import type { Component, ContentType, Model } from '../../model/types.js';
import { parsePopulate, type PopulateContext, type PopulateNode } from '../../query/index.js';
import { componentTypeName } from '../names.js';
import { collectFields, restFilters } from '../selection.js';

/** What a v4 selection reads: scalar fields and a populate tree keyed by response key (aliases kept apart). */
export interface V4Read {
  fields: string[];
  populate: Map<string, PopulateNode>;
}

const SYSTEM_FIELDS = new Set(['createdAt', 'updatedAt', 'publishedAt', 'locale']);

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
 * Walks the selection on `type` (the attributes of `schema`) and says what to read. Relation arguments are
 * validated by the REST populate parser (the same errors as REST); each relation's `publicationState` becomes
 * the node's version (v4 defaults nested lists of Draft & Publish types to LIVE).
 */
export function v4Selection(
  populateContext: PopulateContext,
  schema: ContentType | Component,
  type: GraphQLObjectType,
  selectionSet: SelectionSetNode | undefined,
  info: GraphQLResolveInfo,
): V4Read {
  const model = populateContext.model;
  const fields = new Set<string>();
  const populate = new Map<string, PopulateNode>();
  // A field an extension added to the type (not generated here): its resolver may read any attribute.
  let extended = false;
  for (const node of collectFields(selectionSet, type.name, info)) {
    const name = node.name.value;
    const key = node.alias?.value ?? name;
    const attribute = schema.attributes.get(name);
    const field = type.getFields()[name];
    if (name.startsWith('__') || name === 'id') continue;
    if (!field) {
      extended = true;
      continue;
    }
    if (SYSTEM_FIELDS.has(name) || attribute?.kind === 'scalar') {
      fields.add(name);
      continue;
    }
    const alias = key === name ? {} : { attribute: name };
    const namedType = getNamedType(field.type);
    if (attribute?.kind === 'component' && isObjectType(namedType)) {
      const sub = v4Selection(populateContext, model.components.get(attribute.component)!, namedType, node.selectionSet, info);
      populate.set(key, { ...alias, fields: sub.fields, populate: sub.populate });
    } else if (attribute?.kind === 'dynamiczone' && isUnionType(namedType)) {
      const on = new Map<string, PopulateNode>();
      for (const member of namedType.getTypes()) {
        const component = attribute.components.map((uid) => model.components.get(uid)!).find((c) => componentTypeName(c) === member.name);
        if (!component) continue;
        const sub = v4Selection(populateContext, component, member, node.selectionSet, info);
        on.set(component.uid, { fields: sub.fields, populate: sub.populate });
      }
      populate.set(key, { ...alias, populate: new Map(), on });
    } else if (isObjectType(namedType)) {
      const target = name === 'localizations' ? (schema as ContentType) : model.contentTypes.get((attribute as { target: string }).target)!;
      const args = getArgumentValues(field, node, info.variableValues) as { filters?: unknown; sort?: unknown; publicationState?: string };
      const parsed = parsePopulate(populateContext, schema, { [name]: relationParams(model, target, args) }).get(name);
      if (!parsed) continue; // a type the caller may not find: the field answers null / an empty list
      const sub = v4Selection(populateContext, target, attributesType(namedType), attributesSelection(namedType, [node], info), info);
      populate.set(key, { ...parsed, ...alias, ...version(target, args), fields: sub.fields, populate: sub.populate });
    }
  }
  if (extended) {
    for (const attribute of schema.attributes.values()) if (attribute.kind === 'scalar' && !schema.privateAttributes.has(attribute.name)) fields.add(attribute.name);
  }
  return { fields: [...fields], populate };
}

/** A relation's own filters and sort, as the REST populate parser takes them. */
function relationParams(model: Model, target: ContentType, args: { filters?: unknown; sort?: unknown }): Record<string, unknown> {
  const params: Record<string, unknown> = {};
  if (args.filters) params.filters = v4Filters(model, target, args.filters);
  const sort = Array.isArray(args.sort) ? args.sort : args.sort ? [args.sort] : [];
  if (sort.length) params.sort = sort;
  return params;
}

/** Lists of Draft & Publish targets read the version their `publicationState` names (default LIVE). */
function version(target: ContentType, args: { publicationState?: string }): Partial<PopulateNode> {
  if (!target.draftAndPublish || args.publicationState === undefined) return {};
  return args.publicationState === 'PREVIEW' ? { status: 'draft', preview: true } : { status: 'published' };
}

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
