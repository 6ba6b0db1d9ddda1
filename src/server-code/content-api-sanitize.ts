import type { Attribute, Model } from '../model/types.js';
import type { Caller } from '../auth/access-control.js';
import { findAction } from '../auth/access-control.js';
import { parseReadParams, type ReadSettings } from '../query/index.js';
import {
  CHECKED_QUERY_KEYS,
  ID_FIELDS,
  QUERY_KEYS,
  RELATION_OPERATION_KEYS,
  callerOf,
  extraQueryKeys,
  extraRootKeys,
  isHiddenMorphEntry,
  isHiddenRelation,
  isObject,
  schemaOf,
  type ContentApiOptions,
  type Schema,
  type Value,
  type ZodLike,
} from './content-api-common.js';

/** Each key of `value` that `schemas` names, parsed by its Zod schema as Strapi's sanitizers do: removed when it fails. */
function parseExtraKeys(value: Value, schemas: Map<string, ZodLike>): void {
  for (const [key, zod] of schemas) {
    if (!(key in value)) continue;
    const parsed = zod.safeParse(value[key]);
    if (parsed.success) value[key] = parsed.data;
    else delete value[key];
  }
}

/** Strapi's keys of a relation's value in a write (`{ connect: [...] }`, `{ id, position }`...): kept by strictParams. */
const RELATION_KEYS = new Set([...ID_FIELDS, ...RELATION_OPERATION_KEYS, 'locale', 'status', 'position', '__type']);
const LIST_KEYS = new Set(['connect', 'disconnect', 'set']);
/** A morph relation's value of which nothing is left for the caller: the key goes. */
const REMOVED = Symbol('removed');

/**
 * Strapi 5.54's `strapi.contentAPI.sanitize.input`, `.output` and `.query` for app code (a custom controller's), over Cairn's
 * model: what Strapi's content API removes, removed the same way, recursively through components, dynamic zones and
 * relations. Cairn's own routes refuse such input instead (400): these serve code that asks for Strapi's sanitizing.
 * - output: private attributes and passwords; with `auth`, relations to types the caller may not `find` (and a morph
 *   relation's entries whose `__type` the caller may not find);
 * - input: `id` and `documentId` at the root, attributes whose schema says `writable: false`, the timestamps; with
 *   `strictParams`, keys that are no attribute nor one of the `route`'s body keys (a relation's value keeps Strapi's
 *   keys: `connect`, `id`...); with `auth`, relations to types the caller may not `find`; then each of the route's
 *   body keys parsed by its Zod schema (removed when it fails);
 * - query: see `query` below (checked rather than trimmed, as Cairn's routes check).
 */
export function contentApiSanitizers(model: Model, readSettings: ReadSettings) {
  const output = (value: unknown, schema: Schema, caller: Caller | undefined): unknown => {
    if (Array.isArray(value)) return value.map((item) => output(item, schema, caller));
    if (!isObject(value)) return value;
    const out: Value = {};
    for (const [key, item] of Object.entries(value)) {
      const attribute = schema.attributes.get(key);
      if (schema.privateAttributes.has(key) || (attribute?.kind === 'scalar' && attribute.type === 'password') || isHiddenRelation(attribute, caller)) continue;
      if (attribute?.kind === 'morph') {
        const kept = morphEntries(item, caller, (entry, target) => output(entry, target, caller));
        if (kept !== REMOVED) out[key] = kept;
      } else out[key] = nested(attribute, item, (v, s) => output(v, s, caller));
    }
    return out;
  };

  const input = (value: unknown, schema: Schema, options: { caller?: Caller; strict: boolean; extra: Map<string, ZodLike> }, root: boolean): unknown => {
    if (Array.isArray(value)) return value.map((item) => input(item, schema, options, root));
    if (!isObject(value)) return value;
    const out: Value = {};
    for (const [key, item] of Object.entries(value)) {
      const attribute = schema.attributes.get(key);
      if (root && (key === 'id' || key === 'documentId')) continue;
      if (key === 'createdAt' || key === 'updatedAt' || attribute?.raw.writable === false || isHiddenRelation(attribute, options.caller)) continue;
      // A component's `id` and a dynamic-zone item's `__component` are part of its value.
      if (options.strict && !attribute && (root ? !options.extra.has(key) : key !== 'id' && key !== '__component')) continue;
      if (attribute?.kind === 'relation' || attribute?.kind === 'media') out[key] = options.strict ? relationValue(item) : item;
      else if (attribute?.kind === 'morph') {
        const kept = morphInput(options.strict ? relationValue(item) : item, options.caller);
        if (kept !== REMOVED) out[key] = kept;
      } else out[key] = nested(attribute, item, (v, s) => input(v, s, options, false));
    }
    return out;
  };

  /** A component's or dynamic zone's value through `walk` with its schema; a relation's (output) with its target's. */
  const nested = (attribute: Attribute | undefined, value: unknown, walk: (value: unknown, schema: Schema) => unknown): unknown => {
    switch (attribute?.kind) {
      case 'component':
        return walk(value, model.components.get(attribute.component)!);
      case 'dynamiczone':
        return Array.isArray(value) ? value.map((item) => (isObject(item) && model.components.has(String(item.__component)) ? walk(item, model.components.get(String(item.__component))!) : item)) : value;
      case 'relation':
      case 'media':
        return walk(value, model.contentTypes.get(attribute.target)!);
      default:
        return value;
    }
  };

  /**
   * A morph relation's value (an entry `{ __type, ... }` or a list of them) without the entries whose type the
   * caller may not find, each of the others through `walk` with its type's schema; REMOVED when none is left of a
   * value that had some (Strapi removes the key; an empty list stays).
   */
  const morphEntries = (value: unknown, caller: Caller | undefined, walk: (entry: unknown, schema: Schema) => unknown): unknown => {
    if (value === null || value === undefined) return value;
    const entries = Array.isArray(value) ? value : [value];
    const kept = entries
      .filter((entry) => isObject(entry) && typeof entry.__type === 'string' && !isHiddenMorphEntry(entry, caller))
      .map((entry) => {
        const target = model.contentTypes.get(String((entry as Value).__type));
        return target ? walk(entry, target) : entry;
      });
    if (kept.length === 0) return Array.isArray(value) && value.length === 0 ? value : REMOVED;
    return Array.isArray(value) ? kept : kept[0];
  };

  /** A morph relation's value in a write: its entries, or those of its `connect`, `set` and `disconnect`, for the caller (Strapi's visitor). */
  const morphInput = (value: unknown, caller: Caller | undefined): unknown => {
    if (!caller) return value;
    const isPayload = isObject(value) && ('connect' in value || 'set' in value || 'disconnect' in value);
    if (!isPayload) return morphEntries(value, caller, (entry) => entry);
    const out: Value = {};
    for (const op of ['connect', 'set', 'disconnect']) {
      const kept = morphEntries(value[op] ?? [], caller, (entry) => entry);
      if (Array.isArray(kept) && kept.length > 0) out[op] = kept;
    }
    const options = isObject(value.options) ? value.options : {};
    out.options = typeof options.strict === 'boolean' ? { strict: options.strict } : {};
    return out;
  };

  return {
    output: async (data: unknown, schema: unknown, options: ContentApiOptions = {}) => output(data, schemaOf(model, schema, 'sanitizeOutput'), callerOf(options.auth)),
    input: async (data: unknown, schema: unknown, options: ContentApiOptions = {}) => {
      const extra = extraRootKeys(options.route);
      const sanitized = input(data, schemaOf(model, schema, 'sanitizeInput'), { caller: callerOf(options.auth), strict: options.strictParams === true, extra }, true);
      // The route's schema parses its keys of the input, as Strapi's does: a value it refuses is removed.
      for (const entry of Array.isArray(sanitized) ? sanitized : [sanitized]) if (isObject(entry)) parseExtraKeys(entry, extra);
      return sanitized;
    },
    /**
     * A query's `filters`, `sort`, `fields` and `populate` checked as the Content API checks them, for the caller of
     * `auth` (a 400 for what Strapi's sanitizer would drop: the README's table); the route's query keys parsed by
     * their Zod schemas; with `strictParams`, only Strapi's query keys and the route's are kept.
     */
    query: async (query: unknown, schema: unknown, options: ContentApiOptions = {}) => {
      const ct = schemaOf(model, schema, 'sanitizeQuery');
      if (ct.modelType !== 'contentType') throw new Error(`sanitizeQuery takes a content type, not the component ${ct.uid}`);
      if (!isObject(query)) return query;
      const caller = callerOf(options.auth);
      const checked = Object.fromEntries(CHECKED_QUERY_KEYS.filter((key) => query[key] !== undefined).map((key) => [key, query[key]]));
      parseReadParams(model, ct, checked, { ...readSettings, canFind: (uid) => caller?.can(findAction(uid)) ?? true });
      const sanitized: Value = structuredClone(query);
      const extra = extraQueryKeys(options.route);
      parseExtraKeys(sanitized, extra);
      if (!options.strictParams) return sanitized;
      return Object.fromEntries(Object.entries(sanitized).filter(([key]) => QUERY_KEYS.includes(key) || extra.has(key)));
    },
  };
}

/** A relation's value in a write with strictParams: Strapi's keys kept, in it and in the entries of its `connect`, `disconnect` and `set`. */
function relationValue(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(relationValue);
  if (!isObject(value)) return value;
  const kept = Object.entries(value).filter(([key]) => RELATION_KEYS.has(key));
  return Object.fromEntries(kept.map(([key, item]) => [key, LIST_KEYS.has(key) ? relationValue(item) : item]));
}
