import { ConfigError } from '../errors/index.js';

export interface GraphqlConfig {
  endpoint?: string;
  shadowCRUD?: boolean;
  depthLimit?: unknown;
  amountLimit?: unknown;
  maxAliases?: unknown;
  maxFields?: unknown;
  maxItems?: unknown;
  maxTokens?: unknown;
  introspection?: boolean;
  v4CompatibilityMode?: boolean;
  /** Cairn's own: `'v4'` serves the seed's Strapi v4 schema whatever v4CompatibilityMode says. */
  shape?: 'v4';
  playgroundAlways?: boolean;
  apolloServer?: { tracing?: boolean };
  /** Strapi's: a list's size when its `pagination` gives none (else 10), and the largest a list may ask for (-1: none). */
  defaultLimit?: number;
  maxLimit?: number;
}

/** A list's default size and the largest it may ask for (`Infinity`: no bound but `amountLimit`). */
export interface PageSizes {
  default: number;
  max: number;
}

/** Strapi's default page size (@strapi/utils' withDefaultPagination) when the config sets no `defaultLimit`. */
export const STRAPI_DEFAULT_PAGE_SIZE = 10;

/**
 * `defaultLimit` and `maxLimit` as Strapi's GraphQL plugin applies them to every list (its transformArgs): read at
 * each use, as Strapi reads them, so a `strapi.config.set` applies to the next request. A default above `maxLimit`
 * is capped by it.
 */
export function pageSizes(config: GraphqlConfig | undefined): PageSizes {
  const max = typeof config?.maxLimit === 'number' && config.maxLimit > 0 ? config.maxLimit : Infinity;
  const given = typeof config?.defaultLimit === 'number' && config.defaultLimit > 0 ? config.defaultLimit : STRAPI_DEFAULT_PAGE_SIZE;
  return { default: Math.min(given, max), max };
}

/** The bounds on one operation, each a positive integer. */
export interface GraphqlLimits {
  depthLimit: number;
  amountLimit: number;
  maxAliases: number;
  maxFields: number;
  maxItems: number;
  maxTokens: number;
}

/**
 * The defaults. The conformance kit's queries stay far below them (at most 6 aliases, 48 fields, 1,111 items, 260
 * tokens), as do GraphiQL's introspection query (220 fields, 163 tokens) and the benchmark's nested query (100
 * articles, 10 categories each, 10 restaurants each: 11,100 items). 20,000 items of a few fields are a few MB of JSON.
 */
export const DEFAULT_LIMITS: GraphqlLimits = {
  depthLimit: 10,
  amountLimit: 100,
  maxAliases: 30,
  maxFields: 1000,
  maxItems: 20_000,
  maxTokens: 10_000,
};

/**
 * Reads the limits from `graphql.config`: a positive integer, or a string of one (`env('GRAPHQL_DEPTH')`); anything
 * else stops the start with a ConfigError naming the key, since a limit that silently fell back (or compared as
 * `NaN`, letting everything through) would leave the server unbounded.
 */
export function graphqlLimits(config: GraphqlConfig): GraphqlLimits {
  const limits = { ...DEFAULT_LIMITS };
  for (const key of Object.keys(DEFAULT_LIMITS) as Array<keyof GraphqlLimits>) {
    const value = config[key];
    if (value === undefined) continue;
    const number = typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : value;
    if (typeof number !== 'number' || !Number.isSafeInteger(number) || number < 1) {
      throw new ConfigError(`config/plugins: graphql.config.${key} must be a positive integer, not ${JSON.stringify(value) ?? String(value)}`);
    }
    limits[key] = number;
  }
  return limits;
}
