import type { FastifyRequest } from 'fastify';
import type { ContentType } from '../model/types.js';
import type { ReadSpec } from '../query/types.js';
import { parseQueryString, parseReadParams } from '../query/index.js';
import type { RestContext } from './context.js';
import { findAction, type Caller } from '../app/access.js';

/** The raw query string of a request (Fastify's own parser is off: Cairn parses with qs, strictly). */
export function rawQuery(request: FastifyRequest): Record<string, unknown> {
  const url = request.raw.url ?? '';
  const at = url.indexOf('?');
  return at === -1 ? {} : parseQueryString(url.slice(at + 1));
}

/** Validated read spec from the request's query string. */
export function readSpec(ctx: RestContext, contentType: ContentType, query: Record<string, unknown>, caller: Caller): ReadSpec {
  // Populate omits content-types the caller may not find (no error, as the reference does).
  return parseReadParams(ctx.model, contentType, query, { ...ctx.queryOptions, canFind: (uid) => caller.can(findAction(uid)) });
}
