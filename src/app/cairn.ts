import { resolve } from 'node:path';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { AppConfig } from '../project/types.js';
import type { Model } from '../model/types.js';
import type { ModelInput } from '../model/index.js';
import type { Database } from '../database/types.js';
import { QueryStringParser, type ReadSettings } from '../query/index.js';
import { buildModel, CustomFields, readModelFiles } from '../model/index.js';
import { createDatabase } from '../database/index.js';
import { strapiKnex, type StrapiKnex } from '../database/knex.js';
import { Documents } from '../documents/index.js';
import { installBodyParsers, installErrorHandling, registerContentApi, type RestContext } from '../rest/index.js';
import { loadConfig } from '../project/config.js';
import {
  answerHeaders,
  compressionConfig,
  corsConfig,
  faviconConfig,
  ipFilterConfig,
  jsonBodyLimit,
  listedAt,
  logsRequests,
  publicFilesConfig,
  queryStringLimits,
  securityOptions,
} from '../project/middlewares.js';
import { loadAppHooks, type AppHooks } from '../project/lifecycle.js';
import { resolveLocales, storedLocales, type LocaleInfo } from '../project/locales.js';
import { readStrapiLocales } from '../database/strapi-locales.js';
import { AppLocales } from './app-locales.js';
import { ensureStrapiLayout, formatLayoutDifferences } from '../database/strapi-layout/check.js';
import { withStrapiNames } from '../database/strapi-layout/named-model.js';
import { createStrapiDatabase, tablesIn } from '../database/strapi-layout/new-database.js';
import { createsStrapiLayout } from './empty-database-layout.js';
import { refuseUnservedDatabase } from '../database/unserved-database.js';
import { holdsStrapiLayout } from '../database/storage-layout.js';
import { OPEN_ACCESS, type AccessControl } from '../auth/access-control.js';
import { registerHealth } from './health.js';
import { lazySchemaCompilers } from './schema-compilers.js';
import { registerUpload } from '../upload/index.js';
import { registerAuth } from '../auth/index.js';
import { registerEmail } from '../email/index.js';
import { graphqlEndpoint, registerGraphql, registerGraphqlServices } from '../graphql/index.js';
import { ContentApiParams, loadApplicationMiddlewares, loadPluginExtensions, registerServerCode, strapiModuleAliases, type PluginExtensions } from '../server-code/index.js';
import { loudMembers } from '../errors/index.js';
import { USERS_PERMISSIONS_ROUTES } from '../auth/index.js';
import { installAnswerHeaders } from './answer-headers.js';
import { installCors } from './cors.js';
import { installCompression } from './compression.js';
import { registerFavicon } from './favicon.js';
import { registerPublicFiles } from './public-files.js';
import { installIpFilter } from './ip-filter.js';
import { installRequestLog } from './request-log.js';
import { installSecurityHeaders } from './security-headers.js';
import { useAppModuleAliases } from '../project/config-module.js';
import { createLogger, type Logger } from './logger.js';
import { DocumentHooks } from '../documents/hooks.js';
import { createEventHub, type EventHub } from '../documents/event-hub.js';
import { EntryEvents } from '../documents/entry-events.js';
import { loadModelLifecycles } from '../project/model-lifecycles.js';
import { strapiFace, type StrapiFace } from './strapi-face.js';
import { strapiConfig, type StrapiConfig } from '../project/strapi-config.js';
import { readClientAddressFrom, trustProxyOf } from './proxy-trust.js';
import { registerI18nServices } from './i18n-services.js';
import { contentApiSanitizers } from '../server-code/content-api-sanitize.js';
import { contentApiValidators } from '../server-code/content-api-validate.js';

type Sanitizers = ReturnType<typeof contentApiSanitizers>;
type Validators = ReturnType<typeof contentApiValidators>;

/**
 * Features beyond the core (email, auth, upload, graphql) register themselves here: each adds routes, hooks and
 * replaces `cairn.access`, and leaves its database work (tables, seeded rows) in `cairn.setup`. Order matters:
 * email before auth, which sends with it; auth before the others, so their routes are guarded.
 */
export type Feature = (cairn: Cairn) => Promise<void>;
const FEATURES: Feature[] = [registerEmail, registerAuth, registerUpload, registerGraphql];

type DeepPartial<T> = { [K in keyof T]?: T[K] extends object ? DeepPartial<T[K]> : T[K] };

export interface CreateCairnOptions {
  /** The app folder (config/, src/). */
  dir: string;
  /** Overrides merged over the loaded config (tests use it for the database). */
  config?: DeepPartial<AppConfig>;
  /**
   * The database is already set up for this app: skip the tables' check, the features' setup and the app's
   * `bootstrap` (workers of a cluster: the process that prepared the app ran them once).
   */
  prepared?: boolean;
  /** Log every request too (pino). Off by default: errors are always logged. */
  logger?: boolean;
  /** Where the log goes (default: JSON lines on stdout). */
  log?: Logger;
  /** Open the database read-only (commands that must leave it as they found it: `cairn db check`). */
  readOnly?: boolean;
}

/** The lock that makes start-ups on one database take turns (tables, setup, bootstrap). */
const STARTUP_LOCK = 'startup';

/** A running Cairn app: its config, model, database, document services and HTTP server (not listening yet). */
export class Cairn {
  private readonly documentServices = new Map<string, Documents>();
  /** Replaced by the auth feature; every route asks it. */
  access: AccessControl = OPEN_ACCESS;
  /** Services of features, by plugin name: `cairn.plugin('users-permissions').service('permissions')`. */
  readonly services = new Map<string, Record<string, unknown>>();
  /** Functions run at close (features release what they hold). */
  readonly onClose: Array<() => Promise<void> | void> = [];
  /**
   * The features' one-time database work (their tables, default roles...), run at start-up after the tables are checked (or created) and
   * before the app's `bootstrap`, once per start on a database (see createCairn).
   */
  readonly setup: Array<() => Promise<void>> = [];
  /** `strapi.customFields`: the app declares its custom fields here in `register()`, before the model is built. */
  readonly customFields = new CustomFields();
  /** The routes' extra parameters the app adds in `register()` (`strapi.contentAPI.addQueryParams`...). */
  readonly contentApiParams = new ContentApiParams();
  /** `strapi.contentAPI`: of Strapi's members, those that add parameters to routes (server-code/route-params.ts), `sanitize` and `validate`. */
  readonly contentAPI = loudMembers('strapi.contentAPI', {
    addQueryParams: (options: Parameters<ContentApiParams['addQueryParams']>[0]) => this.contentApiParams.addQueryParams(options),
    addInputParams: (options: Parameters<ContentApiParams['addInputParams']>[0]) => this.contentApiParams.addInputParams(options),
    // Strapi's sanitizers for app code, on the model (built after register(): made at the first call).
    sanitize: loudMembers('strapi.contentAPI.sanitize', {
      input: (...args: Parameters<Sanitizers['input']>) => this.sanitizers().input(...args),
      output: (...args: Parameters<Sanitizers['output']>) => this.sanitizers().output(...args),
      query: (...args: Parameters<Sanitizers['query']>) => this.sanitizers().query(...args),
    }),
    // Strapi's validators for app code: they throw Strapi's 400 ValidationError where the sanitizers would remove.
    validate: loudMembers('strapi.contentAPI.validate', {
      input: (...args: Parameters<Validators['input']>) => this.validators().input(...args),
      query: (...args: Parameters<Validators['query']>) => this.validators().query(...args),
    }),
  });
  private madeSanitizers: Sanitizers | undefined;
  private sanitizers(): Sanitizers {
    return (this.madeSanitizers ??= contentApiSanitizers(this.model, this.readSettings));
  }
  private madeValidators: Validators | undefined;
  private validators(): Validators {
    return (this.madeValidators ??= contentApiValidators(this.model, this.readSettings));
  }
  private builtModel: Model | undefined;
  /** The app's document middlewares (`strapi.documents.use`) and lifecycles (`lifecycles.js`, `strapi.db.lifecycles.subscribe`). */
  readonly documentHooks = new DocumentHooks();
  /** `strapi.config`: Strapi's config provider over `config` (a set of a key Cairn compiled at start throws). */
  readonly strapiConfig: StrapiConfig;
  /** `strapi.eventHub`, Strapi 5's: the Document Service's writes emit their entry events on it (entry-events.ts). */
  readonly eventHub: EventHub = createEventHub();
  /** The Document Service's side of the hub: events queued in a write's transaction, emitted once it commits. */
  readonly entryEvents: EntryEvents;
  /**
   * `strapi.db.connection` (Strapi's knex, on this app's database) and `strapi.db.dialect`: knex is loaded and its
   * pool made the first time app code reads `connection`; destroyed at close.
   */
  strapiKnex: StrapiKnex;
  /** What app code gets as `strapi` (strapi-face.ts): Strapi's Document Service, `db.lifecycles`, and this app's members. */
  readonly strapi: StrapiFace<Cairn> = strapiFace<Cairn>(this);
  /** What the app's server code receives as `strapi` (server-code/strapi-object.ts); the face above reads its members first. */
  serverStrapi?: Record<string, unknown>;
  /**
   * The database was empty at open and this start makes it Strapi's: setUp creates the tables.
   */
  createsStrapiLayout = false;
  /** The app's read settings (`api.rest` limits, locale codes and the default one), built once for every reader. */
  readonly readSettings: ReadSettings;
  /**
   * The app's query-string parser: qs with Strapi's limits, or those `config/middlewares`' `strapi::query` entry
   * sets. This app's own: two apps in one process keep theirs.
   */
  readonly queryString: QueryStringParser;

  /** The app's locales (i18n_locale), which change while it runs: see app-locales.ts. */
  readonly appLocales: AppLocales;
  /** The locales, in id order: `appLocales.list`, one array changed in place. */
  readonly locales: LocaleInfo[];
  /** What the Document Services read of the locales: the same codes array, the default as it is at each call. */
  private readonly documentLocales: { readonly codes: string[]; readonly defaultLocale: string };

  constructor(
    readonly config: AppConfig,
    readonly db: Database,
    locales: LocaleInfo[],
    readonly fastify: FastifyInstance,
    /** Errors (every 5xx, with its cause) and start-up notes. */
    readonly log: Logger,
    /** config/plugins' locales (`locales` are the database's, when it holds them). */
    configuredLocales: LocaleInfo[] = locales,
  ) {
    this.strapiConfig = strapiConfig(config, { warn: (message) => log.warn(message) });
    this.strapiKnex = strapiKnex(config.database, { baseDir: config.dir });
    this.appLocales = new AppLocales(locales, configuredLocales, (message) => log.warn(message));
    this.locales = this.appLocales.list;
    const appLocales = this.appLocales;
    const { defaultLimit, maxLimit, withCount } = config.api.rest;
    // Getters: a reader spreading the settings takes the default of that moment.
    this.readSettings = {
      defaultLimit,
      maxLimit,
      withCount,
      locales: appLocales.codes,
      get defaultLocale() {
        return appLocales.defaultLocale;
      },
    };
    this.documentLocales = {
      codes: appLocales.codes,
      get defaultLocale() {
        return appLocales.defaultLocale;
      },
    };
    this.queryString = new QueryStringParser(queryStringLimits(config.middlewares));
    // An event's entry is read once its write committed, through the type's service on the app's database.
    this.entryEvents = new EntryEvents(this.eventHub, (uid, version) => this.documents(uid).eventEntry(version), log);
  }

  /** The content-types and components. Built after the app's `register()`, which may declare custom fields. */
  get model(): Model {
    if (!this.builtModel) throw new Error('cairn.model is built after register() (which may declare custom fields): read it from bootstrap()');
    return this.builtModel;
  }

  /** Builds the model once, from the app's schema files, with the custom fields declared so far. */
  buildModel(input: ModelInput): Model {
    if (this.builtModel) throw new Error('the model is built once');
    // Strapi 5's layout names tables and columns by Strapi's rules.
    this.builtModel = withStrapiNames(buildModel(input, { customFields: this.customFields.lookup, strapiLayout: true }));
    return this.builtModel;
  }

  /** Strapi v5's document service: `cairn.documents('api::restaurant.restaurant').findMany()`. */
  documents(uid: string): Documents {
    let service = this.documentServices.get(uid);
    if (!service) {
      const contentType = this.model.contentTypes.get(uid);
      if (!contentType) throw new Error(`Unknown content-type ${uid}`);
      service = new Documents(
        {
          db: this.db,
          model: this.model,
          rest: this.config.api.rest,
          locales: this.documentLocales,
          hooks: this.documentHooks,
          events: this.entryEvents,
        },
        contentType,
      );
      this.documentServices.set(uid, service);
    }
    return service;
  }

  /**
   * Strapi's `strapi.plugin(name)`: its `service(name)`, and `config(path, fallback)`, the plugin's config as
   * `strapi.config.get('plugin::<name>.<path>')` reads it (Strapi's plugin.config).
   */
  plugin(name: string): { service<T = unknown>(service: string): T; config(path?: string | string[], fallback?: unknown): unknown } {
    const services = this.services.get(name);
    if (!services) throw new Error(`Unknown plugin ${name}`);
    return {
      service: <T>(service: string) => {
        if (!(service in services)) throw new Error(`Unknown service ${service} of plugin ${name}`);
        return services[service] as T;
      },
      config: (path: string | string[] = [], fallback?: unknown) =>
        this.strapiConfig.get([`plugin::${name}`, ...(Array.isArray(path) ? path : path === '' ? [] : path.split('.'))], fallback),
    };
  }

  get defaultLocale(): string {
    return this.appLocales.defaultLocale;
  }

  /** The app's src/index hooks (register, bootstrap, destroy). */
  hooks: AppHooks = {};

  /** What the app's `src/extensions` changed of Strapi's plugins (schemas, users-permissions' routes and controllers). */
  pluginExtensions?: PluginExtensions;

  /** The users-permissions routes the app's strapi-server changed or removed: its server code serves them, not auth. */
  get usersPermissionsRoutesByApp(): ReadonlySet<string> | undefined {
    return this.pluginExtensions?.usersPermissions?.taken;
  }

  /** Stops the HTTP server (in-flight requests finish) and closes the database. */
  async close(): Promise<void> {
    // A request still running at shutdown leaves a keep-alive connection behind: close such connections as soon
    // as they are idle, so close() need not wait for keep-alive to time out (no per-request hook needed).
    const sweeper = setInterval(() => this.fastify.server.closeIdleConnections?.(), 50);
    try {
      await this.fastify.close();
    } finally {
      clearInterval(sweeper);
    }
    for (const hook of this.onClose) await hook();
    // Events of the last writes are emitted (their entries read) before the database closes.
    await this.entryEvents.idle();
    await this.pluginExtensions?.usersPermissions?.hooks.destroy?.({ strapi: this.strapi });
    await this.hooks.destroy?.({ cairn: this, strapi: this.strapi });
    // As Strapi's destroy: after the app's, the hub lets go of its listeners and subscribers.
    this.eventHub.destroy();
    // After the app's destroy (which may still use it): knex's connections, if app code ever made them.
    await this.strapiKnex.close();
    await this.db.close();
  }
}

/** Checks (or creates) the tables, runs setup and the app's register/bootstrap once, then closes (a cluster, before its workers start). */
export async function prepareApp(options: { dir: string; config?: DeepPartial<AppConfig> }): Promise<void> {
  const cairn = await createCairn(options);
  await cairn.close();
}

/**
 * Loads the app and assembles its server (not listening yet). Unless `prepared`, the database work of a start
 * (the tables, the features' setup, the app's `bootstrap`) runs holding a lock on the database, so processes
 * starting together on one database take turns: each finds the tables, roles and seeded data the previous one
 * left, never half of them.
 */
export async function createCairn(options: CreateCairnOptions): Promise<Cairn> {
  const cairn = await loadCairn(options);
  const { db, fastify, log } = cairn;
  try {
    // App code (src/api, src/policies, src/middlewares) importing @strapi/strapi or @strapi/utils gets Cairn's own.
    useAppModuleAliases(strapiModuleAliases());
    // The app's application middlewares (config/middlewares): around every route of the API registered from here
    // on, and requests no route takes (REST, auth, upload, GraphQL; not /_health nor public files). None: no route
    // pays for them.
    const graphql = graphqlEndpoint(cairn.config);
    const appMiddlewares = await loadApplicationMiddlewares(cairn, (url) =>
      graphql !== undefined && (url === graphql || url.startsWith(`${graphql}/`)) ? 'text' : url === '/api' || url.startsWith('/api/') ? 'object' : undefined,
    );
    installErrorHandling(fastify, log, { aroundNotFound: appMiddlewares?.aroundNotFound });
    // Locales changed elsewhere (Strapi's admin, another process) apply within a period, as permissions do.
    fastify.addHook('onRequest', (_request, _reply, done) => {
      const check = cairn.appLocales.recheck(db);
      if (!check) return done();
      check.then(() => done(), done);
    });
    registerHealth(fastify, db);
    // config/middlewares' strapi::body (jsonLimit), strapi::poweredBy and strapi::responseTime, as Cairn's own.
    installBodyParsers(fastify, { jsonLimit: jsonBodyLimit(cairn.config.middlewares) });
    installAnswerHeaders(fastify, answerHeaders(cairn.config.middlewares));
    installRequestLog(fastify, log, logsRequests(cairn.config.middlewares));
    // strapi::ip first, where Strapi's template lists it (after errors): a refused client gets neither of the others' headers.
    installIpFilter(fastify, ipFilterConfig(cairn.config.middlewares));
    installSecurityHeaders(fastify, securityOptions(cairn.config.middlewares));
    // strapi::compression before every route it compresses; its Vary after CORS' unless the list says otherwise.
    const { middlewares } = cairn.config;
    const compression = compressionConfig(middlewares);
    const corsAt = listedAt(middlewares, 'strapi::cors');
    if (compression && corsAt > compression.at) await installCompression(fastify, compression);
    await installCors(fastify, corsConfig(middlewares));
    if (compression && !(corsAt > compression.at)) await installCompression(fastify, compression);
    // public/ (strapi::public: as Strapi serves it) and strapi::favicon's /favicon.ico.
    await registerPublicFiles(fastify, cairn.config, publicFilesConfig(middlewares));
    const favicon = faviconConfig(middlewares, cairn.config.dir);
    registerFavicon(fastify, favicon, { uncompressed: compression !== undefined && favicon !== undefined && compression.at > favicon.at });
    const rest: RestContext = {
      model: cairn.model,
      documents: (uid) => cairn.documents(uid),
      readSettings: cairn.readSettings,
      queryString: cairn.queryString,
      locales: cairn.locales,
      localesVersion: () => cairn.appLocales.version,
      access: () => cairn.access,
      strictParams: () => cairn.strapiConfig.get('api.documents.strictParams'),
    };
    for (const feature of FEATURES) await feature(cairn);
    // The app's server code (src/api/*/routes...) serves the routes of the APIs that declare theirs.
    const serverCode = await registerServerCode(cairn, rest);
    cairn.serverStrapi = serverCode.strapi;
    registerContentApi(fastify, rest, { served: serverCode.served });
    // As Strapi, the factories run once the routes exist, before the app's bootstrap.
    appMiddlewares?.build(serverCode.strapi);
    if (!options.prepared) {
      const onWait = () => log.info('another process is starting on this database: waiting for it (tables, bootstrap)');
      await db.exclusive(STARTUP_LOCK, () => setUp(cairn), { onWait });
    }
    await fastify.ready();
    return cairn;
  } catch (error) {
    await cairn.strapiKnex.close();
    await db.close();
    throw error;
  }
}

/**
 * Makes Strapi's tables in a database that was empty at open, when this start decided so (`cairn.createsStrapiLayout`,
 * the default). Run holding the start-up lock; emptiness is asked again there: a process that
 * started alongside may have made the tables already.
 */
export async function createStrapiLayoutIfPending(cairn: Cairn): Promise<void> {
  if (cairn.createsStrapiLayout && (await tablesIn(cairn.db)).length === 0) await createStrapiDatabase(cairn.db, cairn.model, { locales: cairn.locales });
}

/** A start's database work, in order: tables, the features' setup, the app's bootstrap. */
async function setUp(cairn: Cairn): Promise<void> {
  // A database that Strapi made is never altered (its tables are Strapi's to manage): it must match the model as is.
  // One that Cairn made gets what the model added since (as Strapi's develop would), and nothing else.
  await createStrapiLayoutIfPending(cairn);
  const added = await ensureStrapiLayout(cairn.db, cairn.model);
  if (added.length) cairn.log.info(`added to the database what the model added (${added.length}):\n${formatLayoutDifferences(added)}`);
  for (const task of cairn.setup) await task();
  // As Strapi: the plugins' bootstrap (an app's extension of users-permissions' own), then the app's.
  await cairn.pluginExtensions?.usersPermissions?.hooks.bootstrap?.({ strapi: cairn.strapi });
  await cairn.hooks.bootstrap?.({ cairn, strapi: cairn.strapi });
}

/**
 * The app up to its model, as Strapi loads it: config, database connection, the app's `register()` (services it
 * calls exist already; it may declare custom fields), then the model. No table check, features, routes or
 * `bootstrap()` yet: createCairn goes on from here, and the admin commands (tokens, permissions) work on it.
 */
export async function loadCairn(options: CreateCairnOptions): Promise<Cairn> {
  // A worker of a cluster loads what the preparing process loaded and warned about already.
  const config = await loadConfig(options.dir, options.config as never, options.prepared ? { warn: () => undefined } : {});
  const modelFiles = await readModelFiles(options.dir);
  const log = options.log ?? createLogger();
  const db = await createDatabase(config.database, { baseDir: options.dir, readOnly: options.readOnly });
  // Knex, if `register()` made it: closed with the database when the start fails.
  let made: Cairn | undefined;
  try {
    // Before anything is written: a database holding tables but not Strapi's (Cairn's former layout, or something
    // else's) is refused. A read-only open (`cairn db check`, `db create`'s first look) reports on it instead.
    const holdsStrapi = options.readOnly ? await holdsStrapiLayout(db) : await refuseUnservedDatabase(db);
    const createsStrapi = await createsStrapiLayout(db, holdsStrapi, options);
    const configured = resolveLocales(config.plugins.i18n?.config);
    // A database that Strapi made has its own locales, edited in Strapi's admin (one being made, or empty, has none).
    const locales = holdsStrapi ? await readLocalesOf(db, configured, !options.readOnly) : configured;
    const fastify = Fastify({
      // Fastify's request logging (a child logger per request) only on demand; Cairn logs errors with `log`.
      ...(options.logger ? { loggerInstance: log as FastifyBaseLogger } : {}),
      // Cairn parses query strings itself with qs, strictly, inside the handlers (errors become 400s there).
      // A trailing slash names the same route, as in Strapi (its router is not strict).
      routerOptions: { querystringParser: () => ({}), ignoreTrailingSlash: true },
      bodyLimit: typeof config.server.bodyLimit === 'number' ? config.server.bodyLimit : 1024 * 1024,
      // Strapi 5's server.proxy.koa: the client's address and protocol from a trusted proxy's headers.
      trustProxy: trustProxyOf(config.server.proxy),
      schemaController: { compilersFactory: lazySchemaCompilers() as never },
    });
    readClientAddressFrom(fastify, config.server.proxy);
    const cairn = new Cairn(config, db, locales, fastify, log, configured);
    made = cairn;
    cairn.createsStrapiLayout = createsStrapi;
    // Read-only: knex's SQLite file too (it is made on first use only: nothing opened here).
    if (options.readOnly) cairn.strapiKnex = strapiKnex(config.database, { baseDir: config.dir, readOnly: true });
    cairn.hooks = await loadAppHooks(options.dir);
    // Services apps call from register() exist before it runs (the features' own registration comes after).
    registerGraphqlServices(cairn);
    registerI18nServices(cairn);
    // As Strapi, the app's code may use the global `strapi` (lifecycle files, services): the last app started's.
    (globalThis as { strapi?: unknown }).strapi = cairn.strapi;
    // As Strapi loads plugins: each extension's schema.json, then its strapi-server; then the plugins' register (an
    // app's extension of users-permissions' own), then the app's.
    cairn.pluginExtensions = await loadPluginExtensions(options.dir, strapiModuleAliases(), modelFiles.extensions ?? [], USERS_PERMISSIONS_ROUTES);
    await cairn.pluginExtensions.usersPermissions?.hooks.register?.({ strapi: cairn.strapi });
    await cairn.hooks.register?.({ cairn, strapi: cairn.strapi });
    cairn.buildModel({ ...modelFiles, extensions: cairn.pluginExtensions.schemas });
    const userLifecycles = cairn.pluginExtensions.usersPermissions?.userLifecycles;
    if (userLifecycles) cairn.documentHooks.setModelLifecycles('plugin::users-permissions.user', userLifecycles);
    for (const ct of cairn.model.contentTypes.values()) {
      // Plugin types (users, files...), extended or not: Strapi reads no lifecycles.js beside an extension's schema.
      if (ct.plugin !== undefined) continue;
      const lifecycles = await loadModelLifecycles(resolve(options.dir, ct.file), options.dir);
      if (lifecycles) cairn.documentHooks.setModelLifecycles(ct.uid, lifecycles);
    }
    return cairn;
  } catch (error) {
    await made?.strapiKnex.close();
    await db.close();
    throw error;
  }
}

async function readLocalesOf(db: Database, configured: LocaleInfo[], mayWait: boolean): Promise<LocaleInfo[]> {
  let stored = await readStrapiLocales(db);
  // None yet: another process may be making the tables this moment (MySQL's DDL commits at once, before the rows),
  // holding the start-up lock: read again once it is done.
  if (stored.locales.length === 0 && mayWait) {
    await db.exclusive(STARTUP_LOCK, async () => undefined);
    stored = await readStrapiLocales(db);
  }
  return storedLocales(stored.locales, stored.defaultCode, configured);
}
