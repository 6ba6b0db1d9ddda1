import qs from 'qs';
import type { ContentType, Model } from '../model/types.js';
import { ValidationError } from '../errors/index.js';
import type { ReadSpec, Status } from './types.js';
import { parseFields } from './parse-fields.js';
import { parseFilters } from './parse-filters.js';
import { parsePagination } from './parse-pagination.js';
import { parsePopulate } from './parse-populate.js';
import { parseSort } from './parse-sort.js';

export interface ReadOptions {
  defaultLimit: number;
  maxLimit: number;
  withCount: boolean;
  locales: string[];
  defaultLocale: string;
  /** Whether the caller may find a content-type (populate omits others). Default: everything. */
  canFind?: (uid: string) => boolean;
}

const PARAMS = new Set(['filters', 'fields', 'sort', 'populate', 'pagination', 'status', 'locale']);

/**
 * Parses a query string with qs, with limits. Exceeding one is a 400, never a silent truncation that would
 * drop part of a filter.
 */
export function parseQueryString(raw: string): Record<string, unknown> {
  try {
    return qs.parse(raw, {
      depth: 20,
      arrayLimit: 100,
      parameterLimit: 1000,
      strictDepth: true,
      throwOnLimitExceeded: true,
      allowPrototypes: false,
    }) as Record<string, unknown>;
  } catch (error) {
    throw new ValidationError(`Invalid query string: ${(error as Error).message}`, { source: 'query' });
  }
}

/** REST: every top-level parameter must be known (strict by default: an ignored one would change results). */
export function parseReadParams(model: Model, contentType: ContentType, params: Record<string, unknown>, options: ReadOptions): ReadSpec {
  for (const key of Object.keys(params)) {
    if (!PARAMS.has(key)) throw new ValidationError(`Invalid key ${key}`, { key, path: null, source: 'query', param: key });
  }
  return parseDocumentParams(model, contentType, params, options);
}

/** Read parameters from code (the document service): the same validation, undefined values ignored. */
export function parseDocumentParams(model: Model, contentType: ContentType, params: Record<string, unknown>, options: ReadOptions): ReadSpec {
  const canFind = options.canFind ?? (() => true);
  const spec: ReadSpec = {
    status: parseStatus(params.status),
    locale: parseLocale(contentType, params.locale, options),
    fields: parseFields(contentType, params.fields),
    sort: parseSort(model, contentType, params.sort, canFind),
    pagination: parsePagination(params.pagination, options),
    populate: parsePopulate({ model, canFind }, contentType, params.populate),
  };
  if (params.filters !== undefined && params.filters !== '') spec.filters = parseFilters(model, contentType, params.filters, '', canFind);
  return spec;
}

function parseStatus(raw: unknown): Status {
  if (raw === undefined || raw === 'published') return 'published';
  if (raw === 'draft') return 'draft';
  throw new ValidationError(`Invalid status ${JSON.stringify(raw)}: use draft or published`, { key: 'status', source: 'query', param: 'status' });
}

function parseLocale(contentType: ContentType, raw: unknown, options: ReadOptions): string | undefined {
  if (raw !== undefined && typeof raw !== 'string') {
    throw new ValidationError('locale must be a locale code', { key: 'locale', source: 'query', param: 'locale' });
  }
  // Non-localized content-types ignore `locale`, as the reference does.
  if (!contentType.localized) return undefined;
  if (raw === undefined) return options.defaultLocale;
  if (raw === '*' || options.locales.includes(raw)) return raw;
  throw new ValidationError(`Invalid locale ${raw}`, { key: 'locale', source: 'query', param: 'locale' });
}
