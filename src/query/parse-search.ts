import type { ContentType } from '../model/types.js';
import type { FieldRef, Filter } from './types.js';
import { describe, queryError } from './errors.js';
import { fieldRef, ID_FIELD } from './fields-of.js';

/** Attribute types `_q` searches, as Strapi's search does; number types only for a numeric query. */
const TEXT_TYPES = new Set<string>(['string', 'text', 'richtext', 'email', 'uid', 'enumeration']);
const NUMBER_TYPES = new Set<string>(['integer', 'biginteger', 'float', 'decimal']);

/**
 * `_q`, Strapi's search: an entry matches when one of its text attributes (its documentId and locale too) contains the whole query,
 * case-insensitively (`$containsi`, so LIKE wildcards are plain characters); for a numeric query, its id and number
 * attributes too, compared as text (`_q=12.4` finds 12.4). Private attributes and passwords are not searched (they
 * cannot be filtered on either), nor attributes whose schema says `searchable: false` (Strapi's search skips them).
 * An empty query is no condition; anything but one string is a 400.
 */
export function parseSearch(contentType: ContentType, raw: unknown): Filter | undefined {
  if (raw === undefined || raw === '') return undefined;
  if (typeof raw !== 'string') throw queryError('_q', `Invalid _q ${describe(raw)}: expected a string`, '_q');
  if (raw.includes('\u0000')) throw queryError('_q', 'Invalid _q: NUL characters are not allowed', '_q');
  const numeric = raw.trim() !== '' && !Number.isNaN(Number(raw));
  const fields: FieldRef[] = numeric ? [ID_FIELD] : [];
  // Strapi's search reads its model's attributes, where `documentId` and a localized type's `locale` are strings too:
  // `_q=<a documentId>` finds that document, and `_q=en` every entry in English.
  for (const name of ['documentId', 'locale']) {
    const field = fieldRef(contentType, name);
    if (field) fields.push(field);
  }
  for (const [name, attribute] of contentType.attributes) {
    if (attribute.raw.searchable === false) continue;
    const field = fieldRef(contentType, name);
    if (field && (TEXT_TYPES.has(field.type) || (numeric && NUMBER_TYPES.has(field.type)))) fields.push(field);
  }
  // A type with nothing to search matches nothing, as an OR of no condition.
  if (fields.length === 0) return { kind: 'not', item: { kind: 'and', items: [] } };
  return { kind: 'or', items: fields.map((field) => ({ kind: 'compare', field, operator: '$containsi', value: raw })) };
}
