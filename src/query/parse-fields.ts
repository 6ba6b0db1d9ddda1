import type { Component, ContentType } from '../model/types.js';
import { ValidationError } from '../errors/index.js';
import { asArray, fieldRef } from './fields-of.js';

/**
 * `fields=a`, `fields=a,b`, `fields[0]=a`: scalar attributes and system fields only; `id` and `documentId` always
 * come. Undefined means every (non-private) scalar. A relation, media, component or unknown name is a 400.
 */
export function parseFields(schema: ContentType | Component, raw: unknown): string[] | undefined {
  if (raw === undefined) return undefined;
  const list = typeof raw === 'string' ? raw.split(',') : asArray(raw);
  if (!list) throw new ValidationError('fields must be a list of attribute names', { key: 'fields', source: 'query', param: 'fields' });
  const names: string[] = [];
  for (const item of list) {
    if (typeof item !== 'string') throw new ValidationError('fields must be a list of attribute names', { key: 'fields', source: 'query', param: 'fields' });
    const name = item.trim();
    if (name === '*') return undefined;
    if (name === '') continue;
    if (!fieldRef(schema, name)) throw ValidationError.invalidKey('fields', name, name);
    if (name !== 'id' && name !== 'documentId' && !names.includes(name)) names.push(name);
  }
  return names;
}
