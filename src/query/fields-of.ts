import type { Component, ContentType } from '../model/types.js';
import type { FieldRef } from './types.js';

const SYSTEM: Readonly<Record<string, FieldRef>> = {
  id: { name: 'id', column: 'id', type: 'id' },
  documentId: { name: 'documentId', column: 'document_id', type: 'string' },
  createdAt: { name: 'createdAt', column: 'created_at', type: 'datetime' },
  updatedAt: { name: 'updatedAt', column: 'updated_at', type: 'datetime' },
  publishedAt: { name: 'publishedAt', column: 'published_at', type: 'datetime' },
  locale: { name: 'locale', column: 'locale', type: 'string' },
};

/** `id` of any schema: what a relation filter without a field (`filters[chef]=3`) compares. */
export const ID_FIELD: FieldRef = SYSTEM.id;

/** What Strapi's core and i18n plugin add to every content type's attributes (private where they are not fields). */
const ADDED_ATTRIBUTES: ReadonlySet<string> = new Set(['documentId', 'createdAt', 'updatedAt', 'publishedAt', 'createdBy', 'updatedBy', 'locale', 'localizations']);

/**
 * Whether `name` is an attribute of the schema as Strapi holds it, whether or not a query may name it: Strapi's
 * errors name such a key by its own path (`Invalid key chef`, path `chef`), an unknown one by its parent's.
 */
export function isStrapiAttribute(schema: ContentType | Component, name: string): boolean {
  return schema.attributes.has(name) || (schema.modelType === 'contentType' && ADDED_ATTRIBUTES.has(name));
}

/**
 * The column a query may name on a schema: a non-private scalar attribute, or a system field (`id` on
 * components; `documentId`, timestamps and `locale` (localized types) on content-types). Undefined otherwise:
 * private and unknown names are indistinguishable to the caller. `createdBy`/`updatedBy` are never fields.
 */
export function fieldRef(schema: ContentType | Component, name: string, withPrivate = false): FieldRef | undefined {
  if (name === 'id') return SYSTEM.id;
  if (schema.modelType === 'contentType' && Object.prototype.hasOwnProperty.call(SYSTEM, name)) {
    if (name === 'locale' && !schema.localized) return undefined;
    return SYSTEM[name];
  }
  const attribute = schema.attributes.get(name);
  if (!attribute || attribute.kind !== 'scalar') return undefined;
  // Code's reads (the Document Service) name private attributes and passwords too; a request never does.
  if (!withPrivate && (attribute.private || schema.privateAttributes.has(name) || attribute.type === 'password')) return undefined;
  return { name, column: attribute.column, type: attribute.type as FieldRef['type'] };
}

/**
 * Every column of a schema's row by its attribute name, private ones and passwords too, and `locale` on every
 * content-type (Strapi 5 gives each one the column): what Strapi's Query Engine reads and filters, in code only.
 */
export function rowFields(schema: ContentType | Component): FieldRef[] {
  const system = schema.modelType === 'contentType' ? Object.values(SYSTEM) : [SYSTEM.id];
  const scalars = [...schema.attributes.values()].flatMap((a) => (a.kind === 'scalar' ? [{ name: a.name, column: a.column, type: a.type as FieldRef['type'] }] : []));
  return [...system, ...scalars];
}

/** A plain object, as qs builds them or code writes them (not an array, a Date, a Map...). */
export function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

/** qs gives arrays; past its array limit, or from code, they can be objects with numeric keys. */
export function asArray(v: unknown): unknown[] | undefined {
  if (Array.isArray(v)) return v;
  if (!isPlainObject(v)) return undefined;
  const keys = Object.keys(v);
  if (keys.length === 0 || !keys.every((k) => /^\d+$/.test(k))) return undefined;
  return keys.sort((a, b) => Number(a) - Number(b)).map((k) => v[k]);
}
