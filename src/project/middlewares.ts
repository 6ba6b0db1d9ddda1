import { existsSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { extname, isAbsolute, join, resolve } from 'node:path';
import defaultsDeep from 'lodash/defaultsDeep.js';
import { ConfigError } from '../errors/index.js';
import { closestKey, distance } from './config-validate.js';
import { byteSize, describe, isPlain } from './config-values.js';
import { checkCompressionOptions, compressionOptions, type CompressionConfig } from './compression-options.js';

/**
 * `config/middlewares`: Strapi's list of application middlewares, each a name (`'strapi::query'`, `'global::x'`) or
 * `{ name, resolve, config }` (Strapi's own check, services/server/register-middlewares.ts, allows no other key).
 *
 * The app's own middlewares (`global::<file>` of `src/middlewares`, `api::<api>.<file>` of an API's `middlewares/`,
 * `{ resolve: './path' | 'package' }`) run, in list order, around every request of the API (server-code/
 * app-middlewares.ts), each built by its factory `(config, { strapi })` as Strapi does (services/server/middleware.ts:
 * a `name` is looked up, else `resolve` is loaded; `config` defaults to `{}`). Strapi's own are Cairn's:
 * `strapi::query`'s qs limits (`arrayLimit`, `depth`, `parameterLimit`), `strapi::body`'s `jsonLimit`,
 * `strapi::poweredBy`'s `X-Powered-By` and `strapi::responseTime`'s `X-Response-Time` are applied; `strapi::errors`'
 * place in the list says which of the app's middlewares see an error as its answer (those listed before it) and
 * which see it thrown; `strapi::security` sends helmet's headers, `strapi::cors` answers CORS, `strapi::ip` refuses
 * addresses, `strapi::public` and `strapi::favicon` serve files, `strapi::compression` compresses answers,
 * `strapi::logger` logs each request and `strapi::responses` runs its handlers (among the app's middlewares), as
 * Strapi's do. `strapi::session` is accepted by name (Cairn has no sessions); with a config, and a plugin's
 * middleware, it is a warning saying what is not applied. A name that is none of these stops the start, as it stops
 * Strapi's.
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

/** Strapi's middlewares whose config (or presence) Cairn applies: each may be listed once. */
const MAPPED = [
  'strapi::query',
  'strapi::body',
  'strapi::security',
  'strapi::cors',
  'strapi::ip',
  'strapi::poweredBy',
  'strapi::responseTime',
  'strapi::public',
  'strapi::favicon',
  'strapi::compression',
  'strapi::logger',
  'strapi::responses',
];
const MAPPED_NOTE =
  "of Strapi's middlewares Cairn applies strapi::query's qs limits, strapi::body's jsonLimit and formidable.maxFileSize, strapi::security, strapi::cors, strapi::ip, strapi::poweredBy, strapi::responseTime, strapi::public, strapi::favicon, strapi::compression, strapi::logger and strapi::responses";


/** Strapi's `strapi::public` default (middlewares/public.ts): files may be cached for a minute. */
const PUBLIC_MAX_AGE = 60_000;
/** Strapi's `strapi::favicon` defaults (middlewares/favicon.ts), and koa-favicon's upper bound of maxAge (a year). */
const FAVICON_DEFAULTS = { path: 'favicon.png', maxAge: 86_400_000 };
const FAVICON_MAX_AGE_LIMIT = 31_556_926_000;

/** `strapi::public` resolved: how long clients may cache a file of `public/` (milliseconds). */
export interface PublicFilesConfig {
  maxAge: number;
}

/** `strapi::favicon` resolved: the icon file (absolute; `found` false when no candidate exists) and its cache lifetime. */
export interface FaviconConfig {
  file: string;
  found: boolean;
  /** Milliseconds, as koa-favicon bounds it (0 to a year). */
  maxAge: number;
  /** Its place in the list: a `strapi::compression` listed after it does not compress the icon (Koa's order). */
  at: number;
}


/**
 * helmet's options, as `strapi::security` passes them (Strapi 5.54 runs helmet 6 through koa-helmet; Cairn helmet 8,
 * which takes the same options): each header's option under its old or its new name.
 */
const HELMET_OPTIONS = [
  'contentSecurityPolicy',
  'crossOriginEmbedderPolicy',
  'crossOriginOpenerPolicy',
  'crossOriginResourcePolicy',
  'originAgentCluster',
  'referrerPolicy',
  'hsts',
  'strictTransportSecurity',
  'noSniff',
  'xContentTypeOptions',
  'dnsPrefetchControl',
  'xDnsPrefetchControl',
  'ieNoOpen',
  'xDownloadOptions',
  'frameguard',
  'xFrameOptions',
  'permittedCrossDomainPolicies',
  'xPermittedCrossDomainPolicies',
  'hidePoweredBy',
  'xPoweredBy',
  'xssFilter',
  'xXssProtection',
];

/** Strapi's `strapi::security` defaults (middlewares/security.ts, with @strapi/utils' CSP_DEFAULTS). */
const SECURITY_DEFAULTS = {
  crossOriginEmbedderPolicy: false,
  crossOriginOpenerPolicy: false,
  crossOriginResourcePolicy: false,
  originAgentCluster: false,
  contentSecurityPolicy: {
    useDefaults: true,
    directives: {
      'connect-src': ["'self'", 'https:'],
      'img-src': ["'self'", 'data:', 'blob:', 'https://market-assets.strapi.io'],
      'media-src': ["'self'", 'data:', 'blob:'],
      upgradeInsecureRequests: null,
    },
  },
  xssFilter: false,
  hsts: { maxAge: 31536000, includeSubDomains: true },
  frameguard: { action: 'sameorigin' },
};

/** `strapi::cors`' options (Strapi's middlewares/cors.ts, over @koa/cors), each a list or a comma-separated string where it takes several. */
const CORS_LISTS = ['origin', 'expose', 'methods', 'headers'] as const;

/** Strapi's `strapi::cors` defaults. */
const CORS_DEFAULTS = {
  origin: ['*'],
  maxAge: 31536000,
  credentials: true,
  methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'],
  headers: ['Content-Type', 'Authorization', 'Origin', 'Accept'],
};

/** `strapi::cors` resolved over Strapi's defaults: what Cairn's CORS (app/cors.ts) answers. */
export interface CorsConfig {
  /** Allowed origins; `*` allows any (reflected, as Strapi's matchOrigin reflects it). */
  origins: string[];
  credentials: boolean;
  methods: string[];
  headers: string[];
  expose?: string[];
  maxAge: number;
}

/** The qs options of `strapi::query` that Cairn applies (query/parse-query-string.ts: QueryStringLimits). */
export const QUERY_MIDDLEWARE_OPTIONS = ['arrayLimit', 'depth', 'parameterLimit'] as const;
export type QueryMiddlewareConfig = { [K in (typeof QUERY_MIDDLEWARE_OPTIONS)[number]]?: number };

/** koa-body's options (Strapi's `strapi::body` passes its config to koa-body), and what Cairn does with each. */
const BODY_OPTIONS: Record<string, string | undefined> = {
  jsonLimit: undefined, // applied: the JSON body parser's limit
  formLimit: 'is not applied: Cairn parses no urlencoded form bodies (they are answered 415)',
  textLimit: 'is not applied: Cairn parses no text bodies (they are answered 415)',
  formidable: undefined, // maxFileSize applied (the files of the app's routes' multipart bodies); its other keys noted
  multipart: "is not applied: the app's routes read multipart bodies, Cairn's own (but the media library's) answer them 415",
  urlencoded: 'is not applied: Cairn parses no urlencoded form bodies (they are answered 415)',
  text: 'is not applied: Cairn parses no text bodies (they are answered 415)',
  json: 'is not applied: Cairn always parses JSON bodies',
  jsonStrict: 'is not applied: Cairn parses JSON bodies strictly (an object or an array)',
  includeUnparsed: 'is not applied: Cairn keeps no unparsed copy of a body',
  encoding: 'is not applied: Cairn reads bodies as UTF-8',
  parsedMethods: 'is not applied: Cairn parses the body of any method that has one',
  strict: 'is not applied: Cairn parses the body of any method that has one',
  patchKoa: undefined, // what Strapi sets itself: ctx.request.body is the body
  patchNode: 'is not applied: the body is ctx.request.body only',
  onError: 'is not applied: a body that does not parse is a 400 ValidationError',
};
const BODY_NOTE = 'Cairn applies jsonLimit and formidable.maxFileSize of strapi::body';

/** A `strapi::responses` handler: Koa's `(ctx, next)`, run with the answer of its status. */
export type ResponseHandler = (ctx: unknown, next: () => Promise<unknown>) => unknown;

/** `strapi::responses`' place in the list and its handlers by status (config checked at start). */
export interface ResponseHandlers {
  at: number;
  handlers: Record<string, ResponseHandler>;
}

/** The app's middleware module an entry names, with its config: what server-code/app-middlewares.ts loads. */
export interface AppMiddlewareRef {
  /** Its index in the list. */
  at: number;
  /** How Strapi names it: `global::x`, `api::a.x`, or the `resolve` given. */
  name: string;
  /** Given by name (`global::x`, `api::a.x`: the app's registered middleware), not by `resolve`. */
  byName: boolean;
  file: string;
  /** What its factory receives (`{}` when the entry gives none, as in Strapi). */
  config: unknown;
}

const nameOf = (entry: MiddlewareEntry): string => (typeof entry === 'string' ? entry : ((entry.name ?? entry.resolve) as string));
const configOf = (entry: MiddlewareEntry): unknown => (typeof entry === 'string' ? undefined : entry.config);
const isAppName = (name: string) => name.startsWith('global::') || name.startsWith('api::');

/**
 * Checks `config/middlewares` (the list the file exports, or its `({ env }) => list`): a value Cairn cannot take
 * throws a ConfigError naming `file`, the entry and the key; entries Cairn does not apply are warnings (returned).
 * With the app's folder (`dir`), each of the app's middlewares must be there: a `global::x` with no
 * `src/middlewares/x.(js|ts)` stops the start. Integers given as strings (`env('QS_ARRAY_LIMIT')`) are numbers in the
 * entries returned (the given ones are left as they are).
 */
export function checkMiddlewares(value: unknown, file: string, dir?: string): { entries: MiddlewareEntry[]; warnings: string[] } {
  const fail = (path: string, problem: string): never => {
    // `${file}: middlewares[5].config.arrayLimit (strapi::query) must be a positive integer, not 0`
    throw new ConfigError(`${file}: middlewares${path} ${problem}`);
  };
  if (!Array.isArray(value)) {
    return fail('', `must be an array of middlewares (names, or { name, config }), as Strapi takes it, not ${describe(value)}`);
  }
  const warnings: string[] = [];
  const warn = (at: number, name: string, message: string) => warnings.push(`${file}: middlewares[${at}] ${JSON.stringify(name)} ${message}`);
  const listed = new Map<string, number>();
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
    const named = entry as MiddlewareEntry;
    const name = nameOf(named);
    const config = configOf(named);
    const byName = typeof entry === 'string' || entry.name !== undefined;
    if (!byName) {
      // `{ resolve }`: a package, or a path from the app's folder (Strapi: require.resolve, else from its root).
      if (dir !== undefined) {
        const found = resolveModule(name, dir);
        if (found.file === undefined) fail(where, `{ resolve: ${JSON.stringify(name)} } ${found.problem}`);
      }
      return named;
    }
    if (name.startsWith('strapi::')) {
      if (!(STRAPI_MIDDLEWARES as readonly string[]).includes(name)) {
        // Strapi stops its start on it too; silently skipping `strapi::qeury` would drop the limits it sets.
        fail(where, `${JSON.stringify(name)} is not one of Strapi's middlewares: did you mean ${closestKey(name, [...STRAPI_MIDDLEWARES])}?`);
      }
      if (MAPPED.includes(name)) {
        if (listed.has(name)) fail(where, `lists ${name} again (it is middlewares[${listed.get(name)}] already)`);
        listed.set(name, at);
      }
      return checkStrapiMiddleware(named, name, config, at, { fail: (path, problem) => fail(`${where}${path}`, problem), warn });
    }
    if (isAppName(name)) {
      if (dir !== undefined) {
        const found = appMiddlewareFile(name, dir);
        if (found.file === undefined) fail(where, `${JSON.stringify(name)} ${found.problem}`);
      }
      return named;
    }
    if (name.startsWith('plugin::')) {
      warn(at, name, "is not applied: Cairn runs no plugin's middlewares (its plugins are its own)");
      return named;
    }
    // Strapi looks a name up in its registry of uids: `audit` alone is "Middleware audit not found.".
    const guess = dir !== undefined && appMiddlewareFile(`global::${name}`, dir).file ? ` (did you mean "global::${name}"?)` : '';
    return fail(where, `${JSON.stringify(name)} names no middleware${guess}: Strapi names them global::<file> (src/middlewares/<file>), api::<api>.<file> (src/api/<api>/middlewares/<file>), strapi::<name>, or { resolve: './path' | 'package' }`);
  });
  return { entries, warnings };
}

type Report = { fail: (path: string, problem: string) => never; warn: (at: number, name: string, message: string) => void };

/** One of Strapi's own middlewares: its config checked (and normalized) where Cairn applies it, else a warning. */
function checkStrapiMiddleware(entry: MiddlewareEntry, name: string, config: unknown, at: number, { fail, warn }: Report): MiddlewareEntry {
  const configured = config !== undefined && config !== null;
  switch (name) {
    case 'strapi::public': {
      if (configured) {
        if (!isPlain(config)) return fail('.config', `(strapi::public) must be an object { maxAge }, not ${describe(config)}`);
        for (const [key, option] of Object.entries(config)) {
          if (option === undefined) continue;
          if (key === 'maxAge') {
            if (milliseconds(option) === undefined) fail('.config.maxAge', `(strapi::public) must be a number of milliseconds (0 or more: how long clients may cache a file of public/), not ${describe(option)}`);
          } else warn(at, name, `config.${key} is not an option of strapi::public: it takes maxAge (Strapi passes no other option to koa-static)`);
        }
      }
      return entry;
    }
    case 'strapi::favicon': {
      if (configured) {
        if (!isPlain(config)) return fail('.config', `(strapi::favicon) must be an object { path, maxAge }, not ${describe(config)}`);
        for (const [key, option] of Object.entries(config)) {
          if (option === undefined) continue;
          if (key === 'path') {
            if (typeof option !== 'string' || option.trim() === '') fail('.config.path', `(strapi::favicon) must be the icon file's path from the app's folder (a non-empty string), not ${describe(option)}`);
          } else if (key === 'maxAge') {
            if (milliseconds(option) === undefined) fail('.config.maxAge', `(strapi::favicon) must be a number of milliseconds (0 or more: how long clients may cache the icon), not ${describe(option)}`);
          } else warn(at, name, `config.${key} is not an option of strapi::favicon: it takes path and maxAge (Strapi passes no other option to koa-favicon)`);
        }
      }
      return entry;
    }
    case 'strapi::compression':
      if (configured) checkCompressionOptions(config, { fail, warn: (message) => warn(at, name, message) });
      return entry;
    case 'strapi::query': {
      if (!configured) return entry;
      if (!isPlain(config)) return fail('.config', `(strapi::query) must be an object of qs options (${QUERY_MIDDLEWARE_OPTIONS.join(', ')}), not ${describe(config)}`);
      const checked: Record<string, unknown> = {};
      for (const [key, option] of Object.entries(config)) {
        if (option === undefined) continue; // `env('X')` without a default: as good as absent
        if (!(QUERY_MIDDLEWARE_OPTIONS as readonly string[]).includes(key)) {
          const closest = closestKey(key, [...QUERY_MIDDLEWARE_OPTIONS]);
          const hint = distance(key.toLowerCase(), closest.toLowerCase()) <= 2 ? `did you mean ${closest}? ` : '';
          fail(`.config.${key}`, `(strapi::query) is not an option Cairn applies: ${hint}Cairn takes ${QUERY_MIDDLEWARE_OPTIONS.join(', ')}`);
        }
        const number = typeof option === 'string' && /^\s*\d+\s*$/.test(option) ? Number.parseInt(option, 10) : option;
        if (!Number.isSafeInteger(number) || (number as number) < 1) fail(`.config.${key}`, `(strapi::query) must be a positive integer, not ${describe(option)}`);
        checked[key] = number;
      }
      return { ...(entry as object), config: checked };
    }
    case 'strapi::body': {
      if (!configured) return entry;
      if (!isPlain(config)) return fail('.config', `(strapi::body) must be an object of koa-body's options, not ${describe(config)}`);
      for (const [key, option] of Object.entries(config)) {
        if (option === undefined) continue;
        if (key === 'jsonLimit') {
          if (byteSize(option) === undefined) fail('.config.jsonLimit', `(strapi::body) must be a size in bytes (a positive integer, or a string like "10mb"), not ${describe(option)}`);
        } else if (key === 'formidable') {
          if (!isPlain(option)) fail('.config.formidable', `(strapi::body) must be an object of formidable's options, not ${describe(option)}`);
          const { maxFileSize, ...others } = option as Record<string, unknown>;
          if (maxFileSize !== undefined && byteSize(maxFileSize) === undefined) fail('.config.formidable.maxFileSize', `(strapi::body) must be a size in bytes (a positive integer), not ${describe(maxFileSize)}`);
          for (const other of Object.keys(others)) {
            warn(at, name, `config.formidable.${other} is not applied: of formidable's options Cairn applies maxFileSize, to the files of the app's routes' multipart bodies (the media library's limit is config/plugins' upload.config.sizeLimit) (${BODY_NOTE})`);
          }
        } else if (key in BODY_OPTIONS) {
          const note = BODY_OPTIONS[key];
          if (note) warn(at, name, `config.${key} ${note} (${BODY_NOTE})`);
        } else {
          const closest = closestKey(key, Object.keys(BODY_OPTIONS));
          const hint = distance(key.toLowerCase(), closest.toLowerCase()) <= 2 ? `did you mean ${closest}? ` : '';
          warn(at, name, `config.${key} is not an option of koa-body, which strapi::body passes its config to: ${hint}(${BODY_NOTE})`);
        }
      }
      return entry;
    }
    case 'strapi::poweredBy': {
      if (!configured) return entry;
      if (!isPlain(config)) return fail('.config', `(strapi::poweredBy) must be an object { poweredBy }, not ${describe(config)}`);
      for (const [key, option] of Object.entries(config)) {
        if (option === undefined) continue;
        if (key !== 'poweredBy') warn(at, name, `config.${key} is not an option of strapi::poweredBy: it takes poweredBy (the X-Powered-By header's value)`);
        else if (typeof option !== 'string' || option === '') fail('.config.poweredBy', `(strapi::poweredBy) must be a non-empty string, not ${describe(option)}`);
      }
      return entry;
    }
    case 'strapi::responses': {
      if (!configured) return entry;
      if (!isPlain(config)) return fail('.config', `(strapi::responses) must be an object { handlers }, not ${describe(config)}`);
      for (const [key, option] of Object.entries(config)) {
        if (option === undefined) continue;
        if (key !== 'handlers') {
          warn(at, name, `config.${key} is not an option of strapi::responses: it takes handlers (a function (ctx, next) per status)`);
          continue;
        }
        if (!isPlain(option)) return fail('.config.handlers', `(strapi::responses) must be an object of functions by status ({ 404: (ctx) => ... }), not ${describe(option)}`);
        for (const [status, handler] of Object.entries(option)) {
          // Strapi skips what is not a function, and a key that is no status never matches: both would do nothing.
          if (!/^[1-5]\d\d$/.test(status)) fail(`.config.handlers.${status}`, '(strapi::responses) is not an HTTP status (100-599): its handler would never run');
          if (typeof handler !== 'function') fail(`.config.handlers.${status}`, `(strapi::responses) must be a function (ctx, next), not ${describe(handler)}`);
        }
      }
      return entry;
    }
    case 'strapi::responseTime':
    case 'strapi::logger':
      if (configured && (!isPlain(config) || Object.keys(config).length > 0)) warn(at, name, `has a config: ${name} takes none`);
      return entry;
    case 'strapi::ip': {
      if (!configured) return entry;
      // koa-ip takes a list (or one pattern) as the whitelist, or { whitelist, blacklist, handler }.
      const lists = isPlain(config) ? config : { whitelist: Array.isArray(config) ? config : [config] };
      for (const [key, option] of Object.entries(lists)) {
        if (option === undefined) continue;
        if (key === 'handler') fail('.config.handler', '(strapi::ip) is a function of Koa\'s ctx, which Cairn does not run: a refused address is answered 403 Forbidden, as without one');
        else if (key !== 'whitelist' && key !== 'blacklist') fail(`.config.${key}`, '(strapi::ip) is not an option of strapi::ip: it takes whitelist and blacklist');
        else if (!Array.isArray(option) || !option.every((p) => typeof p === 'string' || p instanceof RegExp)) fail(`.config.${key}`, `(strapi::ip) must be a list of patterns (strings or regular expressions), not ${describe(option)}`);
        else {
          for (const [i, pattern] of option.entries()) {
            try {
              new RegExp(pattern);
            } catch (error) {
              fail(`.config.${key}[${i}]`, `(strapi::ip) is not a regular expression, as koa-ip reads each pattern: ${(error as Error).message}`);
            }
          }
        }
      }
      return entry;
    }
    case 'strapi::security': {
      if (!configured) return entry;
      if (!isPlain(config)) return fail('.config', `(strapi::security) must be an object of helmet's options, not ${describe(config)}`);
      for (const [key, option] of Object.entries(config)) {
        if (option === undefined) continue;
        if (key === 'expectCt') warn(at, name, 'config.expectCt is not applied: the Expect-CT header is obsolete (browsers ignore it; helmet 7 dropped it)');
        else if (!HELMET_OPTIONS.includes(key)) {
          const closest = closestKey(key, HELMET_OPTIONS);
          const hint = distance(key.toLowerCase(), closest.toLowerCase()) <= 2 ? `did you mean ${closest}? ` : '';
          fail(`.config.${key}`, `(strapi::security) is not an option of helmet, which strapi::security passes its config to: ${hint}it takes ${HELMET_OPTIONS.join(', ')}`);
        }
      }
      return entry;
    }
    case 'strapi::cors': {
      if (!configured) return entry;
      if (!isPlain(config)) return fail('.config', `(strapi::cors) must be an object of its options (origin, credentials, methods, headers, expose, maxAge), not ${describe(config)}`);
      for (const [key, option] of Object.entries(config)) {
        if (option === undefined) continue;
        if ((CORS_LISTS as readonly string[]).includes(key)) {
          if (typeof option === 'function') fail(`.config.${key}`, '(strapi::cors) is a function: Cairn takes a list of values or a comma-separated string');
          if (typeof option !== 'string' && !(Array.isArray(option) && option.every((v) => typeof v === 'string'))) {
            fail(`.config.${key}`, `(strapi::cors) must be a list of strings or a comma-separated string, not ${describe(option)}`);
          }
        } else if (key === 'credentials' || key === 'keepHeadersOnError') {
          if (typeof option !== 'boolean') fail(`.config.${key}`, `(strapi::cors) must be true or false, not ${describe(option)}`);
        } else if (key === 'maxAge') {
          if (!(Number.isSafeInteger(option) && (option as number) >= 0) && !(typeof option === 'string' && /^\d+$/.test(option))) fail(`.config.${key}`, `(strapi::cors) must be a number of seconds, not ${describe(option)}`);
        } else if (key === 'enabled') {
          // Strapi's own warning: the option is gone, and using it to disable CORS may leave an insecure default.
          warn(at, name, 'config.enabled is no longer an option of strapi::cors: to disable CORS, remove strapi::cors from the list');
        } else fail(`.config.${key}`, '(strapi::cors) is not an option of strapi::cors: it takes origin, credentials, methods, headers, expose, maxAge and keepHeadersOnError');
      }
      return entry;
    }
    default:
      if (configured) warn(at, name, `has a config Cairn does not apply (${MAPPED_NOTE})`);
      return entry;
  }
}

/** A number of milliseconds (0 or more; a string of digits, as env() gives it), or undefined. */
function milliseconds(value: unknown): number | undefined {
  const number = typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : value;
  return typeof number === 'number' && Number.isFinite(number) && number >= 0 ? number : undefined;
}


/**
 * The icon `strapi::favicon` serves, found as Strapi finds it: the config's `path` from the app's folder, else
 * `favicon.png`, else `favicon.ico` (`found` false when none is there: the configured path, then).
 */
export function faviconFile(path: string | undefined, dir: string): { file: string; found: boolean } {
  const configured = resolve(dir, path ?? FAVICON_DEFAULTS.path);
  const file = [configured, resolve(dir, FAVICON_DEFAULTS.path), resolve(dir, 'favicon.ico')].find(isFile);
  return file ? { file, found: true } : { file: configured, found: false };
}

const entryOf = (entries: readonly MiddlewareEntry[] | undefined, name: string) => entries?.find((e) => typeof e === 'string' ? e === name : e.name === name);

/** Where the list names Strapi's middleware `name` (its index), or -1: the order some of them depend on. */
export function listedAt(entries: readonly MiddlewareEntry[] | undefined, name: string): number {
  const entry = entryOf(entries, name);
  return entry === undefined ? -1 : (entries ?? []).indexOf(entry);
}

/** The qs limits `strapi::query`'s config sets in a checked `config/middlewares` list ({} when none). */
export function queryStringLimits(entries: readonly MiddlewareEntry[] | undefined): QueryMiddlewareConfig {
  const config = configOf(entryOf(entries, 'strapi::query') ?? 'strapi::query') as Record<string, unknown> | null | undefined;
  if (!config) return {};
  const limits: QueryMiddlewareConfig = {};
  for (const key of QUERY_MIDDLEWARE_OPTIONS) if (typeof config[key] === 'number') limits[key] = config[key];
  return limits;
}

/** The JSON body limit (bytes) `strapi::body`'s `jsonLimit` sets in a checked list, if it does. */
export function jsonBodyLimit(entries: readonly MiddlewareEntry[] | undefined): number | undefined {
  const config = configOf(entryOf(entries, 'strapi::body') ?? 'strapi::body') as Record<string, unknown> | null | undefined;
  return config ? byteSize(config.jsonLimit) : undefined;
}

/** formidable's default `maxFileSize`, which Strapi's `strapi::body` keeps unless its config sets another. */
const FORMIDABLE_MAX_FILE_SIZE = 200 * 1024 * 1024;

/** The size limit of a file in an app route's multipart body: `strapi::body`'s `formidable.maxFileSize`, else formidable's. */
export function multipartFileLimit(entries: readonly MiddlewareEntry[] | undefined): number {
  const config = configOf(entryOf(entries, 'strapi::body') ?? 'strapi::body') as { formidable?: { maxFileSize?: unknown } } | null | undefined;
  return byteSize(config?.formidable?.maxFileSize) ?? FORMIDABLE_MAX_FILE_SIZE;
}

/**
 * `strapi::security`'s helmet options over Strapi's defaults, merged as Strapi merges them (lodash defaultsDeep: the
 * config's values first, a list merged item by item), when the list names it (undefined: no security headers).
 */
export function securityOptions(entries: readonly MiddlewareEntry[] | undefined): Record<string, unknown> | undefined {
  const entry = entryOf(entries, 'strapi::security');
  if (entry === undefined) return undefined;
  const { expectCt: _obsolete, ...given } = (configOf(entry) ?? {}) as Record<string, unknown>;
  return defaultsDeep({}, given, SECURITY_DEFAULTS) as Record<string, unknown>;
}

/**
 * `strapi::ip`'s lists as koa-ip reads them: each pattern a regular expression tested against the client's address
 * (unanchored: `127.0.0.1` also matches `127.0.0.10`, as in Strapi); undefined when nothing is filtered.
 */
export function ipFilterConfig(entries: readonly MiddlewareEntry[] | undefined): { whitelist?: RegExp[]; blacklist?: RegExp[] } | undefined {
  const entry = entryOf(entries, 'strapi::ip');
  const config = entry === undefined ? undefined : configOf(entry);
  if (config === undefined || config === null) return undefined;
  const lists = (isPlain(config) ? config : { whitelist: Array.isArray(config) ? config : [config] }) as { whitelist?: Array<string | RegExp>; blacklist?: Array<string | RegExp> };
  // koa-ip builds each pattern anew per request; compiled once here, without the flags that would make test() stateful.
  const regExp = (pattern: string | RegExp) => (typeof pattern === 'string' ? new RegExp(pattern) : new RegExp(pattern.source, pattern.flags.replace(/[gy]/g, '')));
  const compiled = (list: Array<string | RegExp> | undefined) => (Array.isArray(list) ? list.map(regExp) : undefined);
  const filter = { whitelist: compiled(lists.whitelist), blacklist: compiled(lists.blacklist) };
  return filter.whitelist || filter.blacklist ? filter : undefined;
}

/** `strapi::cors`' options over Strapi's defaults, when the list names it (undefined: no CORS). */
export function corsConfig(entries: readonly MiddlewareEntry[] | undefined): CorsConfig | undefined {
  const entry = entryOf(entries, 'strapi::cors');
  if (entry === undefined) return undefined;
  const given = (configOf(entry) ?? {}) as Record<string, unknown>;
  const list = (value: unknown, fallback: string[]) => (value === undefined ? fallback : Array.isArray(value) ? (value as string[]) : String(value).split(',').map((v) => v.trim()));
  return {
    origins: list(given.origin, CORS_DEFAULTS.origin),
    credentials: typeof given.credentials === 'boolean' ? given.credentials : CORS_DEFAULTS.credentials,
    methods: list(given.methods, CORS_DEFAULTS.methods),
    headers: list(given.headers, CORS_DEFAULTS.headers),
    ...(given.expose === undefined ? {} : { expose: list(given.expose, []) }),
    maxAge: given.maxAge === undefined ? CORS_DEFAULTS.maxAge : Number(given.maxAge),
  };
}

/** Strapi's default `X-Powered-By` (middlewares/powered-by.ts). */
export const POWERED_BY = 'Strapi <strapi.io>';

/**
 * The headers Strapi's `strapi::poweredBy` and `strapi::responseTime` add to every answer, when the list has them:
 * `X-Powered-By` (its config's `poweredBy`, else Strapi's default) and whether to send `X-Response-Time`.
 */
export function answerHeaders(entries: readonly MiddlewareEntry[] | undefined): { poweredBy?: string; responseTime: boolean } {
  const powered = entryOf(entries, 'strapi::poweredBy');
  const given = powered === undefined ? undefined : (configOf(powered) as { poweredBy?: unknown } | null | undefined)?.poweredBy;
  return {
    poweredBy: powered === undefined ? undefined : typeof given === 'string' ? given : POWERED_BY,
    responseTime: entryOf(entries, 'strapi::responseTime') !== undefined,
  };
}

/** Whether the list names `strapi::logger`: a log line per request (app/request-log.ts). */
export function logsRequests(entries: readonly MiddlewareEntry[] | undefined): boolean {
  return entryOf(entries, 'strapi::logger') !== undefined;
}

/** `strapi::public` over Strapi's defaults, when the list names it (undefined: Cairn serves public/ its own way). */
export function publicFilesConfig(entries: readonly MiddlewareEntry[] | undefined): PublicFilesConfig | undefined {
  const entry = entryOf(entries, 'strapi::public');
  if (entry === undefined) return undefined;
  const given = configOf(entry) as { maxAge?: unknown } | null | undefined;
  return { maxAge: milliseconds(given?.maxAge) ?? PUBLIC_MAX_AGE };
}

/** `strapi::favicon` over Strapi's defaults, its icon found in the app's folder, when the list names it. */
export function faviconConfig(entries: readonly MiddlewareEntry[] | undefined, dir: string): FaviconConfig | undefined {
  const entry = entryOf(entries, 'strapi::favicon');
  if (entry === undefined) return undefined;
  const given = (configOf(entry) ?? {}) as { path?: unknown; maxAge?: unknown };
  const maxAge = Math.min(milliseconds(given.maxAge) ?? FAVICON_DEFAULTS.maxAge, FAVICON_MAX_AGE_LIMIT);
  return { ...faviconFile(typeof given.path === 'string' ? given.path : undefined, dir), maxAge, at: listedAt(entries, 'strapi::favicon') };
}


/** `strapi::compression`'s koa-compress options over its defaults, when the list names it (undefined: no compression). */
export function compressionConfig(entries: readonly MiddlewareEntry[] | undefined): CompressionConfig | undefined {
  const entry = entryOf(entries, 'strapi::compression');
  return entry === undefined ? undefined : compressionOptions(configOf(entry), listedAt(entries, 'strapi::compression'));
}

/**
 * The app's middlewares a checked list names (`global::x`, `api::a.x`, `{ resolve }`), in list order, with their
 * files and configs; and where `strapi::errors` is in the list (Strapi's error answers are made there).
 */
export function applicationMiddlewares(
  entries: readonly MiddlewareEntry[] | undefined,
  dir: string,
): { middlewares: AppMiddlewareRef[]; errorsAt?: number; responses?: ResponseHandlers } {
  const middlewares: AppMiddlewareRef[] = [];
  let errorsAt: number | undefined;
  let responses: ResponseHandlers | undefined;
  (entries ?? []).forEach((entry, at) => {
    const name = nameOf(entry);
    if (name === 'strapi::errors' && errorsAt === undefined) errorsAt = at;
    if (name === 'strapi::responses') {
      const handlers = (configOf(entry) as { handlers?: Record<string, ResponseHandler> } | null | undefined)?.handlers;
      if (handlers && Object.keys(handlers).length) responses = { at, handlers };
      return;
    }
    const byName = typeof entry === 'string' || entry.name !== undefined;
    if (byName && !isAppName(name)) return;
    const found = byName ? appMiddlewareFile(name, dir) : resolveModule(name, dir);
    // checkMiddlewares refused a missing one; a file removed since is refused here.
    if (found.file === undefined) throw new ConfigError(`config/middlewares: middlewares[${at}] ${JSON.stringify(name)} ${found.problem}`);
    const config = configOf(entry);
    middlewares.push({ at, name, byName, file: found.file, config: config === undefined ? {} : config });
  });
  return { middlewares, errorsAt, responses };
}

const EXTENSIONS = ['.js', '.ts', '.mjs', '.cjs'];
const isFile = (path: string) => {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
};
const extensionsNote = 'js (or .ts, .mjs, .cjs)';

/** The file of `global::x` (`src/middlewares/x.js`) or `api::a.x` (`src/api/a/middlewares/x.js`), or what is missing. */
export function appMiddlewareFile(name: string, dir: string): { file?: string; problem?: string } {
  let folder: string;
  let base: string;
  if (name.startsWith('global::')) {
    folder = join(dir, 'src', 'middlewares');
    base = name.slice('global::'.length);
  } else {
    const uid = name.slice('api::'.length);
    const dot = uid.indexOf('.');
    if (dot <= 0 || dot === uid.length - 1) return { problem: 'is not a middleware uid: an API\'s middleware is api::<api>.<file> (src/api/<api>/middlewares/<file>.js)' };
    folder = join(dir, 'src', 'api', uid.slice(0, dot), 'middlewares');
    base = uid.slice(dot + 1);
  }
  const file = /[\\/]/.test(base) || base === '' ? undefined : EXTENSIONS.map((ext) => join(folder, base + ext)).find(isFile);
  if (file) return { file };
  const present = existsSync(folder)
    ? readdirSync(folder)
        .filter((f) => EXTENSIONS.includes(extname(f)) && !f.endsWith('.d.ts'))
        .map((f) => f.slice(0, -extname(f).length))
    : undefined;
  const has = present === undefined ? `there is no ${folder} folder` : present.length ? `${folder} has ${present.join(', ')}` : `${folder} is empty`;
  return { problem: `has no file: there is no ${join(folder, base)}.${extensionsNote} (${has})` };
}

/**
 * A `{ resolve }` entry's module, as Strapi finds it: a path (`./src/middlewares/x`, from the app's folder; an
 * extension or `index` file may be left out) or a package the app has installed (`require.resolve` from the app).
 */
export function resolveModule(spec: string, dir: string): { file?: string; problem?: string } {
  const asPath = () => {
    const path = resolve(dir, spec);
    const file = [path, ...EXTENSIONS.map((ext) => path + ext), ...EXTENSIONS.map((ext) => join(path, `index${ext}`))].find((f) => isFile(f) && !f.endsWith('.d.ts'));
    return file;
  };
  if (isAbsolute(spec) || spec.startsWith('.')) {
    const file = asPath();
    return file ? { file } : { problem: `is no file: there is no ${resolve(dir, spec)}.${extensionsNote}` };
  }
  try {
    return { file: createRequire(join(dir, 'package.json')).resolve(spec) };
  } catch (error) {
    // Strapi then takes it as a path from the app's root (`src/middlewares/x`).
    const file = asPath();
    if (file) return { file };
    const code = (error as { code?: unknown }).code;
    if (code !== 'MODULE_NOT_FOUND') return { problem: `cannot be resolved from the app's folder: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}` };
    return { problem: `is neither a package the app has installed (npm install ${spec}) nor a file of the app (${resolve(dir, spec)}.${extensionsNote})` };
  }
}
