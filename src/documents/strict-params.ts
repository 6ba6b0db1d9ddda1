import { ValidationError } from '../errors/index.js';

type Params = Record<string, unknown>;

/**
 * `api.documents.strictParams` as Strapi 5.54's Document Service reads it (@strapi/core document-service
 * repository.js, `validateParams`), at each call: absent or `false` passes the params on as they are; `true` checks
 * the root keys, `status`, `locale` and the pagination keys, with Strapi's messages, and hands on their normalized
 * values (empty ones left out, numbers given as text read as numbers); any other value fails every call.
 */
export function strictParams(setting: unknown, params: Params): Params {
  if (setting !== undefined && setting !== false && setting !== true) {
    throw new ValidationError(`Invalid config.api.documents.strictParams value: "${String(setting)}". Expected boolean (true or false).`);
  }
  if (setting !== true) return params;
  return checkPagination(checkLocale(checkStatus(checkRootKeys(params))));
}

/**
 * Strapi 5.54's ALLOWED_DOCUMENT_ROOT_PARAM_KEYS (document-service/params.js): the query keys its Document Service
 * reads, `withCount`, and `data`, `pagination`, `count`, `ordering` (REST-shaped keys its core controllers pass).
 */
export const ROOT_PARAM_KEYS: readonly string[] = [
  'filters', 'sort', 'fields', 'populate', 'status', 'locale', 'page', 'pageSize', 'start', 'limit', '_q',
  'publicationFilter', 'hasPublishedVersion', 'withCount', 'data', 'pagination', 'count', 'ordering',
];
const ROOT_KEYS = new Set(ROOT_PARAM_KEYS);

/**
 * Unknown root keys are refused. (Strapi 5.54 drops them silently; its own tests of strictParams expect a
 * ValidationError, and a key dropped without a word is what strict params are meant to catch.)
 */
function checkRootKeys(params: Params): Params {
  const unknown = Object.keys(params).filter((key) => !ROOT_KEYS.has(key));
  if (unknown.length) {
    throw new ValidationError(`Unrecognized parameter(s) at root level: ${unknown.map((k) => `'${k}'`).join(', ')}. Allowed: ${ROOT_PARAM_KEYS.join(', ')}`, { unknown });
  }
  return params;
}

/** Strapi's `isParamEmpty`: null, undefined or '' is a param not given. */
const isEmpty = (value: unknown) => value === undefined || value === null || value === '';

const without = (params: Params, key: string): Params => {
  const { [key]: _dropped, ...rest } = params;
  return rest;
};

function checkStatus(params: Params): Params {
  if (isEmpty(params.status)) return without(params, 'status');
  if (params.status !== 'published' && params.status !== 'draft') {
    throw new ValidationError(`Invalid parameter at 'status'. Expected 'published' or 'draft', received: ${String(params.status)}`);
  }
  return params;
}

/** BCP 47-like: a 2-3 letter language (any case), subtags of 2-8 letters or digits; 35 characters at most. */
const LOCALE_FORMAT = /^[a-zA-Z]{2,3}(-[a-zA-Z0-9]{2,8})*$/;
const MAX_LOCALE_LENGTH = 35;

function checkLocale(params: Params): Params {
  const locale = params.locale;
  if (isEmpty(locale)) return without(params, 'locale');
  if (typeof locale === 'object' && !Array.isArray(locale)) {
    throw new ValidationError("Invalid parameter at 'locale'. Expected a string, array of strings, empty string, null, or undefined; received: object", { received: locale });
  }
  if (Array.isArray(locale)) {
    const given = locale.filter((item): item is string => typeof item === 'string' && !isEmpty(item));
    if (!given.length) return without(params, 'locale');
    return { ...params, locale: given.map((item, i) => oneLocale(item, `locale[${i}]`)) };
  }
  return { ...params, locale: oneLocale(locale, 'locale') };
}

function oneLocale(value: unknown, path: string): string {
  if (typeof value !== 'string') throw new ValidationError(`Invalid parameter at '${path}'. Expected a string, received: ${typeof value}`, { received: value });
  if (value === '*') return value;
  const reason =
    value.length === 0
      ? 'Locale cannot be empty'
      : value.length > MAX_LOCALE_LENGTH
        ? `Locale exceeds maximum length of ${MAX_LOCALE_LENGTH} characters`
        : !LOCALE_FORMAT.test(value)
          ? 'Locale must be a valid BCP 47 format (e.g. en, en-US, zh-Hans)'
          : undefined;
  if (reason) throw new ValidationError(`Invalid parameter at '${path}'. ${reason}.`);
  return value;
}

const PAGINATION_KEYS = ['page', 'pageSize', 'start', 'limit', 'withCount'];

function checkPagination(params: Params): Params {
  const paged = !isEmpty(params.page) || !isEmpty(params.pageSize);
  const offset = !isEmpty(params.start) || !isEmpty(params.limit);
  if (paged && offset) {
    throw new ValidationError('Invalid pagination parameters. Cannot use both page-based (page, pageSize) and offset-based (start, limit) pagination in the same query.');
  }
  const values: Params = {
    page: integer('page', params.page, 1),
    pageSize: integer('pageSize', params.pageSize, 1),
    start: integer('start', params.start, 0),
    limit: integer('limit', params.limit, 1, true),
    withCount: withCount(params.withCount),
  };
  const result = Object.fromEntries(Object.entries(params).filter(([key]) => !PAGINATION_KEYS.includes(key)));
  for (const [key, value] of Object.entries(values)) if (value !== undefined) result[key] = value;
  return result;
}

function integer(name: string, value: unknown, min: number, minusOne = false): number | undefined {
  if (isEmpty(value)) return undefined;
  const n = Number(value);
  if (Number.isInteger(n) && (n >= min || (minusOne && n === -1))) return n;
  throw new ValidationError(`Invalid parameter at '${name}'. Expected ${minusOne ? `integer >= ${min} or -1` : `integer >= ${min}`}, received: ${String(value)}`);
}

function withCount(value: unknown): boolean | undefined {
  if (isEmpty(value)) return undefined;
  if (typeof value === 'boolean') return value;
  if (value === 'true' || value === 'false') return value === 'true';
  throw new ValidationError(`Invalid parameter at 'withCount'. Expected a boolean, received: ${typeof value}`);
}
