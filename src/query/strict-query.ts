import { invalidKey } from './errors.js';
import { parseQueryString, type QueryStringLimits } from './parse-query-string.js';

/**
 * The query string of a route's URL, for a route that reads no parameters or only the `allowed` ones: any other is
 * a 400 `Invalid key <param>`, as on the Content API's routes. An ignored parameter would leave the client
 * believing it had an effect.
 */
export function strictQuery(url: string, limits: QueryStringLimits, allowed: readonly string[] = []): Record<string, unknown> {
  const at = url.indexOf('?');
  if (at === -1) return {};
  return strictParams(parseQueryString(url.slice(at + 1), limits), allowed);
}

/** The same rule for a query already parsed (a Koa `ctx.query` app code may have changed). */
export function strictParams(params: Record<string, unknown>, allowed: readonly string[] = []): Record<string, unknown> {
  for (const key of Object.keys(params)) if (!allowed.includes(key)) throw invalidKey(key, key, null);
  return params;
}
