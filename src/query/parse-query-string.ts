import { createRequire } from 'node:module';
import type QS from 'qs';
import { ValidationError } from '../errors/index.js';

/**
 * qs is required on the first query string, not at start: with its dependencies (side-channel, get-intrinsic...)
 * it is some thirty small CommonJS files, ~15 ms of a start that a request without a query string doesn't need.
 */
const require = createRequire(import.meta.url);
let qsModule: typeof QS | undefined;
const qs = () => (qsModule ??= require('qs') as typeof QS);

/**
 * qs's limits for one app's query strings: `config/middlewares`' `strapi::query` entry sets them
 * (`{ name: 'strapi::query', config: { arrayLimit, depth, parameterLimit } }`), each app its own.
 */
export interface QueryStringLimits {
  /** How deep brackets nest (`filters[a][b][$eq]` is 3). */
  readonly depth: number;
  /** The highest index an array takes (`populate[100]`): beyond it, a 400. */
  readonly arrayLimit: number;
  /** How many parameters one query string has at most. */
  readonly parameterLimit: number;
}

/**
 * The defaults: Strapi's `strapi::query` middleware's (`arrayLimit: 100, depth: 20`) and qs's own parameter limit
 * (1,000). Deep enough for any real populate tree, small enough that a request can't blow up.
 */
export const QS_LIMITS: QueryStringLimits = Object.freeze({ depth: 20, arrayLimit: 100, parameterLimit: 1000 });

/** `name`, then `[segment]`s: what qs reads without dropping or re-reading part of the key. */
const KEY = /^[^[\]]+(?:\[[^[\]]*\])*$/;
/** Names qs silently drops (they would shadow Object.prototype): refused instead of ignored. */
const PROTOTYPE_NAMES = new Set(Object.getOwnPropertyNames(Object.prototype));

function decode(text: string): string {
  const spaced = text.replace(/\+/g, ' ');
  try {
    return decodeURIComponent(spaced);
  } catch {
    return spaced; // qs keeps a malformed escape as it is
  }
}

const malformed = (key: string, reason: string) =>
  new ValidationError(`Invalid query parameter ${JSON.stringify(key.length > 80 ? `${key.slice(0, 80)}…` : key)}: ${reason}`, {
    key,
    path: null,
    source: 'query',
    param: key.split('[')[0],
  });

/** Every key must be well formed: qs reads `a[b]]c` or `a[b` some way instead of failing. */
function checkKeys(raw: string): void {
  for (const part of raw.split('&')) {
    if (part === '') continue;
    const at = part.indexOf('=');
    const key = decode(at === -1 ? part : part.slice(0, at));
    if (key === '') throw malformed(key, 'empty name');
    if (!KEY.test(key)) throw malformed(key, 'malformed brackets');
    for (const segment of key.split('[')) {
      const name = segment.endsWith(']') ? segment.slice(0, -1) : segment;
      if (PROTOTYPE_NAMES.has(name)) throw malformed(key, `"${name}" is not a valid name`);
    }
  }
}

/**
 * `populate[0]=a&...&populate[100]=z`, past qs's array limit: Strapi 5 answers this case with its own message (a
 * client listing every field to populate meets it first), which says what to do instead.
 */
function tooManyPopulateEntries(text: string, arrayLimit: number): void {
  const indexes = new Set<string>();
  for (const part of text.split('&')) {
    const at = part.indexOf('=');
    const index = /^populate\[(\d+)\]$/.exec(decode(at === -1 ? part : part.slice(0, at)))?.[1];
    if (index !== undefined) indexes.add(index);
  }
  if (indexes.size <= arrayLimit) return;
  throw new ValidationError(
    `Too many populate entries (${indexes.size}). The maximum number of populate entries when using array notation is ${arrayLimit}. ` +
      'Consider using object notation (populate[field]=true), nested population, or reducing the number of fields.',
    { key: 'populate', path: null, source: 'query', param: 'populate' },
  );
}

/**
 * Parses a query string (without the `?`) with qs, with the app's limits (default: depth 20, 100 array items, 1,000
 * parameters). Exceeding one, a malformed key (`filters[title]][$eq]`) or a key qs would silently drop (`__proto__`,
 * `constructor`...) is a 400 ValidationError, never a silent truncation that would drop part of a filter.
 */
export function parseQueryString(raw: string, limits: QueryStringLimits): Record<string, unknown> {
  const text = raw.startsWith('?') ? raw.slice(1) : raw;
  if (text === '') return {};
  let parsed: Record<string, unknown>;
  try {
    parsed = qs().parse(text, {
      depth: limits.depth,
      arrayLimit: limits.arrayLimit,
      parameterLimit: limits.parameterLimit,
      strictDepth: true,
      throwOnLimitExceeded: true,
      allowPrototypes: false,
      allowDots: false,
      comma: false,
    }) as Record<string, unknown>;
  } catch (error) {
    tooManyPopulateEntries(text, limits.arrayLimit);
    throw new ValidationError(`Invalid query string: ${(error as Error).message}`, { key: null, path: null, source: 'query', param: null });
  }
  // After qs, so its parameter limit has bounded the number of keys.
  checkKeys(text);
  return parsed;
}
