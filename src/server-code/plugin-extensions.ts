import { existsSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import type { Caller } from '../auth/access-control.js';
import type { UsersPermissionsActions, UsersPermissionsHandler, UsersPermissionsRoute } from '../auth/routes.js';
import { ConfigError } from '../errors/index.js';
import { BUILTIN_SCHEMAS, checkExtensionPlugin, extendedSchema, type SchemaExtension } from '../model/index.js';
import { describeLoadError, loadAppModule, type ModuleAliases } from '../project/config-module.js';
import { lifecycleHooks } from '../project/model-lifecycles.js';
import { callers } from './core-controller.js';
import type { RouteDefinition } from './factories.js';
import type { KoaContext } from './koa-context.js';
import { inFile } from './load-api.js';

type Obj = Record<string, unknown>;
type Hook = (context: Obj) => unknown;

const USER_UID = 'plugin::users-permissions.user';
const EXTENSIONS = ['.js', '.ts', '.cjs', '.mjs'];
/** Members any code may probe without meaning an API (inspection, promises, interop). */
const QUIET = new Set(['then', 'toJSON', 'constructor', 'inspect', 'asymmetricMatch', '$$typeof', 'nodeType', '__esModule']);

/** What Cairn honours of a `strapi-server` extension of users-permissions (the README's list). */
const SUPPORTED =
  "a users-permissions strapi-server may change controllers.user's actions, controllers.auth (a factory ({ strapi }) => actions, as in Strapi 5), " +
  "routes['content-api'].routes, contentTypes.user (its schema and lifecycles), register, bootstrap and destroy";

/**
 * What an app's `src/extensions` changes of Strapi's plugins, as Strapi 5 applies it (`@strapi/core`
 * loaders/plugins `applyUserExtension`): each `content-types/<name>/schema.json` first, then the plugin's
 * `strapi-server.js` called with the plugin object, whose answer becomes the plugin.
 */
export interface PluginExtensions {
  /** The plugin content types' schemas as the extensions left them, for the model (model/extensions.ts checks them). */
  schemas: SchemaExtension[];
  /** users-permissions as its `strapi-server` left it; undefined when the app has none. */
  usersPermissions?: UsersPermissionsExtension;
}

/** The users-permissions plugin as the app's `src/extensions/users-permissions/strapi-server.js` left it. */
export interface UsersPermissionsExtension {
  file: string;
  /**
   * Cairn's routes (`<METHOD> <path>`) the app changed (their route, or their action) or removed: users & permissions
   * leaves them to the server code, which serves `routes`.
   */
  taken: ReadonlySet<string>;
  /** The routes the server code serves: Cairn's that the app changed, and the app's own. */
  routes: RouteDefinition[];
  /** The plugin's controllers as the app left them: objects of actions, or factories `({ strapi }) => actions`. */
  controllers: Obj;
  /** The plugin's own actions, by handler (`auth.register`): what the app's controllers hold where it changed nothing. */
  originals: Readonly<Record<string, unknown>>;
  /** `contentTypes.user.lifecycles`, checked. */
  userLifecycles?: Partial<Record<string, (event: never) => unknown>>;
  /** The plugin's register, bootstrap and destroy, when the app replaced Strapi's (Cairn's own run regardless). */
  hooks: { register?: Hook; bootstrap?: Hook; destroy?: Hook };
  /** Gives the plugin's original actions (the ones the app wraps) Cairn's implementation, once users & permissions runs. */
  bind(actions: UsersPermissionsActions): void;
}

/**
 * Reads `src/extensions/<plugin>/strapi-server.(js|ts|cjs|mjs)` and applies them over the schema extensions
 * (`schemas`, read by the model's loader). Only users-permissions' is run; the plugin object it receives has what
 * Cairn serves of the plugin, and anything else it reads or changes stops the start with an error naming the file
 * (and the line, when it happens as the file runs) and the member.
 */
export async function loadPluginExtensions(dir: string, aliases: ModuleAliases, schemas: SchemaExtension[], routes: readonly UsersPermissionsRoute[]): Promise<PluginExtensions> {
  const root = join(dir, 'src', 'extensions');
  const result: PluginExtensions = { schemas };
  if (!existsSync(root)) return result;
  for (const entry of readdirSync(root, { withFileTypes: true }).filter((e) => e.isDirectory()).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const plugin = entry.name;
    const found = EXTENSIONS.map((ext) => join(root, plugin, `strapi-server${ext}`)).filter((f) => existsSync(f));
    if (!found.length) continue;
    if (found.length > 1) throw new ConfigError(`${found.join(' and ')}: keep one strapi-server file`);
    const file = found[0];
    checkExtensionPlugin(plugin, relative(dir, file));
    if (plugin !== 'users-permissions') throw new ConfigError(`${file}: a strapi-server extension of the ${plugin} plugin is not supported by Cairn (it runs users-permissions' only)`);
    let exported: unknown;
    try {
      exported = await loadAppModule(file, dir, aliases);
    } catch (error) {
      throw new ConfigError(`${file}: ${describeLoadError(error, file)}`);
    }
    const extension = await applyUsersPermissions(file, relative(dir, file), exported, schemas, routes);
    result.usersPermissions = extension.plugin;
    if (extension.schema) result.schemas = [...schemas.filter((s) => !(s.plugin === 'users-permissions' && s.name === 'user')), extension.schema];
  }
  return result;
}

/** A plugin member Cairn does not provide: any use of it (read, write, call) throws, naming it. */
function unsupported(path: string): unknown {
  const fail = (what: string): never => {
    throw new Error(`${what} is not supported by Cairn (${SUPPORTED})`);
  };
  return new Proxy(() => undefined, {
    get: (_, key) => (typeof key === 'symbol' || QUIET.has(key) ? undefined : fail(`plugin.${path}.${key}`)),
    set: (_, key) => fail(`changing plugin.${path}.${String(key)}`),
    deleteProperty: (_, key) => fail(`deleting plugin.${path}.${String(key)}`),
    apply: () => fail(`calling plugin.${path}`),
    ownKeys: () => [],
    getOwnPropertyDescriptor: () => undefined,
  });
}

/** An object whose unknown members are errors naming them (`what` says what the known ones are). */
function strictObject<T extends Obj>(path: string, target: T, what: string): T {
  const member = (key: string) => (path ? `plugin.${path}.${key}` : `plugin.${key}`);
  return new Proxy(target, {
    get(object, key) {
      if (typeof key === 'symbol' || key in object || QUIET.has(key)) return Reflect.get(object, key);
      throw new Error(`${member(key)} is not provided by Cairn (${what})`);
    },
  });
}

async function applyUsersPermissions(
  file: string,
  shown: string,
  exported: unknown,
  schemas: SchemaExtension[],
  servedRoutes: readonly UsersPermissionsRoute[],
): Promise<{ plugin: UsersPermissionsExtension; schema?: SchemaExtension }> {
  if (typeof exported !== 'function') throw new ConfigError(`${file} must export a function (plugin) => plugin, as Strapi calls it`);
  let actions: UsersPermissionsActions | undefined;
  /** The plugin's action `handler`, as a Koa action: Cairn's, on the ctx the route built. */
  const original = (handler: UsersPermissionsHandler) =>
    async function (ctx: KoaContext) {
      if (!actions) throw new Error(`${file}: plugin.controllers.${handler} was called before the server started`);
      const caller: Caller = callers.get(ctx) ?? { kind: 'public', key: 'open', can: () => true };
      const answer = await actions[handler]({ query: ctx.query ?? {}, params: ctx.params ?? {}, body: ctx.request.body, caller, headers: ctx.headers, encrypted: ctx.protocol === 'https' });
      if (answer.setCookie) for (const cookie of answer.setCookie) ctx.append('Set-Cookie', cookie);
      if (answer.redirect !== undefined) return ctx.redirect(answer.redirect);
      ctx.status = answer.status;
      ctx.body = JSON.parse(answer.json);
    };
  const served = (controller: string) => servedRoutes.filter((r) => r.handler.startsWith(`${controller}.`)).map((r) => r.handler.slice(controller.length + 1));
  const userActions: Obj = Object.fromEntries(served('user').map((action) => [action, original(`user.${action}` as UsersPermissionsHandler)]));
  const authActions: Obj = Object.fromEntries(served('auth').map((action) => [action, original(`auth.${action}` as UsersPermissionsHandler)]));
  const originalUser = { ...userActions };
  const servedNote = (controller: string) => `Cairn serves its ${served(controller).join(', ')}`;
  const user = strictObject('controllers.user', userActions, servedNote('user'));
  // Strapi 5's auth controller is a factory: its registry calls it with { strapi }, and ignores properties set on it.
  const authFactory = new Proxy(
    function auth() {
      return strictObject('controllers.auth({ strapi })', { ...authActions }, servedNote('auth'));
    },
    {
      get(target, key) {
        if (typeof key === 'symbol' || key in target || QUIET.has(key)) return Reflect.get(target, key);
        throw new Error(`plugin.controllers.auth.${key}: in Strapi 5 plugin.controllers.auth is a factory ({ strapi }) => actions; call it for its actions`);
      },
      set(_, key) {
        throw new Error(
          `plugin.controllers.auth.${String(key)} = ...: in Strapi 5 plugin.controllers.auth is a factory ({ strapi }) => actions, and Strapi ignores what is set on it; ` +
            'replace the factory: plugin.controllers.auth = ({ strapi }) => ({ ...original({ strapi }), ... })',
        );
      },
    },
  );

  const given = schemas.find((s) => s.plugin === 'users-permissions' && s.name === 'user');
  const builtin = (uid: string) => BUILTIN_SCHEMAS.find((b) => b.uid === uid)!;
  const userSchema = structuredClone(given ? extendedSchema(builtin(USER_UID), given.schema, given.file) : builtin(USER_UID).schema);
  const role = structuredClone(builtin('plugin::users-permissions.role').schema);
  const permission = {
    collectionName: 'up_permissions',
    info: { name: 'permission', description: '', singularName: 'permission', pluralName: 'permissions', displayName: 'Permission' },
    options: { draftAndPublish: false },
    attributes: {
      action: { type: 'string', required: true, configurable: false },
      role: { type: 'relation', relation: 'manyToOne', target: 'plugin::users-permissions.role', inversedBy: 'permissions', configurable: false },
    },
  };
  const snapshot = { userSchema: structuredClone(userSchema), role: structuredClone(role), permission: structuredClone(permission) };
  const contentTypes = { user: { schema: userSchema }, role: { schema: role }, permission: { schema: permission } };
  const routes = servedRoutes.map((r) => structuredClone(r) as RouteDefinition);
  const poisons = {
    services: unsupported('services'),
    policies: unsupported('policies'),
    middlewares: unsupported('middlewares'),
    config: unsupported('config'),
  };
  const controllerPoisons = {
    role: unsupported('controllers.role'),
    permissions: unsupported('controllers.permissions'),
    settings: unsupported('controllers.settings'),
    contentmanageruser: unsupported('controllers.contentmanageruser'),
  };
  const adminRoutes = unsupported('routes.admin');
  const noop = async () => undefined;
  const hooks = { register: noop, bootstrap: noop, destroy: noop };
  const controllers: Obj = { auth: authFactory, user, ...controllerPoisons };
  const router = { type: 'content-api', routes };
  const pluginObject = strictObject(
    '',
    { ...hooks, ...poisons, contentTypes, controllers, routes: { 'content-api': router, admin: adminRoutes } } as Obj,
    'a plugin has register, bootstrap, destroy, config, routes, controllers, services, policies, middlewares, contentTypes',
  );

  let answered: unknown;
  try {
    answered = await (exported as (plugin: unknown) => unknown)(pluginObject);
  } catch (error) {
    throw inFile(file, error);
  }
  const fail = (message: string): never => {
    throw new ConfigError(`${file}: ${message}`);
  };
  if (typeof answered !== 'object' || answered === null) fail(`must return the plugin (Strapi uses what it returns), not ${answered === undefined ? 'undefined' : typeof answered}`);
  const plugin = answered as Obj;
  const known = new Set(['register', 'bootstrap', 'destroy', 'config', 'routes', 'controllers', 'services', 'policies', 'middlewares', 'contentTypes']);
  for (const key of Object.keys(plugin)) if (!known.has(key)) fail(`plugin.${key} is not a member of a Strapi plugin (${[...known].join(', ')})`);
  for (const [key, poison] of Object.entries(poisons)) if (plugin[key] !== poison) fail(`plugin.${key} must stay as Strapi gave it: replacing or dropping it is not supported by Cairn (${SUPPORTED})`);

  // Content types: the user's schema and lifecycles; the role and permission as they were.
  const types = plugin.contentTypes as Obj | undefined;
  if (!types || typeof types !== 'object') return fail('plugin.contentTypes must stay an object of content types');
  for (const key of Object.keys(types)) if (!['user', 'role', 'permission'].includes(key)) fail(`plugin.contentTypes.${key}: adding a content type to a plugin is not supported by Cairn`);
  for (const name of ['role', 'permission'] as const) {
    const schemaOf = (types[name] as { schema?: unknown } | undefined)?.schema;
    if (!isDeepStrictEqual(JSON.parse(JSON.stringify(schemaOf ?? null)), snapshot[name])) fail(`changing plugin.contentTypes.${name} is not supported by Cairn (it extends the user only)`);
  }
  const userType = types.user as Obj | undefined;
  if (!userType || typeof userType !== 'object') return fail('plugin.contentTypes.user must stay an object ({ schema })');
  for (const key of Object.keys(userType)) if (!['schema', 'lifecycles'].includes(key)) fail(`plugin.contentTypes.user.${key} is not supported by Cairn (schema, lifecycles)`);
  const changedSchema = !isDeepStrictEqual(userType.schema, snapshot.userSchema);
  const userLifecycles = userType.lifecycles === undefined ? undefined : lifecycleHooks(userType.lifecycles, `${file}: plugin.contentTypes.user.lifecycles`);

  // Register, bootstrap, destroy: the app's, when it replaced Strapi's (which Cairn's own stand for).
  const appHooks: UsersPermissionsExtension['hooks'] = {};
  for (const name of ['register', 'bootstrap', 'destroy'] as const) {
    const hook = plugin[name];
    if (hook === hooks[name]) continue;
    if (typeof hook !== 'function') fail(`plugin.${name} must be a function ({ strapi }) => ..., not ${typeof hook}`);
    appHooks[name] = hook as Hook;
  }

  // Controllers: which of Cairn's actions the app replaced.
  const finalControllers = plugin.controllers as Obj | undefined;
  if (!finalControllers || typeof finalControllers !== 'object') return fail('plugin.controllers must stay an object of controllers');
  for (const [key, poison] of Object.entries(controllerPoisons)) {
    if (finalControllers[key] !== poison) fail(`plugin.controllers.${key} must stay as Strapi gave it: replacing or dropping it is not supported by Cairn (${SUPPORTED})`);
  }
  const changed = new Set<UsersPermissionsHandler>();
  const finalUser = finalControllers.user as Obj | undefined;
  for (const action of served('user')) {
    const fn = typeof finalUser === 'object' && finalUser !== null ? finalUser[action] : undefined;
    if (fn !== originalUser[action]) changed.add(`user.${action}` as UsersPermissionsHandler);
  }
  if (finalControllers.auth !== authFactory) for (const action of served('auth')) changed.add(`auth.${action}` as UsersPermissionsHandler);

  // Routes: Cairn's, unchanged and with their action unchanged, stay Cairn's; the others are the server code's.
  const routers = plugin.routes as Obj | undefined;
  if (!routers || typeof routers !== 'object') return fail("plugin.routes must stay an object of routers ({ 'content-api', admin })");
  for (const key of Object.keys(routers)) if (!['content-api', 'admin'].includes(key)) fail(`plugin.routes.${key}: a router other than 'content-api' is not supported by Cairn`);
  if (routers.admin !== adminRoutes) fail(`plugin.routes.admin must stay as Strapi gave it: replacing or dropping it is not supported by Cairn (${SUPPORTED})`);
  const contentApi = routers['content-api'] as { routes?: unknown } | undefined;
  if (!contentApi || typeof contentApi !== 'object' || !Array.isArray(contentApi.routes)) return fail("plugin.routes['content-api'] must stay { type: 'content-api', routes: [...] }");
  const finalRoutes = contentApi.routes as RouteDefinition[];
  const key = (r: { method?: unknown; path?: unknown }) => `${String(r.method ?? '').toUpperCase()} ${String(r.path)}`;
  const taken = new Set<string>();
  const appRoutes: RouteDefinition[] = [];
  for (const route of finalRoutes) {
    if (typeof route !== 'object' || route === null) fail(`plugin.routes['content-api'].routes: a route must be an object, not ${JSON.stringify(route)}`);
    const ours = servedRoutes.find((r) => key(r) === key(route));
    if (ours && isDeepStrictEqual(route, ours) && !changed.has(ours.handler)) continue;
    if (ours) taken.add(key(ours));
    appRoutes.push(route);
  }
  // A route of Cairn's the app removed is served by no one, as in Strapi.
  for (const route of servedRoutes) if (!finalRoutes.some((r) => key(r) === key(route))) taken.add(key(route));

  return {
    plugin: {
      file,
      taken,
      routes: appRoutes,
      controllers: finalControllers,
      originals: {
        ...Object.fromEntries(Object.entries(originalUser).map(([action, fn]) => [`user.${action}`, fn])),
        ...Object.fromEntries(Object.entries(authActions).map(([action, fn]) => [`auth.${action}`, fn])),
      },
      userLifecycles,
      hooks: appHooks,
      bind: (given) => {
        actions = given;
      },
    },
    schema: changedSchema ? { plugin: 'users-permissions', name: 'user', schema: JSON.parse(JSON.stringify(userType.schema)), file: shown } : undefined,
  };
}
