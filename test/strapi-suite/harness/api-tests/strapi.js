'use strict';

/**
 * `api-tests/strapi` over Cairn: `createStrapiInstance()` starts Cairn on the declared models (if the builder has
 * not) and returns a stand-in for the Strapi instance: `destroy()`, `server.httpServer`, `documents(uid)`,
 * `eventHub`, `store`, `db.query(uid)` (the Query Engine), `db.transaction`, `db.metadata`, `db.connection` (Strapi's knex), `db.getConnection(table)` and `db.dialect` are Cairn's; any other member is an in-process Strapi object, out of scope for a separate
 * server (the test says so when it reads one), and so is what Cairn's Query Engine says it does not provide.
 *
 * A `register({ strapi })` option runs before Cairn starts, as Strapi runs it before its server: its `strapi.config`
 * holds the test app's `middlewares` (Strapi's template list), and what it sets there is written into the app
 * folder as config/middlewares.js, which the Cairn started for this instance reads. Any other member of that
 * `strapi` (or another config path) is out of scope.
 *
 * Outside `register`, `strapi.config` is the running Cairn's own (`get`, `set`, `has`): a set takes effect where
 * Cairn reads the key at each use (`api.documents.strictParams`); a set of a key Cairn compiled at start, which it
 * refuses, is out of scope.
 */
const app = require('../app');
const { OutOfScope, outOfScopeObject } = require('../out-of-scope');

const superAdminCredentials = { email: 'admin@strapi.io', firstname: 'admin', lastname: 'admin', password: 'Password123' };

/** Keys libraries probe on any object (promises, matchers, printers): absent, not out of scope. */
const PROBED = new Set(['then', 'toJSON', 'asymmetricMatch', 'nodeType', '$$typeof', 'constructor', 'inspect', 'length']);

/** config/middlewares of Strapi's test app (the create-strapi-app template's list). */
const DEFAULT_MIDDLEWARES = [
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
];

/** A value that survives being written as JSON (a middleware given as a function would not reach Cairn). */
function isPlainData(value) {
  if (value === null || ['string', 'number', 'boolean'].includes(typeof value)) return true;
  if (Array.isArray(value)) return value.every(isPlainData);
  if (typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) return Object.values(value).every(isPlainData);
  return false;
}

/**
 * Runs the test's `register({ strapi })` on a `strapi` whose config holds `middlewares`; returns the list it set
 * (a copy), or null when it set none (the app then has no config/middlewares file: Strapi's defaults).
 */
async function runRegister(register) {
  let middlewares = structuredClone(DEFAULT_MIDDLEWARES);
  let changed = false;
  const only = (path, call) => {
    if (path !== 'middlewares') throw new OutOfScope(`strapi.config.${call}('${path}') in register: only 'middlewares' reaches Cairn (as config/middlewares.js)`);
  };
  const config = {
    get(path, fallback) {
      only(path, 'get');
      return middlewares === undefined ? fallback : middlewares;
    },
    set(path, value) {
      only(path, 'set');
      if (!isPlainData(value)) throw new OutOfScope("strapi.config.set('middlewares') with functions or class instances: only data can be written to config/middlewares.js");
      middlewares = structuredClone(value);
      changed = true;
    },
    has(path) {
      only(path, 'has');
      return middlewares !== undefined;
    },
  };
  const strapi = new Proxy(
    { config },
    {
      get(target, key) {
        if (typeof key === 'symbol' || PROBED.has(key)) return target[key];
        if (key in target) return target[key];
        return outOfScopeObject(`strapi.${key}`);
      },
    },
  );
  await register({ strapi });
  return changed ? middlewares : null;
}

/** Cairn's `strapi.db.query(uid)`; what it does not provide (populate, component writes) is out of scope, named. */
function queryEngine(uid) {
  if (!app.state.cairn) throw new Error('Cairn is not running (strapi.destroy() was called)');
  const outOfScope = (error) => {
    if (error instanceof Error && /is not provided by Cairn/.test(error.message)) throw new OutOfScope(error.message);
    throw error;
  };
  let engine;
  try {
    engine = app.state.cairn.strapi.db.query(uid);
  } catch (error) {
    outOfScope(error);
  }
  return new Proxy(engine, {
    get(target, key) {
      const member = Reflect.get(target, key);
      if (typeof member !== 'function') return member;
      return (...args) => {
        try {
          const result = member.apply(target, args);
          return result && typeof result.then === 'function' ? result.catch(outOfScope) : result;
        } catch (error) {
          return outOfScope(error);
        }
      };
    },
  });
}

async function createStrapiInstance(options = {}) {
  // Each instance reads its config afresh: one without `register` or `bootstrap` has the test app's defaults again.
  const middlewares = options.register ? await runRegister(options.register) : null;
  // Strapi's test app lets every content API request in (`bypassAuth`, the default): see request.js.
  app.state.bypassAuth = options.bypassAuth !== false;
  if (options.bootstrap) {
    await startWithBootstrap(options.bootstrap, middlewares);
  } else {
    await app.useInstanceConfig({ middlewares, pluginConfig: {} });
    await app.ensureStarted();
  }
  const members = {
    async destroy() {
      await app.stop();
    },
    server: {
      get httpServer() {
        if (!app.state.cairn) throw new Error('Cairn is not running (strapi.destroy() was called)');
        return app.state.cairn.fastify.server;
      },
    },
    // The users-permissions services Strapi's own test utilities call (tests/api/plugins/users-permissions/utils.js'
    // createAuthenticatedUser): see pluginService. Any other service is an in-process Strapi object.
    service: pluginService,
    // Strapi's `strapi.plugin(name)` (`service(name)`, `config(path)`), as Cairn gives it to app code.
    plugin: (name) => cairnPlugin(cairnStrapi(), name),
    // A content type's schema, as Cairn gives it to app code.
    contentType: (uid) => cairnStrapi().contentType(uid),
    // Strapi's `strapi.contentAPI`: the members Cairn gives app code; any other is out of scope.
    get contentAPI() {
      return outOfScopeWhereNotProvided(cairnStrapi().contentAPI);
    },
    // Strapi's config provider, as Cairn gives it to an app's code.
    get config() {
      return runtimeConfig(cairnStrapi().config);
    },
    // Strapi 5's Document Service, as Cairn provides it to an app's code (defaults, middlewares, lifecycles).
    get documents() {
      if (!app.state.cairn) throw new Error('Cairn is not running (strapi.destroy() was called)');
      return app.state.cairn.strapi.documents;
    },
    // Strapi 5's event hub, as Cairn gives it to app code: the Document Service's writes emit on it.
    get eventHub() {
      return cairnStrapi().eventHub;
    },
    // Strapi's core store (the settings its admin edits), as Cairn gives it to app code.
    get store() {
      return cairnStrapi().store;
    },
    db: onlyThese(
      {
        query: queryEngine,
        // Strapi 5's transaction, as Cairn gives it to app code: the Document Service and the Query Engine join it.
        transaction: (callback) => cairnStrapi().db.transaction(callback),
        get lifecycles() {
          return cairnStrapi().db.lifecycles;
        },
        // Strapi's model metadata (tables, columns, link tables), as Cairn gives it to app code: the names of its tables.
        get metadata() {
          return cairnStrapi().db.metadata;
        },
        // Strapi's knex on Cairn's database (made on first read), and its dialect's members Cairn provides
        // (`schemaInspector.getTables()`, `startSchemaUpdate()`, `endSchemaUpdate()`: Strapi's setupDatabaseReset).
        get connection() {
          return cairnStrapi().db.connection;
        },
        getConnection(table) {
          return cairnStrapi().db.getConnection(table);
        },
        get dialect() {
          return cairnStrapi().db.dialect;
        },
      },
      'strapi.db',
    ),
  };
  const instance = new Proxy(members, {
    get(target, key) {
      if (typeof key === 'symbol' || PROBED.has(key)) return target[key];
      if (key in target) return target[key];
      return outOfScopeObject(`strapi.${key}`);
    },
  });
  // Strapi's own test utilities (tests/api/utils: testInTransaction, setupDatabaseReset) use the global `strapi`,
  // which Strapi sets to the instance: here this stand-in (Cairn sets its own face, for an app's code).
  globalThis.strapi = instance;
  return instance;
}

/**
 * An instance with a `bootstrap({ strapi })`: a new start (a new Strapi instance runs its bootstrap) whose app
 * bootstrap runs it, on the `strapi` Cairn gives app code. Strapi runs it before its plugins' bootstraps, which read
 * their config when they use it, so a plugin's config it sets applies; Cairn reads a plugin's config at start (and
 * refuses a change while it runs): what the bootstrap sets under `plugin::<name>` is kept for it (and read back by
 * `get`), then Cairn starts again on that config (same database, the bootstrap's writes kept), as the test's app would
 * have it in config/plugins.js. What Cairn does not provide to app code is out of scope, named.
 */
async function startWithBootstrap(bootstrap, middlewares) {
  const pluginConfig = {};
  app.state.bootstrap = async ({ strapi }) => {
    try {
      await bootstrap({ strapi: bootstrapStrapi(strapi, pluginConfig) });
    } catch (error) {
      if (error instanceof Error && /is not provided by Cairn/.test(error.message)) throw new OutOfScope(`the bootstrap: ${error.message}`);
      throw error;
    }
  };
  await app.useInstanceConfig({ middlewares, pluginConfig: {} });
  await app.start();
  if (Object.keys(pluginConfig).length) await app.useInstanceConfig({ middlewares, pluginConfig });
}

/** The `strapi` a test's bootstrap gets: Cairn's, its config keeping what is set under `plugin::<name>` (see above). */
function bootstrapStrapi(strapi, pluginConfig) {
  const { get: lodashGet, set: lodashSet, toPath } = require('lodash');
  const pluginPath = (path) => {
    const keys = toPath(path);
    const plugin = /^plugin::(.+)$/.exec(keys[0] ?? '');
    return plugin ? [plugin[1], ...keys.slice(1)] : undefined;
  };
  const config = new Proxy(strapi.config, {
    get(target, key) {
      if (key === 'set') {
        return (path, value) => {
          const at = pluginPath(path);
          if (!at) return target.set(path, value);
          if (at.length === 1) pluginConfig[at[0]] = structuredClone(value);
          else lodashSet(pluginConfig, at, structuredClone(value));
          return config;
        };
      }
      if (key === 'get') {
        return (path, fallback) => {
          const at = pluginPath(path);
          const kept = at && lodashGet(pluginConfig, at);
          return kept !== undefined ? kept : target.get(path, fallback);
        };
      }
      return Reflect.get(target, key);
    },
  });
  return new Proxy(strapi, {
    get(target, key) {
      if (key === 'config') return config;
      if (key === 'plugin') return (name) => cairnPlugin(target, name);
      return Reflect.get(target, key);
    },
  });
}

/** Cairn's `strapi.plugin(name)`; a plugin Cairn does not have is out of scope, named (when it is used). */
function cairnPlugin(strapi, name) {
  const missing = (error) => {
    if (error instanceof Error && /^Unknown plugin /.test(error.message)) throw new OutOfScope(`strapi.plugin('${name}'): Cairn has no ${name} plugin`);
    throw error;
  };
  let plugin;
  try {
    plugin = strapi.plugin(name);
  } catch (error) {
    missing(error);
  }
  return new Proxy(plugin, {
    get(target, key) {
      const member = Reflect.get(target, key);
      // A member Cairn's plugin object lacks (`provider`, `contentTypes`...) is Strapi's in-process plugin.
      if (member === undefined && typeof key === 'string' && !PROBED.has(key)) throw new OutOfScope(`strapi.plugin('${name}').${key} is an in-process Strapi object`);
      if (typeof member !== 'function') return member;
      return (...args) => {
        let result;
        try {
          result = member.apply(target, args);
        } catch (error) {
          return missing(error);
        }
        // A service's members Cairn does not provide are out of scope too.
        return key === 'service' && result && typeof result === 'object' ? outOfScopeWhereNotProvided(result) : result;
      };
    },
  });
}

/**
 * An object of Cairn's whose members it does not provide, at any depth, are out of scope (they throw "is not provided by Cairn"), and
 * so is adding route parameters once Cairn runs (it builds its routes at start; Strapi's test then re-applies them
 * to its in-process router).
 */
function outOfScopeWhereNotProvided(object) {
  const outOfScope = (error) => {
    if (error instanceof Error && /is not provided by Cairn|the routes are registered already/.test(error.message)) throw new OutOfScope(error.message);
    throw error;
  };
  return new Proxy(object, {
    get(target, key) {
      let member;
      try {
        member = Reflect.get(target, key);
      } catch (error) {
        return outOfScope(error);
      }
      // A group of members (`contentAPI.sanitize`): the same rule for its own.
      if (typeof member === 'object' && member !== null) return outOfScopeWhereNotProvided(member);
      if (typeof member !== 'function') return member;
      return (...args) => {
        try {
          return member.apply(target, args);
        } catch (error) {
          return outOfScope(error);
        }
      };
    },
  });
}

/**
 * The running Cairn's `strapi.config`. Cairn refuses a set of a key it compiled at start (`api.rest.defaultLimit`,
 * a plugin's config): a test that changes one asks for what a running Cairn does not do, out of scope, named.
 */
function runtimeConfig(config) {
  return new Proxy(config, {
    get(target, key) {
      if (key !== 'set') return Reflect.get(target, key);
      return (path, value) => {
        try {
          target.set(path, value);
        } catch (error) {
          if (error instanceof Error && error.name === 'ConfigError' && /once, at start/.test(error.message)) throw new OutOfScope(error.message);
          throw error;
        }
        // Strapi's set answers the config, for chained sets.
        return runtimeConfig(target);
      };
    },
  });
}

/**
 * `strapi.service(uid)` for the two users-permissions services Strapi's test utilities use to make a logged-in user
 * (createAuthenticatedUser): the user service's `add`, which Strapi 5.54 runs as a Document Service create of the
 * user with its role populated (its Document Service hashes the password), here Cairn's Document Service; and the jwt
 * service's synchronous `issue`, an HS256 token signed with the secret the running Cairn verifies with (the test
 * app's `jwtSecret`, or the one its bootstrap set), as Strapi signs it (jsonwebtoken, 30 days). Any other service is the
 * one Cairn gives app code; one it does not provide, or a member of these two, is an in-process Strapi object, out
 * of scope.
 */
function pluginService(uid) {
  const USER = 'plugin::users-permissions.user';
  if (uid === USER) {
    return onlyThese({ add: (values) => cairnStrapi().documents(USER).create({ data: values, populate: ['role'] }) }, `strapi.service('${uid}')`);
  }
  if (uid === 'plugin::users-permissions.jwt') {
    return onlyThese(
      {
        issue(payload, options = {}) {
          const jwt = require('jsonwebtoken');
          // The secret the running Cairn verifies with: the test app's, or the one its bootstrap set.
          const secret = cairnStrapi().config.get('plugin::users-permissions.jwtSecret');
          const claims = payload && typeof payload.toJSON === 'function' ? payload.toJSON() : { ...payload };
          return jwt.sign(claims, secret, { expiresIn: '30d', ...options });
        },
      },
      `strapi.service('${uid}')`,
    );
  }
  // Any other: the service Cairn gives app code (an app's, users-permissions' role service); one it does not provide
  // is an in-process Strapi object.
  try {
    return outOfScopeWhereNotProvided(cairnStrapi().service(uid));
  } catch (error) {
    if (error instanceof Error && /is not provided by Cairn/.test(error.message)) throw new OutOfScope(`strapi.service('${uid}') is an in-process Strapi object`);
    throw error;
  }
}

/** `members`, where any other member is an in-process Strapi object (`what` names the object): out of scope. */
function onlyThese(members, what) {
  return new Proxy(members, {
    get(target, key) {
      if (typeof key === 'symbol' || PROBED.has(key) || key in target) return target[key];
      throw new OutOfScope(`${what}.${key} is an in-process Strapi object`);
    },
  });
}

/** The `strapi` Cairn gives an app's code, of the Cairn running. */
function cairnStrapi() {
  if (!app.state.cairn) throw new Error('Cairn is not running (strapi.destroy() was called)');
  return app.state.cairn.strapi;
}

module.exports = {
  createStrapiInstance,
  superAdmin: {
    loginInfo: { email: superAdminCredentials.email, password: superAdminCredentials.password },
    credentials: superAdminCredentials,
  },
};
