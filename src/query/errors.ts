import { ValidationError } from '../errors/index.js';

/** The top-level query parameter an error is about. */
export type QueryParam = 'filters' | 'fields' | 'sort' | 'populate' | 'pagination' | 'status' | 'locale' | (string & {});

/**
 * `400 ValidationError "Invalid key <key>[ at <path>]"` with the reference's details
 * `{ key, path, source: 'query', param }`. `path` is the attribute path leading to the key (dotted), null at the
 * top level; as the reference words it, `at <path>` is added only when the path differs from the key.
 * Unknown and private names get the same shape, so an error never tells a private attribute from a missing one.
 */
export function invalidKey(param: QueryParam, key: string, path: string | null): ValidationError {
  const message = path && path !== key ? `Invalid key ${key} at ${path}` : `Invalid key ${key}`;
  return new ValidationError(message, { key, path, source: 'query', param });
}

/** Any other bad query value: a 400 ValidationError with the same details shape as `invalidKey`. */
export function queryError(param: QueryParam, message: string, key: string, path: string | null = null): ValidationError {
  return new ValidationError(message, { key, path, source: 'query', param });
}

/** A short, safe rendering of a raw value for messages (never throws, even on null-prototype objects). */
export function describe(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value);
  if (value === null || typeof value !== 'object') return String(value);
  return Array.isArray(value) ? 'a list' : 'an object';
}

/** Joins an attribute path: `join(null, 'chef')` = 'chef', `join('chef', 'name')` = 'chef.name'. */
export const joinPath = (path: string | null, name: string): string => (path ? `${path}.${name}` : name);
