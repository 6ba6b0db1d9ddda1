import type { Component, ContentType, Model } from '../model/types.js';
import { ValidationError } from '../errors/index.js';
import type { SortItem } from './types.js';
import { asArray, fieldRef, isPlainObject } from './fields-of.js';

const invalidKey = (key: string) => new ValidationError(`Invalid key ${key}`, { key, path: null, source: 'query', param: 'sort' });

/**
 * `sort=a`, `a:desc`, `a:asc,b:desc`, `sort[0]=a:asc`, `sort[a]=asc`, `sort[chef][name]=asc`, `sort=chef.name:asc`.
 * Fields reached through relations must go through to-one relations (one value per entry to sort by).
 */
export function parseSort(
  model: Model,
  schema: ContentType | Component,
  raw: unknown,
  canFind: (uid: string) => boolean = () => true,
): SortItem[] {
  if (raw === undefined || raw === '') return [];
  const items: SortItem[] = [];
  const add = (value: unknown) => {
    if (typeof value === 'string') {
      for (const part of value.split(',')) {
        if (part.trim() === '') continue;
        const [path, direction = 'asc', ...rest] = part.trim().split(':');
        if (rest.length) throw invalidKey(part);
        items.push(item(model, schema, path.split('.'), direction, canFind));
      }
    } else if (isPlainObject(value)) {
      for (const [key, sub] of Object.entries(value)) items.push(...objectItems(model, schema, [key], sub, canFind));
    } else throw invalidKey(String(value));
  };
  const list = asArray(raw);
  if (list) list.forEach(add);
  else add(raw);
  return items;
}

function objectItems(model: Model, schema: ContentType | Component, path: string[], value: unknown, canFind: (uid: string) => boolean): SortItem[] {
  if (typeof value === 'string') return [item(model, schema, path, value, canFind)];
  if (isPlainObject(value)) return Object.entries(value).flatMap(([key, sub]) => objectItems(model, schema, [...path, key], sub, canFind));
  throw invalidKey(path.join('.'));
}

function item(model: Model, schema: ContentType | Component, path: string[], direction: string, canFind: (uid: string) => boolean): SortItem {
  const dir = direction.toLowerCase();
  if (dir !== 'asc' && dir !== 'desc') throw invalidKey(`${path.join('.')}:${direction}`);
  const relations: string[] = [];
  let current: ContentType | Component = schema;
  for (const name of path.slice(0, -1)) {
    const attribute = current.attributes.get(name);
    if (!attribute || attribute.kind !== 'relation' || current.privateAttributes.has(name) || !canFind(attribute.target)) {
      throw invalidKey(path.join('.'));
    }
    if (attribute.toMany) {
      throw new ValidationError(`Cannot sort on ${path.join('.')}: ${name} is a to-many relation`, { key: path.join('.'), path: null, source: 'query', param: 'sort' });
    }
    relations.push(name);
    current = model.contentTypes.get(attribute.target)!;
  }
  const field = fieldRef(current, path[path.length - 1]);
  if (!field) throw invalidKey(path.join('.'));
  return { relations, field, direction: dir };
}
