import { parseQueryString, QS_LIMITS, type QueryStringLimits } from './parse-query-string.js';
import { strictParams, strictQuery } from './strict-query.js';

/** A request as the parser reads it: its URL (with the query string), and the object app code's query is kept for. */
export interface QueryRequest {
  readonly url: string;
}

/**
 * One app's query-string parser: qs with that app's limits (`config/middlewares`' `strapi::query` entry over
 * Strapi's defaults). Every route of the app parses through it (REST, auth, upload, server code); two apps in one
 * process each have their own.
 */
export class QueryStringParser {
  readonly limits: QueryStringLimits;
  /**
   * Queries app code gave a request: an application middleware that read or replaced `ctx.query` (Strapi's routes
   * read that object, not the URL). Consulted only once the app has such middlewares (`giving`).
   */
  private readonly given = new WeakMap<object, () => Record<string, unknown> | undefined>();
  private giving = false;

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

  /**
   * Makes `query()` the request's query for every route that reads it through this parser, whenever it answers an
   * object (`undefined`: the URL's, as without it). Application middlewares' `ctx.query` (server-code/app-middlewares.ts).
   */
  give(request: object, query: () => Record<string, unknown> | undefined): void {
    this.giving = true;
    this.given.set(request, query);
  }

  /** The query app code gave the request (see give), if any. */
  givenTo(request: object): Record<string, unknown> | undefined {
    return this.giving ? this.given.get(request)?.() : undefined;
  }

  /** The request's query: the one app code gave it, else its URL's, parsed. */
  ofRequest(request: QueryRequest): Record<string, unknown> {
    return this.givenTo(request) ?? this.ofUrl(request.url);
  }

  /** `strict` for a request: the query app code gave it is held to the same `allowed` keys. */
  strictOf(request: QueryRequest, allowed: readonly string[] = []): Record<string, unknown> {
    const given = this.givenTo(request);
    return given === undefined ? this.strict(request.url, allowed) : strictParams(given, allowed);
  }
}
