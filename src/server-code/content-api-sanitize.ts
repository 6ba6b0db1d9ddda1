import type { Attribute, Component, ContentType, Model } from '../model/types.js';
import type { Caller } from '../auth/access-control.js';
import { findAction } from '../auth/access-control.js';

type Schema = ContentType | Component;
type Value = Record<string, unknown>;

/** `{ auth }` of a call: the request's `ctx.state.auth`, which the route's authentication tied to its caller. */
export interface SanitizeOptions {
  auth?: unknown;
  strictParams?: boolean;
  /** The route whose `request.body['application/json']` (a Zod object) declares extra keys of the input. */
  route?: { request?: { body?: Record<string, unknown> } };
}

/** A Zod schema's one method used here (the route's body schemas are the app's Zod objects). */
type ZodLike = { safeParse(value: unknown): { success: boolean; data?: unknown } };

/** The keys of a route's body schema other than `data` (Strapi's extra root keys of an input), with their schemas. */
function extraRootKeys(route: SanitizeOptions['route']): Map<string, ZodLike> {
  const body = route?.request?.body?.['application/json'] as { shape?: Record<string, ZodLike> } | undefined;
  const shape = body && typeof body === 'object' && body.shape ? body.shape : {};
  return new Map(Object.entries(shape).filter(([key, schema]) => key !== 'data' && typeof schema?.safeParse === 'function'));
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
 * Strapi 5.54's `strapi.contentAPI.sanitize.input` and `.output` for app code (a custom controller's), over Cairn's
 * model: what Strapi's content API removes, removed the same way, recursively through components, dynamic zones and
 * relations. Cairn's own routes refuse such input instead (400): these serve code that asks for Strapi's sanitizing.
 * - output: private attributes and passwords; with `auth`, relations to types the caller may not `find`;
 * - input: `id` and `documentId` at the root, attributes whose schema says `writable: false`, the timestamps; with
 *   `strictParams`, keys that are no attribute nor one of the `route`'s body keys (a relation's value keeps Strapi's
 *   keys: `connect`, `id`...); with `auth`, relations to types the caller may not `find`; then each of the route's
 *   body keys parsed by its Zod schema (removed when it fails).
 */
export function contentApiSanitizers(model: Model) {
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
      for (const entry of Array.isArray(sanitized) ? sanitized : [sanitized]) {
        if (!isObject(entry)) continue;
        for (const [key, zod] of extra) {
          if (!(key in entry)) continue;
          const parsed = zod.safeParse(entry[key]);
          if (parsed.success) entry[key] = parsed.data;
          else delete entry[key];
        }
      }
      return sanitized;
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
