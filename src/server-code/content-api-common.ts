import type { Attribute, Component, ContentType, Model } from '../model/types.js';
import type { Caller } from '../auth/access-control.js';
import { findAction } from '../auth/access-control.js';

/**
 * What `strapi.contentAPI.sanitize` and `strapi.contentAPI.validate` share: the schema and caller of a call, the
 * route's Zod schemas of extra keys, and Strapi 5.54's key lists (its `@strapi/utils` content-api-constants and
 * content-types).
 */

export type Schema = ContentType | Component;
export type Value = Record<string, unknown>;

/** `{ auth, strictParams, route }` of a call: `auth` is the request's `ctx.state.auth`, which the route's authentication tied to its caller. */
export interface ContentApiOptions {
  auth?: unknown;
  strictParams?: boolean;
  /** The route whose `request.body['application/json']` (a Zod object) and `request.query` declare extra keys. */
  route?: { request?: { body?: Record<string, unknown>; query?: Record<string, unknown> } };
}

/** Strapi 5.54's query keys of the Content API (`ALLOWED_QUERY_PARAM_KEYS`): what `strictParams` keeps of a query. */
export const QUERY_KEYS = ['filters', 'sort', 'fields', 'populate', 'status', 'locale', 'page', 'pageSize', 'start', 'limit', '_q', 'publicationFilter', 'hasPublishedVersion', 'pagination', 'count', 'ordering'];
/** Those whose values Cairn checks against the schema (the others Strapi's sanitizer passes on as they are). */
export const CHECKED_QUERY_KEYS = ['filters', 'sort', 'fields', 'populate'];

/** Strapi's keys of a relation's value in a write besides the target's attributes (`connect`, `id`...). */
export const RELATION_OPERATION_KEYS = ['connect', 'disconnect', 'set', 'options'];
export const ID_FIELDS = ['id', 'documentId'];

/** A Zod schema's one method used here (the route's schemas are the app's Zod objects). */
export type ZodLike = { safeParse(value: unknown): { success: boolean; data?: unknown; error?: { message?: string } } };

export const isObject = (value: unknown): value is Value => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The keys of a route's body schema other than `data` (Strapi's extra root keys of an input), with their schemas. */
export function extraRootKeys(route: ContentApiOptions['route']): Map<string, ZodLike> {
  const body = route?.request?.body?.['application/json'] as { shape?: Record<string, ZodLike> } | undefined;
  return zodMembers(body && typeof body === 'object' && body.shape ? body.shape : {});
}

/** A route's query keys other than Strapi's own (its `getExtraQueryKeysFromRoute`), with their schemas. */
export function extraQueryKeys(route: ContentApiOptions['route']): Map<string, ZodLike> {
  const members = zodMembers(route?.request?.query ?? {});
  for (const key of QUERY_KEYS) members.delete(key);
  return members;
}

function zodMembers(shape: Record<string, unknown>): Map<string, ZodLike> {
  return new Map(Object.entries(shape).filter((entry): entry is [string, ZodLike] => entry[0] !== 'data' && typeof (entry[1] as ZodLike | undefined)?.safeParse === 'function'));
}

/** The `ctx.state.auth` objects Cairn's routes made, with their callers. */
const callers = new WeakMap<object, Caller>();

/** Ties a route's `ctx.state.auth` to its caller, so `{ auth }` given to the sanitizers and validators names who calls. */
export function rememberAuth(auth: object, caller: Caller): void {
  callers.set(auth, caller);
}

/** The caller of `{ auth }`: none when absent; a forged object is an error (Cairn knows callers by the route's own). */
export function callerOf(auth: unknown): Caller | undefined {
  if (auth === undefined || auth === null) return undefined;
  const caller = isObject(auth) ? callers.get(auth) : undefined;
  if (!caller) throw new Error("{ auth } must be the request's ctx.state.auth (Cairn knows the caller by it)");
  return caller;
}

/** The model's schema for the `schema` argument (Strapi's schema object, as `strapi.contentType(uid)` gives it). */
export function schemaOf(model: Model, given: unknown, what: string): Schema {
  const uid = isObject(given) ? given.uid : undefined;
  const schema = typeof uid === 'string' ? (model.contentTypes.get(uid) ?? model.components.get(uid)) : undefined;
  if (!schema) throw new Error(`Missing schema in ${what}`);
  return schema;
}

/** Whether the caller may not `find` the target of `attribute` (a relation; never media, as in Strapi). */
export function isHiddenRelation(attribute: Attribute | undefined, caller: Caller | undefined): boolean {
  return caller !== undefined && attribute?.kind === 'relation' && !caller.can(findAction(attribute.target));
}

/** The morph targets' type (`__type`) of an entry of a morph relation's value that the caller may not `find`. */
export function isHiddenMorphEntry(entry: unknown, caller: Caller | undefined): boolean {
  return caller !== undefined && isObject(entry) && typeof entry.__type === 'string' && !caller.can(findAction(entry.__type));
}
