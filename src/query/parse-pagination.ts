import { PaginationError, ValidationError } from '../errors/index.js';
import type { Pagination } from './types.js';
import { isPlainObject } from './fields-of.js';

export interface PaginationLimits {
  defaultLimit: number;
  maxLimit: number;
  withCount: boolean;
}

const bad = (key: string, message: string) =>
  new ValidationError(`pagination[${key}] ${message}`, { key, path: `pagination.${key}`, source: 'query', param: 'pagination' });

function integer(key: string, raw: unknown): number {
  const text = typeof raw === 'number' ? String(raw) : raw;
  if (typeof text !== 'string' || !/^-?\d+$/.test(text.trim())) throw bad(key, 'must be an integer');
  return Number(text);
}

/**
 * Page form (`page`, `pageSize`) or offset form (`start`, `limit`), never both. Sizes above maxLimit are clamped
 * (as the reference does), `limit=-1` means maxLimit; zero, negative or non-numeric values are 400s.
 */
export function parsePagination(raw: unknown, limits: PaginationLimits): Pagination {
  if (raw === undefined) return { mode: 'page', page: 1, pageSize: limits.defaultLimit, withCount: limits.withCount };
  if (!isPlainObject(raw)) throw new ValidationError('pagination must be an object', { key: 'pagination', source: 'query', param: 'pagination' });
  for (const key of Object.keys(raw)) {
    if (!['page', 'pageSize', 'start', 'limit', 'withCount'].includes(key)) throw ValidationError.invalidKey('pagination', key, key);
  }
  let withCount = limits.withCount;
  if (raw.withCount !== undefined) {
    if (raw.withCount === true || raw.withCount === 'true') withCount = true;
    else if (raw.withCount === false || raw.withCount === 'false') withCount = false;
    else throw bad('withCount', 'must be true or false');
  }
  const pageForm = raw.page !== undefined || raw.pageSize !== undefined;
  const offsetForm = raw.start !== undefined || raw.limit !== undefined;
  if (pageForm && offsetForm) throw new PaginationError('Cannot use both page & offset pagination in the same query');
  if (offsetForm) {
    const start = raw.start === undefined ? 0 : integer('start', raw.start);
    if (start < 0) throw bad('start', 'must be 0 or more');
    let limit = raw.limit === undefined ? limits.defaultLimit : integer('limit', raw.limit);
    if (limit === -1) limit = limits.maxLimit;
    if (limit < 1) throw bad('limit', 'must be at least 1 (or -1 for as many as allowed)');
    return { mode: 'offset', start, limit: Math.min(limit, limits.maxLimit), withCount };
  }
  const page = raw.page === undefined ? 1 : integer('page', raw.page);
  if (page < 1) throw bad('page', 'must be at least 1');
  const pageSize = raw.pageSize === undefined ? limits.defaultLimit : integer('pageSize', raw.pageSize);
  if (pageSize < 1) throw bad('pageSize', 'must be at least 1');
  return { mode: 'page', page, pageSize: Math.min(pageSize, limits.maxLimit), withCount };
}
