import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';

/**
 * Strapi 5's identifier rules (`@strapi/database` `utils/identifiers`, docs/strapi-5-layout.md, 12): every table,
 * column, index and foreign key name is a list of tokens joined by `_`; fixed tokens (suffixes, prefixes) take their
 * short form (`links` → `lnk`), and a name longer than 55 characters has its compressible tokens cut to a share of
 * the room, each cut one ending in 5 hex digits of the SHAKE-256 hash of the whole token. Checked name by name
 * against what Strapi's own functions computed (test/fixtures/strapi-db/identifiers.json).
 */

export const IDENTIFIER_MAX_LENGTH = 55;
const HASH_LENGTH = 5;
/** A cut token keeps at least this many characters before its hash. */
const MIN_TOKEN_LENGTH = 3;
const SEPARATOR = '_';

/** Strapi's short forms of fixed tokens, used whatever the length (every link table ends in `_lnk`). */
const SHORT_FORMS: Readonly<Record<string, string>> = {
  links: 'lnk',
  order_inv_fk: 'oifk',
  order: 'ord',
  morphs: 'mph',
  index: 'idx',
  inv_fk: 'ifk',
  order_fk: 'ofk',
  id_column_index: 'idix',
  order_index: 'oidx',
  unique: 'uq',
  primary: 'pk',
};

export interface NameToken {
  name: string;
  /** A name part (table, attribute, singular name) that may be cut; false for a fixed suffix or prefix. */
  compressible: boolean;
  /** A fixed token's short form when it is not in Strapi's map (core passes `components` → `cmps` this way). */
  shortName?: string;
}

/**
 * lodash's snakeCase, which Strapi applies to attribute, singular and table names: it splits letters from digits
 * (`line2` → `line_2`, `compo21308` → `compo_21308`), which Cairn's own snakeCase does not. Loaded on first use
 * (with its helpers it is some twenty CommonJS files): commands that build no model never load it.
 */
const require = createRequire(import.meta.url);
let lodashSnakeCase: ((name: string) => string) | undefined;
export function strapiSnakeCase(name: string): string {
  lodashSnakeCase ??= require('lodash/snakeCase.js') as (name: string) => string;
  return lodashSnakeCase(name);
}

/** The first `length` hex digits of the SHAKE-256 hash of `data` (Strapi's `createHash`). */
export function identifierHash(data: string, length = HASH_LENGTH): string {
  return createHash('shake256', { outputLength: Math.ceil(length / 2) })
    .update(data)
    .digest('hex')
    .slice(0, length);
}

const shortForm = (token: NameToken): string => (token.compressible ? token.name : (token.shortName ?? SHORT_FORMS[token.name] ?? token.name));

/** A token cut to `length` characters: its start, then the hash of all of it. */
const cut = (name: string, length: number): string => (name.length <= length ? name : `${name.slice(0, length - HASH_LENGTH)}${identifierHash(name)}`);

/** Strapi's `getNameFromTokens`: the tokens joined, shortened to 55 characters when they are longer. */
export function nameFromTokens(tokens: readonly NameToken[]): string {
  const full = tokens.map(shortForm).join(SEPARATOR);
  if (full.length <= IDENTIFIER_MAX_LENGTH) return full;
  const compressible = tokens.filter((t) => t.compressible);
  const fixedLength = tokens.filter((t) => !t.compressible).reduce((sum, t) => sum + shortForm(t).length, 0);
  const available = IDENTIFIER_MAX_LENGTH - fixedLength - (tokens.length - 1);
  const share = Math.floor(available / compressible.length);
  if (compressible.length === 0 || share < MIN_TOKEN_LENGTH) throw new Error(`identifier ${full} cannot be shortened to ${IDENTIFIER_MAX_LENGTH} characters`);
  // Each part gets an equal share; parts shorter than theirs give the rest (and the division's remainder) to a
  // surplus, handed out one character at a time, in token order, to the parts still too long.
  let surplus = available % compressible.length;
  const allocated = new Map<NameToken, number>();
  for (const token of compressible) {
    const length = Math.min(token.name.length, share);
    if (token.name.length < share) surplus += share - token.name.length;
    allocated.set(token, length);
  }
  let wanting = compressible.filter((t) => allocated.get(t)! < t.name.length);
  while (surplus > 0 && wanting.length > 0) {
    wanting = wanting.filter((token) => {
      if (surplus === 0) return false;
      allocated.set(token, allocated.get(token)! + 1);
      surplus -= 1;
      return allocated.get(token)! < token.name.length;
    });
  }
  const name = tokens.map((t) => (t.compressible ? cut(t.name, allocated.get(t)!) : shortForm(t))).join(SEPARATOR);
  // A cut part keeps at least MIN_TOKEN_LENGTH characters before its hash.
  const tooShort = compressible.some((t) => allocated.get(t)! < t.name.length && allocated.get(t)! < MIN_TOKEN_LENGTH + HASH_LENGTH);
  if (tooShort || name.length > IDENTIFIER_MAX_LENGTH) throw new Error(`identifier ${full} cannot be shortened to ${IDENTIFIER_MAX_LENGTH} characters`);
  return name;
}

const part = (name: string): NameToken => ({ name, compressible: true });
const fixed = (name: string, shortName?: string): NameToken => ({ name, compressible: false, shortName });
/** Strapi's `getName`: the names as compressible parts, then the optional prefix and suffix as fixed ones. */
const named = (names: string | readonly string[], affixes: { prefix?: string; suffix?: string } = {}): string =>
  nameFromTokens([
    ...(affixes.prefix ? [fixed(affixes.prefix)] : []),
    ...(typeof names === 'string' ? [names] : names).map(part),
    ...(affixes.suffix ? [fixed(affixes.suffix)] : []),
  ]);

// Strapi's named rules, one function each (same names without `get`); arguments as Strapi passes them.

export const tableName = (collectionName: string) => named(collectionName);
export const columnName = (attributeName: string) => named(attributeName);
export const joinTableName = (tableName: string, attributeName: string) => named([tableName, attributeName], { suffix: 'links' });
export const morphTableName = (tableName: string, attributeName: string) => named([strapiSnakeCase(tableName), strapiSnakeCase(attributeName)], { suffix: 'morphs' });
export const joinColumnAttributeIdName = (name: string) => named(name, { suffix: 'id' });
export const inverseJoinColumnAttributeIdName = (name: string) => named(strapiSnakeCase(name), { prefix: 'inv', suffix: 'id' });
export const orderColumnName = (singularName: string) => named(singularName, { suffix: 'order' });
export const inverseOrderColumnName = (singularName: string) => named(singularName, { prefix: 'inv', suffix: 'order' });
export const morphColumnJoinTableIdName = (singularName: string) => named(strapiSnakeCase(singularName), { suffix: 'id' });
export const morphColumnAttributeIdName = (attributeName: string) => named(strapiSnakeCase(attributeName), { suffix: 'id' });
export const morphColumnTypeName = (attributeName: string) => named(strapiSnakeCase(attributeName), { suffix: 'type' });

export const indexName = (names: string | readonly string[]) => named(names, { suffix: 'index' });
export const fkIndexName = (names: string | readonly string[]) => named(names, { suffix: 'fk' });
export const uniqueIndexName = (names: string | readonly string[]) => named(names, { suffix: 'unique' });
export const primaryIndexName = (names: string | readonly string[]) => named(names, { suffix: 'primary' });
export const inverseFkIndexName = (names: string | readonly string[]) => named(names, { suffix: 'inv_fk' });
export const orderFkIndexName = (names: string | readonly string[]) => named(names, { suffix: 'order_fk' });
export const orderInverseFkIndexName = (names: string | readonly string[]) => named(names, { suffix: 'order_inv_fk' });
export const idColumnIndexName = (names: string | readonly string[]) => named(names, { suffix: 'id_column_index' });
export const orderIndexName = (names: string | readonly string[]) => named(names, { suffix: 'order_index' });

// Names `@strapi/core` builds for components (`transform-content-types-to-models`), from tokens of its own.

/** `<collection>_cmps`: the table attaching a schema's components and dynamic-zone entries. */
export const componentJoinTableName = (collectionName: string) => nameFromTokens([part(collectionName), fixed('components', 'cmps')]);
/** `<collection>_entity_fk`: the index and foreign key of a `_cmps` table's owner column. */
export const componentFkIndexName = (collectionName: string) => nameFromTokens([part(collectionName), fixed('entity'), fixed('fk')]);
/** The `_cmps` table's columns. */
export const COMPONENT_ENTITY_COLUMN = nameFromTokens([fixed('entity'), fixed('id')]);
export const COMPONENT_ID_COLUMN = nameFromTokens([fixed('component', 'cmp'), fixed('id')]);
export const COMPONENT_TYPE_COLUMN = nameFromTokens([fixed('component_type')]);
export const FIELD_COLUMN = 'field';
export const ORDER_COLUMN = 'order';
export const ID_COLUMN = 'id';

/** The rules above by the names Strapi's `identifiers` object gives them (its `get...` functions). */
export const STRAPI_NAME_RULES = Object.freeze({
  getNameFromTokens: nameFromTokens,
  getTableName: tableName,
  getColumnName: columnName,
  getJoinTableName: joinTableName,
  getMorphTableName: morphTableName,
  getJoinColumnAttributeIdName: joinColumnAttributeIdName,
  getInverseJoinColumnAttributeIdName: inverseJoinColumnAttributeIdName,
  getOrderColumnName: orderColumnName,
  getInverseOrderColumnName: inverseOrderColumnName,
  getMorphColumnJoinTableIdName: morphColumnJoinTableIdName,
  getMorphColumnAttributeIdName: morphColumnAttributeIdName,
  getMorphColumnTypeName: morphColumnTypeName,
  getIndexName: indexName,
  getFkIndexName: fkIndexName,
  getUniqueIndexName: uniqueIndexName,
  getPrimaryIndexName: primaryIndexName,
  getInverseFkIndexName: inverseFkIndexName,
  getOrderFkIndexName: orderFkIndexName,
  getOrderInverseFkIndexName: orderInverseFkIndexName,
  getIdColumnIndexName: idColumnIndexName,
  getOrderIndexName: orderIndexName,
});
