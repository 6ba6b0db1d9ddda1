import type { Component, ContentType, Model } from '../model/types.js';
import type { SortItem } from './types.js';
import { ValidationError } from '../errors/index.js';
import { describe, invalidKey, joinPath, queryError, type QueryParam } from './errors.js';
import { asArray, fieldRef, isPlainObject, isStrapiAttribute } from './fields-of.js';

type Schema = ContentType | Component;

interface SortContext {
  model: Model;
  canFind: (uid: string) => boolean;
  param: QueryParam;
  /** Code's reads (the Document Service) sort by private attributes and through private relations too. */
  withPrivate: boolean;
}

/**
 * Every sort form of the reference: `sort=a`, `a:desc`, `a:asc,b:desc`, `sort[0]=a:asc`, `sort[a]=asc`,
 * `sort[chef][name]=asc`, `sort=chef.name:asc`, `sort[0][chef][name]=asc`. Directions are asc/desc in any case.
 * A field may be reached through to-one and to-many relations (`categories.tags.name`), media (`cover.name`) and components
 * (`address.city`, `address.geo.lat`; not a dynamic zone): through a to-many step (a repeatable component too) an
 * entry sorts by the least of its values ascending and the greatest descending, as Strapi's deep sort picks them (see
 * compile-sort.ts). Unknown, private and non-scalar names (a relation itself, media) are 400 `Invalid key`.
 */
export function parseSort(
  model: Model,
  schema: Schema,
  raw: unknown,
  canFind: (uid: string) => boolean = () => true,
  param: QueryParam = 'sort',
  withPrivate = false,
): SortItem[] {
  if (raw === undefined || raw === '') return [];
  const ctx: SortContext = { model, canFind, param, withPrivate };
  const items: SortItem[] = [];
  const list = asArray(raw);
  for (const value of list ?? [raw]) {
    if (typeof value === 'string') items.push(...stringItems(ctx, schema, value));
    else if (isPlainObject(value)) items.push(...objectItems(ctx, schema, [], value));
    else throw invalidSort(ctx, value);
  }
  return items;
}

const invalidSort = (ctx: SortContext, value: unknown) =>
  queryError(
    ctx.param,
    `Invalid sort parameter ${describe(value)}. Expected a string, an array of strings, a sort object or an array of sort objects`,
    'sort',
    null,
  );

/** `a`, `a:desc`, `chef.name:asc`, `a:asc,b:desc` (empty parts, as from a trailing comma, are skipped). */
function stringItems(ctx: SortContext, schema: Schema, value: string): SortItem[] {
  const items: SortItem[] = [];
  for (const part of value.split(',')) {
    const text = part.trim();
    if (text === '') continue;
    const [field, direction = 'asc', ...rest] = text.split(':');
    if (rest.length) throw invalidKey(ctx.param, text, null);
    items.push(item(ctx, schema, field.trim().split('.'), direction.trim(), text));
  }
  return items;
}

/** `{ a: 'asc' }`, `{ chef: { name: 'desc' } }`, several keys in order. */
function objectItems(ctx: SortContext, schema: Schema, path: string[], value: Record<string, unknown>): SortItem[] {
  const items: SortItem[] = [];
  for (const [key, sub] of Object.entries(value)) {
    const here = [...path, key];
    if (typeof sub === 'string') items.push(item(ctx, schema, here, sub.trim(), `${here.join('.')}:${sub}`, true));
    else if (isPlainObject(sub)) items.push(...objectItems(ctx, schema, here, sub));
    else throw queryError(ctx.param, `Invalid sort type at ${here.join('.')}: expected an object or a string, got ${describe(sub)}`, key, here.join('.'));
  }
  return items;
}

/**
 * One sort item: `steps` to a field, then its direction. Keys are checked before the direction, as Strapi validates
 * before it converts. `objectForm`: `{ chef: 'asc' }` names no field of `chef`, so Strapi reads `asc` as a key there.
 */
function item(ctx: SortContext, schema: Schema, steps: string[], direction: string, text: string, objectForm = false): SortItem {
  const relations: string[] = [];
  let current: Schema = schema;
  let path: string | null = null;
  for (const name of steps.slice(0, -1)) {
    const step = stepThrough(ctx, current, name);
    if (!step) throw invalidKey(ctx.param, name, isStrapiAttribute(current, name) ? joinPath(path, name) : path);
    path = joinPath(path, name);
    relations.push(name);
    current = step;
  }
  const last = steps[steps.length - 1];
  if (last === '') throw queryError(ctx.param, 'Field cannot be empty', text, path);
  const field = fieldRef(current, last, ctx.withPrivate);
  // Strapi's path names the attributes on the way: one that cannot be sorted on is its own path, an unknown name
  // stays at its parent's.
  if (!field && objectForm && stepThrough(ctx, current, last)) throw invalidKey(ctx.param, direction, joinPath(path, last));
  if (!field) throw invalidKey(ctx.param, last, isStrapiAttribute(current, last) ? joinPath(path, last) : path);
  const dir = direction.toLowerCase();
  // Strapi's convert-query-params says it without details.
  if (dir !== 'asc' && dir !== 'desc') throw new ValidationError('Invalid order. order can only be one of asc|desc|ASC|DESC');
  return { relations, field, direction: dir };
}

/**
 * What a sort walks into through `name` of `schema`: a relation's or media's target (one the caller may find) or a
 * component. Private ones read like unknown keys; a dynamic zone is not a step (Strapi: `Invalid key`), its items
 * being of several components.
 */
function stepThrough(ctx: SortContext, schema: Schema, name: string): Schema | undefined {
  const attribute = schema.attributes.get(name);
  if (!ctx.withPrivate && (attribute?.private || schema.privateAttributes.has(name))) return undefined;
  if ((attribute?.kind === 'relation' || attribute?.kind === 'media') && ctx.canFind(attribute.target)) return ctx.model.contentTypes.get(attribute.target);
  return attribute?.kind === 'component' ? ctx.model.components.get(attribute.component) : undefined;
}
