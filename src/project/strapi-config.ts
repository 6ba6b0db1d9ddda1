import { isDeepStrictEqual } from 'node:util';
import lodashGet from 'lodash/get.js';
import lodashSet from 'lodash/set.js';
import toPath from 'lodash/toPath.js';
import { ConfigError } from '../errors/index.js';
import { PLUGIN_RULES, SECTION_RULES, show, type KeyRule } from './config-keys.js';
import type { AppConfig } from './types.js';

/**
 * `strapi.config` as Strapi 5.54's config provider gives it to app code (@strapi/core services/config.js):
 * `get(path, default)`, `set(path, value)`, `has(path)` with lodash's paths (`'api.rest.defaultLimit'`, `['api',
 * 'rest']`, `'a[0].b'`), the `plugin::<name>` namespace for a plugin's config, and the config's sections readable as
 * members (`strapi.config.server.host`). Its state is the app's config itself, so what a set changes is what the
 * rest of Cairn and app code read afterwards.
 */
export interface StrapiConfig {
  get(path: ConfigPath, fallback?: unknown): unknown;
  set(path: ConfigPath, value: unknown): StrapiConfig;
  has(path: ConfigPath): boolean;
  readonly [section: string]: unknown;
}

type ConfigPath = string | ReadonlyArray<string | number>;
type Plain = Record<string, unknown>;
const isPlain = (v: unknown): v is Plain => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Cairn reads nearly all of its config once, at start: routes, readers, the GraphQL schema, auth and upload are
 * built from it. A set of such a key after that would change what `get` answers and nothing else, so it throws,
 * naming the key (a set that leaves its value as it is passes). Keys Cairn reads at each use (`live` in
 * config-keys.ts: `api.documents.strictParams`), Strapi's keys Cairn has no use for, and the app's own keys are set
 * as Strapi sets them. Sections outside config-keys.ts that Cairn also builds from are compiled as a whole.
 */
const COMPILED_SECTIONS: Record<string, string> = {
  middlewares: 'config/middlewares.js',
  permissions: 'config/permissions.js',
  dir: 'the app folder Cairn was started on',
  environment: 'NODE_ENV',
};

export function strapiConfig(config: AppConfig, options: { warn?: (message: string) => void } = {}): StrapiConfig {
  const warn = options.warn ?? ((message: string) => process.stderr.write(`cairn: warning: ${message}\n`));
  const root = config as unknown as Plain;
  const keysOf = (path: ConfigPath): string[] => toPath(deprecatedPath(path, warn));
  /** The object a path's first key names, and the keys under it: `plugin::x` is `plugins.x.config`. */
  const locate = (keys: string[], create: boolean): { base: Plain | undefined; rest: string[] } => {
    const plugin = /^plugin::(.+)$/.exec(keys[0] ?? '');
    if (!plugin) return { base: root, rest: keys };
    const plugins = root.plugins as Record<string, Plain | undefined>;
    if (create) {
      const entry = (plugins[plugin[1]] ??= {});
      if (!isPlain(entry.config)) entry.config = {};
    }
    const pluginConfig = plugins[plugin[1]]?.config;
    // A plugin Cairn runs has a config (its defaults) even when config/plugins says nothing of it, as in Strapi.
    const base = isPlain(pluginConfig) ? pluginConfig : PLUGIN_RULES[plugin[1]] && plugins[plugin[1]]?.enabled !== false ? {} : undefined;
    return { base, rest: keys.slice(1) };
  };
  const get = (path: ConfigPath, fallback?: unknown): unknown => {
    const keys = keysOf(path);
    // lodash's get of no path answers the default, not the object.
    if (!keys.length) return fallback;
    const { base, rest } = locate(keys, false);
    if (base === undefined) return fallback;
    return rest.length ? lodashGet(base, rest, fallback) : base;
  };
  const has = (path: ConfigPath): boolean => {
    const keys = keysOf(path);
    if (!keys.length) return false;
    const { base, rest } = locate(keys, false);
    if (base === undefined) return false;
    let at: unknown = base;
    for (const key of rest) {
      if (at === null || typeof at !== 'object' || !Object.hasOwn(at, key)) return false;
      at = (at as Plain)[key];
    }
    return true;
  };
  const provider = {
    get,
    has,
    set(path: ConfigPath, value: unknown): StrapiConfig {
      const keys = keysOf(path);
      if (!keys.length) return face;
      const refused = refusal(keys, value, (k) => get(k));
      if (refused) throw new ConfigError(`strapi.config.set('${keys.join('.')}', ${show(value)}): ${refused}`);
      const { base, rest } = locate(keys, true);
      if (rest.length) lodashSet(base!, rest, value);
      else if (keys[0].startsWith('plugin::')) (root.plugins as Record<string, Plain>)[keys[0].slice('plugin::'.length)].config = value;
      else root[keys[0]] = value;
      return face;
    },
  };
  // Members first; then the config's sections and `plugin::<name>` as members (Strapi spreads its config into it).
  const face: StrapiConfig = new Proxy(provider as unknown as StrapiConfig, {
    get: (target, key) => {
      if (typeof key === 'symbol' || Object.hasOwn(target, key)) return Reflect.get(target, key);
      return key.startsWith('plugin::') ? get([key]) : root[key];
    },
    has: (target, key) => typeof key === 'symbol' || Object.hasOwn(target, key) ? Reflect.has(target, key) : key in root,
  });
  return face;
}

/** Strapi's deprecated `plugin.x` for `plugin::x`, with its warning. */
function deprecatedPath(path: ConfigPath, warn: (message: string) => void): string | Array<string | number> {
  const joinable = typeof path === 'string' || path.every((part) => typeof part === 'string' || typeof part === 'number');
  if (!joinable) return [...path];
  const text = typeof path === 'string' ? path : path.join('.');
  if (!text.startsWith('plugin.')) return typeof path === 'string' ? path : [...path];
  const renamed = text.replace('plugin.', 'plugin::');
  warn(`Using dot notation for model config namespaces is deprecated, for example "plugin::myplugin" should be used instead of "plugin.myplugin". Modifying requested path ${text} to ${renamed}`);
  return renamed;
}

/** How Cairn uses a key (config-keys.ts's rules). */
type Use = 'live' | 'free' | 'ignored' | 'compiled' | 'object';

function useOf(rule: KeyRule): Use {
  if (rule.live) return 'live';
  // An open object passes its unknown keys on (a driver's options), and `values` are all read: the whole is compiled.
  if (rule.open || rule.values) return 'compiled';
  if (rule.keys) return 'object';
  if (rule.check || rule.normalize) return 'compiled';
  return rule.ignoredNote ? 'ignored' : 'free';
}

/** The rules of a path's first key: a config section, `plugins` (each plugin's entry) or `plugin::<name>` (its config). */
function sectionRule(section: string): KeyRule | undefined {
  if (SECTION_RULES[section]) return SECTION_RULES[section];
  if (section === 'plugins') return { keys: PLUGIN_RULES };
  const plugin = /^plugin::(.+)$/.exec(section);
  return plugin ? PLUGIN_RULES[plugin[1]]?.keys?.config : undefined;
}

/** The file a key of a section comes from, for the message. */
function fileOf(section: string): string {
  if (COMPILED_SECTIONS[section]) return COMPILED_SECTIONS[section];
  return section === 'plugins' || section.startsWith('plugin::') ? 'config/plugins.js' : `config/${section}.js`;
}

/**
 * Why `set(keys, value)` cannot be honoured, or undefined when it can: the first key under the path (or above it)
 * that Cairn compiled at start whose value would change, or a key Cairn ignores set to a value it would ignore.
 */
function refusal(keys: string[], value: unknown, current: (keys: string[]) => unknown): string | undefined {
  const section = keys[0];
  const compiled = (at: string[]) =>
    `Cairn reads ${at.join('.')} once, at start (its routes, readers and plugins are built from it), so a change while it runs would not apply: set it in ${fileOf(section)} and restart`;
  if (COMPILED_SECTIONS[section]) return isDeepStrictEqual(current(keys), value) ? undefined : compiled([section]);
  let rule = sectionRule(section);
  const at = [section];
  for (const key of keys.slice(1)) {
    if (!rule) return undefined;
    const use = useOf(rule);
    if (use === 'compiled') return isDeepStrictEqual(current(keys), value) ? undefined : compiled(at);
    if (use === 'ignored') return rule.ignoredNote;
    if (use !== 'object') return undefined;
    rule = rule.keys && Object.hasOwn(rule.keys, key) ? rule.keys[key] : undefined;
    at.push(key);
  }
  return rule ? replaced(rule, at, value, current, compiled) : undefined;
}

/** Setting a whole value at `at`: each key under it Cairn compiled must keep its value; one it ignores gets its note. */
function replaced(rule: KeyRule, at: string[], value: unknown, current: (keys: string[]) => unknown, compiled: (at: string[]) => string): string | undefined {
  switch (useOf(rule)) {
    case 'compiled':
      return isDeepStrictEqual(current(at), value) ? undefined : compiled(at);
    case 'ignored':
      return value !== undefined && (rule.noteWhen?.(value) ?? true) ? rule.ignoredNote : undefined;
    case 'object':
      for (const [key, child] of Object.entries(rule.keys ?? {})) {
        const problem = replaced(child, [...at, key], isPlain(value) ? value[key] : undefined, current, compiled);
        if (problem) return problem;
      }
      return undefined;
    default:
      return undefined;
  }
}
