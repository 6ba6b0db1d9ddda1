import type { Component, ContentType, Model } from '../model/types.js';
import { ADMIN_USER_UID, creatorColumn, systemContentType } from '../model/system-types.js';
import type { PopulateNode, PopulateTree } from './types.js';
import { describe, invalidKey, joinPath, queryError } from './errors.js';
import { asArray, isPlainObject } from './fields-of.js';
import { parseFields } from './parse-fields.js';
import { parseFilters } from './parse-filters.js';
import { parseSort } from './parse-sort.js';

export interface PopulateContext {
  model: Model;
  /** Whether the caller may `find` a content-type; populate omits the ones it may not (no error). */
  canFind: (uid: string) => boolean;
  /** Code's reads (the Document Service): private relations and fields are populated, filtered and sorted too. */
  withPrivate?: boolean;
}

type Schema = ContentType | Component;
type MutableNode = { -readonly [K in keyof PopulateNode]: PopulateNode[K] };
type MutableTree = Map<string, PopulateNode>;

/** What a populatable attribute leads to. */
type Slot =
  | { kind: 'relation'; target: ContentType; toMany: boolean }
  | { kind: 'component'; target: Component }
  | { kind: 'dynamiczone'; components: readonly string[] }
  /** morphToOne / morphToMany: rows of any content type (`on[<uid>]` gives one type its own strategy). */
  | { kind: 'morph'; toMany: boolean };

const isTrue = (v: unknown) => v === true || v === 'true' || v === '1';
const isFalse = (v: unknown) => v === false || v === 'false' || v === '0';
/** An attribute's own populate value (`populate[chef]=t`) also takes Strapi's `t` and `f`. */
const isTrueValue = (v: unknown) => isTrue(v) || v === 't';
const isFalseValue = (v: unknown) => isFalse(v) || v === 'f';
const PAGINATION_KEYS = new Set(['pagination', 'page', 'pageSize', 'start', 'limit']);
const KEYS: Record<Slot['kind'], ReadonlySet<string>> = {
  relation: new Set(['fields', 'filters', 'sort', 'populate', 'count']),
  component: new Set(['fields', 'filters', 'sort', 'populate']),
  dynamiczone: new Set(['on', 'populate']),
  morph: new Set(['on', 'populate', 'count']),
};

const emptyNode = (): PopulateNode => ({ populate: new Map() });

/**
 * How deep populate may nest: relations, components and dynamic-zone items each count as one level. The bracket
 * form reaches about this deep within qs's depth limit (two brackets per level); dot paths, which qs doesn't bound,
 * stop at the same depth. Far beyond real trees, and it keeps a crafted path from compiling a statement the
 * database refuses (SQLite's expression depth) or a stack the parser can't hold.
 */
export const MAX_POPULATE_DEPTH = 10;

const tooDeep = (path: string) =>
  queryError('populate', `Populate is nested too deeply at ${path}: at most ${MAX_POPULATE_DEPTH} levels`, path, path);

/** Throws when a branch of `tree` (sitting at `path`, `depth` levels down) goes deeper than MAX_POPULATE_DEPTH. */
function checkDepth(tree: PopulateTree, path: string | null, depth: number): void {
  for (const [name, node] of tree) {
    const here = joinPath(path, name);
    if (depth + 1 > MAX_POPULATE_DEPTH) throw tooDeep(here);
    checkDepth(node.populate, here, depth + 1);
    for (const [uid, strategy] of node.on ?? []) {
      if (depth + 2 > MAX_POPULATE_DEPTH) throw tooDeep(`${here}.on.${uid}`);
      checkDepth(strategy.populate, `${here}.on.${uid}`, depth + 2);
    }
  }
}

/**
 * Relations the Content API never answers though the caller may read their targets: users-permissions' output
 * sanitizer removes a role's `users` from every entry (Strapi 5's `removeUserRelationFromRoleEntities`), so a
 * populate of them is omitted, as one of a type the caller may not find. Filters and sorts through them stay.
 */
const NEVER_ANSWERED = new Map([['plugin::users-permissions.role', 'users']]);

/**
 * What `name` on `schema` populates: relations (to types the caller may find), media (to any caller), components, dynamic zones
 * and `localizations` (localized types). 'hidden': exists but the caller may not find its target (omitted).
 * Undefined: unknown, private, scalar, `createdBy`/`updatedBy` but for code (a 400, the same for each).
 */
function slotOf(ctx: PopulateContext, schema: Schema, name: string): Slot | 'hidden' | undefined {
  if (name === 'localizations' && schema.modelType === 'contentType' && schema.localized) {
    return ctx.canFind(schema.uid) ? { kind: 'relation', target: schema, toMany: true } : 'hidden';
  }
  // Strapi's creator fields (an admin user's row): app code populates them by name, as Strapi's Document Service does;
  // a request never (Strapi's Content API sanitizes them away), nor `*` (left to the Query Engine's).
  if (ctx.withPrivate && creatorColumn(schema, name)) return { kind: 'relation', target: systemContentType(ADMIN_USER_UID)!, toMany: false };
  const attribute = schema.attributes.get(name);
  if (!attribute || (!ctx.withPrivate && (attribute.private || schema.privateAttributes.has(name)))) return undefined;
  switch (attribute.kind) {
    case 'relation': {
      if (!ctx.canFind(attribute.target) || (!ctx.withPrivate && NEVER_ANSWERED.get(schema.uid) === name)) return 'hidden';
      return { kind: 'relation', target: ctx.model.contentTypes.get(attribute.target)!, toMany: attribute.toMany };
    }
    case 'media':
      // Media populates whatever the caller's upload permissions: Strapi's sanitizers restrict relations only
      // (`remove-restricted-relations` skips `type: 'media'`), and sites show their images to the Public role.
      return { kind: 'relation', target: ctx.model.contentTypes.get(attribute.target)!, toMany: attribute.multiple };
    case 'component':
      return { kind: 'component', target: ctx.model.components.get(attribute.component)! };
    case 'dynamiczone':
      return { kind: 'dynamiczone', components: attribute.components };
    case 'morph': {
      if (attribute.target === undefined) return { kind: 'morph', toMany: attribute.toMany };
      // morphOne / morphMany read rows of their target, as a relation does.
      if (!ctx.canFind(attribute.target)) return 'hidden';
      return { kind: 'relation', target: ctx.model.contentTypes.get(attribute.target)!, toMany: attribute.toMany };
    }
    default:
      return undefined;
  }
}

/**
 * Parses `populate` in every form Strapi v5 documents, at any depth: `*` (one level of everything), `a`, `a,b`,
 * `[a, b]`, dot paths `a.b.c` (through relations, components and dynamic zones), and the object form
 * `{ a: true | '*' | { fields, filters, sort, populate, count, on } }`. `path` is the attribute path of `schema`.
 */
export function parsePopulate(ctx: PopulateContext, schema: Schema, raw: unknown, path: string | null = null): PopulateTree {
  if (path === null) {
    const tree = populateTree(ctx, schema, raw, null);
    checkDepth(tree, null, 0);
    return tree;
  }
  return populateTree(ctx, schema, raw, path);
}

function populateTree(ctx: PopulateContext, schema: Schema, raw: unknown, path: string | null): PopulateTree {
  const tree: MutableTree = new Map();
  addPopulate(ctx, schema, raw, path, tree);
  return tree;
}

function addPopulate(ctx: PopulateContext, schema: Schema, raw: unknown, path: string | null, tree: MutableTree): void {
  if (raw === undefined || raw === null || raw === '' || isFalse(raw)) return;
  if (raw === '*' || raw === true) return addStar(ctx, schema, tree);
  if (typeof raw === 'string') {
    for (const item of raw.split(',')) {
      const text = item.trim();
      if (text === '') continue;
      const steps = text.split('.');
      // Checked before walking it: a path of thousands of steps would otherwise recurse that deep.
      if (steps.length > MAX_POPULATE_DEPTH) throw tooDeep(joinPath(path, text.length > 80 ? `${text.slice(0, 80)}…` : text));
      addPath(ctx, schema, steps, path, tree);
    }
    return;
  }
  const list = asArray(raw);
  if (list) {
    for (const item of list) {
      if (typeof item !== 'string') throw invalidPopulate(item, path);
      addPopulate(ctx, schema, item, path, tree);
    }
    return;
  }
  if (!isPlainObject(raw)) throw invalidPopulate(raw, path);
  for (const [name, value] of Object.entries(raw)) {
    // `populate[0]=a&populate[b][fields]=x` mixes list items into the object form.
    if (/^\d+$/.test(name) && typeof value === 'string') {
      addPopulate(ctx, schema, value, path, tree);
      continue;
    }
    const here = joinPath(path, name);
    const slot = slotOf(ctx, schema, name);
    if (!slot) throw invalidKey('populate', name, here);
    if (isFalseValue(value) || value === null || slot === 'hidden') continue;
    tree.set(name, mergeNodes(tree.get(name), parseNode(ctx, slot, value, here)));
  }
}

const invalidPopulate = (value: unknown, path: string | null) =>
  queryError(
    'populate',
    `Invalid populate parameter ${describe(value)}${path ? ` at ${path}` : ''}. Expected a string, an array of strings, a populate object`,
    path ?? 'populate',
    path,
  );

/** `populate=*`: every relation, media, component and dynamic zone one level deep (what the caller may find). */
function addStar(ctx: PopulateContext, schema: Schema, tree: MutableTree): void {
  const names = [...schema.attributes.keys()];
  if (schema.modelType === 'contentType' && schema.localized) names.push('localizations');
  for (const name of names) {
    const slot = slotOf(ctx, schema, name);
    if (slot && slot !== 'hidden' && !tree.has(name)) tree.set(name, slot.kind === 'morph' ? morphNode(ctx, slot, true, name) : emptyNode());
  }
}

/** A dot path `address.geo`: each step populated (first level), the last with its defaults. */
function addPath(ctx: PopulateContext, schema: Schema, steps: string[], path: string | null, tree: MutableTree): void {
  const [name, ...rest] = steps;
  if (name === '*' && rest.length === 0) return addStar(ctx, schema, tree);
  const here = joinPath(path, name);
  const slot = slotOf(ctx, schema, name);
  if (!slot) throw invalidKey('populate', name, here);
  if (slot === 'hidden') return;
  if (slot.kind === 'morph') {
    // A path through a morph relation has no type to follow (Strapi: a fragment, `on`).
    if (rest.length) throw invalidKey('populate', rest[0], here);
    tree.set(name, tree.get(name) ?? morphNode(ctx, slot, true, here));
    return;
  }
  const node: MutableNode = { ...(tree.get(name) ?? emptyNode()) };
  if (rest.length) {
    if (slot.kind === 'dynamiczone') {
      node.on = componentsWith(ctx, slot.components, here, node.on, (component, sub) => {
        if (!slotOf(ctx, component, rest[0])) return false;
        addPath(ctx, component, rest, here, sub);
        return true;
      }, rest[0]);
    } else {
      const populate = new Map(node.populate);
      addPath(ctx, slot.target, rest, here, populate);
      node.populate = populate;
    }
  }
  tree.set(name, node);
}

/**
 * Applies `apply` to each component of a dynamic zone that accepts it (returns true); a name no component has
 * is a 400. Returns the `on` map with a node per component.
 */
function componentsWith(
  ctx: PopulateContext,
  components: readonly string[],
  path: string,
  previous: ReadonlyMap<string, PopulateNode> | undefined,
  apply: (component: Component, tree: MutableTree) => boolean,
  name: string,
): ReadonlyMap<string, PopulateNode> {
  const on = new Map(previous ?? components.map((uid) => [uid, emptyNode()] as const));
  let used = false;
  for (const uid of components) {
    const component = ctx.model.components.get(uid)!;
    const node = on.get(uid) ?? emptyNode();
    const populate = new Map(node.populate);
    if (apply(component, populate)) {
      used = true;
      on.set(uid, { ...node, populate });
    }
  }
  if (!used) throw invalidKey('populate', name, joinPath(path, name));
  return on;
}

function parseNode(ctx: PopulateContext, slot: Slot, value: unknown, path: string): PopulateNode {
  if (slot.kind === 'morph') return morphNode(ctx, slot, value, path);
  if (isTrueValue(value)) return emptyNode();
  // `populate[a]=*`, `populate[a]=b,c`, `populate[a][0]=b`: what to populate inside `a`.
  if (typeof value === 'string' || asArray(value)) return parseNode(ctx, slot, { populate: value }, path);
  if (!isPlainObject(value)) throw invalidPopulate(value, path);
  for (const key of Object.keys(value)) {
    if (PAGINATION_KEYS.has(key)) {
      throw queryError('populate', `Pagination is not allowed in populate (at ${path})`, key, path);
    }
    if (key === 'count' && slot.kind === 'relation' && !slot.toMany) throw invalidKey('populate', key, path);
    if (!KEYS[slot.kind].has(key)) throw invalidKey('populate', key, path);
  }
  if (slot.kind === 'dynamiczone') return { populate: new Map(), on: dynamicZoneOn(ctx, slot.components, value, path) };
  const node: MutableNode = { populate: new Map() };
  const target = slot.target;
  if (value.count !== undefined) {
    if (isTrue(value.count)) node.count = true;
    else if (!isFalse(value.count)) throw queryError('populate', `Invalid count at ${path}: expected true or false`, 'count', path);
  }
  const withPrivate = ctx.withPrivate === true;
  if (value.fields !== undefined) node.fields = parseFields(target, value.fields, 'populate', path, withPrivate);
  if (value.filters !== undefined) node.filters = parseFilters(ctx.model, target, value.filters, path, ctx.canFind, 'populate', withPrivate);
  if (value.sort !== undefined) node.sort = parseSort(ctx.model, target, value.sort, ctx.canFind, 'populate', path, withPrivate);
  if (value.populate !== undefined) node.populate = parsePopulate(ctx, target, value.populate, path);
  return node;
}

/**
 * A morphToOne / morphToMany (Strapi's convert-query-params: only `on`, `count` and `populate: '*'`): the types read,
 * each with its strategy, in `on`. Without `on`, every content type the caller may find, one level (Strapi reads
 * every type a link names; its sanitizer drops those the caller may not read).
 */
function morphNode(ctx: PopulateContext, slot: Extract<Slot, { kind: 'morph' }>, value: unknown, path: string): PopulateNode {
  const everyType = () => new Map([...ctx.model.contentTypes.keys()].filter((uid) => ctx.canFind(uid)).map((uid) => [uid, emptyNode()] as const));
  if (isTrueValue(value) || value === '*') return { populate: new Map(), on: everyType() };
  if (!isPlainObject(value)) throw invalidPopulate(value, path);
  for (const key of Object.keys(value)) if (!KEYS.morph.has(key)) throw invalidKey('populate', key, path);
  if (value.populate !== undefined && value.populate !== null && value.populate !== '*' && !isTrueValue(value.populate)) {
    throw queryError(
      'populate',
      "Invalid nested population query detected. When using 'populate' within polymorphic structures, its value must be '*' to indicate all second level links. Specific field targeting is not supported here. Consider using the fragment API for more granular population control.",
      'populate',
      path,
    );
  }
  const node: MutableNode = { populate: new Map() };
  if (value.count !== undefined) {
    if (!slot.toMany) throw invalidKey('populate', 'count', path);
    if (isTrue(value.count)) node.count = true;
    else if (!isFalse(value.count)) throw queryError('populate', `Invalid count at ${path}: expected true or false`, 'count', path);
  }
  if (value.on === undefined) {
    node.on = everyType();
    return node;
  }
  if (!isPlainObject(value.on)) throw invalidKey('populate', 'on', path);
  const on = new Map<string, PopulateNode>();
  for (const [uid, strategy] of Object.entries(value.on)) {
    const target = ctx.model.contentTypes.get(uid);
    if (!target) throw invalidKey('populate', uid, `${path}.on`);
    if (isFalseValue(strategy) || strategy === null || !ctx.canFind(uid)) continue;
    on.set(uid, parseNode(ctx, { kind: 'relation', target, toMany: false }, strategy, `${path}.on.${uid}`));
  }
  node.on = on;
  return node;
}

/**
 * Dynamic zones. `on[<component>]` gives a named component its own strategy (true, '*', or `{ fields, populate }`);
 * `populate` (`*`, names, dot paths or objects) applies to every component that has the names it gives (a name no
 * component has is a 400). With `on` only, the components it does not name are left out, as in Strapi.
 */
function dynamicZoneOn(
  ctx: PopulateContext,
  components: readonly string[],
  value: Record<string, unknown>,
  path: string,
): ReadonlyMap<string, PopulateNode> {
  let on = new Map<string, PopulateNode>();
  const sub = value.populate;
  if (sub !== undefined && sub !== null && sub !== '' && !isFalse(sub)) {
    on = new Map(components.map((uid) => [uid, emptyNode()] as const));
    for (const [name, item] of populateItems(sub, path)) {
      const apply = (component: Component, tree: MutableTree) => {
        if (name === '*') addStar(ctx, component, tree);
        else if (slotOf(ctx, component, name)) addPopulate(ctx, component, item, path, tree);
        else return false;
        return true;
      };
      on = new Map(componentsWith(ctx, components, path, on, apply, name));
    }
  }
  if (value.on !== undefined) {
    if (!isPlainObject(value.on)) throw invalidKey('populate', 'on', path);
    for (const [uid, strategy] of Object.entries(value.on)) {
      if (!components.includes(uid)) throw invalidKey('populate', uid, `${path}.on`);
      if (isFalseValue(strategy) || strategy === null) continue;
      const component = ctx.model.components.get(uid)!;
      on.set(uid, parseNode(ctx, { kind: 'component', target: component }, strategy, `${path}.on.${uid}`));
    }
  }
  return on;
}

/** The populate value of a dynamic zone as (first name, value to apply) pairs. */
function populateItems(raw: unknown, path: string): Array<[string, unknown]> {
  if (raw === '*' || isTrue(raw)) return [['*', '*']];
  if (typeof raw === 'string') {
    return raw
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== '')
      .map((s) => [s.split('.')[0], s]);
  }
  const list = asArray(raw);
  if (list) {
    return list.flatMap((item) => {
      if (typeof item !== 'string') throw invalidPopulate(item, path);
      return populateItems(item, path);
    });
  }
  if (isPlainObject(raw)) return Object.entries(raw).map(([name, value]) => [name, { [name]: value }]);
  throw invalidPopulate(raw, path);
}

/** Two mentions of the same attribute (`populate[0]=a.b&populate[1]=a.c`) combine. */
function mergeNodes(a: PopulateNode | undefined, b: PopulateNode): PopulateNode {
  if (!a) return b;
  const merged: MutableNode = { ...a };
  for (const key of ['fields', 'filters', 'sort', 'count'] as const) {
    if (b[key] !== undefined) (merged as Record<string, unknown>)[key] = b[key];
  }
  const populate = new Map(a.populate);
  for (const [k, v] of b.populate) populate.set(k, mergeNodes(populate.get(k), v));
  merged.populate = populate;
  if (b.on) {
    const on = new Map(a.on ?? []);
    for (const [k, v] of b.on) on.set(k, mergeNodes(on.get(k), v));
    merged.on = on;
  }
  return merged;
}
