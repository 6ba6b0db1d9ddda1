import type { Component, ContentType } from '../model/types.js';
import { describe, invalidKey, joinPath, queryError, type QueryParam } from './errors.js';
import { asArray, fieldRef } from './fields-of.js';

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
  path: string | null = null,
  withPrivate = false,
): string[] | undefined {
  if (raw === undefined) return undefined;
  const list = typeof raw === 'string' ? [raw] : asArray(raw);
  if (!list) throw queryError(param, `Invalid fields parameter ${describe(raw)}: expected a string or a list of strings`, 'fields', path);
  const names: string[] = [];
  let all = false;
  for (const item of list) {
    if (typeof item !== 'string') throw queryError(param, `Invalid fields parameter: expected a list of strings, got ${describe(item)}`, 'fields', path);
    for (const part of item.split(',')) {
      const name = part.trim();
      if (name === '*') {
        all = true;
        continue;
      }
      if (name === '') throw queryError(param, 'Invalid fields parameter: empty field name', '', path);
      // The path of a field is its own name (the reference: `Invalid key author`, path `author`).
      if (!fieldRef(schema, name, withPrivate)) throw invalidKey(param, name, joinPath(path, name));
      if (name !== 'id' && name !== 'documentId' && !names.includes(name)) names.push(name);
    }
  }
  return all ? undefined : names;
}
