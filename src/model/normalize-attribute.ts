import { ModelError } from '../errors/index.js';
import type { Attribute, RelationKind, ScalarType } from './types.js';
import { ATTRIBUTE_NAME, RESERVED_NAMES, snakeCase } from './names.js';

const SCALAR_TYPES = new Set<ScalarType>([
  'string', 'text', 'richtext', 'blocks', 'enumeration', 'email', 'password', 'uid', 'date', 'time',
  'datetime', 'timestamp', 'integer', 'biginteger', 'float', 'decimal', 'boolean', 'json',
]);
const RELATIONS = new Set<RelationKind>(['oneToOne', 'oneToMany', 'manyToOne', 'manyToMany', 'oneWay', 'manyWay', 'morphToOne', 'morphToMany']);
const TO_MANY = new Set<RelationKind>(['oneToMany', 'manyToMany', 'manyWay', 'morphToMany']);
const MEDIA_TYPES = new Set(['images', 'files', 'videos', 'audios']);

export interface AttributeContext {
  file: string;
  table: string;
  /** The owning schema is a localized content-type. */
  localizedOwner: boolean;
  isComponent: boolean;
  /** Plugin content-types may use morph relations; api ones may not. */
  plugin: boolean;
}

type Raw = Record<string, unknown>;

/** Turns one schema.json attribute into normalized metadata, or throws a ModelError naming file and attribute. */
export function normalizeAttribute(name: string, raw: unknown, ctx: AttributeContext): Attribute {
  const fail = (reason: string): never => {
    throw new ModelError(ctx.file, name, reason);
  };
  if (!ATTRIBUTE_NAME.test(name)) fail('attribute names must start with a letter and use letters, digits or _');
  if (RESERVED_NAMES.has(name) || name.startsWith('__')) fail(`"${name}" is reserved`);
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) fail('an attribute must be an object');
  const a = raw as Raw;
  const i18n = (a.pluginOptions as { i18n?: { localized?: unknown } } | undefined)?.i18n;
  const base = {
    name,
    required: a.required === true,
    private: a.private === true || a.type === 'password',
    localized: ctx.localizedOwner && i18n?.localized !== false,
    raw: Object.freeze({ ...a }),
  };
  const type = a.type;
  if (typeof type !== 'string') return fail('"type" is missing');

  if (SCALAR_TYPES.has(type as ScalarType)) {
    const number = (key: string) => {
      if (a[key] === undefined) return undefined;
      const n = typeof a[key] === 'string' ? Number(a[key]) : a[key];
      if (typeof n !== 'number' || !Number.isFinite(n)) fail(`"${key}" must be a number`);
      return n as number;
    };
    if (type === 'enumeration') {
      if (!Array.isArray(a.enum) || a.enum.length === 0 || !a.enum.every((v) => typeof v === 'string' && v !== '')) {
        fail('an enumeration needs "enum": a non-empty list of strings');
      }
    }
    if (a.regex !== undefined) {
      if (typeof a.regex !== 'string') fail('"regex" must be a string');
      try {
        new RegExp(a.regex as string);
      } catch (error) {
        fail(`"regex" is not a valid regular expression: ${(error as Error).message}`);
      }
    }
    if (a.targetField !== undefined && (type !== 'uid' || typeof a.targetField !== 'string')) {
      fail('"targetField" is only for uid attributes and must name an attribute');
    }
    return {
      ...base,
      kind: 'scalar',
      type: type as ScalarType,
      column: snakeCase(name),
      unique: a.unique === true || type === 'uid',
      default: a.default,
      min: number('min'),
      max: number('max'),
      minLength: number('minLength'),
      maxLength: number('maxLength'),
      regex: a.regex as string | undefined,
      enum: type === 'enumeration' ? Object.freeze([...(a.enum as string[])]) : undefined,
      targetField: a.targetField as string | undefined,
    };
  }

  switch (type) {
    case 'relation': {
      const relation = a.relation as RelationKind;
      if (!RELATIONS.has(relation)) fail(`unknown relation "${String(a.relation)}"`);
      if (relation.startsWith('morph') && !ctx.plugin) fail('morph relations are not supported on api content-types');
      if (typeof a.target !== 'string' || a.target === '') fail('a relation needs a "target" content-type uid');
      if (a.mappedBy !== undefined && a.inversedBy !== undefined) fail('a relation cannot have both mappedBy and inversedBy');
      if (ctx.isComponent && (a.mappedBy !== undefined || a.inversedBy !== undefined)) {
        fail('relations in components are one-way: no mappedBy/inversedBy');
      }
      const owner = a.mappedBy === undefined;
      return {
        ...base,
        kind: 'relation',
        relation,
        target: a.target as string,
        toMany: TO_MANY.has(relation),
        owner,
        linkTable: `${ctx.table}_${snakeCase(name)}_lnk`,
        inversedBy: a.inversedBy as string | undefined,
        mappedBy: a.mappedBy as string | undefined,
        inverseOf: (a.inversedBy ?? a.mappedBy) as string | undefined,
      };
    }
    case 'media': {
      const allowed = a.allowedTypes ?? [];
      if (!Array.isArray(allowed) || !allowed.every((t) => MEDIA_TYPES.has(t as string))) {
        fail('"allowedTypes" must list images, files, videos or audios');
      }
      return {
        ...base,
        kind: 'media',
        multiple: a.multiple === true,
        allowedTypes: Object.freeze([...(allowed as string[])]),
        target: 'plugin::upload.file',
        linkTable: `${ctx.table}_${snakeCase(name)}_lnk`,
      };
    }
    case 'component':
      if (typeof a.component !== 'string' || !a.component.includes('.')) fail('"component" must be a component uid like "category.name"');
      return {
        ...base,
        kind: 'component',
        component: a.component as string,
        repeatable: a.repeatable === true,
        min: a.min as number | undefined,
        max: a.max as number | undefined,
      };
    case 'dynamiczone':
      if (ctx.isComponent) fail('dynamic zones are not allowed inside components');
      if (!Array.isArray(a.components) || a.components.length === 0 || !a.components.every((c) => typeof c === 'string')) {
        fail('a dynamic zone needs "components": a non-empty list of component uids');
      }
      return {
        ...base,
        kind: 'dynamiczone',
        components: Object.freeze([...(a.components as string[])]),
        min: a.min as number | undefined,
        max: a.max as number | undefined,
      };
    default:
      return fail(`unknown attribute type "${type}"`);
  }
}
