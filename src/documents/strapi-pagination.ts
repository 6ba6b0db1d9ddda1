import { PaginationError, ValidationError } from '../errors/index.js';

type Params = Record<string, unknown>;

/**
 * The flat pagination params of Strapi 5.54's Document Service (`page`, `pageSize`, `start`, `limit`), checked as its
 * query conversion checks them (@strapi/utils convert-query-params.js, with its messages), for app code: page and
 * offset forms never together; `page`/`pageSize` integers above 0 (PaginationError); `start` an integer of 0 or
 * more and `limit` one of 0 or more, or -1 (ValidationError); numbers given as text are read as numbers. A `limit`
 * of 0 sets no limit there (its query builder skips a falsy limit): here it is -1, every entry. What passes is
 * handed on as numbers; REST keeps its own rules (query/parse-pagination.ts).
 */
export function strapiPagination(params: Params): Params {
  const given = (key: string) => params[key] !== undefined && params[key] !== null;
  if ((given('page') || given('pageSize')) && (given('start') || given('limit'))) {
    throw new PaginationError('Invalid pagination attributes. The page parameters are incorrect and must be in the pagination object');
  }
  const result: Params = { ...params };
  for (const key of ['page', 'pageSize'] as const) {
    if (!given(key)) continue;
    const n = toNumber(params[key]);
    if (!Number.isInteger(n) || n <= 0) throw new PaginationError(`Invalid '${key}' parameter. Expected an integer > 0, received: ${String(params[key])}`);
    result[key] = n;
  }
  if (given('start')) {
    const n = toNumber(params.start);
    if (!Number.isInteger(n) || n < 0) throw new ValidationError(`convertStartQueryParams expected a positive integer got ${n}`);
    result.start = n;
  }
  if (given('limit')) {
    const n = toNumber(params.limit);
    if (!Number.isInteger(n) || (n !== -1 && n < 0)) throw new ValidationError(`convertLimitQueryParams expected a positive integer got ${n}`);
    result.limit = n === 0 ? -1 : n;
  }
  return result;
}

/** lodash's `toNumber` for what params hold: numbers as they are, text read as a number ('' is 0), else NaN. */
function toNumber(value: unknown): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'string') return value.trim() === '' ? 0 : Number(value.trim());
  if (typeof value === 'boolean') return value ? 1 : 0;
  return Number.NaN;
}
