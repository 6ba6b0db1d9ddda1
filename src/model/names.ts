import { createHash } from 'node:crypto';

/** `publishDate` -> `publish_date`, `openedOn` -> `opened_on`; already snake_case names stay as they are. */
export function snakeCase(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .replace(/-/g, '_')
    .toLowerCase();
}

export const ATTRIBUTE_NAME = /^[A-Za-z][A-Za-z0-9_]*$/;
export const API_NAME = /^[a-z][a-z0-9-]*$/;
export const COMPONENT_UID = /^[A-Za-z0-9][A-Za-z0-9_-]*\.[A-Za-z0-9][A-Za-z0-9_-]*$/;
/** The api part is a folder name, so it is looser than the kebab-case singularName after the dot. */
export const CONTENT_TYPE_UID = /^(api|plugin)::[A-Za-z0-9][A-Za-z0-9_-]*\.[a-z0-9][a-z0-9-]*$/;
/** Table names reach SQL as identifiers: keep them to what every dialect accepts unquoted. */
export const TABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** PostgreSQL truncates identifiers at 63 bytes and MySQL refuses more than 64: 63 is safe on all three. */
export const MAX_IDENTIFIER = 63;
/**
 * Cairn's former layout named its own tables (permissions, API tokens) with this prefix: a start names a database
 * holding them as that layout when refusing it (database/unserved-database.ts), so content tables keep clear of it.
 */
export const RESERVED_TABLE_PREFIX = 'cairn_';

/**
 * System columns and fields every entry carries. Compared with snake_case(name), as Strapi's content-type
 * builder does, so `createdAt`, `created_at` and `CreatedAt` are all caught.
 */
const RESERVED_COLUMNS = new Set([
  'id',
  'document_id',
  'created_at',
  'updated_at',
  'published_at',
  'created_by',
  'updated_by',
  'created_by_id',
  'updated_by_id',
  'locale',
  'localizations',
]);

/** Why an attribute may not take this name, or undefined when it may. */
export function reservedNameReason(name: string): string | undefined {
  if (name.startsWith('__')) return `"${name}" is reserved: names starting with "__" belong to the system (e.g. __component)`;
  if (RESERVED_COLUMNS.has(snakeCase(name))) return `"${name}" is reserved for a system field`;
  return undefined;
}

/**
 * Good-enough English plural for default component table names (Strapi writes `collectionName` into every
 * component file, so this only serves hand-written ones): address -> addresses, story -> stories, geo -> geos.
 */
export function pluralize(word: string): string {
  if (/(ss|x|z|ch|sh)$/.test(word)) return `${word}es`;
  if (word.endsWith('s')) return word;
  if (/[^aeiou]y$/.test(word)) return `${word.slice(0, -1)}ies`;
  return `${word}s`;
}

/** Derived table names (link and component tables) longer than MAX_IDENTIFIER keep a prefix and a stable hash. */
export function shortIdentifier(name: string): string {
  if (name.length <= MAX_IDENTIFIER) return name;
  const hash = createHash('sha1').update(name).digest('hex').slice(0, 8);
  return `${name.slice(0, MAX_IDENTIFIER - 9)}_${hash}`;
}
