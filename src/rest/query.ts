import type { FastifyRequest } from 'fastify';
import type { ContentType } from '../model/types.js';
import type { ReadSpec } from '../query/types.js';
import { parseReadParams, type QueryStringParser } from '../query/index.js';
import type { RestContext } from './context.js';
import { findAction, type Caller } from '../auth/access-control.js';
import { SpecCache } from './spec-cache.js';
import { strictParams } from '../documents/strict-params.js';

/** The query string of a request, unparsed ('' when none). */
export function queryText(request: FastifyRequest): string {
  const url = request.raw.url ?? '';
  const at = url.indexOf('?');
  return at === -1 ? '' : url.slice(at + 1);
}

/**
 * The parsed query string (Fastify's own parser is off: Cairn parses with qs, strictly, with the app's limits), or
 * the query an application middleware gave the request (`ctx.query`, read or replaced).
 */
export function rawQuery(request: FastifyRequest, parser: QueryStringParser): Record<string, unknown> {
  return parser.ofRequest(request);
}

const strictParamsOn = (ctx: RestContext): boolean => {
  const setting = ctx.strictParams?.();
  return setting !== undefined && setting !== false;
};

/**
 * With `api.documents.strictParams: true`, Strapi's core controllers and services hand REST's `locale` to its
 * Document Service, which checks its format whatever the type (repository.js `validateParams`): `?locale=123` is a
 * 400 on a type without i18n too, where Cairn otherwise ignores `locale` as Strapi does. Read per request: the
 * setting is live (app code may set it).
 */
function checkStrictLocale(ctx: RestContext, locale: unknown): void {
  if (strictParamsOn(ctx)) strictParams(ctx.strictParams!(), locale === undefined ? {} : { locale });
}

/** One cache per app (per model): two apps in one process never share specs. */
const caches = new WeakMap<object, { version: number; cache: SpecCache }>();

/** The validated read spec of a GET request, cached per content-type, query string and permissions. */
export function cachedReadSpec(ctx: RestContext, contentType: ContentType, request: FastifyRequest, caller: Caller): ReadSpec {
  // The query an application middleware read or changed (ctx.query) is read as it is now: not cached.
  const given = ctx.queryString.givenTo(request);
  if (given) return readSpec(ctx, contentType, given, caller);
  const text = queryText(request);
  // A live setting decides whether a spec is valid at all (checkStrictLocale): its rare `true` is not cached.
  if (strictParamsOn(ctx)) return readSpec(ctx, contentType, ctx.queryString.parse(text), caller);
  // A query naming a locale parses to another spec (or an error) once the locales change: a new cache then.
  const version = ctx.localesVersion?.() ?? 0;
  let held = caches.get(ctx.model);
  if (!held || held.version !== version) {
    held = { version, cache: new SpecCache() };
    caches.set(ctx.model, held);
  }
  return held.cache.get(`${contentType.uid}\u0000${caller.key}\u0000${text}`, () =>
    readSpec(ctx, contentType, ctx.queryString.parse(text), caller),
  );
}

/** Validated read spec from the request's query string. */
export function readSpec(ctx: RestContext, contentType: ContentType, query: Record<string, unknown>, caller: Caller): ReadSpec {
  checkStrictLocale(ctx, query.locale);
  // Populate omits content-types the caller may not find (no error, as the reference does).
  return parseReadParams(ctx.model, contentType, query, { ...ctx.readSettings, canFind: (uid) => caller.can(findAction(uid)) });
}
