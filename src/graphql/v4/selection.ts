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
import { parsePopulate, type OutputShape, type OutputValue, type PopulateContext, type PopulateNode } from '../../query/index.js';
import { componentTypeName } from '../names.js';
import { collectFields, fieldGroups, mergedSelection, restFilters } from '../selection.js';
import { nestedWindow } from '../limits.js';

/** What a v4 selection reads: scalar fields and a populate tree keyed by response key (aliases kept apart). */
export interface V4Read {
  fields: string[];
  populate: Map<string, PopulateNode>;
  /** The attributes object exactly as the response has it (compiled path), when `shaped` was asked. */
  shape: OutputShape;
  /** False when the selection needs field resolvers (an extension's field or config, an unreadable relation). */
  compilable: boolean;
}

export interface V4SelectionOptions {
  populate: PopulateContext;
  amountLimit: number;
  /** Put shapes into populate nodes (the compiled path) or not (field resolvers shape the answer). */
  shaped: boolean;
  /** `Type.field` keys an app customized (resolversConfig, its own resolvers): those need field resolvers. */
  customized: ReadonlySet<string>;
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
 * Walks the selection on `type` (the attributes of `schema`, a component, or a dynamic-zone member) and says what
 * to read. Relation arguments are validated by the REST populate parser (the same errors as REST); each
 * relation's `publicationState` becomes the node's version (v4 defaults nested lists of Draft & Publish types to
 * LIVE), its `pagination` (capped by amountLimit) the node's window.
 */
export function v4Selection(
  options: V4SelectionOptions,
  schema: ContentType | Component,
  type: GraphQLObjectType,
  selectionSet: SelectionSetNode | undefined,
  info: GraphQLResolveInfo,
): V4Read {
  const model = options.populate.model;
  const fields = new Set<string>();
  const populate = new Map<string, PopulateNode>();
  const shape: Array<[string, OutputValue]> = [];
  let compilable = true;
  // A field an extension added to the type (not generated here): its resolver may read any attribute.
  let extended = false;
  const nested = (read: V4Read) => {
    compilable &&= read.compilable;
    return options.shaped ? { shape: read.shape } : {};
  };
  for (const [key, nodes] of fieldGroups(selectionSet, type.name, info)) {
    const name = nodes[0].name.value;
    const attribute = schema.attributes.get(name);
    const field = type.getFields()[name];
    if (options.customized.has(`${type.name}.${name}`)) compilable = false;
    if (name === '__typename') {
      shape.push([key, { kind: 'literal', value: type.name }]);
      continue;
    }
    if (!field) {
      extended = true;
      compilable = false;
      continue;
    }
    if (name === 'id' || SYSTEM_FIELDS.has(name) || attribute?.kind === 'scalar') {
      if (name !== 'id') fields.add(name);
      const as = name === 'id' ? 'string' : attribute?.kind === 'scalar' && attribute.type === 'biginteger' ? 'number' : undefined;
      shape.push([key, { kind: 'field', name, ...(as ? { as } : {}) }]);
      continue;
    }
    const alias = key === name ? {} : { attribute: name };
    const namedType = getNamedType(field.type);
    const selection = mergedSelection(nodes);
    if (attribute?.kind === 'component' && isObjectType(namedType)) {
      const sub = v4Selection(options, model.components.get(attribute.component)!, namedType, selection, info);
      populate.set(key, { ...alias, fields: sub.fields, populate: sub.populate, ...nested(sub) });
      shape.push([key, { kind: 'populate', key }]);
    } else if (attribute?.kind === 'dynamiczone' && isUnionType(namedType)) {
      const on = new Map<string, PopulateNode>();
      for (const member of namedType.getTypes()) {
        const component = attribute.components.map((uid) => model.components.get(uid)!).find((c) => componentTypeName(c) === member.name);
        if (!component) continue;
        const sub = v4Selection(options, component, member, selection, info);
        on.set(component.uid, { fields: sub.fields, populate: sub.populate, ...nested(sub) });
      }
      populate.set(key, { ...alias, populate: new Map(), on });
      shape.push([key, { kind: 'populate', key }]);
    } else if (isObjectType(namedType)) {
      const target = name === 'localizations' ? (schema as ContentType) : model.contentTypes.get((attribute as { target: string }).target)!;
      const args = getArgumentValues(field, nodes[0], info.variableValues) as { filters?: unknown; sort?: unknown; publicationState?: string; pagination?: Record<string, number> };
      const parsed = parsePopulate(options.populate, schema, { [name]: relationParams(model, target, args) }).get(name);
      if (!parsed) {
        // A type the caller may not find: the field answers null / an empty list (by its resolver).
        compilable = false;
        continue;
      }
      const sub = v4Selection(options, target, attributesType(namedType), attributesSelection(namedType, nodes, info), info);
      const item = entityShape(namedType, nodes, sub.shape, info);
      const wrapper = wrapperShape(namedType, nodes, key, info);
      if (!item || !wrapper) compilable = false;
      const toMany = 'args' in field && field.args.some((a) => a.name === 'pagination');
      populate.set(key, {
        ...parsed,
        ...alias,
        ...version(target, args),
        ...(toMany ? { window: nestedWindow(args.pagination, options.amountLimit) } : {}),
        fields: sub.fields,
        populate: sub.populate,
        ...(options.shaped && item ? { shape: item } : {}),
      });
      compilable &&= sub.compilable;
      shape.push([key, { kind: 'object', shape: wrapper ?? [] }]);
    }
  }
  if (extended) {
    for (const attribute of schema.attributes.values()) if (attribute.kind === 'scalar' && !schema.privateAttributes.has(attribute.name)) fields.add(attribute.name);
  }
  return { fields: [...fields], populate, shape, compilable };
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
