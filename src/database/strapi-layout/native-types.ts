import type { LayoutColumn, LayoutTable } from '../layout.js';
import type { DialectName } from '../types.js';

/**
 * The native column type Strapi 5 (through knex) writes for a planned column: docs/strapi-5-layout.md, 2. The
 * normalized plan (plan.ts) says `integer`, `double`, `json`, `datetime`; each dialect spells them its own way, and
 * two distinctions below the normalization come from the table's role, not from the column's type:
 *
 * - MariaDB's `unsigned`: Strapi marks every join-table column (`*_lnk`, `*_cmps`, `*_mph`: ids and positions) and
 *   every foreign-key column (`created_by_id`) unsigned; attribute columns (`stars`, `files.width`) are signed.
 * - Strapi's three tables made outside the models (`strapi_database_schema`, `strapi_migrations`,
 *   `strapi_migrations_internal`) use knex's plain `json` and `datetime` (no `jsonb`, no precision).
 *
 * Anything the plan does not produce is refused rather than guessed.
 */
export function strapiNativeType(table: LayoutTable, column: LayoutColumn, dialect: DialectName): string {
  const role: ColumnRole = {
    unsigned: JOIN_TABLE.test(table.name) || table.foreignKeys.some((key) => key.columns.includes(column.name)),
    plain: PLAIN_TABLES.has(table.name),
  };
  const type = NATIVE[dialect](column.type, role);
  if (type === undefined) throw new Error(`${table.name}.${column.name}: no ${dialect} type for Strapi's ${column.type}`);
  return type;
}

interface ColumnRole {
  unsigned: boolean;
  plain: boolean;
}

/** The table names Strapi's join tables end with (names.ts, identifiers.ts): relation links, components, morphs. */
const JOIN_TABLE = /_(lnk|cmps|mph)$/;
const PLAIN_TABLES = new Set(['strapi_database_schema', 'strapi_migrations', 'strapi_migrations_internal']);

type Spelling = (type: string, role: ColumnRole) => string | undefined;

/** Types whose spelling carries its arguments: varchar(255), char(36), decimal(10,2). */
function sized(type: string, spell: (kind: string, args: string) => string): string | undefined {
  const match = /^(varchar|char|decimal)\((\d+(?:,\d+)?)\)$/.exec(type);
  return match ? spell(match[1]!, match[2]!) : undefined;
}

/** SQLite keeps the declared text: knex's `double` and `decimal` are both declared `float`. */
const sqlite: Spelling = (type) =>
  sized(type, (kind, args) => (kind === 'decimal' ? 'float' : `${kind}(${args})`)) ??
  ({ text: 'text', json: 'json', integer: 'integer', bigint: 'bigint', double: 'float', float: 'float', date: 'date', time: 'time', datetime: 'datetime', boolean: 'boolean' } as Record<string, string>)[type];

const postgres: Spelling = (type, role) =>
  sized(type, (kind, args) => `${kind === 'decimal' ? 'numeric' : kind}(${args})`) ??
  (
    {
      text: 'text',
      json: role.plain ? 'json' : 'jsonb',
      integer: 'integer',
      bigint: 'bigint',
      double: 'double precision',
      float: 'real',
      date: 'date',
      time: 'time(3)',
      datetime: role.plain ? 'timestamp' : 'timestamp(6)',
      boolean: 'boolean',
    } as Record<string, string>
  )[type];

/** MariaDB: knex's `json` becomes `longtext ... CHECK (json_valid(col))` by itself. */
const mysql: Spelling = (type, role) => {
  const unsigned = role.unsigned ? ' unsigned' : '';
  return (
    sized(type, (kind, args) => `${kind}(${args})`) ??
    (
      {
        text: 'longtext',
        json: 'json',
        integer: `int${unsigned}`,
        bigint: 'bigint',
        double: `double${unsigned}`,
        float: 'float',
        date: 'date',
        time: 'time(3)',
        datetime: role.plain ? 'datetime' : 'datetime(6)',
        timestamp: 'timestamp(6)',
        boolean: 'boolean',
      } as Record<string, string>
    )[type]
  );
};

const NATIVE: Record<DialectName, Spelling> = { sqlite, postgres, mysql };
