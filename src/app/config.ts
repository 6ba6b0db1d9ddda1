import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ConfigError } from '../errors/index.js';
import type { AppConfig } from './types.js';
import { createEnv, loadDotEnv } from './env.js';
import { loadModule } from './load-module.js';

const FILES = ['server', 'database', 'api', 'plugins', 'admin', 'permissions'] as const;
const EXTENSIONS = ['.ts', '.js', '.cjs', '.mjs', '.json'];

type Plain = Record<string, unknown>;
const isPlain = (v: unknown): v is Plain => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Deep merge where `over` wins; arrays are replaced, not merged. */
export function deepMerge(base: Plain, over: Plain): Plain {
  const out: Plain = { ...base };
  for (const [key, value] of Object.entries(over)) {
    out[key] = isPlain(value) && isPlain(out[key]) ? deepMerge(out[key] as Plain, value) : value;
  }
  return out;
}

/** One config file of a folder: at most one of server.ts / server.js / server.json... */
async function readConfigFile(folder: string, name: string): Promise<Plain | undefined> {
  const found = EXTENSIONS.map((ext) => join(folder, `${name}${ext}`)).filter((f) => existsSync(f));
  if (found.length > 1) throw new ConfigError(`config: ${found.join(' and ')} both define "${name}": keep one`);
  if (!found.length) return undefined;
  const file = found[0];
  let value: unknown;
  try {
    value = await loadModule(file);
    if (typeof value === 'function') value = await (value as (ctx: { env: unknown }) => unknown)({ env: createEnv() });
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    throw new ConfigError(`${file}: ${(error as Error).message}`);
  }
  if (!isPlain(value)) throw new ConfigError(`${file} must export an object or ({ env }) => object`);
  return value;
}

function defaults(dir: string): Plain {
  return {
    server: { host: '127.0.0.1', port: 1337 },
    database: { connection: { client: 'sqlite', connection: { filename: '.tmp/data.db' } } },
    api: { rest: { defaultLimit: 25, maxLimit: 100, withCount: true } },
    plugins: {},
    admin: {},
    dir,
  };
}

/**
 * Loads `config/*` of an app folder (Strapi's format: objects or `({ env }) => object`, in ts/js/cjs/mjs/json),
 * then `config/env/<NODE_ENV>/*` over it, then `overrides`. Invalid values stop start-up with a ConfigError.
 */
export async function loadConfig(dirInput: string, overrides: Plain = {}): Promise<AppConfig> {
  const dir = resolve(dirInput);
  if (!existsSync(dir)) throw new ConfigError(`app folder ${dir} does not exist`);
  loadDotEnv(dir);
  const environment = process.env.NODE_ENV || 'development';
  let config = defaults(dir);
  for (const name of FILES) {
    const base = await readConfigFile(join(dir, 'config'), name);
    const specific = await readConfigFile(join(dir, 'config', 'env', environment), name);
    if (base) config = deepMerge(config, { [name]: base });
    if (specific) config = deepMerge(config, { [name]: specific });
  }
  config = deepMerge(config, overrides);
  config.environment = environment;
  validate(config);
  return config as unknown as AppConfig;
}

function validate(config: Plain): void {
  const server = config.server as Plain;
  const port = Number(server.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new ConfigError(`config/server: port ${String(server.port)} is not a valid port`);
  server.port = port;
  if (server.workers !== undefined && (!Number.isInteger(server.workers) || (server.workers as number) < 1)) {
    throw new ConfigError('config/server: workers must be a positive integer');
  }
  const rest = (config.api as Plain).rest as Plain;
  for (const key of ['defaultLimit', 'maxLimit']) {
    if (!Number.isInteger(rest[key]) || (rest[key] as number) < 1) throw new ConfigError(`config/api: rest.${key} must be a positive integer`);
  }
  if ((rest.defaultLimit as number) > (rest.maxLimit as number)) throw new ConfigError('config/api: rest.defaultLimit must not exceed rest.maxLimit');
  if (typeof rest.withCount !== 'boolean') throw new ConfigError('config/api: rest.withCount must be true or false');
  const database = config.database as { connection?: Plain };
  const clients = ['sqlite', 'better-sqlite3', 'postgres', 'pg', 'mysql', 'mysql2'];
  if (!isPlain(database.connection) || !clients.includes(database.connection.client as string)) {
    throw new ConfigError(`config/database: connection.client must be sqlite, postgres or mysql, not ${JSON.stringify(database.connection?.client)}`);
  }
}
