import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ContentType } from '../model/types.js';
import { ForbiddenError, UnauthorizedError } from '../errors/index.js';
import { loadAppFunctions } from '../project/app-functions.js';
import { coreRoutes, rawQuery, registerActions, type CoreAction, type CoreRoute, type RestContext } from '../rest/index.js';
import { strapiModuleAliases } from './app-modules.js';
import { callers, createCoreController, requestContext } from './core-controller.js';
import { createCoreService } from './core-service.js';
import { coreFactoryOf, coreRouterOf, withCoreRouteSource, type CoreRouterOptions, type RouteConfig, type RouteDefinition } from './factories.js';
import type { ServerCodeHost } from './host.js';
import { KOA_ROUTE, type KoaRoute } from './app-middlewares.js';
import { KoaContext } from './koa-context.js';
import { inFile, loadApiCode, type ApiCode, type AppFile } from './load-api.js';
import { compose, policiesStep, resolveMiddlewares, resolvePolicies, type Middleware } from './policies.js';
import { respond } from './respond.js';
import { APP_ROUTE, installAppMultipart, removeBodyFilesAtClose } from './multipart-body.js';
import { multipartFileLimit } from '../project/middlewares.js';
import { createStrapiObject, type ServerCodeRegistry } from './strapi-object.js';
import { ROUTE_PARAMS } from './route-params.js';
import { rememberAuth } from './content-api-common.js';
import { RATE_LIMIT_MIDDLEWARE, type UsersPermissionsActions } from '../auth/routes.js';

type Obj = Record<string, unknown>;

/** Marks a route made by a core router: which content-type and core action it is. */
const CORE_ROUTE = Symbol.for('cairn.server-code.core-route');
type CoreRouteMark = { uid: string; action: CoreAction; path: string };

// `request` and `response` are Zod schemas (route-params.ts): the request's extra parameters, and the answer's
// description (OpenAPI's: neither Strapi nor Cairn checks an answer against it).
const ROUTE_KEYS = new Set(['method', 'path', 'handler', 'config', 'info', 'request', 'response']);
const CONFIG_KEYS = new Set(['auth', 'policies', 'middlewares', 'prefix', 'description', 'tag']);
const METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS']);
/** The core service method each core controller action calls. */
const SERVICE_METHOD: Record<string, Record<CoreAction, string>> = {
  collectionType: { find: 'find', findOne: 'findOne', create: 'create', update: 'update', delete: 'delete' },
  singleType: { find: 'find', findOne: 'find', create: 'createOrUpdate', update: 'createOrUpdate', delete: 'delete' },
};

/** What the Content API must leave to the app's server code: the content-types whose API declares its routes. */
export interface ServerCode {
  served(contentType: ContentType): boolean;
  /** The `strapi` the app's server code receives (strapi-object.ts): what the app's `strapi` face adds to its own. */
  strapi: Record<string, unknown>;
}

/**
 * Runs the app's server code: loads `src/api/<api>/(routes|controllers|services|policies|middlewares)` (and
 * `src/policies`, `src/middlewares`), builds the controllers and services Strapi's way (core ones extended by the
 * app's), and registers the routes of every API that has a routes folder. A route with no code of the app's (core
 * action and service, no policy, no middleware, default auth) is the Content API's compiled handler itself; the
 * others get a Koa-compatible `ctx` and run the chain Strapi runs: auth, policies, middlewares, the action.
 * Anything Cairn can't run stops start-up with an error naming the file. `rest` is the Content API's context, which
 * the core controllers and services read through.
 */
export async function registerServerCode(host: ServerCodeHost, rest: RestContext): Promise<ServerCode> {
  const dir = host.config.dir;
  const aliases = strapiModuleAliases();
  const apis = await loadApiCode(dir, aliases);
  const registry: ServerCodeRegistry = { controllers: new Map(), services: new Map(), policies: new Map(), middlewares: new Map() };
  const strapi = createStrapiObject(host, registry);
  installAppMultipart(host.fastify, { maxFileSize: multipartFileLimit(host.config.middlewares) });

  for (const [name, fn] of await loadAppFunctions(dir, 'policies', aliases)) if (name.startsWith('global::')) registry.policies.set(name, fn);
  for (const [name, fn] of await loadAppFunctions(dir, 'middlewares', aliases)) if (name.startsWith('global::')) registry.middlewares.set(name, fn);
  // users-permissions' rate limit, the route middleware of its auth routes (an app's route may name it too).
  registry.middlewares.set(RATE_LIMIT_MIDDLEWARE, () => async (ctx: KoaContext, next: () => Promise<unknown>) => {
    const auth = host.plugin('users-permissions').service<RateLimiter>('auth');
    await auth.attempt(attemptsOf(ctx), ctx.ip, (name, value) => void ctx.reply.header(name, value), ctx.request.body);
    return next();
  });
  for (const api of apis) {
    for (const file of api.policies) registry.policies.set(`api::${api.api}.${file.name}`, functionOf(file));
    for (const file of api.middlewares) registry.middlewares.set(`api::${api.api}.${file.name}`, functionOf(file));
  }

  // Core services and controllers of every content-type (an API without code files has them too, as in Strapi),
  // then the app's files over them.
  const coreServices = new Map<string, Obj>();
  const coreControllers = new Map<string, Obj>();
  for (const contentType of host.model.contentTypes.values()) {
    if (contentType.plugin) continue;
    coreServices.set(contentType.uid, createCoreService(rest, contentType));
    coreControllers.set(contentType.uid, createCoreController(rest, contentType, () => registry.services.get(contentType.uid) as never));
    registry.services.set(contentType.uid, coreServices.get(contentType.uid)!);
    registry.controllers.set(contentType.uid, coreControllers.get(contentType.uid)!);
  }
  for (const api of apis) for (const file of api.services) registry.services.set(`api::${api.api}.${file.name}`, build(file, coreServices, strapi));
  for (const api of apis) for (const file of api.controllers) registry.controllers.set(`api::${api.api}.${file.name}`, build(file, coreControllers, strapi));

  const served = new Set<string>();
  const prefix = host.config.api.rest.prefix ?? '/api';
  const routeSource = {
    coreRouteDefinitions: (uid: string, options: CoreRouterOptions) => coreRouteDefinitions(rest, uid, options),
  };
  // Cairn's publish / unpublish / discard-draft routes, for the collection types the app's core routers serve.
  const withActions = new Set<string>();
  // Routes are read API by API: a route's API (for its handler's and policies' plain names) is the one being read.
  let currentApi = '';
  for (const api of apis.filter((a) => a.hasRoutes)) {
    currentApi = api.api;
    for (const contentType of host.model.contentTypes.values()) if (contentType.uid.startsWith(`api::${api.api}.`)) served.add(contentType.uid);
    for (const file of api.routes) {
      const routers = await withCoreRouteSource(routeSource, async () => {
        try {
          return routersOf(file, strapi);
        } catch (error) {
          throw inFile(file.file, error);
        }
      });
      for (const router of routers) {
        for (const route of router.routes) {
          try {
            addRoute(route, router.prefix);
          } catch (error) {
            throw inFile(file.file, error);
          }
        }
      }
    }
  }

  // A content-type without a routes file has the Content API's core routes (rest/); where a parameter the app added
  // (`strapi.contentAPI.addQueryParams`...) applies to one of them, they are served here, as a core router's are.
  for (const contentType of host.model.contentTypes.values()) {
    if (contentType.plugin || served.has(contentType.uid)) continue;
    const definitions = coreRouteDefinitions(rest, contentType.uid, {});
    if (!definitions.some((route) => host.contentApiParams.matches(route))) continue;
    served.add(contentType.uid);
    currentApi = String(definitions[0].info?.apiName);
    for (const route of definitions) addRoute(route, undefined);
  }

  // users-permissions as the app's strapi-server left it: the routes it changed or added, with its controllers.
  const usersPermissions = host.pluginExtensions?.usersPermissions;
  if (usersPermissions) {
    const service = (name: string) => host.plugin('users-permissions').service(name);
    usersPermissions.bind(service('actions') as UsersPermissionsActions);
    const instances = new Map<string, Obj>();
    const plugin: PluginRoutes = {
      namespace: 'plugin::users-permissions',
      prefix: '/users-permissions',
      controller: (name) => {
        let instance = instances.get(name);
        if (!instance) {
          const found = usersPermissions.controllers[name];
          // Strapi's controller registry: a factory is called with { strapi } (once), an object is the controller.
          const value = typeof found === 'function' ? (found as (app: { strapi: Obj }) => unknown)({ strapi }) : found;
          if (typeof value !== 'object' || value === null) return undefined;
          instances.set(name, (instance = value as Obj));
        }
        return instance;
      },
    };
    // GraphQL's register and login run Cairn's actions: they refuse where the app's controller has its own.
    try {
      for (const handler of ['auth.register', 'auth.callback']) {
        const [name, action] = handler.split('.');
        if (plugin.controller(name)?.[action] !== usersPermissions.originals[handler]) (service('auth') as { replacedByApp: Set<string> }).replacedByApp.add(handler);
      }
      for (const route of usersPermissions.routes) addRoute(route, undefined, plugin);
    } catch (error) {
      throw inFile(usersPermissions.file, error);
    }
  }

  function addRoute(route: RouteDefinition, routerPrefix: string | undefined, plugin?: PluginRoutes) {
    for (const key of Object.keys(route ?? {})) if (!ROUTE_KEYS.has(key)) throw new Error(`route ${route.method} ${route.path}: '${key}' is not supported by Cairn`);
    const method = String(route.method ?? '').trim().toUpperCase();
    if (!METHODS.has(method)) throw new Error(`route ${JSON.stringify(route.path)}: unknown method ${JSON.stringify(route.method)}`);
    if (typeof route.path !== 'string' || !route.path.startsWith('/')) throw new Error(`route ${method}: path must start with '/', not ${JSON.stringify(route.path)}`);
    const config: RouteConfig = route.config ?? {};
    for (const key of Object.keys(config)) if (!CONFIG_KEYS.has(key)) throw new Error(`route ${method} ${route.path}: config.${key} is not supported by Cairn`);
    const { controller, action, steps, scope } = plugin ? pluginHandlerOf(route, config, plugin) : handlerOf(route, config);
    const policies = resolvePolicies(config.policies, plugin ? plugin.namespace : `api::${apiOf(route)}`, registry);
    const middlewares = resolveMiddlewares(config.middlewares, registry, strapi);
    const routePrefix = typeof config.prefix === 'string' ? config.prefix : (routerPrefix ?? plugin?.prefix ?? '');
    const mark = plugin ? undefined : (route as unknown as { [CORE_ROUTE]?: CoreRouteMark })[CORE_ROUTE];
    const core = mark && mark.path === route.path && routePrefix === '' ? coreRouteOf(mark) : undefined;
    const params = host.contentApiParams.forRoute(route);
    if (mark && core?.method === 'PUT' && host.model.contentTypes.get(mark.uid)?.draftAndPublish && !withActions.has(mark.uid)) {
      withActions.add(mark.uid);
      const contentType = host.model.contentTypes.get(mark.uid)!;
      if (contentType.kind === 'collectionType') registerActions(host.fastify, rest, `${prefix}/${contentType.info.pluralName}/:documentId/actions`, host.documents(mark.uid), contentType);
    }
    // The fast path: nothing of the app's runs on this route.
    if (core && mark && controller && action && config.auth === undefined && !policies.length && !middlewares.length && !params && isCoreAction(mark, controller, action)) {
      host.fastify.route({ method: core.method, url: core.path, handler: core.handler });
      return;
    }
    const url = core ? core.path : `${prefix}${routePrefix}${route.path}`;
    const run = compose([policiesStep(policies, strapi), ...middlewares, returnBody, ...steps]);
    const info = {
      method,
      path: route.path,
      handler: route.handler,
      config,
      info: plugin ? { pluginName: 'users-permissions', type: 'content-api' } : { apiName: apiOf(route), type: 'content-api' },
      ...(route.request === undefined ? {} : { request: route.request }),
      [ROUTE_PARAMS]: params,
    };
    const paramsOf = (req: FastifyRequest) => {
      const raw = (req.params ?? {}) as Record<string, string>;
      return core ? (raw.documentId === undefined ? {} : { id: raw.documentId }) : { ...raw };
    };
    // The route's chain on a ctx: its own, or the application middlewares' (app-middlewares.ts), which answer it.
    const serve: KoaRoute = async (ctx) => {
      ctx.params = paramsOf(ctx.fastifyRequest);
      ctx.state.route = info;
      if (config.auth !== false) await authenticate(ctx, ctx.fastifyRequest, scope);
      await run(ctx);
    };
    const handler = async (req: FastifyRequest, reply: FastifyReply) => {
      const ctx = new KoaContext(req, reply, {}, () => rawQuery(req, host.queryString), host.config.server.app?.keys);
      try {
        await requestContext.run(ctx, () => serve(ctx));
      } catch (error) {
        // The headers set before the error stay on its answer, as Strapi's error middleware leaves them.
        reply.headers(ctx.headersOut);
        throw error;
      }
      return respond(ctx, reply);
    };
    // Marked as the app's: its multipart bodies are read (multipart-body.ts).
    host.fastify.route({ method, url, config: { [APP_ROUTE]: true }, onRequest: removeBodyFilesAtClose, handler: Object.assign(handler, { [KOA_ROUTE]: serve }) });
  }

  /**
   * The route's action: a controller's (Strapi's lookup for 'controller.action': the API's controller first, then a full
   * uid) or the route's own function (or functions, run as Koa middlewares: the first one's return value is the answer)
   * and the permission it needs. A function names none unless `config.auth.scope` does (see `authenticate`).
   */
  function handlerOf(route: RouteDefinition, config: RouteConfig): RouteAction {
    const api = apiOf(route);
    const auth = authConfigOf(route, config);
    if (typeof route.handler === 'function' || Array.isArray(route.handler)) {
      const steps = [route.handler].flat() as unknown[];
      if (!steps.length || steps.some((step) => typeof step !== 'function')) {
        throw new Error(`route ${route.method} ${route.path}: handler must be 'controller.action', a function or an array of functions`);
      }
      return { steps: steps as Middleware[], scope: auth && Array.isArray(auth.scope) ? auth.scope.map(String) : [] };
    }
    if (typeof route.handler !== 'string') throw new Error(`route ${route.method} ${route.path}: handler must be 'controller.action', a function or an array of functions`);
    const handler = route.handler.trim();
    const at = handler.lastIndexOf('.');
    if (at <= 0) throw new Error(`route ${route.method} ${route.path}: handler must be 'controller.action', not '${handler}'`);
    const name = handler.slice(0, at);
    const action = handler.slice(at + 1);
    const uid = registry.controllers.has(`api::${api}.${name}`) ? `api::${api}.${name}` : name;
    const controller = registry.controllers.get(uid);
    if (!controller || typeof controller[action] !== 'function') throw new Error(`Handler not found "${handler}"`);
    const scope = auth && Array.isArray(auth.scope) ? auth.scope.map(String) : [`${uid}.${action}`];
    return actionOf(controller, action, scope);
  }

  /** A plugin route's controller and action (`user.me`, or `plugin::users-permissions.user.me`) and its permission. */
  function pluginHandlerOf(route: RouteDefinition, config: RouteConfig, plugin: PluginRoutes): RouteAction {
    if (typeof route.handler !== 'string') throw new Error(`route ${route.method} ${route.path}: handler must be 'controller.action' (a plugin's route names its controller's action)`);
    const handler = route.handler.trim().replace(`${plugin.namespace}.`, '');
    const at = handler.lastIndexOf('.');
    const name = handler.slice(0, at);
    const action = handler.slice(at + 1);
    const controller = at > 0 ? plugin.controller(name) : undefined;
    // `in` first: the plugin's own controllers refuse a read of an action they lack (plugin-extensions.ts).
    if (!controller || !(action in controller) || typeof controller[action] !== 'function') throw new Error(`route ${route.method} ${route.path}: Handler not found "${route.handler}"`);
    const auth = authConfigOf(route, config);
    const scope = auth && Array.isArray(auth.scope) ? auth.scope.map(String) : [`${plugin.namespace}.${name}.${action}`];
    return actionOf(controller, action, scope);
  }

  function apiOf(route: RouteDefinition): string {
    return String((route.info as { apiName?: unknown } | undefined)?.apiName ?? currentApi);
  }

  /** The Content API's route (path, fast handler) for a core router's route. */
  function coreRouteOf(mark: CoreRouteMark): CoreRoute | undefined {
    const contentType = host.model.contentTypes.get(mark.uid)!;
    return coreRoutes(rest, contentType).find((r) => r.action === (contentType.kind === 'singleType' && mark.action === 'findOne' ? 'find' : mark.action));
  }

  /** The route's action is the core controller's, calling the core service's method: the compiled handler does the same. */
  function isCoreAction(mark: CoreRouteMark, controller: Obj, action: string): boolean {
    const contentType = host.model.contentTypes.get(mark.uid)!;
    const method = SERVICE_METHOD[contentType.kind][mark.action];
    return (
      action === mark.action &&
      controller[action] === coreControllers.get(mark.uid)?.[action] &&
      registry.services.get(mark.uid)?.[method] === coreServices.get(mark.uid)?.[method]
    );
  }

  /**
   * The route's caller (401 on bad credentials) checked against the route's permissions, one of which it must have
   * (403), and Strapi's `ctx.state`. A route that names none (a function handler without `config.auth.scope`) is
   * Strapi's: any user, and a full-access API token, may call it; without credentials it is a 401, another token a 403.
   */
  async function authenticate(ctx: KoaContext, req: FastifyRequest, scope: string[]) {
    const caller = await host.access.caller(req);
    if (!scope.length) {
      if (caller.kind === 'public') throw new UnauthorizedError('Unauthorized');
      if (caller.kind === 'token' && !caller.fullAccess) throw new ForbiddenError();
    } else if (!scope.some((s) => caller.can(s))) throw new ForbiddenError();
    callers.set(ctx, caller);
    ctx.state.isAuthenticated = caller.kind !== 'public';
    ctx.state.auth = { strategy: { name: caller.kind === 'token' ? 'content-api-token' : 'users-permissions' }, credentials: caller.kind === 'public' ? null : undefined };
    // `strapi.contentAPI.sanitize.*(data, schema, { auth: ctx.state.auth })` knows the caller by it.
    rememberAuth(ctx.state.auth, caller);
    if (caller.kind === 'user' && caller.userId !== undefined) {
      const me = await host.plugin('users-permissions').service<{ me(id: number): Promise<unknown> }>('auth').me(caller.userId);
      ctx.state.user = me;
      ctx.state.auth.credentials = me;
    }
  }

  host.contentApiParams.close();
  return { served: (contentType) => served.has(contentType.uid), strapi };
}

/** The routes of a plugin, served as the app's extension left them. */
interface PluginRoutes {
  /** `plugin::<name>`: its handlers' and policies' namespace. */
  namespace: string;
  /** Where a route without `config.prefix` goes, under `/api`: `/<plugin name>`. */
  prefix: string;
  controller(name: string): Obj | undefined;
}

/** What a route runs after its policies and middlewares: its action's steps, and the permissions that may call it. */
interface RouteAction {
  /** The controller and action, for a 'controller.action' handler (the fast path compares them with the core's). */
  controller?: Obj;
  action?: string;
  steps: Middleware[];
  scope: string[];
}

/** A controller's action as the route's one step (`this` the controller, as Strapi calls it). */
function actionOf(controller: Obj, action: string, scope: string[]): RouteAction {
  const bound = (controller[action] as (ctx: KoaContext) => unknown).bind(controller);
  return { controller, action, steps: [(ctx) => bound(ctx)], scope };
}

/** `config.auth`: absent, false, or `{ scope }`. */
function authConfigOf(route: RouteDefinition, config: RouteConfig): RouteConfig['auth'] {
  const auth = config.auth;
  if (auth !== undefined && auth !== false && (typeof auth !== 'object' || auth === null)) throw new Error(`route ${route.method} ${route.path}: config.auth must be false or { scope }`);
  return auth;
}

type RateLimiter = { attempt(action: string, address: string, setHeader: (name: string, value: number) => void, body?: unknown): Promise<void> };

/** What a rate-limited route counts: users-permissions' three auth actions share their count with Cairn's own routes and GraphQL's; other routes count apart. */
function attemptsOf(ctx: KoaContext): string {
  const route = ctx.state.route as { method?: string; path?: string } | undefined;
  const path = route?.path ?? ctx.path;
  return { '/auth/local': 'login', '/auth/local/register': 'register', '/auth/change-password': 'changePassword' }[path] ?? `${route?.method ?? ctx.method} ${path}`;
}

/** Strapi's last step before the action: what the action returns becomes the body, unless it set one. */
const returnBody: Middleware = async (ctx, next) => {
  const value = await next();
  if ((ctx.body === undefined || ctx.body === null) && value !== undefined && value !== null) ctx.body = value;
};

/** A policy or middleware file's function (`module.exports = fn`, or `{ handler }` for a policy). */
function functionOf(file: AppFile): unknown {
  const fn = typeof file.exported === 'function' ? file.exported : (file.exported as { handler?: unknown } | null)?.handler;
  if (typeof fn !== 'function') throw inFile(file.file, new Error('must export a function'));
  return fn;
}

/**
 * A controller or service file built as Strapi builds it: a core factory's object (the app's methods, with the core
 * one's copied where the app has none, and the core one as prototype: `super.find(ctx)` is the core `find`), a
 * function of `{ strapi }`, or an object.
 */
function build(file: AppFile, cores: Map<string, Obj>, strapi: Obj): Obj {
  try {
    const factory = coreFactoryOf(file.exported);
    if (factory) {
      const base = cores.get(factory.uid);
      if (!base) throw new Error(`${factory.kind === 'controller' ? 'createCoreController' : 'createCoreService'}('${factory.uid}'): no such content-type`);
      const custom = typeof factory.custom === 'function' ? factory.custom({ strapi }) : (factory.custom ?? {});
      if (typeof custom !== 'object' || custom === null) throw new Error(`the function given to the factory must return an object`);
      for (const key of Object.keys(base)) if ((custom as Obj)[key] === undefined) (custom as Obj)[key] = base[key];
      Object.setPrototypeOf(custom, base);
      return custom as Obj;
    }
    const value = typeof file.exported === 'function' ? (file.exported as (app: { strapi: Obj }) => unknown)({ strapi }) : file.exported;
    if (typeof value !== 'object' || value === null) throw new Error('must export an object, a function ({ strapi }) => object, or a core factory');
    return value as Obj;
  } catch (error) {
    throw inFile(file.file, error);
  }
}

/** The routers a route file exports: a core router, `{ routes: [...] }`, a function of `{ strapi }` giving one. */
function routersOf(file: AppFile, strapi: Obj): Array<{ prefix?: string; routes: RouteDefinition[] }> {
  const value = typeof file.exported === 'function' && !coreRouterOf(file.exported) ? (file.exported as (app: { strapi: Obj }) => unknown)({ strapi }) : file.exported;
  const router = value as { routes?: unknown; prefix?: unknown; type?: unknown } | null;
  if (!router || typeof router !== 'object' || !Array.isArray(router.routes)) throw new Error('must export a router: createCoreRouter(uid) or { routes: [...] }');
  if (router.type !== undefined && router.type !== 'content-api') throw new Error(`router type '${String(router.type)}' is not supported by Cairn (only 'content-api')`);
  return [{ prefix: typeof router.prefix === 'string' ? router.prefix : undefined, routes: router.routes as RouteDefinition[] }];
}

/** A core router's routes, as Strapi's `createRoutes` makes them, each marked with its core action. */
function coreRouteDefinitions(rest: RestContext, uid: string, options: CoreRouterOptions): RouteDefinition[] {
  const contentType = rest.model.contentTypes.get(uid);
  if (!contentType) throw new Error(`createCoreRouter('${uid}'): no such content-type`);
  const { pluralName, singularName } = contentType.info;
  const all: Record<string, { method: string; path: string }> =
    contentType.kind === 'singleType'
      ? { find: { method: 'GET', path: `/${singularName}` }, update: { method: 'PUT', path: `/${singularName}` }, delete: { method: 'DELETE', path: `/${singularName}` } }
      : {
          find: { method: 'GET', path: `/${pluralName}` },
          findOne: { method: 'GET', path: `/${pluralName}/:id` },
          create: { method: 'POST', path: `/${pluralName}` },
          update: { method: 'PUT', path: `/${pluralName}/:id` },
          delete: { method: 'DELETE', path: `/${pluralName}/:id` },
        };
  for (const list of [options.only, options.except]) {
    for (const name of list ?? []) if (!(name in all)) throw new Error(`createCoreRouter('${uid}'): no core route '${name}' (${Object.keys(all).join(', ')})`);
  }
  for (const name of Object.keys(options.config ?? {})) if (!(name in all)) throw new Error(`createCoreRouter('${uid}'): config.${name} names no core route (${Object.keys(all).join(', ')})`);
  const names = Object.keys(all).filter((name) => (!options.except || !options.except.includes(name)) && (!options.only || options.only.includes(name)));
  return names.map((name) => ({
    ...all[name],
    handler: `${uid}.${name}`,
    config: options.config?.[name] ?? {},
    info: { apiName: uid.slice('api::'.length).split('.')[0] },
    [CORE_ROUTE]: { uid, action: name as CoreAction, path: all[name].path },
  }));
}

export type { ApiCode };
