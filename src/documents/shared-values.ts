import type { Attribute, Component, ContentType, Model } from '../model/types.js';
import { clonePopulate } from './clone-data.js';

type Params = Record<string, unknown>;

/**
 * Strapi 5.54's `copyNonLocalizedFields` (document-service/internationalization.js): an update that makes a new
 * locale of a document takes the values of its non-localized attributes that `data` leaves null or out from an
 * existing version of the document (scalars, components, dynamic zones, media), so that the new locale shares them
 * as every other locale does. Relations are each locale's own.
 */

/** The populate that reads a version's non-localized attributes (components all the way down). */
export function sharedPopulate(model: Model, contentType: ContentType): Params {
  const all = clonePopulate(model, contentType);
  return Object.fromEntries(Object.entries(all).filter(([name]) => isShared(contentType, name)));
}

/** `data` with the non-localized values it leaves null or out taken from `existing` (an entry read with sharedPopulate). */
export function withSharedValues(model: Model, contentType: ContentType, data: Params, existing: Params): Params {
  const merged: Params = { ...data };
  for (const attribute of contentType.attributes.values()) {
    if (!isShared(contentType, attribute.name) || (merged[attribute.name] !== undefined && merged[attribute.name] !== null)) continue;
    const value = existing[attribute.name];
    if (value === undefined || value === null) continue;
    merged[attribute.name] = asWritten(model, contentType, attribute.name, value);
  }
  return merged;
}

/** Whether an attribute's value is shared by every locale of a document (see sharedAttributes). */
function isShared(schema: ContentType, name: string): boolean {
  return sharedAttributes(schema).some((a) => a.name === name);
}

/** sharedAttributes by type: asked on every write, and a type's attributes do not change while the app runs. */
const sharedByType = new WeakMap<ContentType, readonly Attribute[]>();

/**
 * The attributes of a localized type whose values every locale of a document shares (none for another type): not
 * localized, and neither a relation nor a uid (those are per locale, as Strapi's i18n isLocalizedAttribute says).
 */
export function sharedAttributes(contentType: ContentType): readonly Attribute[] {
  let shared = sharedByType.get(contentType);
  if (!shared) {
    shared = contentType.localized
      ? [...contentType.attributes.values()].filter(
          (a) => !a.localized && a.kind !== 'relation' && a.kind !== 'morph' && !(a.kind === 'scalar' && a.type === 'uid'),
        )
      : [];
    sharedByType.set(contentType, shared);
  }
  return shared;
}

/**
 * A version's shared values as text that compares equal when they hold the same (Strapi 5.54's i18n sync compares so,
 * ids aside): `entry` is the version read with sharedPopulate and the shared scalars as fields.
 */
export function sharedValuesText(contentType: ContentType, entry: Params | null): string {
  return JSON.stringify(withoutIds(Object.fromEntries(sharedAttributes(contentType).map((a) => [a.name, entry?.[a.name] ?? null]))));
}

/** A read value without the row ids in it (components and files are compared by what they hold). */
function withoutIds(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutIds);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).filter(([key]) => key !== 'id' && key !== 'documentId').map(([key, v]) => [key, withoutIds(v)]));
}

/** A read value as a write takes it: components without their row ids (new rows), media and relations by reference. */
function asWritten(model: Model, schema: ContentType | Component, name: string, value: unknown): unknown {
  const attribute = schema.attributes.get(name);
  if (!attribute || value === null || value === undefined) return value;
  switch (attribute.kind) {
    case 'media':
      return Array.isArray(value) ? value.map((file) => (file as Params).id) : (value as Params).id;
    case 'relation': {
      const ref = (target: unknown) => (target as Params).documentId;
      return Array.isArray(value) ? value.map(ref) : ref(value);
    }
    case 'component': {
      const component = model.components.get(attribute.component)!;
      return Array.isArray(value) ? value.map((item) => componentWritten(model, component, item as Params)) : componentWritten(model, component, value as Params);
    }
    case 'dynamiczone':
      return (value as Params[]).map((item) => ({ __component: item.__component, ...componentWritten(model, model.components.get(item.__component as string)!, item) }));
    case 'morph':
      return undefined;
    default:
      return value;
  }
}

function componentWritten(model: Model, component: Component, value: Params): Params {
  const written: Params = {};
  for (const [key, inner] of Object.entries(value)) {
    if (key === 'id' || key === '__component' || !component.attributes.has(key)) continue;
    const converted = asWritten(model, component, key, inner);
    if (converted !== undefined) written[key] = converted;
  }
  return written;
}
