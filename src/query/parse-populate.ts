import type { Component, ContentType, Model } from '../model/types.js';
import { ADMIN_USER_UID, creatorColumn, systemContentType } from '../model/system-types.js';
import type { PopulateNode, PopulateTree } from './types.js';
import { ValidationError } from '../errors/index.js';
import { describe, invalidKey, joinPath, queryError } from './errors.js';
import { asArray, isPlainObject, isStrapiAttribute } from './fields-of.js';
import { booleanLike } from './boolean-like.js';
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
  /** `countable`: `count` answers a count (Strapi's relations); media and morphOne / morphMany populate as usual. */
  | { kind: 'relation'; target: ContentType; toMany: boolean; countable: boolean }
  | { kind: 'component'; target: Component }
  | { kind: 'dynamiczone'; components: readonly string[] }
  /** morphToOne / morphToMany: rows of any content type (`on[<uid>]` gives one type its own strategy). */
  | { kind: 'morph'; toMany: boolean };

/** A slot with one type to read: a fragment's (`on[<uid>]`). */
type TypeSlot = Extract<Slot, { kind: 'relation' | 'component' }>;

/**
 * Where a key of a populate object sits, named as Strapi 5.54's validator names it in its errors: `raw` every key on
 * the way (keywords such as `populate` and `on` included), `attr` the attributes only. An unknown key is reported at
 * its parent's `attr` (`Invalid key nope at chef`), an attribute that cannot be populated at its `raw` path
 * (`Invalid key name at chef.populate.name`).
 */
interface At {
  raw: string | null;
  attr: string | null;
}
const TOP: At = { raw: null, attr: null };
const step = (at: At, key: string, attribute: boolean): At => ({ raw: joinPath(at.raw, key), attr: attribute ? joinPath(at.attr, key) : at.attr });

const isTrue = (v: unknown) => v === true || v === 'true' || v === '1';
const isFalse = (v: unknown) => v === false || v === 'false' || v === '0';
/** An attribute's own populate value (`populate[chef]=t`) also takes Strapi's `t` and `f`. */
const isTrueValue = (v: unknown) => isTrue(v) || v === 't';
const isFalseValue = (v: unknown) => isFalse(v) || v === 'f';
/** Strapi's `isBooleanLike`: what a `count` may be. */
const isBooleanLike = (v: unknown) => booleanLike(v) !== undefined;
/** The options of a relation, media or component (`on` only to be refused with Strapi's message). */
const OPTIONS: ReadonlySet<string> = new Set(['fields', 'filters', 'sort', 'populate', 'count', 'on']);
/** The options of a dynamic zone or a morph relation. */
const POLYMORPHIC_OPTIONS: ReadonlySet<string> = new Set(['on', 'populate', 'count']);

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
    // Strapi's i18n joins them by documentId (a virtual relation), whose populate has no count.
    return ctx.canFind(schema.uid) ? { kind: 'relation', target: schema, toMany: true, countable: false } : 'hidden';
  }
  // Strapi's creator fields (an admin user's row): app code populates them by name, as Strapi's Document Service does;
  // a request never (Strapi's Content API sanitizes them away), nor `*` (left to the Query Engine's).
  if (ctx.withPrivate && creatorColumn(schema, name)) return { kind: 'relation', target: systemContentType(ADMIN_USER_UID)!, toMany: false, countable: true };
  const attribute = schema.attributes.get(name);
  if (!attribute || (!ctx.withPrivate && (attribute.private || schema.privateAttributes.has(name)))) return undefined;
  switch (attribute.kind) {
    case 'relation': {
      if (!ctx.canFind(attribute.target) || (!ctx.withPrivate && NEVER_ANSWERED.get(schema.uid) === name)) return 'hidden';
      return { kind: 'relation', target: ctx.model.contentTypes.get(attribute.target)!, toMany: attribute.toMany, countable: true };
    }
    case 'media':
      // Media populates whatever the caller's upload permissions: Strapi's sanitizers restrict relations only
      // (`remove-restricted-relations` skips `type: 'media'`), and sites show their images to the Public role.
      // Strapi reads media as morphOne / morphMany relations, whose populate has no count (it populates as usual).
      return { kind: 'relation', target: ctx.model.contentTypes.get(attribute.target)!, toMany: attribute.multiple, countable: false };
    case 'component':
      return { kind: 'component', target: ctx.model.components.get(attribute.component)! };
    case 'dynamiczone':
      return { kind: 'dynamiczone', components: attribute.components };
    case 'morph': {
      if (attribute.target === undefined) return { kind: 'morph', toMany: attribute.toMany };
      // morphOne / morphMany read rows of their target, as a relation does.
      if (!ctx.canFind(attribute.target)) return 'hidden';
      return { kind: 'relation', target: ctx.model.contentTypes.get(attribute.target)!, toMany: attribute.toMany, countable: false };
    }
    default:
      return undefined;
  }
}

/**
 * Parses `populate` in every form Strapi v5 documents, at any depth: `*` (one level of everything), `a`, `a,b`,
 * `[a, b]`, dot paths `a.b.c` (through relations, components and dynamic zones), and the object form
 * `{ a: true | '*' | { fields, filters, sort, populate, count, on } }`. Bad input is refused with the error Strapi
 * 5.54 gives it (its validator's key and path; see `At`).
 */
export function parsePopulate(ctx: PopulateContext, schema: Schema, raw: unknown): PopulateTree {
  const tree = populateValue(ctx, schema, raw, TOP);
  checkDepth(tree, null, 0);
  return tree;
}

/** The value of a `populate` parameter (the top one, or a `populate` key's, which sits at `at`). */
function populateValue(ctx: PopulateContext, schema: Schema, raw: unknown, at: At): PopulateTree {
  const tree: MutableTree = new Map();
  addPopulate(ctx, schema, raw, at, tree);
  return tree;
}

function addPopulate(ctx: PopulateContext, schema: Schema, raw: unknown, at: At, tree: MutableTree): void {
  if (raw === undefined || raw === null || raw === '' || isFalse(raw)) return;
  if (raw === '*' || raw === true) return addStar(ctx, schema, tree);
  if (typeof raw === 'string') {
    // Dot paths, named from the string's start at any level (Strapi's validatePopulateDotPaths); a comma lists several.
    for (const item of raw.split(',')) {
      const text = item.trim();
      if (text === '') continue;
      const steps = text.split('.');
      // Checked before walking it: a path of thousands of steps would otherwise recurse that deep.
      if (steps.length > MAX_POPULATE_DEPTH) throw tooDeep(joinPath(at.attr, text.length > 80 ? `${text.slice(0, 80)}…` : text));
      addPath(ctx, schema, steps, null, tree);
    }
    return;
  }
  const list = asArray(raw);
  if (list) {
    for (const item of list) {
      if (typeof item !== 'string') throw invalidPopulate(item, at.attr);
      addPopulate(ctx, schema, item, at, tree);
    }
    return;
  }
  if (!isPlainObject(raw)) throw invalidPopulate(raw, at.attr);
  for (const [name, value] of Object.entries(raw)) {
    // `populate[0]=a&populate[b][fields]=x` mixes list items into the object form.
    if (/^\d+$/.test(name) && typeof value === 'string') {
      addPopulate(ctx, schema, value, at, tree);
      continue;
    }
    const slot = populatable(ctx, schema, name, at);
    if (isFalseValue(value) || value === null || slot === 'hidden') continue;
    const here = step(at, name, true);
    // A dynamic zone's or a morph relation's `populate` is `*` or nothing (Strapi: what its items hold differs).
    if ((slot.kind === 'dynamiczone' || slot.kind === 'morph') && isPlainObject(value) && value.populate !== undefined && value.populate !== null && value.populate !== '*') {
      throw invalidKey('populate', 'populate', here.raw);
    }
    tree.set(name, mergeNodes(tree.get(name), slotValue(ctx, schema, name, slot, value, here)));
  }
}

/** What key `name` of a populate object populates; Strapi's 400 when nothing. */
function populatable(ctx: PopulateContext, schema: Schema, name: string, at: At): Slot | 'hidden' {
  const slot = slotOf(ctx, schema, name);
  if (slot) return slot;
  if (!isStrapiAttribute(schema, name)) throw invalidKey('populate', name, at.attr);
  const here = step(at, name, true);
  const attribute = schema.attributes.get(name);
  // An attribute that cannot be populated (a scalar) is named by its raw path; a private one by its attribute path.
  if (attribute?.kind === 'scalar') throw invalidKey('populate', name, here.raw);
  throw invalidKey('populate', name, here.attr);
}

const invalidPopulate = (value: unknown, path: string | null) =>
  queryError(
    'populate',
    `Invalid populate parameter ${describe(value)}${path ? ` at ${path}` : ''}. Expected a string, an array of strings, a populate object`,
    path ?? 'populate',
    path,
  );

/** Strapi's refusal of a dynamic zone's or a morph relation's options other than `on`, `populate` and `count`. */
function invalidNested(owner: Schema, name: string, value: unknown): ValidationError {
  const singular = owner.modelType === 'contentType' ? owner.info.singularName : 'undefined';
  return new ValidationError(`Invalid nested populate for ${singular}.${name} (${owner.uid}). Expected a fragment ("on") or "count" but found ${JSON.stringify(value)}`);
}

/** `populate=*`: every relation, media, component and dynamic zone one level deep (what the caller may find). */
function addStar(ctx: PopulateContext, schema: Schema, tree: MutableTree): void {
  const names = [...schema.attributes.keys()];
  if (schema.modelType === 'contentType' && schema.localized) names.push('localizations');
  for (const name of names) {
    const slot = slotOf(ctx, schema, name);
    if (slot && slot !== 'hidden' && !tree.has(name)) tree.set(name, slot.kind === 'morph' ? { populate: new Map(), on: everyType(ctx) } : emptyNode());
  }
}

/**
 * A dot path `address.geo` (`path`: the steps before, from the string's start): each step populated (first level),
 * the last with its defaults. A step after a morph relation or media is refused, as Strapi refuses it.
 */
function addPath(ctx: PopulateContext, schema: Schema, steps: string[], path: string | null, tree: MutableTree): void {
  const [name, ...rest] = steps;
  if (name === '*' && rest.length === 0) return addStar(ctx, schema, tree);
  const here = joinPath(path, name);
  const slot = slotOf(ctx, schema, name);
  if (!slot) throw invalidKey('populate', name, here);
  if (slot === 'hidden') return;
  if (rest.length && (slot.kind === 'morph' || schema.attributes.get(name)?.kind === 'media')) throw invalidKey('populate', name, here);
  if (slot.kind === 'morph') {
    tree.set(name, tree.get(name) ?? { populate: new Map(), on: everyType(ctx) });
    return;
  }
  const node: MutableNode = { ...(tree.get(name) ?? emptyNode()) };
  if (rest.length) {
    if (slot.kind === 'dynamiczone') {
      // Strapi tries each component that has the next step; a component whose rest of the path fails is not one of
      // them, and when none is left the error names the step after the zone.
      node.on = componentsWith(ctx, slot.components, here, node.on, (component, sub) => {
        if (!slotOf(ctx, component, rest[0])) return false;
        try {
          addPath(ctx, component, rest, here, sub);
        } catch (error) {
          if (error instanceof ValidationError) return false;
          throw error;
        }
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

/** What a populate object's key `name` of `owner` (a `slot`, sitting at `here`) populates, given its value. */
function slotValue(ctx: PopulateContext, owner: Schema, name: string, slot: Slot, value: unknown, here: At): PopulateNode {
  if (slot.kind === 'morph') return morphNode(ctx, owner, name, slot, value, here);
  if (isTrueValue(value)) return emptyNode();
  // `populate[a]=*`: `a` and everything one level inside it (the README's table: Strapi refuses it since 5.2).
  if (value === '*') return slotOptions(ctx, owner, name, slot, { populate: '*' }, here);
  if (slot.kind === 'dynamiczone' && !isPlainObject(value)) throw invalidNested(owner, name, value);
  if (slot.kind !== 'dynamiczone' && (typeof value === 'string' || asArray(value))) throw namesAsValue(value, slot.target, here);
  if (!isPlainObject(value)) throw invalidPopulate(value, here.attr);
  return slotOptions(ctx, owner, name, slot, value, here);
}

/**
 * Names given as an attribute's value (`populate[chef]=restaurants`): Strapi reads them as keys of that value, where
 * an attribute of the target is not an option (`Invalid key restaurants at chef.restaurants`) and neither is
 * anything else (`Invalid key nope at chef`). Names inside it go in its `populate`.
 */
function namesAsValue(value: unknown, target: Schema, here: At): ValidationError {
  const items = typeof value === 'string' ? [value] : (asArray(value) ?? []);
  const first = items.map((item) => (typeof item === 'string' ? item.split('.')[0] : '')).find((name) => name !== '') ?? '';
  return invalidKey('populate', first, step(here, first, isStrapiAttribute(target, first)).attr);
}

/** The options of a relation, media, component or dynamic zone: `{ fields, filters, sort, populate, count, on }`. */
function slotOptions(ctx: PopulateContext, owner: Schema, name: string, slot: Exclude<Slot, { kind: 'morph' }>, value: Record<string, unknown>, here: At): PopulateNode {
  if (slot.kind === 'dynamiczone') return dynamicZoneNode(ctx, owner, name, slot, value, here);
  const target = slot.target;
  // Anything else (pagination included) is Strapi's `Invalid key`, at the attribute path.
  for (const key of Object.keys(value)) if (!OPTIONS.has(key)) throw invalidKey('populate', key, step(here, key, isStrapiAttribute(target, key)).attr);
  if (value.on !== undefined) throw fragmentOnTarget(ctx, owner, name, value.on, step(here, 'on', false));
  const node: MutableNode = { populate: new Map() };
  if (value.count !== undefined) {
    if (!isBooleanLike(value.count)) throw invalidKey('populate', 'count', here.attr);
    if (isTrueValue(value.count) && (slot.kind === 'component' || slot.countable)) node.count = true;
  }
  const withPrivate = ctx.withPrivate === true;
  // Read as at the top level of the populated type: Strapi validates each afresh, its errors' paths start there.
  if (value.fields !== undefined) node.fields = parseFields(target, value.fields, 'populate', withPrivate);
  if (value.filters !== undefined) node.filters = parseFilters(ctx.model, target, value.filters, null, ctx.canFind, 'populate', withPrivate);
  if (value.sort !== undefined) node.sort = parseSort(ctx.model, target, value.sort, ctx.canFind, 'populate', withPrivate);
  if (value.populate !== undefined) node.populate = populateValue(ctx, target, value.populate, step(here, 'populate', false));
  return node;
}

/** `on` given to a relation, media or component: Strapi's errors (an unknown type, or fragments not permitted). */
function fragmentOnTarget(ctx: PopulateContext, owner: Schema, name: string, on: unknown, onAt: At): ValidationError {
  if (!isPlainObject(on)) return invalidKey('populate', 'on', onAt.raw);
  const unknown = Object.keys(on).find((uid) => !isModel(ctx, uid));
  if (unknown !== undefined) return invalidKey('populate', unknown, `${onAt.raw}.${unknown}`);
  return new ValidationError(`Using fragments is not permitted to populate "${name}" in "${owner.uid}"`);
}

const isModel = (ctx: PopulateContext, uid: string) => ctx.model.contentTypes.has(uid) || ctx.model.components.has(uid);

/**
 * The `on` of a dynamic zone or a morph relation: each type's strategy (true, `*`, or its options), at Strapi's paths.
 * A type that exists but `accepts` refuses (a component the zone does not hold, a content type the caller may not
 * find) is read no further, as in Strapi.
 */
function fragments(ctx: PopulateContext, on: unknown, here: At, accepts: (uid: string) => TypeSlot | undefined): Map<string, PopulateNode> {
  const onAt = step(here, 'on', false);
  if (!isPlainObject(on)) throw invalidKey('populate', 'on', onAt.raw);
  const nodes = new Map<string, PopulateNode>();
  for (const [uid, strategy] of Object.entries(on)) {
    if (!isModel(ctx, uid)) throw invalidKey('populate', uid, `${onAt.raw}.${uid}`);
    const slot = accepts(uid);
    if (!slot || isFalseValue(strategy) || strategy === null) continue;
    nodes.set(uid, slotValue(ctx, slot.target, uid, slot, strategy, { raw: `${onAt.raw}[${uid}]`, attr: here.attr }));
  }
  return nodes;
}

/**
 * A dynamic zone. `on[<component>]` gives a named component its own strategy (true, '*', or `{ fields, populate }`);
 * `populate=*` populates one level inside every component. With `on` only, the components it does not name are left
 * out, as in Strapi; `count` is ignored, as Strapi 5.54 ignores it on a zone (probed: the items come as usual).
 */
function dynamicZoneNode(ctx: PopulateContext, owner: Schema, name: string, slot: Extract<Slot, { kind: 'dynamiczone' }>, value: Record<string, unknown>, here: At): PopulateNode {
  const on = value.on === undefined ? undefined : fragments(ctx, value.on, here, (uid) => (slot.components.includes(uid) ? { kind: 'component', target: ctx.model.components.get(uid)! } : undefined));
  for (const key of Object.keys(value)) if (!POLYMORPHIC_OPTIONS.has(key)) throw invalidNested(owner, name, value);
  if (value.populate !== '*' && !on) return emptyNode();
  const nodes = new Map<string, PopulateNode>();
  if (value.populate === '*') {
    for (const uid of slot.components) {
      const tree: MutableTree = new Map();
      addStar(ctx, ctx.model.components.get(uid)!, tree);
      nodes.set(uid, { populate: tree });
    }
  }
  for (const [uid, node] of on ?? []) nodes.set(uid, node);
  return { populate: new Map(), on: nodes };
}

/** Every content type the caller may find, one level: what a morph relation reads without `on`. */
function everyType(ctx: PopulateContext): Map<string, PopulateNode> {
  return new Map([...ctx.model.contentTypes.keys()].filter((uid) => ctx.canFind(uid)).map((uid) => [uid, emptyNode()] as const));
}

/**
 * A morphToOne / morphToMany (Strapi: `on`, `count` and `populate: '*'`): the types read, each with its strategy, in
 * `on`; without `on`, every content type the caller may find, one level (Strapi reads every type a link names; its
 * sanitizer drops those the caller may not read). `count` counts the links (a morphToOne's: 0 or 1). Other options
 * are refused where Strapi drops the populate silently (the README's table).
 */
function morphNode(ctx: PopulateContext, owner: Schema, name: string, slot: Extract<Slot, { kind: 'morph' }>, value: unknown, here: At): PopulateNode {
  if (isTrueValue(value) || value === '*') return { populate: new Map(), on: everyType(ctx) };
  if (!isPlainObject(value)) throw invalidNested(owner, name, value);
  const target = (uid: string): TypeSlot | undefined => {
    const type = ctx.model.contentTypes.get(uid);
    return type && ctx.canFind(uid) ? { kind: 'relation', target: type, toMany: false, countable: true } : undefined;
  };
  const on = value.on === undefined ? everyType(ctx) : fragments(ctx, value.on, here, target);
  for (const key of Object.keys(value)) if (!POLYMORPHIC_OPTIONS.has(key)) throw invalidNested(owner, name, value);
  if (value.count !== undefined && !isBooleanLike(value.count)) throw invalidKey('populate', 'count', here.attr);
  return { populate: new Map(), on, ...(isTrueValue(value.count) && { count: true }) };
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
