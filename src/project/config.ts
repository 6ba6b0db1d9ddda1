import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ConfigError } from '../errors/index.js';
import type { AppConfig } from './types.js';
import { defaultDatabaseConnection } from '../database/clients.js';
import { createEnv, loadDotEnv } from './env.js';
import { describeLoadError, loadAppModule } from './config-module.js';
import { validateConfig, type ConfigSources } from './config-validate.js';
import { checkMiddlewares } from './middlewares.js';

/**
 * The config files Cairn reads as objects; `middlewares` (Strapi's list, see middlewares.ts) is read too; others
 * (cron-tasks.js, features.js...) are left alone.
 */
export const CONFIG_FILES = ['server', 'database', 'api', 'plugins', 'admin', 'permissions'] as const;
export type ConfigName = (typeof CONFIG_FILES)[number];
const EXTENSIONS = ['.ts', '.js', '.cjs', '.mjs', '.json'];

export type DeepPartial<T> = { [K in keyof T]?: T[K] extends (infer U)[] ? U[] : T[K] extends object ? DeepPartial<T[K]> : T[K] };

type Plain = Record<string, unknown>;
export const isPlain = (v: unknown): v is Plain => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Deep merge where `over` wins; arrays are replaced, not merged (as Strapi does for env-specific files). */
export function deepMerge(base: Plain, over: Plain): Plain {
  const out: Plain = { ...base };
  for (const [key, value] of Object.entries(over)) {
    if (value === undefined) continue;
    out[key] = isPlain(value) && isPlain(out[key]) ? deepMerge(out[key] as Plain, value) : value;
  }
  return out;
}

/** Strapi's built-in defaults for what an app folder may leave out. */
function defaults(env: ReturnType<typeof createEnv>): Record<ConfigName, Plain | undefined> {
  const jwtSecret = env('JWT_SECRET');
  return {
    server: { host: '127.0.0.1', port: 1337 },
    database: { connection: defaultDatabaseConnection() },
    api: { rest: { defaultLimit: 25, maxLimit: 100, withCount: true } },
    // The users-permissions plugin's own default config has `jwtSecret: env('JWT_SECRET')`: an app whose
    // config/plugins says nothing of it (LaunchPad's is `() => ({})`) still signs with JWT_SECRET.
    plugins: jwtSecret ? { 'users-permissions': { config: { jwtSecret } } } : {},
    admin: {},
    permissions: undefined,
  };
}

/**
 * Loads `config/*` of an app folder (Strapi's format: an object or `({ env }) => object`, in ts/js/cjs/mjs/json),
 * then `config/env/<NODE_ENV>/*` over it, then `overrides` (command-line options, tests). `<dir>/.env` is read
 * first. A file that can't load, or a value of the wrong type, is a ConfigError naming the file and the key; an
 * unknown key is a warning (to stderr unless `options.warn` takes it).
 */
export async function loadConfig(
  dirInput: string,
  overrides: DeepPartial<AppConfig> = {},
  options: { warn?: (message: string) => void } = {},
): Promise<AppConfig> {
  const dir = resolve(dirInput);
  checkAppFolder(dir);
  loadDotEnv(dir);
  const environment = process.env.NODE_ENV || 'development';
  const env = createEnv();
  const merged: Plain = {};
  const sources: ConfigSources = {};
  const base = defaults(env);
  for (const name of CONFIG_FILES) {
    const layers = await readLayers(dir, name, environment, env);
    let section = base[name];
    for (const layer of layers) section = deepMerge(section ?? {}, layer.value);
    const override = (overrides as Plain)[name];
    if (isPlain(override)) section = deepMerge(section ?? {}, override);
    if (section !== undefined) merged[name] = section;
    sources[name] = { layers, override: isPlain(override) ? override : undefined };
  }
  const warn = options.warn ?? ((message: string) => process.stderr.write(`cairn: warning: ${message}\n`));
  for (const warning of validateConfig(merged, sources)) warn(warning);
  const middlewares = await readMiddlewares(dir, environment, env, (overrides as Plain).middlewares);
  if (middlewares) {
    for (const warning of middlewares.warnings) warn(warning);
    merged.middlewares = middlewares.entries;
  }
  return { ...merged, dir, environment } as unknown as AppConfig;
}

/**
 * `config/middlewares` (Strapi's list), checked: the one of `config/env/<environment>/` replaces the base one (a list
 * is replaced, not merged, as every array of Cairn's config), and an override given at start replaces both.
 */
async function readMiddlewares(dir: string, environment: string, env: ReturnType<typeof createEnv>, override: unknown) {
  if (override !== undefined) return checkMiddlewares(override, 'config/middlewares (as overridden at start)', dir);
  const layers = await readLayers(dir, 'middlewares', environment, env, 'list');
  const last = layers[layers.length - 1];
  return last && checkMiddlewares(last.value, last.file, dir);
}

/** The files that define one config section: `config/<name>`, then `config/env/<environment>/<name>`, as loaded. */
export async function configLayers(dirInput: string, name: ConfigName): Promise<ConfigLayer[]> {
  const dir = resolve(dirInput);
  loadDotEnv(dir);
  return readLayers(dir, name, process.env.NODE_ENV || 'development', createEnv());
}

export interface ConfigLayer {
  /** Absolute path of the file. */
  file: string;
  value: Plain;
}

async function readLayers(dir: string, name: string, environment: string, env: ReturnType<typeof createEnv>): Promise<ConfigLayer[]>;
async function readLayers(dir: string, name: string, environment: string, env: ReturnType<typeof createEnv>, shape: 'list'): Promise<Array<{ file: string; value: unknown }>>;
async function readLayers(dir: string, name: string, environment: string, env: ReturnType<typeof createEnv>, shape: 'object' | 'list' = 'object'): Promise<Array<{ file: string; value: unknown }>> {
  const layers: Array<{ file: string; value: unknown }> = [];
  for (const folder of [join(dir, 'config'), join(dir, 'config', 'env', environment)]) {
    const found = await readConfigFile(dir, folder, name, env, shape);
    if (found) layers.push(found);
  }
  return layers;
}

/** Config files that mark a Strapi/Cairn project: Cairn's own and the other ones Strapi's template has. */
const PROJECT_CONFIG_NAMES = [...CONFIG_FILES, 'middlewares', 'cron-tasks', 'features', 'typescript'];

/**
 * A folder is an app when it has a content-type schema or a config file: anything else (a wrong --dir, the
 * repository root, a parent folder) would start an API with no content-types and a fresh database inside it.
 */
function checkAppFolder(dir: string): void {
  if (!existsSync(dir)) throw new ConfigError(`app folder ${dir} does not exist`);
  if (!statSync(dir).isDirectory()) throw new ConfigError(`app folder ${dir} is not a folder`);
  if (hasContentType(dir) || hasConfigFile(dir)) return;
  throw new ConfigError(
    `${dir} is not a Cairn app: found no content-type schema (src/api/<api>/content-types/<name>/schema.json) and no ` +
      `config file (config/<name>.js, .ts, .cjs, .mjs or .json; <name>: ${PROJECT_CONFIG_NAMES.join(', ')}); use --dir to point at an app folder`,
  );
}

function subfolders(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => join(dir, e.name));
  } catch {
    return [];
  }
}

function hasContentType(dir: string): boolean {
  return subfolders(join(dir, 'src', 'api')).some((api) => subfolders(join(api, 'content-types')).some((type) => existsSync(join(type, 'schema.json'))));
}

/** A config file in config/ or in one of its config/env/<environment>/ folders. */
function hasConfigFile(dir: string): boolean {
  const folders = [join(dir, 'config'), ...subfolders(join(dir, 'config', 'env'))];
  return folders.some((folder) => PROJECT_CONFIG_NAMES.some((name) => EXTENSIONS.some((ext) => existsSync(join(folder, `${name}${ext}`)))));
}

/**
 * The one file of a folder that defines `name` (server.ts or server.js or ... : two is an error). It exports an
 * object, or for a `list` (config/middlewares) anything, which its own check looks at.
 */
async function readConfigFile(dir: string, folder: string, name: string, env: ReturnType<typeof createEnv>, shape: 'object' | 'list'): Promise<{ file: string; value: unknown } | undefined> {
  const found = EXTENSIONS.map((ext) => join(folder, `${name}${ext}`)).filter((f) => existsSync(f));
  if (found.length > 1) throw new ConfigError(`${found.join(' and ')} both define "${name}": keep one`);
  if (!found.length) return undefined;
  const file = found[0];
  let value: unknown;
  try {
    value = await loadAppModule(file, dir);
    if (typeof value === 'function') value = await (value as (ctx: { env: unknown }) => unknown)({ env });
  } catch (error) {
    throw new ConfigError(`${file}: ${describeLoadError(error, file)}`);
  }
  if (shape === 'object' && !isPlain(value)) throw new ConfigError(`${file} must export an object or a function ({ env }) => object`);
  return { file, value };
}
