import { PaginationError } from '../errors/index.js';
import type { Pagination } from './types.js';
import { describe, invalidKey, queryError } from './errors.js';
import { isPlainObject } from './fields-of.js';

export interface PaginationLimits {
  defaultLimit: number;
  maxLimit: number;
  withCount: boolean;
}

const KEYS = new Set(['page', 'pageSize', 'start', 'limit', 'withCount']);

const bad = (key: string, message: string, value: unknown) =>
  queryError('pagination', `Invalid pagination[${key}] ${describe(value)}: ${message}`, key, `pagination.${key}`);

/** A whole number (a JS number or its decimal text); anything else (`abc`, `1e3`, `2.5`) is a 400. */
function integer(key: string, raw: unknown): number {
  const text = typeof raw === 'number' ? String(raw) : typeof raw === 'string' ? raw.trim() : undefined;
  if (text === undefined || !/^[-+]?\d+$/.test(text)) throw bad(key, 'expected an integer', raw);
  const n = Number(text);
  // Past 2^53 an offset is no longer exact: no table is that long.
  if (!Number.isSafeInteger(n)) throw bad(key, 'too large', raw);
  return n;
}

function boolean(key: string, raw: unknown): boolean {
  if (raw === true || raw === 'true' || raw === '1' || raw === 1) return true;
  if (raw === false || raw === 'false' || raw === '0' || raw === 0) return false;
  throw bad(key, 'expected true or false', raw);
}

/**
 * Page form (`page`, `pageSize`) or offset form (`start`, `limit`), never both (400 PaginationError, the
 * reference's message). Sizes above maxLimit are clamped (as the reference does), `limit=-1` means maxLimit;
 * zero, negative or non-numeric values are 400 ValidationErrors (the reference clamps or ignores them).
 * `withCount` defaults to the configured value.
 */
export function parsePagination(raw: unknown, limits: PaginationLimits): Pagination {
  if (raw === undefined) return { mode: 'page', page: 1, pageSize: limits.defaultLimit, withCount: limits.withCount };
  if (!isPlainObject(raw)) throw queryError('pagination', `Invalid pagination parameter ${describe(raw)}: expected an object`, 'pagination');
  for (const key of Object.keys(raw)) {
    if (!KEYS.has(key)) throw invalidKey('pagination', key, null);
  }
  const given = (key: string) => raw[key] !== undefined && raw[key] !== null;
  const withCount = given('withCount') ? boolean('withCount', raw.withCount) : limits.withCount;
  const pageForm = given('page') || given('pageSize');
  const offsetForm = given('start') || given('limit');
  if (pageForm && offsetForm) throw new PaginationError('Cannot use both page & offset pagination in the same query');
  if (offsetForm) {
    const start = given('start') ? integer('start', raw.start) : 0;
    if (start < 0) throw bad('start', 'must be 0 or more', raw.start);
    let limit = given('limit') ? integer('limit', raw.limit) : limits.defaultLimit;
    if (limit === -1) limit = limits.maxLimit;
    if (limit < 1) throw bad('limit', 'must be at least 1 (or -1 for as many as allowed)', raw.limit);
    return { mode: 'offset', start, limit: Math.min(limit, limits.maxLimit), withCount };
  }
  const page = given('page') ? integer('page', raw.page) : 1;
  if (page < 1) throw bad('page', 'must be at least 1', raw.page);
  const size = given('pageSize') ? integer('pageSize', raw.pageSize) : limits.defaultLimit;
  if (size < 1) throw bad('pageSize', 'must be at least 1', raw.pageSize);
  const pageSize = Math.min(size, limits.maxLimit);
  if (!Number.isSafeInteger((page - 1) * pageSize)) throw bad('page', 'too large', raw.page);
  return { mode: 'page', page, pageSize, withCount };
}
