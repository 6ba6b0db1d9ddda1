import type { Component, ContentType, Model } from '../model/types.js';
import { COMPARISON_OPERATORS, type ComparisonOperator, type FieldRef, type Filter, type FilterValue } from './types.js';
import { castFilterValue } from './cast-value.js';
import { describe, invalidKey, joinPath, queryError, type QueryParam } from './errors.js';
import { asArray, fieldRef, ID_FIELD, isPlainObject, rowFields } from './fields-of.js';
import { throughRelation } from './null-row.js';
import { booleanLike } from './boolean-like.js';

const OPERATORS = new Set<string>(COMPARISON_OPERATORS);
/** Operators that compare text whatever the column type: their operand is a string, not cast. */
const TEXT_OPERATORS = new Set<string>([
  '$eqi', '$nei', '$contains', '$notContains', '$containsi', '$notContainsi',
  '$startsWith', '$startsWithi', '$endsWith', '$endsWithi',
]);
/** json and blocks columns: a text search in the JSON document, or a null test. */
const JSON_OPERATORS = new Set<string>(['$contains', '$notContains', '$containsi', '$notContainsi', '$null', '$notNull']);

type Schema = ContentType | Component;

interface Walk {
  model: Model;
  canFind: (uid: string) => boolean;
  /** `filters`, or `populate` for the filters of a populated relation. */
  param: QueryParam;
  /** Code's queries (Strapi's Query Engine) may name every column and relation, private ones too; a request's never. */
  withPrivate: boolean;
}

/**
 * Turns `filters[...]` (as qs parsed it, or as code wrote it) into a validated filter tree on `schema`:
 * - `{ field: value }` is `$eq` (a list is `$in`); `{ field: { $op: value } }`, with `$not`/`$and`/`$or` of
 *   conditions on the field; values cast to the field's type;
 * - `$and`/`$or` (lists) and `$not` (an object) at any level; keys at one level are ANDed; a list is an AND;
 * - relations (any depth), media (a relation to files) and components (repeatable too) by name; through a
 *   relation or media, an operator without a field compares the related entry's `id` (`filters[chef]=3`,
 *   `filters[cover][$null]=true`), as the reference.
 * Unknown, private and unfilterable keys (dynamic zones) are 400s: a dropped filter would silently return
 * everything. `path` is the attribute path of `schema` (null at the top), for error details.
 */
export function parseFilters(
  model: Model,
  schema: Schema,
  raw: unknown,
  path: string | null = null,
  canFind: (uid: string) => boolean = () => true,
  param: QueryParam = 'filters',
  withPrivate = false,
): Filter {
  if (!isPlainObject(raw) && !Array.isArray(raw)) {
    throw queryError(param, 'The filters parameter must be an object or an array', path ?? 'filters', path);
  }
  return parseLevel({ model, canFind, param, withPrivate }, schema, raw, path, false, false);
}

/** A Query Engine `where` (code's, not a request's): the filters' language on every column of the rows, private ones too. */
export function parseRowWhere(model: Model, schema: Schema, raw: unknown): Filter {
  if (!isPlainObject(raw) && !Array.isArray(raw)) throw queryError('filters', 'where must be an object or an array', 'where', null);
  return parseLevel({ model, canFind: () => true, param: 'filters', withPrivate: true }, schema, raw, null, false, false);
}

/**
 * One object of conditions on `schema`. `viaRelation`: operators without a field compare `id`. `negated`: the
 * object stands under `$not`, which goes down to each condition on a field (De Morgan: a level's conditions are
 * then ORed). Under a relation the negation goes into it: `$not: { tags: { name: 'x' } }` reads, as the reference
 * reads it through its join, "a related tag's name is not x" (not "no related tag is named x"); an entry with no
 * related entry is tested against a NULL row (null-row.ts).
 */
function parseLevel(walk: Walk, schema: Schema, raw: unknown, path: string | null, viaRelation: boolean, negated: boolean): Filter {
  const all = negated ? or : and;
  const list = Array.isArray(raw) ? raw : undefined;
  if (list) return all(list.map((item) => parseLevel(walk, schema, item, path, viaRelation, negated)));
  if (!isPlainObject(raw)) {
    if (viaRelation) return negate(fieldCondition(walk, ID_FIELD, raw, path), negated);
    throw queryError(walk.param, `Invalid filter ${describe(raw)}${path ? ` at ${path}` : ''}: expected an object`, path ?? 'filters', path);
  }
  const items: Filter[] = [];
  for (const [key, value] of Object.entries(raw)) {
    if (key === '$and' || key === '$or') {
      const operands = asArray(value);
      if (!operands) throw queryError(walk.param, `${key} must be a list of filters`, key, path);
      const parsed = operands.map((item) => parseLevel(walk, schema, item, path, viaRelation, negated));
      // An empty list is no condition, as the reference reads it.
      // Under `$not`, De Morgan: an `$and` is an OR of the negated items, an `$or` an AND of them.
      if (parsed.length) items.push(key === '$and' ? (negated ? or(parsed) : and(parsed)) : negated ? and(parsed) : { kind: 'or', items: parsed });
    } else if (key === '$not') {
      if (isEmptyObject(value)) continue;
      if (!isPlainObject(value) && !Array.isArray(value) && !viaRelation) throw queryError(walk.param, '$not must be an object', key, path);
      items.push(parseLevel(walk, schema, value, path, viaRelation, !negated));
    } else if (viaRelation && OPERATORS.has(key)) {
      items.push(negate(compare(walk, ID_FIELD, key as ComparisonOperator, value, path), negated));
    } else {
      items.push(attributeFilter(walk, schema, key, value, path, negated));
    }
  }
  return all(items);
}

const isEmptyObject = (v: unknown) => isPlainObject(v) && Object.keys(v).length === 0;
const isNoCondition = (f: Filter) => f.kind === 'and' && f.items.length === 0;
/** AND of conditions; empty ones (no condition) drop out. */
function and(all: Filter[]): Filter {
  const items = all.filter((f) => !isNoCondition(f));
  return items.length === 1 ? items[0] : { kind: 'and', items };
}
/** OR of conditions; empty ones (no condition, dropped as the reference drops them) drop out. */
function or(all: Filter[]): Filter {
  const items = all.filter((f) => !isNoCondition(f));
  if (items.length === 0) return and([]);
  return items.length === 1 ? items[0] : { kind: 'or', items };
}
/** A condition on a field, negated under `$not` (no condition stays none). */
const negate = (filter: Filter, negated: boolean): Filter => (negated && !isNoCondition(filter) ? { kind: 'not', item: filter } : filter);

function attributeFilter(walk: Walk, schema: Schema, key: string, value: unknown, path: string | null, negated: boolean): Filter {
  const field = walk.withPrivate ? rowFields(schema).find((f) => f.name === key) : fieldRef(schema, key);
  const here = joinPath(path, key);
  // `{ field: {} }` (from code) is no condition, as the reference drops empty objects; the key must still exist.
  const empty = isEmptyObject(value);
  if (field) return empty ? and([]) : negate(fieldCondition(walk, field, value, here), negated);
  const attribute = schema.attributes.get(key);
  // Unknown and private keys read the same (the attribute path stops before them); see errors.ts.
  if (!attribute || (!walk.withPrivate && (attribute.private || schema.privateAttributes.has(key)))) throw invalidKey(walk.param, key, path);
  if (attribute.kind === 'relation' || attribute.kind === 'media') {
    // A media attribute is a relation to files, filtered as the reference does (`filters[cover][mime][$eq]=...`).
    // Filtering through a type the caller may not read would be an oracle on it: refused like an unknown key.
    if (!walk.canFind(attribute.target)) throw invalidKey(walk.param, key, path);
    const target = walk.model.contentTypes.get(attribute.target)!;
    if (empty) return and([]);
    return throughRelation('relation', key, parseLevel(walk, target, value, here, true, negated));
  }
  if (attribute.kind === 'component') {
    const component = walk.model.components.get(attribute.component)!;
    if (!isPlainObject(value) && !Array.isArray(value)) throw invalidKey(walk.param, key, here);
    if (empty) return and([]);
    return throughRelation('component', key, parseLevel(walk, component, value, here, false, negated));
  }
  // Dynamic zones can't be filtered on.
  throw invalidKey(walk.param, key, here);
}

/** `filters[field]=x`, `[field][$op]=x`, `[field][$not][$op]=x`, `[field][$and|$or][i][$op]=x`. */
function fieldCondition(walk: Walk, field: FieldRef, value: unknown, path: string | null): Filter {
  if (!isPlainObject(value)) {
    const list = asArray(value);
    return list ? compare(walk, field, '$in', list, path) : compare(walk, field, '$eq', value, path);
  }
  const items: Filter[] = [];
  for (const [op, operand] of Object.entries(value)) {
    if (op === '$not') {
      if (isEmptyObject(operand)) continue;
      items.push({ kind: 'not', item: fieldCondition(walk, field, operand, path) });
    } else if (op === '$and' || op === '$or') {
      const operands = asArray(operand);
      if (!operands) throw queryError(walk.param, `${op} must be a list of conditions`, op, path);
      const parsed = operands.map((item) => fieldCondition(walk, field, item, path));
      if (parsed.length) items.push(op === '$and' ? and(parsed) : { kind: 'or', items: parsed });
    } else if (OPERATORS.has(op)) {
      items.push(compare(walk, field, op as ComparisonOperator, operand, path));
    } else {
      throw invalidKey(walk.param, op, path);
    }
  }
  return and(items);
}

/** No database stores NUL in text (PostgreSQL refuses it): such a value can match nothing and is bad input. */
function refuseNul(walk: Walk, values: unknown[], operator: string, path: string | null): void {
  if (values.some((v) => typeof v === 'string' && v.includes('\u0000'))) {
    throw queryError(walk.param, `Invalid value for ${operator}${path ? ` at ${path}` : ''}: NUL characters are not allowed`, operator, path);
  }
}

/** Operators that take a list themselves; on any other, a list means "any of these values". */
const LIST_OPERATORS = new Set<string>(['$in', '$notIn', '$between']);

/**
 * A list given to a single-value operator (`filters[rank][$gt][0]=12&filters[rank][$gt][1]=56`) matches when any
 * of its values does, as Strapi reads it: an OR of the operator on each value, each checked as a single value.
 */
function anyOf(walk: Walk, field: FieldRef, operator: ComparisonOperator, list: unknown[], path: string | null): Filter {
  const items = list.map((item) => {
    if (asArray(item) || isPlainObject(item)) throw queryError(walk.param, `${operator}${path ? ` at ${path}` : ''} takes a single value`, operator, path);
    return compare(walk, field, operator, item, path);
  });
  return items.length === 1 ? items[0] : { kind: 'or', items };
}

function compare(walk: Walk, field: FieldRef, operator: ComparisonOperator, raw: unknown, path: string | null): Filter {
  const at = path ? ` at ${path}` : '';
  const bad = (message: string) => queryError(walk.param, `${operator}${at} ${message}`, operator, path);
  const cast = (v: unknown) => castFilterValue(field, v, path, walk.param);
  if ((field.type === 'json' || field.type === 'blocks') && !JSON_OPERATORS.has(operator)) throw invalidKey(walk.param, operator, path);
  const list = asArray(raw);
  if (list && !LIST_OPERATORS.has(operator)) return anyOf(walk, field, operator, list, path);
  refuseNul(walk, list ?? [raw], operator, path);
  let value: FilterValue;
  switch (operator) {
    case '$in':
    case '$notIn':
      // A single value is a list of one, as the reference reads `filters[x][$in]=5`.
      value = (list ?? [raw]).map((v) => cast(v));
      break;
    case '$between':
      if (!list || list.length !== 2) throw bad('takes exactly two values');
      value = list.map((v) => {
        if (v === null) throw bad('takes two values, not null');
        return cast(v);
      });
      break;
    case '$null':
    case '$notNull': {
      // Strapi's spellings; any other value is refused, where Strapi would read it as true.
      const flag = raw === '' ? false : booleanLike(raw);
      if (flag === undefined) throw bad('takes true or false (true, t, 1 / false, f, 0 or empty)');
      value = flag;
      break;
    }
    default:
      if (list || isPlainObject(raw)) throw bad('takes a single value');
      if (raw === null) {
        // `{ $eq: null }` / `{ $ne: null }` from code: IS (NOT) NULL. Nothing else compares to null.
        if (operator !== '$eq' && operator !== '$ne') throw bad('takes a value, not null');
        value = null;
      } else if (TEXT_OPERATORS.has(operator)) {
        if (typeof raw !== 'string' && typeof raw !== 'number' && typeof raw !== 'boolean') throw bad('takes a single value');
        value = String(raw);
      } else {
        value = cast(raw);
      }
  }
  return { kind: 'compare', field, operator, value };
}
