import { ModelError } from '../errors/index.js';
import { editDistance } from '../errors/suggest.js';
import type { BuiltinSchema } from './builtin.js';
import { isPlainObject } from './frozen.js';

/**
 * `src/extensions/<plugin>/content-types/<name>/schema.json`, as Strapi 5 applies it (`@strapi/core`
 * loaders/plugins `applyUserExtension`): the plugin content type's schema becomes `{ ...plugin's, ...extension's }`,
 * a shallow merge, so the extension's `attributes` replace the plugin's whole (an extension copies the plugin's
 * schema and adds to it). Then the plugin's `strapi-server` extension may change it again (server-code/extensions.ts).
 */
export interface SchemaExtension {
  plugin: string;
  /** The content type's folder name: its key in the plugin's `contentTypes` (`user`). */
  name: string;
  schema: unknown;
  /** The file that gave the schema (relative to the app folder), for error messages. */
  file: string;
}

/** Strapi 5's own plugins and the content types each declares (the names `src/extensions/<plugin>/content-types/` may use). */
export const STRAPI_PLUGIN_CONTENT_TYPES: Readonly<Record<string, readonly string[]>> = {
  'users-permissions': ['permission', 'role', 'user'],
  upload: ['file', 'folder'],
  i18n: ['locale'],
  'content-releases': ['release', 'release-action'],
  'review-workflows': ['workflow', 'workflow-stage'],
  graphql: [],
  email: [],
  documentation: [],
  sentry: [],
  cloud: [],
  'color-picker': [],
  'content-manager': [],
  'content-type-builder': [],
};

/** The plugin content types whose schema an app may extend: the ones Cairn serves as the app changes them. */
export const EXTENSIBLE_CONTENT_TYPES: ReadonlySet<string> = new Set(['plugin::users-permissions.user']);

/**
 * Built-in attributes whose privacy is Cairn's rule, whatever an extension says: they are never read, filtered or
 * sorted (README, Users).
 */
const ALWAYS_PRIVATE: Readonly<Record<string, readonly string[]>> = {
  'plugin::users-permissions.user': ['password', 'resetPasswordToken', 'confirmationToken'],
};

/**
 * Checks that `src/extensions/<plugin>` names a plugin Cairn knows (Strapi's own): throws naming the folder
 * otherwise, with the closest name.
 */
export function checkExtensionPlugin(plugin: string, file: string): void {
  if (Object.hasOwn(STRAPI_PLUGIN_CONTENT_TYPES, plugin)) return;
  const known = Object.keys(STRAPI_PLUGIN_CONTENT_TYPES);
  const closest = closestName(plugin, known);
  throw new ModelError(
    file,
    undefined,
    `"${plugin}" is not a plugin Cairn knows (Strapi's own: ${known.join(', ')})` +
      (distance(plugin, closest) <= 3 ? `: did you mean "${closest}"?` : ': Cairn runs no third-party plugin, so an extension of one cannot apply'),
  );
}

/** The uid an extension of `plugin`'s content type `name` extends; throws when it names none or one Cairn does not extend. */
export function extensionTarget(plugin: string, name: string, file: string): string {
  checkExtensionPlugin(plugin, file);
  const names = STRAPI_PLUGIN_CONTENT_TYPES[plugin];
  const uid = `plugin::${plugin}.${name}`;
  if (!names.includes(name)) {
    const closest = names.length ? closestName(name, names) : undefined;
    throw new ModelError(
      file,
      undefined,
      `the plugin ${plugin} has no content type "${name}"` +
        (names.length ? ` (it has ${names.join(', ')})${closest && distance(name, closest) <= 3 ? `: did you mean "${closest}"?` : ''}` : ' (it has none)'),
    );
  }
  if (!EXTENSIBLE_CONTENT_TYPES.has(uid)) {
    throw new ModelError(file, undefined, `extending ${uid} is not supported by Cairn (it extends ${[...EXTENSIBLE_CONTENT_TYPES].join(', ')})`);
  }
  return uid;
}

/**
 * The schema Strapi uses for a plugin content type that the app extends: `{ ...plugin's, ...extension's }`, checked
 * for what Cairn's plugin code needs of it. The extension may add attributes (scalars, relations, media,
 * components...) and change the plugin's own attributes' options (`minLength`, `required`, `private`...); it must
 * keep the plugin's table, names and kind, and each of the plugin's attributes with its type (Cairn's users &
 * permissions reads and writes them, and Strapi's table has their columns).
 */
export function extendedSchema(builtin: BuiltinSchema, extension: unknown, file: string): Record<string, unknown> {
  const fail = (reason: string, attribute?: string): never => {
    throw new ModelError(file, attribute, reason);
  };
  if (!isPlainObject(extension)) fail(`an extension schema must be a JSON object, not ${JSON.stringify(extension)}`);
  const merged: Record<string, unknown> = { ...builtin.schema, ...(extension as Record<string, unknown>) };
  const base = builtin.schema as { kind: string; collectionName: string; info: Record<string, string>; attributes: Record<string, Record<string, unknown>> };
  const kept = `Cairn's ${builtin.plugin} serves ${builtin.uid} with it`;
  if ((merged.kind ?? 'collectionType') !== base.kind) fail(`"kind" must stay ${JSON.stringify(base.kind)} (${kept})`);
  if (merged.collectionName !== base.collectionName) fail(`"collectionName" must stay ${JSON.stringify(base.collectionName)}, the plugin's table (${kept})`);
  const info = (isPlainObject(merged.info) ? merged.info : {}) as Record<string, unknown>;
  for (const key of ['singularName', 'pluralName'] as const) {
    if (info[key] !== base.info[key]) fail(`info.${key} must stay ${JSON.stringify(base.info[key])} (${kept}), not ${JSON.stringify(info[key])}`);
  }
  const options = (isPlainObject(merged.options) ? merged.options : {}) as Record<string, unknown>;
  if (options.draftAndPublish === true) fail(`options.draftAndPublish must stay false (${kept})`);
  const i18n = ((isPlainObject(merged.pluginOptions) ? merged.pluginOptions : {}) as { i18n?: { localized?: unknown } }).i18n;
  if (i18n?.localized === true) fail(`pluginOptions.i18n.localized must stay false (${kept})`);
  if (!isPlainObject(merged.attributes)) fail('"attributes" must be an object');
  const attributes = merged.attributes as Record<string, unknown>;
  for (const [name, own] of Object.entries(base.attributes)) {
    const given = attributes[name];
    if (given === undefined) {
      fail(`the plugin's attribute "${name}" is missing: an extension's "attributes" replace the plugin's whole (as in Strapi), so they must keep the plugin's own (${kept})`);
    }
    if (!isPlainObject(given)) fail('an attribute must be an object', name);
    const changed = ['type', 'relation', 'target', 'inversedBy', 'mappedBy'].filter((key) => (given as Record<string, unknown>)[key] !== own[key]);
    if (changed.length) {
      const shown = Object.fromEntries(['type', 'relation', 'target', 'inversedBy', 'mappedBy'].filter((key) => own[key] !== undefined).map((key) => [key, own[key]]));
      fail(`a plugin's own attribute keeps its ${changed.join(', ')} (${kept}): ${JSON.stringify(shown)}`, name);
    }
  }
  for (const name of ALWAYS_PRIVATE[builtin.uid] ?? []) {
    const given = attributes[name] as Record<string, unknown>;
    if (given.type !== 'password' && given.private !== true) fail('must stay private: Cairn never shows it', name);
  }
  return merged;
}

/** The name of `known` nearest to `name` (case-insensitive edit distance; the first listed on a tie). */
function closestName(name: string, known: readonly string[]): string {
  let best = known[0];
  let bestDistance = Infinity;
  for (const candidate of known) {
    const d = distance(name, candidate);
    if (d < bestDistance) [best, bestDistance] = [candidate, d];
  }
  return best;
}

/** Levenshtein distance, case-insensitive. */
function distance(a: string, b: string): number {
  return editDistance(a.toLowerCase(), b.toLowerCase());
}
