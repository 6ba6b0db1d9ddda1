import { ConfigError } from '../errors/index.js';
import { editDistance } from '../errors/suggest.js';
import { PERMISSIONS_RULE, PLUGIN_RULES, SECTION_RULES, show, STRAPI_PLUGINS, type KeyRule } from './config-keys.js';

type Plain = Record<string, unknown>;
const isPlain = (v: unknown): v is Plain => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Where each section's values came from, so an error names the file that set the bad key. */
export type ConfigSources = Record<string, { layers: Array<{ file: string; value: Plain }>; override?: Plain }>;

/**
 * Checks the merged config against config-keys.ts: a bad value throws a ConfigError naming the file, the key and
 * what is allowed; an unknown key, or a Strapi key Cairn ignores where that matters, is a warning (returned).
 * Numeric strings are normalized where `env('PORT')` is common.
 */
export function validateConfig(config: Plain, sources: ConfigSources): string[] {
  const warnings: string[] = [];
  const fail = (section: string, path: string[], problem: string): never => {
    throw new ConfigError(`${origin(sources, section, path)}: ${[section, ...path].join('.')} ${problem}`);
  };
  const warn = (section: string, path: string[], message: string) => warnings.push(`${origin(sources, section, path)}: ${[section, ...path].join('.')} ${message}`);

  for (const section of ['server', 'database', 'api', 'plugins', 'admin']) {
    if (!isPlain(config[section])) fail(section, [], 'must be an object');
  }
  for (const [section, rule] of Object.entries(SECTION_RULES)) walk(rule, config[section], [], { section, fail, warn });

  const rest = (config.api as { rest: Plain }).rest;
  if ((rest.defaultLimit as number) > (rest.maxLimit as number)) {
    fail('api', ['rest', 'defaultLimit'], `(${show(rest.defaultLimit)}) must not exceed rest.maxLimit (${show(rest.maxLimit)})`);
  }
  const pool = (config.database as { connection: { pool?: Plain } }).connection.pool;
  if (pool && typeof pool.min === 'number' && typeof pool.max === 'number' && pool.min > pool.max) {
    fail('database', ['connection', 'pool', 'min'], `(${pool.min}) must not exceed pool.max (${pool.max})`);
  }

  for (const [name, plugin] of Object.entries(config.plugins as Plain)) {
    if (!isPlain(plugin)) fail('plugins', [name], `must be an object like { enabled, config }, not ${show(plugin)}`);
    const rule = PLUGIN_RULES[name];
    if (rule) walk(rule, plugin, [name], { section: 'plugins', fail, warn });
    else if (!STRAPI_PLUGINS.includes(name)) {
      const known = [...Object.keys(PLUGIN_RULES), ...STRAPI_PLUGINS];
      const closest = closestKey(name, Object.keys(PLUGIN_RULES));
      warn('plugins', [name], distance(name.toLowerCase(), closest.toLowerCase()) <= 2 ? unknownKey(name, known) : 'is a plugin Cairn does not run: its config is ignored');
    }
  }

  if (config.permissions !== undefined) walk(PERMISSIONS_RULE, config.permissions, [], { section: 'permissions', fail, warn });
  return warnings;
}

interface WalkContext {
  section: string;
  fail(section: string, path: string[], problem: string): never;
  warn(section: string, path: string[], message: string): void;
}

/** Checks `value` against `rule`, in place (normalized values replace the given ones). */
function walk(rule: KeyRule, value: unknown, path: string[], ctx: WalkContext): unknown {
  if (rule.normalize) value = rule.normalize(value);
  const problem = rule.check?.(value);
  if (problem !== undefined) ctx.fail(ctx.section, path, problem);
  if (rule.ignoredNote && (rule.noteWhen?.(value) ?? true)) ctx.warn(ctx.section, path, `is set: ${rule.ignoredNote}`);
  if (!rule.keys && !rule.values) return value;
  // A rule with a check of its own has said whether a value that is not an object is fine (Strapi v4's boolean proxy).
  if (!isPlain(value)) return rule.check ? value : ctx.fail(ctx.section, path, `must be an object, not ${show(value)}`);
  for (const [key, child] of Object.entries(rule.keys ?? {})) {
    if (child.required && value[key] === undefined) walk(child, undefined, [...path, key], ctx);
  }
  for (const [key, child] of Object.entries(value)) {
    // `env('X')` without a default is undefined when X is unset: the key is as good as absent.
    if (child === undefined) continue;
    const childRule = rule.keys && Object.hasOwn(rule.keys, key) ? rule.keys[key] : rule.values;
    if (childRule) value[key] = walk(childRule, child, [...path, key], ctx);
    else if (!rule.open) ctx.warn(ctx.section, [...path, key], unknownKey(key, Object.keys(rule.keys ?? {})));
  }
  return value;
}

function unknownKey(key: string, known: string[]): string {
  return `is not a key Cairn or Strapi knows, and is ignored: did you mean ${closestKey(key, known)}?`;
}

/** The known key nearest to `key` (case-insensitive edit distance; the first listed on a tie). */
export function closestKey(key: string, known: string[]): string {
  let best = known[0];
  let bestDistance = Infinity;
  for (const candidate of known) {
    const d = distance(key.toLowerCase(), candidate.toLowerCase());
    if (d < bestDistance) [best, bestDistance] = [candidate, d];
  }
  return best;
}

/** Levenshtein distance (errors/suggest.ts). */
export const distance = editDistance;

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
