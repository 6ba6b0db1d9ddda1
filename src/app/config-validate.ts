import { ConfigError } from '../errors/index.js';

type Plain = Record<string, unknown>;
const isPlain = (v: unknown): v is Plain => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Where each section's values came from, so an error names the file that set the bad key. */
export type ConfigSources = Record<string, { layers: Array<{ file: string; value: Plain }>; override?: Plain }>;

const CLIENTS = ['sqlite', 'better-sqlite3', 'postgres', 'pg', 'mysql', 'mysql2'];

/**
 * Checks the values the server relies on, after merging, and normalizes numeric strings (`port: env('PORT')`
 * is common in Strapi apps). Other keys are the features' to check: plugins validate their own config.
 */
export function validateConfig(config: Plain, sources: ConfigSources): void {
  const fail = (section: string, path: string[], problem: string): never => {
    throw new ConfigError(`${origin(sources, section, path)}: ${[section, ...path].join('.')} ${problem}`);
  };
  for (const section of ['server', 'database', 'api', 'plugins', 'admin']) {
    if (!isPlain(config[section])) fail(section, [], 'must be an object');
  }

  const server = config.server as Plain;
  if (typeof server.host !== 'string' || server.host === '') fail('server', ['host'], `must be a host name or address, not ${show(server.host)}`);
  server.port = integer(server.port) ?? fail('server', ['port'], `${show(server.port)} is not a valid port (an integer from 0 to 65535; 0 picks a free one)`);
  if ((server.port as number) < 0 || (server.port as number) > 65535) fail('server', ['port'], `${show(server.port)} is not a valid port (0 to 65535)`);
  if (server.workers !== undefined) {
    server.workers = integer(server.workers) ?? fail('server', ['workers'], `must be a positive integer, not ${show(server.workers)}`);
    if ((server.workers as number) < 1) fail('server', ['workers'], `must be a positive integer, not ${show(server.workers)}`);
  }

  const api = config.api as Plain;
  if (!isPlain(api.rest)) fail('api', ['rest'], 'must be an object');
  const rest = api.rest as Plain;
  for (const key of ['defaultLimit', 'maxLimit']) {
    if (!Number.isInteger(rest[key]) || (rest[key] as number) < 1) fail('api', ['rest', key], `must be a positive integer, not ${show(rest[key])}`);
  }
  if ((rest.defaultLimit as number) > (rest.maxLimit as number)) {
    fail('api', ['rest', 'defaultLimit'], `(${show(rest.defaultLimit)}) must not exceed rest.maxLimit (${show(rest.maxLimit)})`);
  }
  if (typeof rest.withCount !== 'boolean') fail('api', ['rest', 'withCount'], `must be true or false, not ${show(rest.withCount)}`);
  if (rest.prefix !== undefined && (typeof rest.prefix !== 'string' || !rest.prefix.startsWith('/'))) {
    fail('api', ['rest', 'prefix'], `must be a path starting with "/", not ${show(rest.prefix)}`);
  }

  const database = config.database as { connection?: Plain };
  if (!isPlain(database.connection)) fail('database', ['connection'], 'must be an object with client and connection');
  const client = database.connection!.client;
  if (!CLIENTS.includes(client as string)) fail('database', ['connection', 'client'], `must be sqlite, postgres or mysql, not ${show(client)}`);
  const acquire = database.connection!.acquireConnectionTimeout;
  if (acquire !== undefined) {
    const ms = integer(acquire);
    if (ms === undefined || ms < 1) fail('database', ['connection', 'acquireConnectionTimeout'], `must be a positive number of milliseconds, not ${show(acquire)}`);
    database.connection!.acquireConnectionTimeout = ms;
  }

  for (const [name, plugin] of Object.entries(config.plugins as Plain)) {
    if (!isPlain(plugin)) fail('plugins', [name], `must be an object like { enabled, config }, not ${show(plugin)}`);
  }

  if (config.permissions !== undefined) {
    const roles = (config.permissions as Plain).roles;
    if (roles !== undefined && !isPlain(roles)) fail('permissions', ['roles'], 'must be an object of roles');
    for (const [type, role] of Object.entries((roles ?? {}) as Plain)) {
      const actions = isPlain(role) ? role.permissions : undefined;
      if (!Array.isArray(actions) || actions.some((a) => typeof a !== 'string')) {
        fail('permissions', ['roles', type, 'permissions'], 'must be a list of actions such as "api::restaurant.restaurant.find"');
      }
    }
  }
}

/** An integer, or a string of one (from `env()`); anything else is undefined. */
function integer(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isInteger(value) ? value : undefined;
  if (typeof value === 'string' && /^\s*\d+\s*$/.test(value)) return Number.parseInt(value, 10);
  return undefined;
}

const show = (value: unknown): string => (typeof value === 'string' ? JSON.stringify(value) : String(value));

/** The file that set `path` in a section: the env-specific one first, then the base file, else the defaults. */
function origin(sources: ConfigSources, section: string, path: string[]): string {
  const source = sources[section];
  const has = (object: unknown) => {
    let at = object;
    for (const key of path) {
      if (!isPlain(at) || !(key in at)) return false;
      at = at[key];
    }
    return true;
  };
  if (source?.override && has(source.override)) return `config/${section} (as overridden at start)`;
  for (const layer of [...(source?.layers ?? [])].reverse()) if (has(layer.value)) return layer.file;
  return source?.layers.length ? source.layers[source.layers.length - 1].file : `config/${section}`;
}
