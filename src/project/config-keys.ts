import { isDatabaseClient } from '../database/clients.js';
import { intervalMs, INTERVAL_UNITS } from './time-interval.js';
import { KEY_PAIR_ALGORITHMS, SECRET_ALGORITHMS } from './jwt-algorithms.js';

/**
 * The keys of each config file: those Cairn reads, with the values it accepts, and those Strapi defines that Cairn
 * does not use (accepted silently, or with a note when ignoring them changes what the app does). A key in neither
 * list is a warning naming the closest known key; a bad value is an error naming the file, the key and what is
 * allowed (config-validate.ts walks these).
 */

/** One key's rule: a value check, and for objects the rules of their keys. */
export interface KeyRule {
  /** Turns a value into the one used (a port given as a string by `env('PORT')`). */
  normalize?: (value: unknown) => unknown;
  /** What is wrong with the value, said after the key (`must be a positive integer, not -1`), or undefined. */
  check?: (value: unknown) => string | undefined;
  /** The value is an object with these keys. */
  keys?: Record<string, KeyRule>;
  /** The value is an object whose every key follows this rule (names the app chooses: breakpoints). */
  values?: KeyRule;
  /** Keys other than `keys` are allowed (options passed on to a driver or a library). */
  open?: boolean;
  /** The key must be set (its check runs on `undefined` when it is missing). */
  required?: boolean;
  /** Said when the key is set: Strapi uses it, Cairn does not, and that matters (`undefined`: accepted silently). */
  ignoredNote?: string;
  /** When the note applies; default: whenever the key is set. */
  noteWhen?: (value: unknown) => boolean;
  /**
   * Cairn reads the key at each use, not once at start: `strapi.config.set` of it takes effect (strapi-config.ts).
   * Any other key Cairn reads is compiled at start, and a set that changes it throws.
   */
  live?: boolean;
}

export const show = (value: unknown): string => (typeof value === 'string' ? JSON.stringify(value) : typeof value === 'function' ? 'a function' : Array.isArray(value) ? JSON.stringify(value) : String(value));
const isPlain = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** An integer, or a string of one (from `env()`); anything else is left as it is, for the check to refuse. */
const integerOrString = (value: unknown): unknown => (typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number.parseInt(value, 10) : value);

const ANY: KeyRule = {};
const OPEN: KeyRule = { open: true, check: (v) => (isPlain(v) ? undefined : `must be an object, not ${show(v)}`) };
const bool: KeyRule = { check: (v) => (typeof v === 'boolean' ? undefined : `must be true or false, not ${show(v)}`) };
const positiveInteger: KeyRule = { check: (v) => (Number.isInteger(v) && (v as number) >= 1 ? undefined : `must be a positive integer, not ${show(v)}`) };
/** A positive integer, or a string of one (from `env()`). */
const countOrString: KeyRule = { normalize: integerOrString, check: positiveInteger.check };
const wholeNumber: KeyRule = { check: (v) => (Number.isInteger(v) && (v as number) >= 0 ? undefined : `must be a whole number (0 or more), not ${show(v)}`) };
const text: KeyRule = { check: (v) => (typeof v === 'string' && v !== '' ? undefined : `must be a non-empty string, not ${show(v)}`) };
const path: KeyRule = { check: (v) => (typeof v === 'string' && v.startsWith('/') ? undefined : `must be a path starting with "/", not ${show(v)}`) };
const oneOf = (...allowed: string[]): KeyRule => ({
  check: (v) => (allowed.includes(v as string) ? undefined : `must be ${allowed.slice(0, -1).join(', ')} or ${allowed[allowed.length - 1]}, not ${show(v)}`),
});
const object = (keys: Record<string, KeyRule>, extra: Omit<KeyRule, 'keys'> = {}): KeyRule => ({ keys, ...extra });
/** koa2-ratelimit's `interval`: milliseconds, or an object of whole time units ({ min: 5 }). */
const checkInterval = (v: unknown): string | undefined =>
  (Number.isInteger(v) && (v as number) >= 1) || (isPlain(v) && intervalMs(v) !== undefined)
    ? undefined
    : `must be a positive number of milliseconds or an object of ${INTERVAL_UNITS.join(', ')} such as { min: 5 }, not ${isPlain(v) ? JSON.stringify(v) : show(v)}`;

/** Keys Strapi defines that Cairn has no use for: accepted as they are. */
const strapiKeys = (...names: string[]): Record<string, KeyRule> => Object.fromEntries(names.map((n) => [n, ANY]));

const server = object({
  host: { check: (v) => (typeof v === 'string' && v !== '' ? undefined : `must be a host name or address, not ${show(v)}`) },
  port: {
    normalize: integerOrString,
    check: (v) =>
      !Number.isInteger(v)
        ? `${show(v)} is not a valid port (an integer from 0 to 65535; 0 picks a free one)`
        : (v as number) < 0 || (v as number) > 65535
          ? `${show(v)} is not a valid port (0 to 65535)`
          : undefined,
  },
  workers: { normalize: integerOrString, check: positiveInteger.check },
  bodyLimit: positiveInteger,
  socket: { ignoredNote: 'Cairn listens on host and port, not on a socket: socket is ignored' },
  // Strapi 5 trusts a proxy's X-Forwarded-* headers when `proxy.koa` is true (app/proxy-trust.ts); `global`, `fetch`,
  // `http` and `https` are proxies for Strapi's own outgoing requests.
  proxy: {
    check: (v) => (isPlain(v) || typeof v === 'boolean' ? undefined : `must be an object ({ koa: true } trusts a proxy's X-Forwarded-* headers), not ${show(v)}`),
    ignoredNote: "a boolean is Strapi v4's form: Strapi 5 reads server.proxy.koa, so X-Forwarded-* headers are not trusted (write proxy: { koa: true } to trust them)",
    noteWhen: (v) => typeof v === 'boolean',
    keys: {
      koa: bool,
      maxIpsCount: { normalize: integerOrString, check: wholeNumber.check },
      ipHeader: { check: (v) => (typeof v === 'string' && /^[A-Za-z0-9-]+$/.test(v) ? undefined : `must be a header name, not ${show(v)}`) },
      // Strapi sends its own outgoing requests through these; Cairn's one outgoing client (the S3 upload provider)
      // goes direct, which matters: a warning says so.
      ...Object.fromEntries(
        ['global', 'fetch', 'http', 'https'].map((key) => [key, { ignoredNote: `Strapi's proxy for its outgoing requests: Cairn's one outgoing client, the S3 upload provider, connects directly, so proxy.${key} is ignored` }]),
      ),
    },
  },
  ...strapiKeys('app', 'emitErrors', 'url', 'absoluteUrl', 'globalProxy', 'cron', 'dirs', 'logger', 'transfer', 'admin', 'openapi', 'webhooks', 'http', 'mcp'),
});

/** Knex's own options, which Strapi passes on: Cairn does not use knex, but they are not mistakes. */
const KNEX_KEYS = strapiKeys('migrations', 'seeds', 'asyncStackTraces', 'searchPath', 'version', 'log', 'postProcessResponse', 'wrapIdentifier', 'compileSqlOnError');

const database = object({
  connection: object(
    {
      // Strapi's names, and the driver names knex also takes for them.
      client: {
        check: (v) => (isDatabaseClient(v) ? undefined : `must be sqlite, postgres or mysql, not ${show(v)}`),
      },
      // The driver's own options (host, ssl, socketPath...): passed on as they are.
      connection: { open: true, check: (v) => (isPlain(v) ? undefined : `must be an object of connection settings, not ${show(v)}`) },
      pool: object({
        min: wholeNumber,
        max: positiveInteger,
        ...strapiKeys('acquireTimeoutMillis', 'createTimeoutMillis', 'destroyTimeoutMillis', 'idleTimeoutMillis', 'reapIntervalMillis', 'createRetryIntervalMillis', 'afterCreate'),
      }),
      // How long a request waits for a connection (opening one, or a free one in the pool) before a 503.
      acquireConnectionTimeout: { normalize: integerOrString, check: (v) => (Number.isInteger(v) && (v as number) >= 1 ? undefined : `must be a positive number of milliseconds, not ${show(v)}`) },
      ...strapiKeys('debug', 'useNullAsDefault'),
      ...KNEX_KEYS,
    },
    { check: (v) => (isPlain(v) ? undefined : 'must be an object with client and connection') },
  ),
  settings: object(strapiKeys('forceMigration', 'runMigrations', 'useTypescriptMigrations')),
});

const api = object({
  rest: object({
    defaultLimit: positiveInteger,
    maxLimit: positiveInteger,
    withCount: bool,
    prefix: { ...path, ignoredNote: 'Cairn serves the REST API under /api: rest.prefix is ignored', noteWhen: (v) => v !== '/api' },
    // Strapi 5.54's core controllers refuse unknown query keys only with strictParams: true (else they drop them);
    // Cairn's REST always refuses them (README: where Cairn differs).
    strictParams: {
      ignoredNote: 'Cairn\'s REST always refuses unknown query parameters (400), as Strapi does with strictParams: true: rest.strictParams: false is ignored',
      noteWhen: (v) => v !== true,
    },
    ...strapiKeys('port'),
  }),
  responses: object({
    privateAttributes: {
      ignoredNote: 'Cairn has no global list of private attributes: these attributes are returned (mark them "private": true in the schemas)',
      noteWhen: (v) => !Array.isArray(v) || v.length > 0,
    },
  }),
  // Read by the Document Service at each call (documents/strapi-service.ts), as Strapi does: a set takes effect.
  documents: object({ strictParams: { ...bool, live: true }, ...strapiKeys('strictRelations') }),
});

const admin = object({
  apiToken: object({ salt: text, ...strapiKeys('secrets') }),
  // The key Strapi encrypts API keys with, so its admin can show them again: Cairn encrypts the keys it makes with it.
  secrets: object({ encryptionKey: text }),
  ...strapiKeys(
    'auth', 'host', 'port', 'serveAdminPanel', 'autoOpen', 'watchIgnoreFiles', 'path', 'absoluteUrl', 'url', 'auditLogs', 'history',
    'preview', 'ai', 'forgotPassword', 'rateLimit', 'firstPublishedAtField', 'flags', 'transfer', 'layout',
  ),
});

/** `{ enabled, resolve, config }` of a plugin Cairn runs. */
const plugin = (config: KeyRule, canDisable: boolean): KeyRule =>
  object({
    enabled: canDisable ? bool : { ...bool, ignoredNote: 'Cairn always runs this plugin: enabled: false is ignored', noteWhen: (v) => v === false },
    resolve: ANY,
    config,
  });

const graphql = object({
  endpoint: path,
  shadowCRUD: bool,
  // What one operation may cost (see graphql/config.ts); env() gives strings, so a string of digits is taken.
  depthLimit: countOrString,
  amountLimit: countOrString,
  maxAliases: countOrString,
  maxFields: countOrString,
  maxItems: countOrString,
  maxTokens: countOrString,
  introspection: bool,
  v4CompatibilityMode: bool,
  // Cairn's own: the seed's Strapi v4 schema (data { id attributes }) instead of Strapi 5's (see graphql/options.ts).
  shape: { check: (v) => (v === 'v4' ? undefined : `must be "v4" (the seed's Strapi v4 schema) or absent (v4CompatibilityMode decides), not ${show(v)}`) },
  playgroundAlways: bool,
  // Apollo Server's options: Cairn does not run Apollo Server and reads only tracing.
  apolloServer: object({ tracing: bool, allowBatchedHttpRequests: bool }, { open: true }),
  subscriptions: { ignoredNote: 'Cairn has no GraphQL subscriptions: subscriptions is ignored', noteWhen: (v) => v !== false },
  // Read at each request (graphql/config.ts pageSizes), as Strapi reads them: a set while Cairn runs applies.
  defaultLimit: { ...positiveInteger, live: true },
  maxLimit: { check: (v) => (v === -1 || (Number.isInteger(v) && (v as number) >= 1) ? undefined : `must be a positive integer or -1 (no limit), not ${show(v)}`), live: true },
  ...strapiKeys('landingPage', 'generateArtifacts', 'artifacts'),
});

const upload = object({
  provider: oneOf('local', 'aws-s3', 's3'),
  providerOptions: OPEN,
  sizeLimit: positiveInteger,
  breakpoints: { values: positiveInteger, check: (v) => (isPlain(v) ? undefined : `must be an object of name: width in pixels, not ${show(v)}`) },
  ...strapiKeys('actionOptions', 'sharp', 'concurrentUploadSize', 'concurrentUploadRequests', 'security'),
});

/** A jsonwebtoken option Cairn does not apply: set, it would make Cairn's tokens differ from Strapi's. */
const unappliedJwtOption: KeyRule = { check: () => 'is a jsonwebtoken option Cairn does not apply (it reads expiresIn, algorithm, issuer and audience): remove it' };

const usersPermissions = object({
  jwtSecret: text,
  // jsonwebtoken's sign options, as Strapi's legacy mode hands them over: those Cairn applies, and the rest refused.
  jwt: object({
    expiresIn: { check: (v) => (typeof v === 'string' || Number.isInteger(v) ? undefined : `must be a duration such as "30d" or a number of seconds, not ${show(v)}`) },
    algorithm: {
      check: (v) =>
        [...SECRET_ALGORITHMS, ...KEY_PAIR_ALGORITHMS].includes(v as never)
          ? undefined
          : `must be HS256, HS384 or HS512 (signed with jwtSecret), or in the "refresh" mode RS, ES or PS 256/384/512 (with privateKey and publicKey), not ${show(v)}`,
    },
    // PEM keys of a key-pair algorithm, as Strapi 5.54's session manager reads them (checked when the mode starts).
    privateKey: text,
    publicKey: text,
    issuer: text,
    audience: { check: (v) => (typeof v === 'string' || (Array.isArray(v) && v.every((a) => typeof a === 'string')) ? undefined : `must be a string or a list of strings, not ${show(v)}`) },
    ...Object.fromEntries(
      ['notBefore', 'subject', 'jwtid', 'noTimestamp', 'header', 'keyid', 'mutatePayload', 'encoding', 'allowInsecureKeySizes', 'allowInvalidAsymmetricKeyTypes'].map((name) => [name, unappliedJwtOption]),
    ),
  }),
  // Strapi 5.54's two modes: `{ id }` JWTs (its default), or sessions with access and refresh tokens.
  jwtManagement: oneOf('legacy-support', 'refresh'),
  // The "refresh" mode's lifespans (seconds; 0 is Strapi's default) and its refresh-token cookie.
  sessions: object({
    ...Object.fromEntries(['accessTokenLifespan', 'maxRefreshTokenLifespan', 'idleRefreshTokenLifespan', 'maxSessionLifespan', 'idleSessionLifespan'].map((name) => [name, wholeNumber])),
    httpOnly: bool,
    cookie: object({
      name: text,
      secure: bool,
      sameSite: { check: (v) => (['lax', 'strict', 'none', true, false].includes(v as string) ? undefined : `must be "lax", "strict", "none", true or false, not ${show(v)}`) },
      path,
      domain: text,
      maxAge: positiveInteger,
    }),
  }),
  register: object({ enabled: bool, allowedFields: { check: (v) => (Array.isArray(v) && v.every((f) => typeof f === 'string') ? undefined : `must be a list of attribute names, not ${show(v)}`) } }),
  minPasswordLength: positiveInteger,
  // koa2-ratelimit's options, as Strapi passes them on: `interval` in milliseconds or as { min: 5 } (project/time-interval.ts).
  ratelimit: object({ enabled: bool, max: positiveInteger, interval: { check: checkInterval }, window: positiveInteger }, { open: true }),
  ...strapiKeys('layout', 'callback', 'validationRules', 'email', 'providers', 'advanced'),
});

const i18n = object({
  defaultLocale: text,
  locales: { check: (v) => (Array.isArray(v) ? undefined : `must be a list of locale codes such as ["en", "fr"], not ${show(v)}`) },
});

/** Strapi's email plugin: the provider is an npm package (`@strapi/provider-email-<name>` or a package name). */
const email = object({ provider: text, providerOptions: OPEN, settings: OPEN });

/** The plugins Cairn runs, by their config/plugins key. */
export const PLUGIN_RULES: Record<string, KeyRule> = {
  email: plugin(email, false),
  graphql: plugin(graphql, true),
  upload: plugin(upload, false),
  'users-permissions': plugin(usersPermissions, false),
  i18n: plugin(i18n, false),
};

/** Strapi's own plugins that Cairn does not run: their config is accepted silently (nothing Cairn serves uses it). */
export const STRAPI_PLUGINS = ['documentation', 'sentry', 'cloud', 'color-picker', 'content-manager', 'content-type-builder', 'content-releases', 'review-workflows'];

export const SECTION_RULES: Record<string, KeyRule> = { server, database, api, admin };

export const PERMISSIONS_RULE: KeyRule = object({
  roles: {
    check: (v) => (isPlain(v) ? undefined : 'must be an object of roles'),
    values: object({
      name: text,
      description: { check: (v) => (typeof v === 'string' ? undefined : `must be a string, not ${show(v)}`) },
      permissions: {
        required: true,
        check: (v) => (Array.isArray(v) && v.every((a) => typeof a === 'string') ? undefined : 'must be a list of actions such as "api::restaurant.restaurant.find"'),
      },
    }),
  },
});
