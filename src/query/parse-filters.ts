import type { Component, ContentType, Model } from '../model/types.js';
import { ValidationError } from '../errors/index.js';
import { COMPARISON_OPERATORS, type ComparisonOperator, type FieldRef, type Filter, type FilterValue } from './types.js';
import { castFilterValue } from './cast-value.js';
import { asArray, fieldRef, isPlainObject } from './fields-of.js';

const OPERATORS = new Set<string>(COMPARISON_OPERATORS);
/** Operators that compare text whatever the column type: their operand is not cast. */
const TEXT_OPERATORS = new Set<string>([
  '$eqi', '$nei', '$contains', '$notContains', '$containsi', '$notContainsi',
  '$startsWith', '$startsWithi', '$endsWith', '$endsWithi',
]);
const JSON_OPERATORS = new Set<string>(['$contains', '$notContains', '$containsi', '$notContainsi', '$null', '$notNull']);

const invalidKey = (key: string, path?: string) => ValidationError.invalidKey('filters', key, path);

/**
 * Turns `filters[...]` (as qs parsed it) into a validated filter tree on `schema`. Unknown, private and
 * unfilterable keys (media, dynamic zones) are 400s: a dropped filter would silently return everything.
 */
export function parseFilters(
  model: Model,
  schema: ContentType | Component,
  raw: unknown,
  path = '',
  canFind: (uid: string) => boolean = () => true,
): Filter {
  if (!isPlainObject(raw)) {
    throw new ValidationError(`filters${path ? ` at ${path}` : ''} must be an object`, { key: path || 'filters', source: 'query', param: 'filters' });
  }
  const items: Filter[] = [];
  for (const [key, value] of Object.entries(raw)) {
    if (key === '$and' || key === '$or') {
      const list = asArray(value);
      if (!list) throw new ValidationError(`${key} must be an array of filters`, { key, path: path || null, source: 'query', param: 'filters' });
      items.push({ kind: key === '$and' ? 'and' : 'or', items: list.map((item) => parseFilters(model, schema, item, path, canFind)) });
    } else if (key === '$not') {
      items.push({ kind: 'not', item: parseFilters(model, schema, value, path, canFind) });
    } else {
      items.push(parseAttributeFilter(model, schema, key, value, path, canFind));
    }
  }
  return items.length === 1 ? items[0] : { kind: 'and', items };
}

function parseAttributeFilter(
  model: Model,
  schema: ContentType | Component,
  key: string,
  value: unknown,
  path: string,
  canFind: (uid: string) => boolean,
): Filter {
  const here = path ? `${path}.${key}` : key;
  const field = fieldRef(schema, key);
  if (field) return parseFieldCondition(field, value, here);
  const attribute = schema.attributes.get(key);
  if (!attribute || schema.privateAttributes.has(key)) throw invalidKey(key, path || undefined);
  if (attribute.kind === 'relation') {
    // Filtering through a type the caller may not read would be an oracle on it: refused like an unknown key.
    if (!canFind(attribute.target)) throw invalidKey(key, path || undefined);
    const target = model.contentTypes.get(attribute.target)!;
    return { kind: 'relation', attribute: key, filter: parseFilters(model, target, value, here, canFind) };
  }
  if (attribute.kind === 'component') {
    const component = model.components.get(attribute.component)!;
    return { kind: 'component', attribute: key, filter: parseFilters(model, component, value, here, canFind) };
  }
  // Media and dynamic zones can't be filtered on.
  throw invalidKey(key, path || undefined);
}

/** `filters[field]=x`, `filters[field][$op]=x`, `[$not]`, `[$and]`/`[$or]` of conditions on one field. */
function parseFieldCondition(field: FieldRef, value: unknown, path: string): Filter {
  if (!isPlainObject(value)) {
    const list = asArray(value);
    if (list) return compare(field, '$in', list, path);
    return compare(field, '$eq', value, path);
  }
  const items: Filter[] = [];
  for (const [op, operand] of Object.entries(value)) {
    if (op === '$not') items.push({ kind: 'not', item: parseFieldCondition(field, operand, path) });
    else if (op === '$and' || op === '$or') {
      const list = asArray(operand);
      if (!list) throw new ValidationError(`${op} must be an array`, { key: op, path, source: 'query', param: 'filters' });
      items.push({ kind: op === '$and' ? 'and' : 'or', items: list.map((item) => parseFieldCondition(field, item, path)) });
    } else if (OPERATORS.has(op)) items.push(compare(field, op as ComparisonOperator, operand, path));
    else throw invalidKey(op, path);
  }
  if (!items.length) throw new ValidationError(`filters at ${path} has no condition`, { key: field.name, path, source: 'query', param: 'filters' });
  return items.length === 1 ? items[0] : { kind: 'and', items };
}

/** No database stores NUL in text (PostgreSQL refuses it): such a value can match nothing and is bad input. */
function refuseNul(value: unknown, path: string): void {
  const values = Array.isArray(value) ? value : [value];
  if (values.some((v) => typeof v === 'string' && v.includes('\u0000'))) {
    throw new ValidationError(`filters at ${path}: values may not contain NUL characters`, { key: path, source: 'query', param: 'filters' });
  }
}

function compare(field: FieldRef, operator: ComparisonOperator, raw: unknown, path: string): Filter {
  refuseNul(asArray(raw) ?? raw, path);
  if ((field.type === 'json' || field.type === 'blocks') && !JSON_OPERATORS.has(operator)) throw invalidKey(operator, path);
  let value: FilterValue;
  switch (operator) {
    case '$in':
    case '$notIn': {
      // A single value is a list of one, as the reference reads `filters[x][$in]=5`.
      const list = asArray(raw) ?? [raw];
      value = list.map((v) => castFilterValue(field, v));
      break;
    }
    case '$between': {
      const list = asArray(raw);
      if (!list || list.length !== 2) {
        throw new ValidationError(`$between at ${path} needs exactly two values`, { key: operator, path, source: 'query', param: 'filters' });
      }
      value = list.map((v) => castFilterValue(field, v));
      break;
    }
    case '$null':
    case '$notNull':
      if (raw === true || raw === 'true' || raw === '1') value = true;
      else if (raw === false || raw === 'false' || raw === '0') value = false;
      else throw new ValidationError(`${operator} at ${path} takes true or false`, { key: operator, path, source: 'query', param: 'filters' });
      break;
    default:
      if (typeof raw === 'object' && raw !== null) {
        throw new ValidationError(`${operator} at ${path} takes a single value`, { key: operator, path, source: 'query', param: 'filters' });
      }
      value = TEXT_OPERATORS.has(operator) ? String(raw ?? '') : castFilterValue(field, raw);
  }
  return { kind: 'compare', field, operator, value };
}
