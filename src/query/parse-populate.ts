import type { Attribute, Component, ContentType, Model } from '../model/types.js';
import { ValidationError } from '../errors/index.js';
import type { PopulateNode, PopulateTree } from './types.js';
import { asArray, isPlainObject } from './fields-of.js';
import { parseFields } from './parse-fields.js';
import { parseFilters } from './parse-filters.js';
import { parseSort } from './parse-sort.js';

export interface PopulateContext {
  model: Model;
  /** Whether the caller may `find` a content-type; populate omits the ones it may not. */
  canFind: (uid: string) => boolean;
}

type Schema = ContentType | Component;
type MutableTree = Map<string, PopulateNode>;

const invalidKey = (key: string, path: string) => ValidationError.invalidKey('populate', key, path);
const NODE_KEYS = new Set(['fields', 'filters', 'sort', 'populate', 'count', 'on']);
const isTrue = (v: unknown) => v === true || v === 'true';
const isFalse = (v: unknown) => v === false || v === 'false';

/** What can be populated on a schema: relations, media, components, dynamic zones (and localizations). */
function populatable(schema: Schema, name: string): Attribute | 'localizations' | undefined {
  if (name === 'localizations' && schema.modelType === 'contentType' && schema.localized) return 'localizations';
  const attribute = schema.attributes.get(name);
  if (!attribute || attribute.kind === 'scalar' || schema.privateAttributes.has(name)) return undefined;
  return attribute;
}

/** The schema whose rows a populated attribute returns (undefined for dynamic zones: one per component). */
function targetOf(ctx: PopulateContext, schema: Schema, attribute: Attribute | 'localizations'): Schema | undefined {
  if (attribute === 'localizations') return schema;
  if (attribute.kind === 'relation' || attribute.kind === 'media') return ctx.model.contentTypes.get(attribute.target);
  if (attribute.kind === 'component') return ctx.model.components.get(attribute.component);
  return undefined;
}

function allowed(ctx: PopulateContext, schema: Schema, attribute: Attribute | 'localizations'): boolean {
  if (attribute === 'localizations') return ctx.canFind((schema as ContentType).uid);
  if (attribute.kind === 'relation' || attribute.kind === 'media') return ctx.canFind(attribute.target);
  return true;
}

const emptyNode = (): PopulateNode => ({ populate: new Map() });

/**
 * Parses `populate` in every form Strapi v5 documents: `*`, `a,b`, `[a, b]`, dot paths `a.b.c`, and the object
 * form `{ a: true | { fields, filters, sort, populate, count, on } }`, at any depth.
 */
export function parsePopulate(ctx: PopulateContext, schema: Schema, raw: unknown, path = ''): PopulateTree {
  const tree: MutableTree = new Map();
  addPopulate(ctx, schema, raw, path, tree);
  return tree;
}

function addPopulate(ctx: PopulateContext, schema: Schema, raw: unknown, path: string, tree: MutableTree): void {
  if (raw === undefined || raw === '' || isFalse(raw)) return;
  if (raw === '*' || isTrue(raw)) {
    if (raw === '*') addStar(ctx, schema, tree);
    return;
  }
  if (typeof raw === 'string') {
    for (const item of raw.split(',')) addPath(ctx, schema, item.trim().split('.'), path, tree);
    return;
  }
  const list = asArray(raw);
  if (list) {
    for (const item of list) {
      if (typeof item !== 'string') throw invalidKey(String(item), path || String(item));
      addPopulate(ctx, schema, item, path, tree);
    }
    return;
  }
  if (!isPlainObject(raw)) throw invalidKey(String(raw), path);
  for (const [name, value] of Object.entries(raw)) {
    const here = path ? `${path}.${name}` : name;
    const attribute = populatable(schema, name);
    if (!attribute) throw invalidKey(name, here);
    if (isFalse(value)) continue;
    if (!allowed(ctx, schema, attribute)) continue;
    tree.set(name, mergeNodes(tree.get(name), parseNode(ctx, schema, attribute, value, here)));
  }
}

/** `populate=*`: every relation, media, component and dynamic zone one level deep (what the caller may find). */
function addStar(ctx: PopulateContext, schema: Schema, tree: MutableTree): void {
  const names = [...schema.attributes.keys()];
  if (schema.modelType === 'contentType' && schema.localized) names.push('localizations');
  for (const name of names) {
    const attribute = populatable(schema, name);
    if (!attribute || !allowed(ctx, schema, attribute)) continue;
    if (!tree.has(name)) tree.set(name, emptyNode());
  }
}

/** A dot path `address.geo`: each step populated, the last with its defaults. */
function addPath(ctx: PopulateContext, schema: Schema, steps: string[], path: string, tree: MutableTree): void {
  const [name, ...rest] = steps;
  if (name === '') return;
  if (name === '*' && rest.length === 0) return addStar(ctx, schema, tree);
  const here = path ? `${path}.${name}` : name;
  const attribute = populatable(schema, name);
  if (!attribute) throw invalidKey(name, here);
  if (!allowed(ctx, schema, attribute)) return;
  const node = (tree.get(name) as PopulateNode | undefined) ?? emptyNode();
  tree.set(name, node);
  if (!rest.length) return;
  const target = targetOf(ctx, schema, attribute);
  if (target) addPath(ctx, target, rest, here, node.populate as MutableTree);
  else if (attribute !== 'localizations' && attribute.kind === 'dynamiczone') {
    // A path below a dynamic zone applies to each of its components that has the attribute.
    const on = new Map(node.on ?? []);
    for (const uid of attribute.components) {
      const component = ctx.model.components.get(uid)!;
      if (!populatable(component, rest[0])) continue;
      const sub = on.get(uid) ?? emptyNode();
      addPath(ctx, component, rest, here, sub.populate as MutableTree);
      on.set(uid, sub);
    }
    tree.set(name, { ...node, on });
  }
}

function parseNode(ctx: PopulateContext, schema: Schema, attribute: Attribute | 'localizations', value: unknown, path: string): PopulateNode {
  if (isTrue(value)) return emptyNode();
  const target = targetOf(ctx, schema, attribute);
  const isDynamicZone = attribute !== 'localizations' && attribute.kind === 'dynamiczone';
  if (value === '*' || typeof value === 'string' || asArray(value)) {
    // `populate[a]=*` or `populate[a]=b,c`: what to populate inside `a`.
    return parseNode(ctx, schema, attribute, { populate: value }, path);
  }
  if (!isPlainObject(value)) throw invalidKey(String(value), path);
  for (const key of Object.keys(value)) {
    if (key === 'pagination') {
      throw new ValidationError(`Pagination is not allowed in populate (at ${path})`, { key, path, source: 'query', param: 'populate' });
    }
    if (!NODE_KEYS.has(key)) throw invalidKey(key, path);
  }
  const toMany = attribute === 'localizations' || (attribute.kind === 'relation' && attribute.toMany) || (attribute.kind === 'media' && attribute.multiple);
  const isRelation = attribute === 'localizations' || attribute.kind === 'relation' || attribute.kind === 'media';
  const node: { -readonly [K in keyof PopulateNode]: PopulateNode[K] } = { populate: new Map() };
  if (value.count !== undefined) {
    if (!toMany || !isRelation) throw invalidKey('count', path);
    if (isTrue(value.count)) node.count = true;
  }
  if (isDynamicZone) {
    if (value.fields !== undefined || value.filters !== undefined || value.sort !== undefined) {
      throw invalidKey(Object.keys(value).find((k) => k !== 'on' && k !== 'populate')!, path);
    }
    node.on = dynamicZoneOn(ctx, attribute.components, value, path);
    return node;
  }
  if (value.on !== undefined) throw invalidKey('on', path);
  if (!target) throw invalidKey(path, path);
  if (value.fields !== undefined) node.fields = parseFields(target, value.fields);
  if ((value.filters !== undefined || value.sort !== undefined) && !isRelation) {
    throw invalidKey(value.filters !== undefined ? 'filters' : 'sort', path);
  }
  if (value.filters !== undefined) node.filters = parseFilters(ctx.model, target, value.filters, '', ctx.canFind);
  if (value.sort !== undefined) node.sort = parseSort(ctx.model, target, value.sort, ctx.canFind);
  if (value.populate !== undefined) node.populate = parsePopulate(ctx, target, value.populate, path);
  return node;
}

/**
 * Dynamic zones: `on[<component>]` gives each named component its own strategy (others return their scalar
 * fields only); without `on`, `populate` applies to every component that has the attributes it names.
 */
function dynamicZoneOn(
  ctx: PopulateContext,
  components: readonly string[],
  value: Record<string, unknown>,
  path: string,
): ReadonlyMap<string, PopulateNode> {
  const on = new Map<string, PopulateNode>();
  if (value.on !== undefined) {
    if (!isPlainObject(value.on)) throw invalidKey('on', path);
    for (const [uid, sub] of Object.entries(value.on)) {
      if (!components.includes(uid)) throw invalidKey(uid, `${path}.on`);
      const component = ctx.model.components.get(uid)!;
      on.set(uid, isTrue(sub) ? emptyNode() : parseComponentNode(ctx, component, sub, `${path}.on.${uid}`));
    }
    return on;
  }
  for (const uid of components) {
    const component = ctx.model.components.get(uid)!;
    const sub = value.populate;
    const tree: MutableTree = new Map();
    if (sub === '*' || isTrue(sub)) addStar(ctx, component, tree);
    else if (sub !== undefined) {
      // Names that exist in this component only; a name no component has is still an error.
      const names = typeof sub === 'string' ? sub.split(',').map((s) => s.trim().split('.')[0]) : Object.keys(asArray(sub) ? {} : (sub as object));
      const known = names.filter((n) => populatable(component, n));
      if (known.length === names.length) addPopulate(ctx, component, sub, path, tree);
      else if (!components.some((c) => names.every((n) => populatable(ctx.model.components.get(c)!, n)))) {
        throw invalidKey(names.find((n) => !populatable(component, n))!, path);
      }
    }
    on.set(uid, { populate: tree });
  }
  return on;
}

function parseComponentNode(ctx: PopulateContext, component: Component, value: unknown, path: string): PopulateNode {
  if (value === '*') return { populate: parsePopulate(ctx, component, '*', path) };
  if (!isPlainObject(value)) throw invalidKey(String(value), path);
  for (const key of Object.keys(value)) if (key !== 'fields' && key !== 'populate') throw invalidKey(key, path);
  return {
    fields: value.fields !== undefined ? parseFields(component, value.fields) : undefined,
    populate: value.populate !== undefined ? parsePopulate(ctx, component, value.populate, path) : new Map(),
  };
}

/** Two mentions of the same attribute (`populate[0]=a&populate[a][fields]=x`) combine. */
function mergeNodes(a: PopulateNode | undefined, b: PopulateNode): PopulateNode {
  if (!a) return b;
  const populate = new Map(a.populate);
  for (const [k, v] of b.populate) populate.set(k, mergeNodes(populate.get(k), v));
  return { ...a, ...b, populate };
}
