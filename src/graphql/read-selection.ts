import {
  getArgumentValues,
  getNamedType,
  isObjectType,
  isUnionType,
  type FieldNode,
  type GraphQLField,
  type GraphQLObjectType,
  type GraphQLResolveInfo,
  type SelectionSetNode,
} from 'graphql';
import type { Component, ContentType, Model } from '../model/types.js';
import { parsePopulate, type Filter, type OutputShape, type OutputValue, type PopulateContext, type PopulateNode } from '../query/index.js';
import { componentTypeName, typeName } from './names.js';
import { fieldGroups, mergedSelection } from './selection.js';
import { nestedWindow } from './limits.js';
import type { PageSizes } from './config.js';

/** What a selection reads: scalar fields and a populate tree keyed by response key (aliases kept apart). */
export interface SelectionRead {
  fields: string[];
  populate: Map<string, PopulateNode>;
  /** The object exactly as the response has it (compiled path). */
  shape: OutputShape;
  /** False when the selection needs field resolvers (an extension's field or config, an unreadable relation). */
  compilable: boolean;
}

export interface ReadSelectionOptions {
  populate: PopulateContext;
  amountLimit: number;
  /** `defaultLimit` and `maxLimit` of this request (graphql/config.ts): nested lists' windows. */
  pageSizes: PageSizes;
  /** Put shapes into populate nodes (the compiled path) or not (field resolvers shape the answer). */
  shaped: boolean;
  /** `Type.field` keys an app customized (resolversConfig, its own resolvers): those need field resolvers. */
  customized: ReadonlySet<string>;
  /**
   * The root query's `publicationFilter` (or `hasPublishedVersion`): Strapi's association resolvers apply it to
   * the related entries of Draft & Publish types too, at every depth.
   */
  publication?: Filter;
}

/** What differs between the v4 and v5 shapes when a selection is read. */
export interface ReadStyle {
  /** The attribute a field of an entry type reads (`restaurants_connection` → `restaurants` in v5). */
  attributeOf(fieldName: string): string;
  /** Whether a field of an entry (or component) type is that entry again (Strapi 5's compatibility `attributes`, `data`). */
  isSelf?(fieldName: string): boolean;
  /** How a relation field's value wraps its targets, and where their own selection is. */
  relation(
    fieldType: GraphQLObjectType,
    nodes: FieldNode[],
    key: string,
    info: GraphQLResolveInfo,
  ): {
    /** The type the targets' fields are selected on, and that selection. */
    type: GraphQLObjectType;
    selection: SelectionSetNode;
    /** One target's JSON, from the shape of its fields (undefined: only field resolvers can answer). */
    item(fields: OutputShape): OutputShape | undefined;
    /** The field's value on the parent (undefined: only field resolvers can answer). */
    value: OutputValue | undefined;
  };
  /** Filter arguments → REST filters. */
  filters(model: Model, target: ContentType | Component, raw: unknown): unknown;
  /** The version of the targets a relation's arguments ask for (nothing: the request's). */
  version(target: ContentType, args: Record<string, unknown>): Partial<PopulateNode>;
}

const SYSTEM_FIELDS = new Set(['createdAt', 'updatedAt', 'publishedAt', 'locale']);

/**
 * Walks the selection on `type` (an entry's fields, a component, or a dynamic-zone member) and says what to read:
 * scalar fields, and a populate tree keyed by response key (aliases of one relation with different arguments are
 * read apart), with, for the compiled path, the exact JSON of the answer. Relation arguments are validated by the
 * REST populate parser (the same errors as REST); their `pagination` (capped by amountLimit) is the node's window,
 * read in SQL.
 */
export function readSelection(
  style: ReadStyle,
  options: ReadSelectionOptions,
  schema: ContentType | Component,
  type: GraphQLObjectType,
  selectionSet: SelectionSetNode | undefined,
  info: GraphQLResolveInfo,
  /**
   * Prefix of the populate keys: the selection under a field that is the entry again (`data { author { name } }`)
   * is read with its key (`data.author`), apart from the entry's own `author`, which may select other fields or
   * pass other arguments.
   */
  prefix = '',
): SelectionRead {
  const model = options.populate.model;
  const fields = new Set<string>();
  const populate = new Map<string, PopulateNode>();
  const shape: Array<[string, OutputValue]> = [];
  let compilable = true;
  // A field an extension added to the type (not generated here): its resolver may read any attribute.
  let extended = false;
  const nested = (read: SelectionRead) => {
    compilable &&= read.compilable;
    return options.shaped ? { shape: read.shape } : {};
  };
  for (const [key, nodes] of fieldGroups(selectionSet, type.name, info)) {
    const fieldName = nodes[0].name.value;
    const name = style.attributeOf(fieldName);
    const attribute = schema.attributes.get(name);
    const field = type.getFields()[fieldName];
    if (options.customized.has(`${type.name}.${fieldName}`)) compilable = false;
    if (fieldName === '__typename') {
      shape.push([key, { kind: 'literal', value: type.name }]);
      continue;
    }
    if (!field) {
      extended = true;
      compilable = false;
      continue;
    }
    if (style.isSelf?.(fieldName)) {
      const self = readSelection(style, options, schema, type, mergedSelection(nodes), info, `${prefix}${key}.`);
      for (const name of self.fields) fields.add(name);
      for (const [populateKey, node] of self.populate) populate.set(populateKey, node);
      compilable &&= self.compilable;
      shape.push([key, { kind: 'object', shape: self.shape }]);
      continue;
    }
    if (name === 'id' || name === 'documentId' || SYSTEM_FIELDS.has(name) || attribute?.kind === 'scalar') {
      if (name !== 'id' && name !== 'documentId') fields.add(name);
      const as = name === 'id' ? 'string' : attribute?.kind === 'scalar' && attribute.type === 'biginteger' ? 'number' : undefined;
      shape.push([key, { kind: 'field', name, ...(as ? { as } : {}) }]);
      continue;
    }
    const populateKey = `${prefix}${key}`;
    const alias = populateKey === name ? {} : { attribute: name };
    const namedType = getNamedType(field.type);
    const selection = mergedSelection(nodes);
    if (attribute?.kind === 'component' && isObjectType(namedType)) {
      const component = model.components.get(attribute.component)!;
      const sub = readSelection(style, options, component, namedType, selection, info);
      // A repeatable component's list arguments: its items filtered, sorted and windowed as a relation's.
      const list = attribute.repeatable ? listArguments(style, model, options, schema, name, component, field, nodes[0]!, info) : {};
      populate.set(populateKey, { ...list, ...alias, fields: sub.fields, populate: sub.populate, ...nested(sub) });
      shape.push([key, { kind: 'populate', key: populateKey }]);
    } else if (attribute?.kind === 'dynamiczone' && isUnionType(namedType)) {
      const on = new Map<string, PopulateNode>();
      for (const member of namedType.getTypes()) {
        const component = attribute.components.map((uid) => model.components.get(uid)!).find((c) => componentTypeName(c) === member.name);
        if (!component) continue;
        const sub = readSelection(style, options, component, member, selection, info);
        on.set(component.uid, { fields: sub.fields, populate: sub.populate, ...nested(sub) });
      }
      populate.set(populateKey, { ...alias, populate: new Map(), on });
      shape.push([key, { kind: 'populate', key: populateKey }]);
    } else if (attribute?.kind === 'morph' && attribute.target === undefined && isUnionType(namedType)) {
      // A morphToMany / morphToOne: each content type of the union read with its own selection (`... on Article`).
      const on = new Map<string, PopulateNode>();
      for (const member of namedType.getTypes()) {
        const target = [...model.contentTypes.values()].find((ct) => options.populate.canFind(ct.uid) && typeName(ct) === member.name);
        if (!target) continue;
        const sub = readSelection(style, options, target, member, selection, info);
        on.set(target.uid, { fields: sub.fields, populate: sub.populate, ...nested(sub) });
      }
      populate.set(populateKey, { ...alias, populate: new Map(), on });
      shape.push([key, { kind: 'populate', key: populateKey }]);
    } else if (isObjectType(namedType) && (attribute?.kind === 'relation' || attribute?.kind === 'media' || (attribute?.kind === 'morph' && attribute.target !== undefined) || name === 'localizations')) {
      const target = name === 'localizations' ? (schema as ContentType) : model.contentTypes.get((attribute as { target: string }).target)!;
      const args = listArgumentValues(field, nodes[0]!, info);
      const parsed = parsePopulate(options.populate, schema, { [name]: populateParams(style, model, target, args) }).get(name);
      if (!parsed) {
        // A type the caller may not find: its field's resolver answers (a relation's "Forbidden access"; media
        // populates for any caller).
        compilable = false;
        continue;
      }
      const relation = style.relation(namedType, nodes, populateKey, info);
      const sub = readSelection(style, options, target, relation.type, relation.selection, info);
      const item = relation.item(sub.shape);
      if (!item || !relation.value) compilable = false;
      const toMany = field.args.some((a) => a.name === 'pagination');
      const cascaded = options.publication && name !== 'localizations' && target.draftAndPublish ? options.publication : undefined;
      populate.set(populateKey, {
        ...parsed,
        ...(cascaded ? { filters: parsed.filters ? { kind: 'and' as const, items: [parsed.filters, cascaded] } : cascaded } : {}),
        ...alias,
        ...style.version(target, args),
        ...(toMany ? { window: nestedWindow(args.pagination, options.amountLimit, options.pageSizes) } : {}),
        fields: sub.fields,
        populate: sub.populate,
        ...(options.shaped && item ? { shape: item } : {}),
      });
      compilable &&= sub.compilable;
      if (relation.value) shape.push([key, relation.value]);
    }
  }
  if (extended) {
    for (const attribute of schema.attributes.values()) if (attribute.kind === 'scalar' && !schema.privateAttributes.has(attribute.name)) fields.add(attribute.name);
  }
  return { fields: [...fields], populate, shape, compilable };
}

type ListArguments = { filters?: unknown; sort?: unknown; pagination?: Record<string, number> };

function listArgumentValues(field: GraphQLField<unknown, unknown>, node: FieldNode, info: GraphQLResolveInfo): ListArguments {
  return getArgumentValues(field, node, info.variableValues) as ListArguments;
}

/** A list field's `filters` and `sort` as REST's populate params for its attribute (validated by parsePopulate). */
function populateParams(style: ReadStyle, model: Model, target: ContentType | Component, args: ListArguments): Record<string, unknown> {
  const params: Record<string, unknown> = {};
  if (args.filters) params.filters = style.filters(model, target, args.filters);
  const sort = Array.isArray(args.sort) ? args.sort : args.sort ? [args.sort] : [];
  if (sort.length) params.sort = sort;
  return params;
}

/** A repeatable component field's arguments as its populate node's filters, sort and window. */
function listArguments(
  style: ReadStyle,
  model: Model,
  options: ReadSelectionOptions,
  owner: ContentType | Component,
  name: string,
  component: Component,
  field: GraphQLField<unknown, unknown>,
  node: FieldNode,
  info: GraphQLResolveInfo,
): Partial<PopulateNode> {
  const args = listArgumentValues(field, node, info);
  const parsed = parsePopulate(options.populate, owner, { [name]: populateParams(style, model, component, args) }).get(name);
  return { ...(parsed?.filters ? { filters: parsed.filters } : {}), ...(parsed?.sort ? { sort: parsed.sort } : {}), window: nestedWindow(args.pagination, options.amountLimit, options.pageSizes) };
}
