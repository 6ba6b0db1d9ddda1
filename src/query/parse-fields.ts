import type { Component, ContentType } from '../model/types.js';
import { describe, invalidKey, queryError, type QueryParam } from './errors.js';
import { asArray, fieldRef, isStrapiAttribute } from './fields-of.js';

/**
 * `fields=a`, `fields=a,b`, `fields[0]=a&fields[1]=b` (items may hold commas too), `*` for all. Scalar attributes
 * and system fields only: a relation, media, component, dynamic zone, private, password or unknown name is a 400
 * `Invalid key <name>`. `id` and `documentId` always come: they may be listed and are left out of the result.
 * Returns the names in the order given, without repeats; undefined means every non-private scalar.
 */
export function parseFields(
  schema: ContentType | Component,
  raw: unknown,
  param: QueryParam = 'fields',
  withPrivate = false,
): string[] | undefined {
  if (raw === undefined) return undefined;
  const list = typeof raw === 'string' ? [raw] : asArray(raw);
  if (!list) throw queryError(param, `Invalid fields parameter ${describe(raw)}: expected a string or a list of strings`, 'fields', null);
  const names: string[] = [];
  let all = false;
  for (const item of list) {
    if (typeof item !== 'string') throw queryError(param, `Invalid fields parameter: expected a list of strings, got ${describe(item)}`, 'fields', null);
    for (const part of item.split(',')) {
      const name = part.trim();
      if (name === '*') {
        all = true;
        continue;
      }
      if (name === '') throw queryError(param, 'Invalid fields parameter: empty field name', '', null);
      // Strapi's path names the attributes on the way: an attribute that may not be selected (`author`, a relation)
      // is its own path, an unknown name has none. (A populate's fields are read as at the top of their type.)
      if (!fieldRef(schema, name, withPrivate)) throw invalidKey(param, name, isStrapiAttribute(schema, name) ? name : null);
      if (name !== 'id' && name !== 'documentId' && !names.includes(name)) names.push(name);
    }
  }
  return all ? undefined : names;
}
