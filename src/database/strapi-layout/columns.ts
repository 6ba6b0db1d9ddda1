import type { ScalarType } from '../../model/types.js';
import type { LayoutColumn } from '../layout.js';
import type { DialectName } from '../types.js';

/**
 * The columns Strapi 5 makes (`@strapi/database` `schema/schema.js`, `getColumnType`; docs/strapi-5-layout.md, 2),
 * in the normalized form of layout.ts: what `readLayout` reads back from a database Strapi made. Every column but
 * `id` is nullable and has no default: Strapi checks required, unique and default values itself.
 */

/** Normalized types of attribute columns; the same on every dialect but for decimal (knex writes SQLite's as float). */
const SCALAR_TYPES: Record<ScalarType, string | Record<DialectName, string>> = {
  string: 'varchar(255)',
  email: 'varchar(255)',
  enumeration: 'varchar(255)',
  uid: 'varchar(255)',
  password: 'varchar(255)',
  text: 'text',
  richtext: 'text',
  json: 'json',
  blocks: 'json',
  integer: 'integer',
  biginteger: 'bigint',
  float: 'double',
  decimal: { sqlite: 'double', postgres: 'decimal(10,2)', mysql: 'decimal(10,2)' },
  date: 'date',
  time: 'time',
  datetime: 'datetime',
  // knex's timestamp: `timestamp(6) without time zone` on PostgreSQL (read as datetime), MySQL's own TIMESTAMP there.
  // No fixture has one: from the code, not from a database.
  timestamp: { sqlite: 'datetime', postgres: 'datetime', mysql: 'timestamp' },
  boolean: 'boolean',
};

const column = (name: string, type: string): LayoutColumn => ({ name, type, nullable: true, default: null, autoIncrement: false });

/** An attribute's column. */
export function scalarColumn(name: string, type: ScalarType, dialect: DialectName): LayoutColumn {
  const types = SCALAR_TYPES[type];
  return column(name, typeof types === 'string' ? types : types[dialect]);
}

/** `id`: increments, the primary key. */
export const idColumn = (): LayoutColumn => ({ name: 'id', type: 'integer', nullable: false, default: null, autoIncrement: true });

/** A row id in another table (link columns, `created_by_id`, `entity_id`...): integer, unsigned on MySQL. */
export const rowIdColumn = (name: string): LayoutColumn => column(name, 'integer');

/** A position (`*_ord`, `order`): float in Strapi's metadata, a double column. */
export const orderColumn = (name: string): LayoutColumn => column(name, 'double');

/** A short text Strapi writes itself (`field`, `component_type`, `related_type`, `document_id`, `locale`). */
export const stringColumn = (name: string): LayoutColumn => column(name, 'varchar(255)');

/** `created_at`, `updated_at`, `published_at`. */
export const datetimeColumn = (name: string): LayoutColumn => column(name, 'datetime');
