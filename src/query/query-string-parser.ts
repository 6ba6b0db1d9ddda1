import { parseQueryString, QS_LIMITS, type QueryStringLimits } from './parse-query-string.js';
import { strictQuery } from './strict-query.js';

/**
 * One app's query-string parser: qs with that app's limits (`config/middlewares`' `strapi::query` entry over
 * Strapi's defaults). Every route of the app parses through it (REST, auth, upload, server code); two apps in one
 * process each have their own.
 */
export class QueryStringParser {
  readonly limits: QueryStringLimits;

  constructor(limits: Partial<QueryStringLimits> = {}) {
    this.limits = Object.freeze({ ...QS_LIMITS, ...limits });
  }

  /** A query string (without the `?`, '' for none), parsed: see parseQueryString. */
  parse(raw: string): Record<string, unknown> {
    return raw === '' ? {} : parseQueryString(raw, this.limits);
  }

  /** The query string of a URL, parsed ({} when it has none). */
  ofUrl(url: string): Record<string, unknown> {
    const at = url.indexOf('?');
    return at === -1 ? {} : this.parse(url.slice(at + 1));
  }

  /** The query string of a route's URL that takes no parameters but the `allowed` ones: see strictQuery. */
  strict(url: string, allowed: readonly string[] = []): Record<string, unknown> {
    return strictQuery(url, this.limits, allowed);
  }
}
