import { ModelError } from '../errors/index.js';
import type { Attribute, Component, ContentType } from './types.js';
import type { Fail, Raw } from './attribute-options.js';
import { frozenCopy, isPlainObject } from './frozen.js';
import { API_NAME, COMPONENT_UID, CONTENT_TYPE_UID, MAX_IDENTIFIER, pluralize, RESERVED_TABLE_PREFIX, shortIdentifier, snakeCase, TABLE_NAME } from './names.js';
import { normalizeAttribute } from './normalize-attribute.js';
import { builtinLookup, type CustomFieldLookup } from './custom-fields.js';

/**
 * Schemas as normalized, before cross-schema resolution: plain objects with mutable attribute maps. build-model
 * freezes them once relations are resolved.
 */
export type DraftContentType = Omit<ContentType, 'attributes'> & { attributes: Map<string, Attribute> };
export type DraftComponent = Omit<Component, 'attributes'> & { attributes: Map<string, Attribute> };

export function normalizeContentType(
  uid: string,
  raw: unknown,
  file: string,
  plugin?: string,
  customFieldType: CustomFieldLookup = builtinLookup,
  tableLimit = MAX_IDENTIFIER,
): DraftContentType {
  const fail: Fail = (reason) => {
    throw new ModelError(file, undefined, reason);
  };
  if (!isPlainObject(raw)) fail('a content-type schema must be a JSON object');
  const schema = raw as Raw;
  const kind = schema.kind ?? 'collectionType';
  if (kind !== 'collectionType' && kind !== 'singleType') fail(`"kind" must be collectionType or singleType, not ${JSON.stringify(kind)}`);
  const info = (isPlainObject(schema.info) ? schema.info : {}) as Record<string, string>;
  for (const key of ['singularName', 'pluralName'] as const) {
    if (typeof info[key] !== 'string' || !API_NAME.test(info[key])) {
      fail(`info.${key} is required and must be kebab-case (a-z, 0-9, -), not ${JSON.stringify(info[key])}`);
    }
  }
  if (info.singularName === info.pluralName) fail(`info.singularName and info.pluralName must differ (both "${info.singularName}")`);
  if (typeof info.displayName !== 'string' || info.displayName.trim() === '') fail('info.displayName is required');
  if (!CONTENT_TYPE_UID.test(uid)) fail(`"${uid}" is not a content-type uid (api::<api>.<name> or plugin::<plugin>.<name>)`);
  const table = tableName(schema.collectionName, snakeCase(info.pluralName), tableLimit, fail);
  const options = (isPlainObject(schema.options) ? schema.options : {}) as Raw;
  if (options.draftAndPublish !== undefined && typeof options.draftAndPublish !== 'boolean') fail('options.draftAndPublish must be true or false');
  const pluginOptions = (isPlainObject(schema.pluginOptions) ? schema.pluginOptions : {}) as Raw;
  const localized = (pluginOptions.i18n as { localized?: unknown } | undefined)?.localized === true;
  const isPlugin = plugin ?? (uid.startsWith('plugin::') ? uid.slice('plugin::'.length).split('.')[0] : undefined);
  const attributes = normalizeAttributes(schema.attributes, { file, table, localizedOwner: localized, isComponent: false, customFieldType });
  return {
    modelType: 'contentType',
    uid,
    kind,
    table,
    componentsTable: shortIdentifier(`${table}_cmps`),
    info: Object.freeze({ singularName: info.singularName, pluralName: info.pluralName, displayName: info.displayName, description: info.description }),
    // Strapi v5 reads an absent draftAndPublish as false.
    draftAndPublish: options.draftAndPublish === true,
    localized,
    pluginOptions: frozenCopy(pluginOptions),
    plugin: isPlugin,
    attributes,
    privateAttributes: privateNames(attributes),
    file,
  };
}

export function normalizeComponent(uid: string, raw: unknown, file: string, customFieldType: CustomFieldLookup = builtinLookup, tableLimit = MAX_IDENTIFIER): DraftComponent {
  const fail: Fail = (reason) => {
    throw new ModelError(file, undefined, reason);
  };
  if (!COMPONENT_UID.test(uid)) fail(`"${uid}" is not a component uid (<category>.<name>)`);
  if (!isPlainObject(raw)) fail('a component schema must be a JSON object');
  const schema = raw as Raw;
  const [category, name] = uid.split('.');
  const table = tableName(schema.collectionName, `components_${snakeCase(category)}_${pluralize(snakeCase(name))}`, tableLimit, fail);
  const info = (isPlainObject(schema.info) ? schema.info : {}) as Record<string, string | undefined>;
  const attributes = normalizeAttributes(schema.attributes, { file, table, localizedOwner: false, isComponent: true, customFieldType });
  return {
    modelType: 'component',
    uid,
    category,
    table,
    componentsTable: shortIdentifier(`${table}_cmps`),
    info: Object.freeze({ displayName: info.displayName ?? name, icon: info.icon, description: info.description }),
    attributes,
    privateAttributes: privateNames(attributes),
    file,
  };
}

/**
 * `collectionName` reaches SQL as an identifier: it must be one every dialect accepts (at most `limit` characters),
 * and not one of Cairn's.
 */
function tableName(collectionName: unknown, fallback: string, limit: number, fail: Fail): string {
  if (collectionName === undefined || collectionName === null || collectionName === '') return fallback;
  if (typeof collectionName !== 'string' || !TABLE_NAME.test(collectionName)) {
    fail(`collectionName must be a table name (letters, digits, _), not ${JSON.stringify(collectionName)}`);
  }
  const table = collectionName as string;
  if (table.length > limit) fail(`collectionName "${table}" is longer than ${limit} characters (PostgreSQL's limit)`);
  if (table.startsWith(RESERVED_TABLE_PREFIX)) fail(`collectionName "${table}": tables starting with "${RESERVED_TABLE_PREFIX}" are Cairn's own`);
  return table;
}

type Context = Parameters<typeof normalizeAttribute>[2];

function normalizeAttributes(raw: unknown, ctx: Context): Map<string, Attribute> {
  // Strapi does not require "attributes"; a schema without it simply has none.
  if (raw === undefined) raw = {};
  if (!isPlainObject(raw)) throw new ModelError(ctx.file, undefined, '"attributes" must be an object');
  const attributes = new Map<string, Attribute>();
  const columns = new Map<string, string>();
  for (const [name, value] of Object.entries(raw)) {
    const attribute = normalizeAttribute(name, value, ctx);
    if (attribute.kind === 'scalar') {
      // openedOn and opened_on would both be stored in column opened_on.
      const other = columns.get(attribute.column);
      if (other !== undefined) throw new ModelError(ctx.file, name, `its column "${attribute.column}" is also the column of attribute "${other}"`);
      columns.set(attribute.column, name);
    }
    attributes.set(name, attribute);
  }
  for (const attribute of attributes.values()) {
    if (attribute.kind !== 'scalar' || attribute.targetField === undefined) continue;
    const target = attributes.get(attribute.targetField);
    if (!target || target.kind !== 'scalar' || !['string', 'text'].includes(target.type)) {
      throw new ModelError(ctx.file, attribute.name, `targetField "${attribute.targetField}" must name a string or text attribute of the same schema`);
    }
  }
  return attributes;
}

function privateNames(attributes: ReadonlyMap<string, Attribute>): ReadonlySet<string> {
  return new Set([...attributes.values()].filter((a) => a.private).map((a) => a.name));
}
