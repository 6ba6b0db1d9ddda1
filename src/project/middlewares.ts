import { ConfigError } from '../errors/index.js';
import { show } from './config-keys.js';
import { closestKey, distance } from './config-validate.js';

/**
 * `config/middlewares`: Strapi's list of application middlewares, each a name (`'strapi::query'`, `'global::x'`) or
 * `{ name, resolve, config }` (Strapi's own check, services/server/register-middlewares.ts, allows no other key).
 *
 * Cairn applies one entry of it: `strapi::query`'s config, the options Strapi's query middleware gives qs
 * (middlewares/query.ts: `{ strictNullHandling: true, arrayLimit: 100, depth: 20, ...config }`), of which Cairn takes
 * `arrayLimit`, `depth` and `parameterLimit`. The other entries are NOT applied yet (Cairn has its own error
 * handling, body parsing and static files, and no CORS, security headers, sessions or the app's global
 * middlewares): Strapi's own, listed without a config, are accepted silently; one with a config, and any other
 * middleware (the app's, a plugin's, a package's), is a warning saying it is not applied.
 */
export type MiddlewareEntry = string | { name?: string; resolve?: string; config?: Record<string, unknown> | null };

/** Strapi's built-in middlewares (packages/core/core/src/middlewares/index.ts), as config/middlewares names them. */
export const STRAPI_MIDDLEWARES = [
  'strapi::logger',
  'strapi::errors',
  'strapi::security',
  'strapi::cors',
  'strapi::poweredBy',
  'strapi::query',
  'strapi::body',
  'strapi::session',
  'strapi::favicon',
  'strapi::public',
  'strapi::compression',
  'strapi::ip',
  'strapi::responseTime',
  'strapi::responses',
] as const;

/** The qs options of `strapi::query` that Cairn applies (query/parse-query-string.ts: QueryStringLimits). */
export const QUERY_MIDDLEWARE_OPTIONS = ['arrayLimit', 'depth', 'parameterLimit'] as const;
export type QueryMiddlewareConfig = { [K in (typeof QUERY_MIDDLEWARE_OPTIONS)[number]]?: number };

const isPlain = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const describe = (value: unknown): string => {
  if (isPlain(value)) {
    try {
      return JSON.stringify(value);
    } catch {
      return 'an object';
    }
  }
  return value === undefined ? 'undefined' : value === null ? 'null' : show(value);
};

/**
 * Checks `config/middlewares` (the list the file exports, or its `({ env }) => list`): a value Cairn cannot take
 * throws a ConfigError naming `file`, the entry and the key; entries Cairn does not apply are warnings (returned).
 * Integers given as strings (`env('QS_ARRAY_LIMIT')`) are numbers in the entries returned (the given ones are left as they are).
 */
export function checkMiddlewares(value: unknown, file: string): { entries: MiddlewareEntry[]; warnings: string[] } {
  const fail = (path: string, problem: string): never => {
    // `${file}: middlewares[5].config.arrayLimit (strapi::query) must be a positive integer, not 0`
    throw new ConfigError(`${file}: middlewares${path} ${problem}`);
  };
  if (!Array.isArray(value)) {
    return fail('', `must be an array of middlewares (names, or { name, config }), as Strapi takes it, not ${describe(value)}`);
  }
  const warnings: string[] = [];
  const warn = (at: number, name: string, message: string) => warnings.push(`${file}: middlewares[${at}] ${JSON.stringify(name)} ${message}`);
  let queryAt: number | undefined;
  const entries = value.map((entry: unknown, at): MiddlewareEntry => {
    const where = `[${at}]`;
    if (typeof entry !== 'string' && !isPlain(entry)) {
      return fail(where, `must be a middleware's name or { name, config }, not ${typeof entry === 'function' ? 'a function (Strapi refuses one here too)' : describe(entry)}`);
    }
    if (typeof entry === 'string' && entry.trim() === '') return fail(where, 'must be a middleware\'s name, not ""');
    if (isPlain(entry)) {
      for (const key of Object.keys(entry)) {
        if (!['name', 'resolve', 'config'].includes(key)) fail(`${where}.${key}`, 'is not a key of a middleware entry: Strapi takes name, resolve and config');
      }
      for (const key of ['name', 'resolve'] as const) {
        if (entry[key] !== undefined && (typeof entry[key] !== 'string' || entry[key] === '')) fail(`${where}.${key}`, `must be a non-empty string, not ${describe(entry[key])}`);
      }
      if (entry.name === undefined && entry.resolve === undefined) fail(where, 'must have a name (or a resolve path)');
    }
    const name = typeof entry === 'string' ? entry : ((entry.name ?? entry.resolve) as string);
    const config = typeof entry === 'string' ? undefined : entry.config;
    if (name.startsWith('strapi::') && !(STRAPI_MIDDLEWARES as readonly string[]).includes(name)) {
      // Strapi stops its start on it too; silently skipping `strapi::qeury` would drop the limits it sets.
      fail(where, `${JSON.stringify(name)} is not one of Strapi's middlewares: did you mean ${closestKey(name, [...STRAPI_MIDDLEWARES])}?`);
    }
    if (name !== 'strapi::query') {
      // Not applied yet: only strapi::query's config is (see above).
      if (!name.startsWith('strapi::')) warn(at, name, 'is not applied: Cairn applies only strapi::query from config/middlewares for now');
      else if (config !== undefined && config !== null) warn(at, name, 'has a config Cairn does not apply (Cairn applies only strapi::query from config/middlewares for now)');
      return entry as MiddlewareEntry;
    }
    if (queryAt !== undefined) fail(where, `lists strapi::query again (it is middlewares[${queryAt}] already)`);
    queryAt = at;
    if (typeof entry === 'string' || config === undefined || config === null) return entry as MiddlewareEntry;
    if (!isPlain(config)) return fail(`${where}.config`, `(strapi::query) must be an object of qs options (${QUERY_MIDDLEWARE_OPTIONS.join(', ')}), not ${describe(config)}`);
    const checked: Record<string, unknown> = {};
    for (const [key, option] of Object.entries(config)) {
      if (option === undefined) continue; // `env('X')` without a default: as good as absent
      if (!(QUERY_MIDDLEWARE_OPTIONS as readonly string[]).includes(key)) {
        const closest = closestKey(key, [...QUERY_MIDDLEWARE_OPTIONS]);
        const hint = distance(key.toLowerCase(), closest.toLowerCase()) <= 2 ? `did you mean ${closest}? ` : '';
        fail(`${where}.config.${key}`, `(strapi::query) is not an option Cairn applies: ${hint}Cairn takes ${QUERY_MIDDLEWARE_OPTIONS.join(', ')}`);
      }
      const number = typeof option === 'string' && /^\s*\d+\s*$/.test(option) ? Number.parseInt(option, 10) : option;
      if (!Number.isSafeInteger(number) || (number as number) < 1) fail(`${where}.config.${key}`, `(strapi::query) must be a positive integer, not ${describe(option)}`);
      checked[key] = number;
    }
    return { ...entry, config: checked };
  });
  return { entries, warnings };
}

/** The qs limits `strapi::query`'s config sets in a checked `config/middlewares` list ({} when none). */
export function queryStringLimits(entries: readonly MiddlewareEntry[] | undefined): QueryMiddlewareConfig {
  const entry = entries?.find((e): e is Exclude<MiddlewareEntry, string> => typeof e !== 'string' && (e.name ?? e.resolve) === 'strapi::query');
  const config = entry?.config;
  if (!config) return {};
  const limits: QueryMiddlewareConfig = {};
  for (const key of QUERY_MIDDLEWARE_OPTIONS) if (typeof config[key] === 'number') limits[key] = config[key];
  return limits;
}
