import type { FastifyRequest } from 'fastify';
import type { ContentType } from '../model/types.js';
import type { ReadSpec } from '../query/types.js';
import { parseQueryString, parseReadParams } from '../query/index.js';
import type { RestContext } from './context.js';

/** The raw query string of a request (Fastify's own parser is off: Cairn parses with qs, strictly). */
export function rawQuery(request: FastifyRequest): Record<string, unknown> {
  const url = request.raw.url ?? '';
  const at = url.indexOf('?');
  return at === -1 ? {} : parseQueryString(url.slice(at + 1));
}

/** Validated read spec from the request's query string. */
export function readSpec(ctx: RestContext, contentType: ContentType, query: Record<string, unknown>): ReadSpec {
  return parseReadParams(ctx.model, contentType, query, ctx.queryOptions);
}
