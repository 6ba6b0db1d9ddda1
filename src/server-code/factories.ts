import { ConfigError } from '../errors/index.js';

/**
 * `factories` of `@strapi/strapi`: what an app's `src/api/<api>/(routes|controllers|services)` files call. Each
 * returns what Strapi's does (a router object with `routes`, a `({ strapi }) => controller` function), tagged so
 * the loader knows a core one: its routes are Cairn's compiled Content API unless the app customizes them.
 */

/** A core router's description: the content-type and Strapi's options. */
export interface CoreRouterOptions {
  prefix?: string;
  only?: string[];
  except?: string[];
  config?: Record<string, RouteConfig>;
  type?: string;
}

/** A route's `config`: what Strapi reads of it. */
export interface RouteConfig {
  auth?: false | { scope?: string[] };
  policies?: unknown[];
  middlewares?: unknown[];
  prefix?: string;
  [key: string]: unknown;
}

/** A route as an app's route file declares it. */
export interface RouteDefinition {
  method: string;
  path: string;
  handler: string | ((...args: never[]) => unknown);
  config?: RouteConfig;
  info?: Record<string, unknown>;
  /** Zod schemas of the request's extra parameters (route-params.ts). */
  request?: unknown;
  /** The answer's Zod schema: a description for OpenAPI, never checked at run time (in Strapi neither). */
  response?: unknown;
}

export const CORE_ROUTER = Symbol.for('cairn.server-code.core-router');
export const CORE_FACTORY = Symbol.for('cairn.server-code.core-factory');

/** How a core router's routes become route definitions: set by the loader while it reads the app (see loader.ts). */
export interface CoreRouteSource {
  coreRouteDefinitions(uid: string, options: CoreRouterOptions): RouteDefinition[];
}
let routeSource: CoreRouteSource | undefined;

/** The loader reading an app's routes: core routers ask it for their routes (Strapi asks its global `strapi`). */
export function withCoreRouteSource<T>(source: CoreRouteSource, run: () => Promise<T>): Promise<T> {
  const previous = routeSource;
  routeSource = source;
  return run().finally(() => {
    routeSource = previous;
  });
}

const ROUTER_OPTIONS = new Set(['prefix', 'only', 'except', 'config', 'type']);
const FACTORY_KINDS = { controller: 'createCoreController', service: 'createCoreService' } as const;

function checkUid(uid: unknown, factory: string): asserts uid is string {
  if (typeof uid !== 'string' || !/^(api|plugin)::[\w-]+\.[\w-]+$/.test(uid)) {
    throw new ConfigError(`${factory}: the first argument must be a content-type uid like 'api::article.article', not ${JSON.stringify(uid)}`);
  }
}

export function createCoreRouter(uid: string, options: CoreRouterOptions = {}) {
  checkUid(uid, 'createCoreRouter');
  for (const key of Object.keys(options ?? {})) {
    if (!ROUTER_OPTIONS.has(key)) throw new ConfigError(`createCoreRouter('${uid}'): the option '${key}' is not supported by Cairn (supported: ${[...ROUTER_OPTIONS].join(', ')})`);
  }
  const { prefix, type = 'content-api' } = options ?? {};
  if (type !== 'content-api') throw new ConfigError(`createCoreRouter('${uid}'): type '${type}' is not supported by Cairn (only 'content-api': Cairn has no admin panel)`);
  let routes: RouteDefinition[] | undefined;
  return {
    [CORE_ROUTER]: { uid, options: options ?? {} },
    type,
    prefix,
    get routes(): RouteDefinition[] {
      if (!routeSource) throw new ConfigError(`createCoreRouter('${uid}').routes is read while Cairn loads the app's routes, not later`);
      return (routes ??= routeSource.coreRouteDefinitions(uid, options ?? {}));
    },
  };
}

type Strapi = Record<string, unknown>;
type Customizer = ((context: { strapi: Strapi }) => Record<string, unknown>) | Record<string, unknown> | undefined;

/** What a core controller or service factory holds: its kind, the content-type and the app's customization. */
export interface CoreFactory {
  kind: keyof typeof FACTORY_KINDS;
  uid: string;
  custom: Customizer;
}

function coreFactory(kind: keyof typeof FACTORY_KINDS, uid: string, custom: Customizer) {
  checkUid(uid, FACTORY_KINDS[kind]);
  if (custom !== undefined && typeof custom !== 'function' && (typeof custom !== 'object' || custom === null)) {
    throw new ConfigError(`${FACTORY_KINDS[kind]}('${uid}'): the second argument must be a function ({ strapi }) => ({ ... }) or an object`);
  }
  const tag: CoreFactory = { kind, uid, custom };
  // Strapi's factory is a function of `{ strapi }`; the loader builds it (it has the core object to extend).
  const factory = () => {
    throw new ConfigError(`${FACTORY_KINDS[kind]}('${uid}') is built by Cairn when it loads the app, not called directly`);
  };
  return Object.assign(factory, { [CORE_FACTORY]: tag });
}

export function createCoreController(uid: string, custom?: Customizer) {
  return coreFactory('controller', uid, custom);
}

export function createCoreService(uid: string, custom?: Customizer) {
  return coreFactory('service', uid, custom);
}

export const factories = { createCoreRouter, createCoreController, createCoreService };

/** The core factory behind a value an app file exported, if it is one. */
export function coreFactoryOf(value: unknown): CoreFactory | undefined {
  return typeof value === 'function' ? (value as { [CORE_FACTORY]?: CoreFactory })[CORE_FACTORY] : undefined;
}

/** The core router behind a value a route file exported, if it is one. */
export function coreRouterOf(value: unknown): { uid: string; options: CoreRouterOptions } | undefined {
  return typeof value === 'object' && value !== null ? (value as { [CORE_ROUTER]?: { uid: string; options: CoreRouterOptions } })[CORE_ROUTER] : undefined;
}
