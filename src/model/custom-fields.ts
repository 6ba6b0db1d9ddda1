import { ConfigError } from '../errors/index.js';
import type { ScalarType } from './types.js';

/**
 * Strapi's custom fields. A schema names one as `{ "type": "customField", "customField": "plugin::color-picker.color" }`
 * and stores it as an existing type, which the field's plugin declares on the server with
 * `strapi.customFields.register({ name, plugin, type })`. Cairn runs no plugins: it knows Strapi's own custom fields
 * by name, and an app declares any other one the same way, in `register()` of `src/index`.
 */

/** The types a custom field may be stored as: Strapi's list (no relation, media, component or dynamic zone). */
export const CUSTOM_FIELD_TYPES: readonly ScalarType[] = [
  'biginteger', 'boolean', 'date', 'datetime', 'decimal', 'email', 'enumeration', 'float', 'integer', 'json', 'password',
  'richtext', 'string', 'text', 'time', 'uid',
];

/** Custom fields that ship with Strapi itself (its color-picker plugin stores a string such as "#a0b1c2"). */
export const BUILTIN_CUSTOM_FIELDS: ReadonlyMap<string, ScalarType> = new Map([['plugin::color-picker.color', 'string']]);

export interface CustomFieldOptions {
  name: string;
  /** The plugin that provides the field: its uid is `plugin::<plugin>.<name>`, else `global::<name>`. */
  plugin?: string;
  type: string;
  /** Admin panel layout: accepted and unused. */
  inputSize?: unknown;
}

/** The underlying type of a custom field uid, or undefined when nobody declared it. */
export type CustomFieldLookup = (uid: string) => ScalarType | undefined;

/** `strapi.customFields`: the registry apps fill in `register()`, read when the model is built after it. */
export class CustomFields {
  private readonly declared = new Map<string, ScalarType>(BUILTIN_CUSTOM_FIELDS);

  /** Strapi's `strapi.customFields.register(field | field[])`, with Strapi's checks; a mistake stops start-up. */
  register(fields: CustomFieldOptions | CustomFieldOptions[]): void {
    for (const field of Array.isArray(fields) ? fields : [fields]) {
      const fail = (problem: string): never => {
        throw new ConfigError(`strapi.customFields.register(${JSON.stringify(field)}): ${problem}`);
      };
      if (typeof field !== 'object' || field === null) fail('expected { name, plugin?, type }');
      const { name, plugin, type } = field;
      if (typeof name !== 'string' || !/^(?![0-9])[a-zA-Z0-9$_-]+$/.test(name)) fail('"name" must be a name of letters, digits, $, _ or - (not starting with a digit)');
      if (plugin !== undefined && (typeof plugin !== 'string' || !/^[a-z0-9][a-z0-9-]*$/.test(plugin))) fail('"plugin" must be a plugin name such as "color-picker"');
      if (!CUSTOM_FIELD_TYPES.includes(type as ScalarType)) fail(`"type" must be one of ${CUSTOM_FIELD_TYPES.join(', ')}, not ${JSON.stringify(type)}`);
      const uid = customFieldUid(name, plugin);
      if (this.declared.has(uid)) fail(`${uid} is already registered${BUILTIN_CUSTOM_FIELDS.has(uid) ? ' (Cairn knows it: no need to declare it)' : ''}`);
      this.declared.set(uid, type as ScalarType);
    }
  }

  readonly lookup: CustomFieldLookup = (uid) => this.declared.get(uid);
}

/** Strapi's uid of a custom field: `plugin::<plugin>.<name>`, or `global::<name>` for one the app itself declares. */
export function customFieldUid(name: string, plugin?: string): string {
  return plugin ? `plugin::${plugin}.${name}` : `global::${name}`;
}

/** The `register()` call that declares `uid`, for the error an undeclared custom field gets. */
export function declarationHint(uid: string): string {
  const match = /^plugin::([^.]+)\.(.+)$/.exec(uid) ?? /^global::()(.+)$/.exec(uid);
  const name = match ? match[2] : uid;
  const plugin = match?.[1] ? `, plugin: '${match[1]}'` : '';
  return `strapi.customFields.register({ name: '${name}'${plugin}, type: 'string' })`;
}

export const builtinLookup: CustomFieldLookup = (uid) => BUILTIN_CUSTOM_FIELDS.get(uid);
