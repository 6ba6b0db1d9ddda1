'use strict';

/**
 * The one Cairn app of a test file (each file runs in a process of its own): the models the builders declared,
 * written as a Strapi-layout app folder, served by an in-process Cairn (the repository's dist/) listening on a
 * random port, on a SQLite database of its own. Fixtures are created through its in-process Document Service (as
 * Strapi's harness creates them through Strapi's), clean-ups through the REST Content API with a full-access API
 * token.
 */
const { mkdtempSync, mkdirSync, writeFileSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join, resolve } = require('node:path');
const { pathToFileURL } = require('node:url');

const { merge } = require('lodash');
const { OutOfScope } = require('./out-of-scope');

const REPO = resolve(__dirname, '../../..');
/** The test app's users-permissions secret (see writeAppFolder). */
const JWT_SECRET = 'strapi-suite-jwt-secret';
const API_TOKEN_SALT = 'strapi-suite-api-token-salt';
const APP_KEYS = ['strapi-suite-key-1', 'strapi-suite-key-2'];
/** The global the app folder's src/index.js calls for the instance's bootstrap (see writeAppFolder). */
const BOOTSTRAP = 'cairn.strapi-suite.bootstrap';

const state = {
  /** uid -> { uid, kind: 'contentType' | 'component', def } in declaration order. */
  models: new Map(),
  /** Locales created as `plugin::i18n.locale` fixtures (Cairn reads locales from config/plugins). */
  locales: [],
  dir: null,
  cairn: null,
  token: null,
  /**
   * `config/middlewares` as the running instance's `register` set it (`strapi.config.set('middlewares', ...)`), written
   * into the app folder as config/middlewares.js; null: the app has no such file (Strapi's defaults).
   */
  middlewares: null,
  /**
   * Plugins' config the running instance's `bootstrap` set (`strapi.config.set('plugin::<name>.<path>', ...)`): plugin
   * name -> config, merged over the test app's own in config/plugins.json (Strapi's plugins read their config when
   * they use it; Cairn at start).
   */
  pluginConfig: {},
  /** The middlewares list and plugins' config (JSON) the running Cairn started with. */
  startedConfig: null,
  /** The instance's `bootstrap({ strapi })`, run once by the next start as the app's src/index.js bootstrap. */
  bootstrap: null,
  /** createStrapiInstance's `bypassAuth` (default true): requests without an API token have full access. */
  bypassAuth: true,
};

/** The content-type builder's slugs: `rgbColor` -> `rgb-color`, `My name` -> `my-name`. */
const slug = (name) =>
  String(name)
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
const snake = (name) => slug(name).replace(/-/g, '_');
const toContentTypeUID = (name) => (name.includes('::') ? name : `api::${name}.${name}`);
const toComponentUID = (def) => `${def.category || 'default'}.${slug(def.displayName)}`;
/** The table of a declared content-type, as the builder names it (schemaFiles). */
const tableOf = (def) => def.collectionName || snake(def.pluralName);

const REVERSED = { oneToOne: 'oneToOne', oneToMany: 'manyToOne', manyToOne: 'oneToMany', manyToMany: 'manyToMany' };

function addModel(kind, def) {
  const uid = kind === 'component' ? toComponentUID(def) : toContentTypeUID(def.singularName);
  state.models.set(uid, { uid, kind, def });
  return { uid, ...def };
}

function removeModel(uid) {
  state.models.delete(uid);
}

/**
 * The content-type builder's files for the declared models: schema.json per type, JSON per component, and the
 * schema of a plugin's type the app extends (`extensible`: uid -> the plugin's own schema) when a relation names it
 * with a targetAttribute: the builder writes the other side there, in `src/extensions/<plugin>/content-types/<name>/`.
 */
function schemaFiles(extensible = new Map()) {
  const contentTypes = new Map();
  const components = new Map();
  const extensions = new Map();
  for (const { uid, kind, def } of state.models.values()) {
    const attributes = JSON.parse(JSON.stringify(def.attributes || {}));
    if (kind === 'component') {
      components.set(uid, {
        // As the content-type builder names it, whatever the definition says (its component-builder.js sets
        // `components_<category>_<displayName, plural>`): a category like `mixed-content` snake-cased.
        collectionName: `components_${snake(uid.split('.')[0])}_${snake(def.displayName)}s`,
        info: { displayName: def.displayName, icon: def.icon || 'default', description: def.description || '' },
        options: {},
        attributes,
      });
    } else {
      contentTypes.set(uid, {
        kind: def.kind || 'collectionType',
        collectionName: tableOf(def),
        info: {
          singularName: def.singularName,
          pluralName: def.pluralName,
          displayName: def.displayName || def.singularName,
          description: def.description || '',
        },
        options: { draftAndPublish: def.draftAndPublish === true },
        pluginOptions: def.pluginOptions || {},
        attributes,
      });
    }
  }
  // A relation with a targetAttribute is bidirectional: the builder writes the other side on the target. The
  // manyToOne side owns a oneToMany pair (inversedBy); otherwise the declaring side does. `__self__` is the type.
  // Two relations naming the same targetAttribute: the builder writes the target's attribute twice, the last one
  // stays, and the first relation's inverse no longer names it back: that one is left one-way.
  const inverses = new Map();
  for (const [uid, schema] of [...contentTypes, ...components]) {
    for (const [name, attribute] of Object.entries(schema.attributes)) {
      if (attribute.type !== 'relation') continue;
      const { targetAttribute, ...rest } = attribute;
      if (rest.target === '__self__') rest.target = uid;
      if (targetAttribute && !extensions.has(rest.target) && extensible.has(rest.target)) {
        extensions.set(rest.target, JSON.parse(JSON.stringify(extensible.get(rest.target))));
      }
      const target = contentTypes.get(rest.target) || extensions.get(rest.target);
      if (targetAttribute && target && REVERSED[rest.relation] && !components.has(uid)) {
        const owns = rest.relation !== 'oneToMany';
        const claimed = inverses.get(`${rest.target}.${targetAttribute}`);
        if (claimed) {
          delete claimed.inversedBy;
          delete claimed.mappedBy;
        }
        inverses.set(`${rest.target}.${targetAttribute}`, rest);
        rest[owns ? 'inversedBy' : 'mappedBy'] = targetAttribute;
        target.attributes[targetAttribute] = {
          type: 'relation',
          relation: REVERSED[rest.relation],
          target: uid,
          [owns ? 'mappedBy' : 'inversedBy']: name,
        };
      }
      schema.attributes[name] = rest;
    }
  }
  return { contentTypes, components, extensions };
}

function writeAppFolder(extensible) {
  if (!state.dir) state.dir = mkdtempSync(join(tmpdir(), 'cairn-strapi-suite-'));
  const dir = state.dir;
  rmSync(join(dir, 'src'), { recursive: true, force: true });
  const { contentTypes, components, extensions } = schemaFiles(extensible);
  mkdirSync(join(dir, 'src', 'api'), { recursive: true });
  for (const [uid, schema] of contentTypes) {
    const name = schema.info.singularName;
    const api = uid.slice('api::'.length).split('.')[0];
    const folder = join(dir, 'src', 'api', api, 'content-types', name);
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'schema.json'), JSON.stringify(schema, null, 2));
  }
  for (const [uid, component] of components) {
    const [category, name] = uid.split('.');
    mkdirSync(join(dir, 'src', 'components', category), { recursive: true });
    writeFileSync(join(dir, 'src', 'components', category, `${name}.json`), JSON.stringify(component, null, 2));
  }
  for (const [uid, schema] of extensions) {
    const [plugin, name] = uid.slice('plugin::'.length).split('.');
    const folder = join(dir, 'src', 'extensions', plugin, 'content-types', name);
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'schema.json'), JSON.stringify(schema, null, 2));
  }
  mkdirSync(join(dir, 'config'), { recursive: true });
  // Strapi's test app: GraphQL in Strapi 5's compatibility mode; locales as the fixtures created them.
  const i18n = { defaultLocale: 'en', locales: [{ code: 'en', name: 'English (en)' }, ...state.locales] };
  // Strapi's test app has a JWT_SECRET in its .env (so it starts in production too).
  const plugins = { graphql: { config: { v4CompatibilityMode: true } }, i18n: { config: i18n }, 'users-permissions': { config: { jwtSecret: JWT_SECRET } } };
  for (const [name, config] of Object.entries(state.pluginConfig)) plugins[name] = { config: merge({}, plugins[name]?.config, config) };
  writeFileSync(join(dir, 'config', 'plugins.json'), JSON.stringify(plugins, null, 2));
  // Strapi's test instance trusts X-Forwarded-* (`server.proxy.koa`, for asHTTPS()); its .env has APP_KEYS (cookies
  // are signed with them) and an API_TOKEN_SALT.
  writeFileSync(join(dir, 'config', 'server.json'), JSON.stringify({ proxy: { koa: true }, app: { keys: APP_KEYS } }, null, 2));
  writeFileSync(join(dir, 'config', 'admin.json'), JSON.stringify({ apiToken: { salt: API_TOKEN_SALT } }, null, 2));
  // The instance's bootstrap, as the app's (Cairn runs an app's src/index.js bootstrap once its plugins are set up).
  const index = join(dir, 'src', 'index.js');
  if (state.bootstrap) writeFileSync(index, `module.exports = { bootstrap: (context) => globalThis[Symbol.for('${BOOTSTRAP}')](context) };\n`);
  // What the test's `register` set in `strapi.config` (middlewares) reaches Cairn as the app's config file.
  const middlewaresFile = join(dir, 'config', 'middlewares.js');
  if (state.middlewares) writeFileSync(middlewaresFile, `module.exports = ${JSON.stringify(state.middlewares, null, 2)};\n`);
  else rmSync(middlewaresFile, { force: true });
  return dir;
}

/**
 * The next instance's config: its `config/middlewares` list (null: none) and its plugins' config set by its bootstrap
 * ({}: the test app's own). A running Cairn started with other config is restarted on it (same database), as a new
 * Strapi instance reads its config afresh.
 */
async function useInstanceConfig({ middlewares, pluginConfig }) {
  state.middlewares = middlewares;
  state.pluginConfig = pluginConfig;
  if (state.cairn && state.startedConfig !== startedConfigOf()) await start();
}

const startedConfigOf = () => JSON.stringify([state.middlewares, state.pluginConfig]);

/** Starts Cairn on the declared models (restarting it, same database, if it runs). */
async function start() {
  await stop();
  // The plugins' types an app may extend, with their own schemas (what an extension copies and adds to).
  const { BUILTIN_SCHEMAS } = await import(pathToFileURL(join(REPO, 'dist', 'model', 'builtin.js')).href);
  const { EXTENSIBLE_CONTENT_TYPES } = await import(pathToFileURL(join(REPO, 'dist', 'model', 'extensions.js')).href);
  const extensible = new Map(BUILTIN_SCHEMAS.filter((b) => EXTENSIBLE_CONTENT_TYPES.has(b.uid)).map((b) => [b.uid, b.schema]));
  const dir = writeAppFolder(extensible);
  const { createCairn } = await import(pathToFileURL(join(REPO, 'dist', 'app', 'cairn.js')).href);
  const { createLogger } = await import(pathToFileURL(join(REPO, 'dist', 'app', 'logger.js')).href);
  const lines = [];
  const log = createLogger({ write: (line) => void lines.push(line) });
  const database = { connection: { client: 'sqlite', connection: { filename: join(dir, 'data.db') } } };
  let cairn;
  // The bootstrap runs with this start only (Strapi runs an instance's once).
  const bootstrap = state.bootstrap;
  state.bootstrap = null;
  globalThis[Symbol.for(BOOTSTRAP)] = bootstrap;
  try {
    cairn = await createCairn({ dir, config: { database }, log });
  } catch (error) {
    // The bootstrap reached what Cairn does not have: out of scope, as it says.
    if (error instanceof OutOfScope) throw error;
    throw new Error(`Cairn refused to start on the tests' models: ${error.message}`);
  } finally {
    delete globalThis[Symbol.for(BOOTSTRAP)];
  }
  cairn.logLines = lines;
  await cairn.fastify.listen({ port: 0, host: '127.0.0.1' });
  state.cairn = cairn;
  state.startedConfig = startedConfigOf();
  if (!state.token) {
    const { key } = await cairn.plugin('users-permissions').service('tokens').create({ name: 'strapi-suite', type: 'full-access' });
    state.token = key;
  }
  return cairn;
}

async function stop() {
  const cairn = state.cairn;
  state.cairn = null;
  if (cairn) await cairn.close();
}

/** Removes the app folder and its database once nothing is declared any more. */
async function discardIfEmpty() {
  if (state.models.size > 0) return;
  await stop();
  if (state.dir) rmSync(state.dir, { recursive: true, force: true });
  state.dir = null;
  state.token = null;
  state.locales = [];
  state.middlewares = null;
  state.pluginConfig = {};
}

async function ensureStarted() {
  if (!state.cairn) await start();
  return state.cairn;
}

/** One request to the running Cairn with the full-access token (clean-ups). */
async function call(method, url, body) {
  const cairn = await ensureStarted();
  const response = await cairn.fastify.inject({
    method,
    url,
    headers: { authorization: `Bearer ${state.token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    payload: body ? JSON.stringify(body) : undefined,
  });
  let parsed = null;
  try {
    parsed = response.body ? JSON.parse(response.body) : null;
  } catch {
    parsed = response.body;
  }
  return { status: response.statusCode, body: parsed };
}

module.exports = {
  REPO,
  state,
  addModel,
  removeModel,
  start,
  stop,
  ensureStarted,
  useInstanceConfig,
  discardIfEmpty,
  call,
  toContentTypeUID,
  toComponentUID,
  slug,
  tableOf,
};
