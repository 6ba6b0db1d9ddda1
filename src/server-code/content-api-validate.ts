import type { Attribute, Model } from '../model/types.js';
import type { Caller } from '../auth/access-control.js';
import { findAction } from '../auth/access-control.js';
import { ValidationError } from '../errors/index.js';
import { parseReadParams, type ReadSettings } from '../query/index.js';
import { invalidKey, joinPath } from '../query/errors.js';
import {
  CHECKED_QUERY_KEYS,
  ID_FIELDS,
  QUERY_KEYS,
  RELATION_OPERATION_KEYS,
  callerOf,
  extraQueryKeys,
  extraRootKeys,
  isHiddenMorphEntry,
  isHiddenRelation,
  isObject,
  schemaOf,
  type ContentApiOptions,
  type Schema,
  type Value,
} from './content-api-common.js';

/**
 * Attributes Strapi 5.54 adds to every content type besides the model's (timestamps, publication, i18n's `locale`
 * and `localizations`, the creator fields): keys of an entry, not unknown ones. Those a write may not set are
 * refused at the root (its `getNonWritableAttributes`); `publishedAt` and `locale` are writable.
 */
const ADDED_ATTRIBUTES = new Set(['createdAt', 'updatedAt', 'publishedAt', 'locale', 'localizations', 'createdBy', 'updatedBy']);
const NOT_WRITABLE = new Set([...ID_FIELDS, 'createdAt', 'updatedAt', 'localizations', 'createdBy', 'updatedBy']);

/** Where a key of an input sits: its attribute path (Strapi's `path.attribute`) and what holds it. */
interface Place {
  path: string | null;
  /** The attribute whose value holds the key: a component, a dynamic zone, a relation, media or a morph relation. */
  parent?: Attribute;
}

const bodyKey = (key: string, path: string | null) => {
  const error = invalidKey('body', key, path);
  // Strapi's validator sets `source: 'body'` and no `param` on an input's errors.
  return new ValidationError(error.message, { key, path, source: 'body' });
};

/**
 * Strapi 5.54's `strapi.contentAPI.validate.input` and `.query` for app code: what its Content API refuses with a
 * 400 `ValidationError`, refused the same way (its `@strapi/utils` validate/index.js, read):
 * - input: `id` or `documentId` at the root; the attributes a write may not set (`createdAt`, `writable: false`...);
 *   keys that are no attribute (at the root, the `route`'s body keys are allowed; in a component `id`; in a dynamic
 *   zone's item `__component`; in a relation's or media's value `id`, `documentId`, `connect`, `disconnect`, `set`,
 *   `options`; in a morphTo relation's `__type`); with `auth`, relations to types the caller may not `find`; then each of
 *   the route's body keys parsed by its Zod schema (its message when it fails);
 * - query: with `strictParams`, keys that are neither Strapi's nor the route's (whose values its Zod schemas parse);
 *   `publicationFilter`, `filters`, `sort`, `fields` and `populate` checked as Cairn's routes check them, for the
 *   caller of `auth`.
 */
export function contentApiValidators(model: Model, readSettings: ReadSettings) {
  const isAttribute = (schema: Schema, key: string) => schema.attributes.has(key) || (schema.modelType === 'contentType' && (ADDED_ATTRIBUTES.has(key) || key === 'id' || key === 'documentId'));

  /** Calls `visit` on each key of `value` and its place, then goes into components, zones, relations and media as Strapi's traverseEntity does. */
  const traverse = (value: unknown, schema: Schema | undefined, place: Place, visit: (key: string, value: Value, schema: Schema, place: Place) => void): void => {
    if (!schema || !isObject(value)) return;
    for (const key of Object.keys(value)) {
      const attribute = schema.attributes.get(key);
      visit(key, value, schema, place);
      const item = value[key];
      if (!attribute || item === null || item === undefined) continue;
      const next: Place = { path: joinPath(place.path, key), parent: attribute };
      const each = (target: (entry: unknown) => Schema | undefined) => {
        for (const entry of Array.isArray(item) ? item : [item]) traverse(entry, target(entry), next, visit);
      };
      switch (attribute.kind) {
        case 'component':
          each(() => model.components.get(attribute.component));
          break;
        case 'dynamiczone':
          each((entry) => (isObject(entry) ? model.components.get(String(entry.__component)) : undefined));
          break;
        case 'relation':
        case 'media':
          each(() => model.contentTypes.get(attribute.target));
          break;
        case 'morph':
          each((entry) => (isObject(entry) ? model.contentTypes.get(String(attribute.target ?? entry.__type)) : undefined));
          break;
      }
    }
  };

  const unrecognized = (key: string, schema: Schema, { path, parent }: Place, rootKeys: ReadonlySet<string>) => {
    if (isAttribute(schema, key)) return;
    if (path === null) {
      if (ID_FIELDS.includes(key) || rootKeys.has(key)) return;
      throw bodyKey(key, null);
    }
    if (parent?.kind === 'morph' && parent.relation.startsWith('morphTo') && key === '__type') return;
    if (parent?.kind === 'dynamiczone' && key === '__component') return;
    const linking = parent?.kind === 'relation' || parent?.kind === 'media' || parent?.kind === 'morph';
    if (linking && RELATION_OPERATION_KEYS.includes(key)) return;
    if ((linking || parent?.kind === 'component' || parent?.kind === 'dynamiczone') && ID_FIELDS.includes(key)) return;
    throw bodyKey(key, path);
  };

  const restrictedRelation = (key: string, value: Value, schema: Schema, { path }: Place, caller: Caller) => {
    const attribute = schema.attributes.get(key);
    const at = joinPath(path, key);
    if (isHiddenRelation(attribute, caller)) throw bodyKey(key, at);
    if (attribute?.kind !== 'morph') return;
    // morphOne / morphMany hold links to one type: a regular relation to Strapi's check.
    if (attribute.target !== undefined) {
      if (!caller.can(findAction(attribute.target))) throw bodyKey(key, at);
      return;
    }
    const given = value[key];
    const isPayload = isObject(given) && ('connect' in given || 'set' in given || 'disconnect' in given || 'options' in given);
    const lists = isPayload ? [given.connect ?? [], given.set ?? [], given.disconnect ?? []] : [given];
    for (const list of lists) {
      // Strapi's morph check: a list of `{ __type }` entries, each of a type the caller may find.
      if (!Array.isArray(list)) throw bodyKey(key, at);
      for (const entry of list) if (!isObject(entry) || typeof entry.__type !== 'string' || isHiddenMorphEntry(entry, caller)) throw bodyKey(key, at);
    }
    if (isPayload && given.options !== undefined && given.options !== null) {
      if (!isObject(given.options)) throw bodyKey(key, at);
      for (const [option, setting] of Object.entries(given.options)) if (option !== 'strict' || typeof setting !== 'boolean') throw bodyKey(option, at);
    }
  };

  const input = (data: unknown, schema: Schema, options: ContentApiOptions): void => {
    if (Array.isArray(data)) {
      for (const entry of data) input(entry, schema, options);
      return;
    }
    const caller = callerOf(options.auth);
    const rootKeys = extraRootKeys(options.route);
    if (isObject(data)) {
      for (const key of ID_FIELDS) if (key in data) throw new ValidationError(`Invalid key ${key}`, { key, source: 'body' });
      for (const key of Object.keys(data)) {
        if ((schema.modelType === 'contentType' && NOT_WRITABLE.has(key)) || schema.attributes.get(key)?.raw.writable === false) throw bodyKey(key, key);
      }
    }
    const root: Place = { path: null };
    const allowedRootKeys = new Set(rootKeys.keys());
    traverse(data, schema, root, (key, value, at, place) => unrecognized(key, at, place, allowedRootKeys));
    if (caller) traverse(data, schema, root, (key, value, at, place) => restrictedRelation(key, value, at, place, caller));
    if (!isObject(data)) return;
    // The route's body keys, each parsed by its Zod schema: its message when it fails.
    for (const [key, zod] of rootKeys) {
      if (!(key in data)) continue;
      const parsed = zod.safeParse(data[key]);
      if (!parsed.success) throw new ValidationError(parsed.error?.message ?? 'Validation failed', { key, path: null, source: 'body', param: key });
    }
  };

  return {
    input: async (data: unknown, schema: unknown, options: ContentApiOptions = {}): Promise<void> => input(data, schemaOf(model, schema, 'validateInput'), options),
    query: async (query: unknown, schema: unknown, options: ContentApiOptions = {}): Promise<void> => {
      const ct = schemaOf(model, schema, 'validateQuery');
      if (ct.modelType !== 'contentType') throw new Error(`validateQuery takes a content type, not the component ${ct.uid}`);
      if (!isObject(query)) return;
      const caller = callerOf(options.auth);
      if (options.strictParams) {
        const extra = extraQueryKeys(options.route);
        for (const key of Object.keys(query)) if (!QUERY_KEYS.includes(key) && !extra.has(key)) throw invalidKey(key, key, null);
        for (const [key, zod] of extra) {
          if (!(key in query)) continue;
          const parsed = zod.safeParse(query[key]);
          if (!parsed.success) throw new ValidationError(parsed.error?.message ?? 'Invalid query param', { key, path: null, source: 'query', param: key });
        }
      }
      const checked = Object.fromEntries([...CHECKED_QUERY_KEYS, 'publicationFilter'].filter((key) => query[key] !== undefined && query[key] !== null).map((key) => [key, query[key]]));
      parseReadParams(model, ct, checked, { ...readSettings, canFind: (uid) => caller?.can(findAction(uid)) ?? true });
    },
  };
}
