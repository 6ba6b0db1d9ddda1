import type { ContentType, Model } from '../model/types.js';
import type { ReadSpec, Status } from './types.js';
import { describe, invalidKey, queryError } from './errors.js';
import { isPlainObject } from './fields-of.js';
import { parseFields } from './parse-fields.js';
import { parseFilters } from './parse-filters.js';
import { parsePagination } from './parse-pagination.js';
import { parsePopulate } from './parse-populate.js';
import { parseSort } from './parse-sort.js';
import { parseSearch } from './parse-search.js';
import { cascadePublication, parsePublication } from './parse-publication.js';
import { withSource } from './spec-source.js';

export { parseQueryString } from './parse-query-string.js';

export interface ReadOptions {
  /** `api.rest.defaultLimit`, `maxLimit`, `withCount`. */
  defaultLimit: number;
  maxLimit: number;
  withCount: boolean;
  /** Locale codes of the app, and the default one (localized content-types only). */
  locales: string[];
  defaultLocale: string;
  /** Whether the caller may `find` a content-type: populate omits others, filters and sorts through them are 400s. */
  canFind?: (uid: string) => boolean;
  /**
   * Top-level parameters a route handles itself, besides the read parameters: accepted by `parseReadParams`'s
   * strict check and left to the caller (they are not part of the ReadSpec).
   */
  allowedParams?: readonly string[];
  /** Code's reads (the Document Service): private attributes and passwords too (see ReadSpec.withPrivate). */
  withPrivate?: boolean;
}

/** The app's own read settings (config's `api.rest` and its locales), built once by the app; each caller adds the rest. */
export type ReadSettings = Pick<ReadOptions, 'defaultLimit' | 'maxLimit' | 'withCount' | 'locales' | 'defaultLocale'>;

/** The read parameters of Strapi v5's Content API. REST adds nothing else. */
export const READ_PARAMS: readonly string[] = ['filters', 'fields', 'sort', 'populate', 'pagination', 'status', 'locale', '_q', 'publicationFilter', 'hasPublishedVersion'];
const READ_PARAM_SET = new Set(READ_PARAMS);

/**
 * REST: validates a parsed query string into a ReadSpec. Strict: an unknown top-level parameter is a 400
 * `Invalid key <param>` (an ignored one would change results without the client knowing).
 */
export function parseReadParams(model: Model, contentType: ContentType, params: Record<string, unknown>, options: ReadOptions): ReadSpec {
  const extra = options.allowedParams ?? [];
  for (const key of Object.keys(params)) {
    if (!READ_PARAM_SET.has(key) && !extra.includes(key)) throw invalidKey(key, key, null);
  }
  // Params app code changed (a document middleware) are read as the Document Service reads them.
  return withSource(readSpec(model, contentType, params, options), { params, reparse: (changed) => parseDocumentParams(model, contentType, changed, options) });
}

/**
 * Read parameters from code (the document service, GraphQL): the same validation of every read parameter, but
 * keys it does not know are left to the caller, undefined and null values mean "not given", and Strapi's
 * document-service pagination at the top level (`page`, `pageSize`, `start`, `limit`) is read too.
 */
export function parseDocumentParams(model: Model, contentType: ContentType, params: Record<string, unknown>, options: ReadOptions): ReadSpec {
  const given: Record<string, unknown> = {};
  for (const key of READ_PARAMS) if (params[key] !== undefined && params[key] !== null) given[key] = params[key];
  const flat = ['page', 'pageSize', 'start', 'limit'].filter((k) => params[k] !== undefined && params[k] !== null);
  if (flat.length) {
    if (given.pagination !== undefined) {
      throw queryError('pagination', `Use pagination or ${flat.join(', ')}, not both`, flat[0], null);
    }
    given.pagination = Object.fromEntries(flat.map((k) => [k, params[k]]));
  }
  return withSource(readSpec(model, contentType, given, options), { params, reparse: (changed) => parseDocumentParams(model, contentType, changed, options) });
}

function readSpec(model: Model, contentType: ContentType, params: Record<string, unknown>, options: ReadOptions): ReadSpec {
  const canFind = options.canFind ?? (() => true);
  const withPrivate = options.withPrivate === true;
  const spec: ReadSpec = {
    status: parseStatus(params.status),
    locale: localesToRead(contentType, params, parseLocale(contentType, params.locale, options)),
    fields: parseFields(contentType, params.fields, 'fields', withPrivate),
    sort: parseSort(model, contentType, params.sort, canFind, 'sort', withPrivate),
    pagination: parsePagination(params.pagination, options),
    populate: parsePopulate({ model, canFind, withPrivate }, contentType, params.populate),
    ...(withPrivate ? { withPrivate } : {}),
  };
  // `filters=` (nothing) is no filter; an empty object is none either.
  const filters = params.filters;
  if (filters !== undefined && filters !== '' && !(isPlainObject(filters) && Object.keys(filters).length === 0)) {
    spec.filters = parseFilters(model, contentType, filters, null, canFind, 'filters', withPrivate);
  }
  const search = parseSearch(contentType, params._q);
  if (search) spec.filters = spec.filters ? { kind: 'and', items: [spec.filters, search] } : search;
  const publication = parsePublication(params);
  if (publication) {
    if (contentType.draftAndPublish) spec.filters = spec.filters ? { kind: 'and', items: [spec.filters, publication] } : publication;
    spec.populate = cascadePublication(model, contentType, spec.populate, publication);
  }
  return spec;
}

/**
 * The locales a read looks in. A top-level `filters[locale]` on a localized type chooses them itself: Strapi merges
 * the filters over its locale lookup (`{ ...lookup, ...where }`, document-service `transform/query.js`), so the filter
 * replaces the default locale and the `locale` parameter alike (`locale=fr&filters[locale][$eq]=en` lists the English
 * entries; the parameter is still validated). Nested under `$and`/`$or` it is one more condition, within the locale
 * the parameter (or the default) gives, as in Strapi.
 */
function localesToRead(contentType: ContentType, params: Record<string, unknown>, locale: string | undefined): string | undefined {
  return contentType.localized && isPlainObject(params.filters) && Object.hasOwn(params.filters, 'locale') ? '*' : locale;
}

/**
 * `published` (default) or `draft`; anything else is a 400 (the reference reads any other value as draft).
 * Content-types without Draft & Publish accept it and ignore it (every entry is published).
 */
function parseStatus(raw: unknown): Status {
  if (raw === undefined || raw === 'published') return 'published';
  if (raw === 'draft') return 'draft';
  throw queryError('status', `Invalid status ${describe(raw)}: expected draft or published`, 'status');
}

/**
 * Localized content-types: the default locale, a configured code, or `*` (every locale); an unknown code is a 400
 * (the reference answers an empty list). Other types ignore `locale`, as the reference does, but it must be a string.
 */
function parseLocale(contentType: ContentType, raw: unknown, options: ReadOptions): string | undefined {
  if (raw !== undefined && typeof raw !== 'string') {
    throw queryError('locale', `Invalid locale ${describe(raw)}: expected a locale code`, 'locale');
  }
  if (!contentType.localized) return undefined;
  if (raw === undefined) return options.defaultLocale;
  if (raw === '*' || options.locales.includes(raw)) return raw;
  throw queryError('locale', `Invalid locale ${describe(raw)}: expected one of ${[...options.locales, '*'].join(', ')}`, 'locale');
}
