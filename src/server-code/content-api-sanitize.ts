import type { Attribute, Component, ContentType, Model } from '../model/types.js';
import type { Caller } from '../auth/access-control.js';
import { findAction } from '../auth/access-control.js';
import { parseReadParams, type ReadSettings } from '../query/index.js';

type Schema = ContentType | Component;
type Value = Record<string, unknown>;

/** `{ auth }` of a call: the request's `ctx.state.auth`, which the route's authentication tied to its caller. */
export interface SanitizeOptions {
  auth?: unknown;
  strictParams?: boolean;
  /** The route whose `request.body['application/json']` (a Zod object) declares extra keys of the input. */
  route?: { request?: { body?: Record<string, unknown>; query?: Record<string, unknown> } };
}

/** Strapi 5.54's query keys of the Content API (`ALLOWED_QUERY_PARAM_KEYS`): what `strictParams` keeps of a query. */
const QUERY_KEYS = ['filters', 'sort', 'fields', 'populate', 'status', 'locale', 'page', 'pageSize', 'start', 'limit', '_q', 'publicationFilter', 'hasPublishedVersion', 'pagination', 'count', 'ordering'];
/** Those whose values Cairn checks against the schema (the others Strapi's sanitizer passes on as they are). */
const CHECKED_QUERY_KEYS = ['filters', 'sort', 'fields', 'populate'];

/** A Zod schema's one method used here (the route's body schemas are the app's Zod objects). */
type ZodLike = { safeParse(value: unknown): { success: boolean; data?: unknown } };

/** The keys of a route's body schema other than `data` (Strapi's extra root keys of an input), with their schemas. */
function extraRootKeys(route: SanitizeOptions['route']): Map<string, ZodLike> {
  const body = route?.request?.body?.['application/json'] as { shape?: Record<string, ZodLike> } | undefined;
  return zodMembers(body && typeof body === 'object' && body.shape ? body.shape : {});
}

function zodMembers(shape: Record<string, unknown>): Map<string, ZodLike> {
  return new Map(Object.entries(shape).filter((entry): entry is [string, ZodLike] => entry[0] !== 'data' && typeof (entry[1] as ZodLike | undefined)?.safeParse === 'function'));
}

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
const RELATION_KEYS = new Set(['id', 'documentId', 'locale', 'status', 'position', 'connect', 'disconnect', 'set', 'options']);
const LIST_KEYS = new Set(['connect', 'disconnect', 'set']);

const isObject = (value: unknown): value is Value => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The `ctx.state.auth` objects Cairn's routes made, with their callers. */
const callers = new WeakMap<object, Caller>();

/** Ties a route's `ctx.state.auth` to its caller, so `{ auth }` given to the sanitizers names who calls. */
export function rememberAuth(auth: object, caller: Caller): void {
  callers.set(auth, caller);
}

/**
 * Strapi 5.54's `strapi.contentAPI.sanitize.input`, `.output` and `.query` for app code (a custom controller's), over Cairn's
 * model: what Strapi's content API removes, removed the same way, recursively through components, dynamic zones and
 * relations. Cairn's own routes refuse such input instead (400): these serve code that asks for Strapi's sanitizing.
 * - output: private attributes and passwords; with `auth`, relations to types the caller may not `find`;
 * - input: `id` and `documentId` at the root, attributes whose schema says `writable: false`, the timestamps; with
 *   `strictParams`, keys that are no attribute nor one of the `route`'s body keys (a relation's value keeps Strapi's
 *   keys: `connect`, `id`...); with `auth`, relations to types the caller may not `find`; then each of the route's
 *   body keys parsed by its Zod schema (removed when it fails);
 * - query: see `query` below (checked rather than trimmed, as Cairn's routes check).
 */
export function contentApiSanitizers(model: Model, readSettings: ReadSettings) {
  const schemaOf = (given: unknown, what: string): Schema => {
    const uid = isObject(given) ? given.uid : undefined;
    const schema = typeof uid === 'string' ? (model.contentTypes.get(uid) ?? model.components.get(uid)) : undefined;
    if (!schema) throw new Error(`Missing schema in ${what}`);
    return schema;
  };
  const callerOf = (auth: unknown): Caller | undefined => {
    if (auth === undefined || auth === null) return undefined;
    const caller = isObject(auth) ? callers.get(auth) : undefined;
    if (!caller) throw new Error("{ auth } must be the request's ctx.state.auth (Cairn knows the caller by it)");
    return caller;
  };
  const hidden = (attribute: Attribute | undefined, caller: Caller | undefined) =>
    caller !== undefined && attribute?.kind === 'relation' && !caller.can(findAction(attribute.target));

  const output = (value: unknown, schema: Schema, caller: Caller | undefined): unknown => {
    if (Array.isArray(value)) return value.map((item) => output(item, schema, caller));
    if (!isObject(value)) return value;
    const out: Value = {};
    for (const [key, item] of Object.entries(value)) {
      const attribute = schema.attributes.get(key);
      if (schema.privateAttributes.has(key) || (attribute?.kind === 'scalar' && attribute.type === 'password') || hidden(attribute, caller)) continue;
      out[key] = nested(attribute, item, (v, s) => output(v, s, caller));
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
      if (key === 'createdAt' || key === 'updatedAt' || attribute?.raw.writable === false || hidden(attribute, options.caller)) continue;
      // A component's `id` and a dynamic-zone item's `__component` are part of its value.
      if (options.strict && !attribute && (root ? !options.extra.has(key) : key !== 'id' && key !== '__component')) continue;
      if (attribute?.kind === 'relation' || attribute?.kind === 'media') out[key] = options.strict ? relationValue(item) : item;
      else out[key] = nested(attribute, item, (v, s) => input(v, s, options, false));
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

  return {
    output: async (data: unknown, schema: unknown, options: SanitizeOptions = {}) => output(data, schemaOf(schema, 'sanitizeOutput'), callerOf(options.auth)),
    input: async (data: unknown, schema: unknown, options: SanitizeOptions = {}) => {
      const extra = extraRootKeys(options.route);
      const sanitized = input(data, schemaOf(schema, 'sanitizeInput'), { caller: callerOf(options.auth), strict: options.strictParams === true, extra }, true);
      // The route's schema parses its keys of the input, as Strapi's does: a value it refuses is removed.
      for (const entry of Array.isArray(sanitized) ? sanitized : [sanitized]) if (isObject(entry)) parseExtraKeys(entry, extra);
      return sanitized;
    },
    /**
     * A query's `filters`, `sort`, `fields` and `populate` checked as the Content API checks them, for the caller of
     * `auth` (a 400 for what Strapi's sanitizer would drop: the README's table); the route's query keys parsed by
     * their Zod schemas; with `strictParams`, only Strapi's query keys and the route's are kept.
     */
    query: async (query: unknown, schema: unknown, options: SanitizeOptions = {}) => {
      const ct = schemaOf(schema, 'sanitizeQuery');
      if (ct.modelType !== 'contentType') throw new Error(`sanitizeQuery takes a content type, not the component ${ct.uid}`);
      if (!isObject(query)) return query;
      const caller = callerOf(options.auth);
      const checked = Object.fromEntries(CHECKED_QUERY_KEYS.filter((key) => query[key] !== undefined).map((key) => [key, query[key]]));
      parseReadParams(model, ct, checked, { ...readSettings, canFind: (uid) => caller?.can(findAction(uid)) ?? true });
      const sanitized: Value = structuredClone(query);
      const extra = zodMembers(options.route?.request?.query ?? {});
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
