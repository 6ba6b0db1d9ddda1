import type { LayoutColumn, LayoutForeignKey, LayoutIndex, LayoutTable } from '../layout.js';
import type { Database, DialectName } from '../types.js';
import { strapiNativeType } from './native-types.js';

/**
 * Creates exactly these tables (a plan from plan.ts) as Strapi 5 creates them through knex, on an empty database:
 * native types as Strapi's (native-types.ts), `id` auto-increment primary keys, indexes and unique indexes (on
 * PostgreSQL a unique one is a UNIQUE constraint, as knex makes it), named foreign keys with their ON DELETE
 * actions; on MariaDB `ENGINE=InnoDB` and utf8mb4. Nothing beyond the tables (no rows).
 *
 * Refuses, before any statement, when one of the tables already exists (TablesExistError): creating is for an empty
 * database, or one where these tables are missing; a table that exists is never altered nor replaced.
 *
 * SQLite and PostgreSQL run every statement in one transaction: a failure half-way leaves nothing. MariaDB commits
 * each CREATE TABLE implicitly, so a failure half-way drops the tables this call had created (best effort; what
 * could not be dropped is named in the error).
 */
export async function createStrapiTables(db: Database, tables: readonly LayoutTable[]): Promise<void> {
  const statements = strapiTableStatements(db.dialect, tables);
  const existing = await existingTables(db, tables);
  if (existing.length) throw new TablesExistError(existing);
  if (db.dialect !== 'mysql') {
    await db.transaction(async (trx) => {
      for (const sql of statements) await trx.execute(sql);
    });
    return;
  }
  const created: string[] = [];
  try {
    for (const sql of statements) {
      await db.execute(sql);
      const made = /^CREATE TABLE `((?:[^`]|``)+)`/.exec(sql);
      if (made) created.push(made[1]!.replace(/``/g, '`'));
    }
  } catch (error) {
    if (created.length) {
      try {
        // One statement drops tables that refer to each other, in any order.
        await db.execute(`DROP TABLE IF EXISTS ${created.map((name) => quoteFor('mysql')(name)).join(', ')}`);
      } catch (dropError) {
        throw new Error(`creating Strapi's tables failed and the tables made so far could not be dropped (${created.join(', ')}): ${(dropError as Error).message}`, {
          cause: error,
        });
      }
    }
    throw error;
  }
}

/** Some of the tables to create are already there: nothing was created. */
export class TablesExistError extends Error {
  readonly code = 'CAIRN_TABLES_EXIST';

  constructor(readonly tables: readonly string[]) {
    super(`cannot create Strapi's tables: ${tables.length} already exist (${tables.join(', ')}); nothing was created`);
    this.name = 'TablesExistError';
  }
}

/** Which of these tables the connection's schema already has. */
async function existingTables(db: Database, tables: readonly LayoutTable[]): Promise<string[]> {
  const rows = await db.query<{ name: string }>(EXISTING_TABLES[db.dialect]);
  const present = new Set(rows.map((row) => String(row.name)));
  return tables.map((t) => t.name).filter((name) => present.has(name));
}

const EXISTING_TABLES: Record<DialectName, string> = {
  sqlite: `SELECT name FROM sqlite_master WHERE type = 'table'`,
  postgres: `SELECT c.relname AS name FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p', 'v', 'm', 'f')`,
  mysql: `SELECT TABLE_NAME AS name FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE()`,
};

/**
 * The DDL, in order, as knex writes it for Strapi: each table with its columns and primary key, then its indexes;
 * foreign keys after every table on PostgreSQL and MariaDB (so no order between tables is needed, as in Strapi's
 * own second pass), inside CREATE TABLE on SQLite, which cannot add one later and resolves references when rows are
 * written, not when tables are made.
 */
export function strapiTableStatements(dialect: DialectName, tables: readonly LayoutTable[]): string[] {
  const names = new Set<string>();
  for (const table of tables) {
    if (names.has(table.name)) throw new Error(`${table.name} is planned twice`);
    names.add(table.name);
    checkShape(table);
  }
  const q = quoteFor(dialect);
  const statements: string[] = [];
  const keys: string[] = [];
  for (const table of tables) {
    // The plan keeps columns by name (their order is not part of a layout): `id` first, as knex writes it; the
    // others in the plan's order, not the model's (Strapi reads and writes columns by name only).
    const columns = [...table.columns.filter((c) => c.autoIncrement), ...table.columns.filter((c) => !c.autoIncrement)];
    const lines = columns.map((column) => {
      if (column.autoIncrement) return `${q(column.name)} ${ID[dialect]}`;
      return `${q(column.name)} ${strapiNativeType(table, column, dialect)} ${column.nullable ? 'NULL' : 'NOT NULL'}`;
    });
    if (dialect === 'sqlite') lines.push(...table.foreignKeys.map((key) => foreignKeyClause(q, key)));
    if (dialect === 'mysql') {
      // MariaDB: indexes inside the table (one statement, one implicit commit), as SHOW CREATE TABLE prints them.
      lines.push(...table.indexes.map((index) => `${index.unique ? 'UNIQUE KEY' : 'KEY'} ${q(index.name)} (${index.columns.map(q).join(', ')})`));
    }
    const options = dialect === 'mysql' ? ' ENGINE=InnoDB DEFAULT CHARSET=utf8mb4' : '';
    statements.push(`CREATE TABLE ${q(table.name)} (${lines.join(', ')})${options}`);
    if (dialect !== 'mysql') statements.push(...table.indexes.map((index) => indexStatement(dialect, q, table.name, index)));
    // One ALTER per table: on MariaDB each is a commit and (for InnoDB keys) a rebuild of the table.
    if (dialect !== 'sqlite' && table.foreignKeys.length) {
      keys.push(`ALTER TABLE ${q(table.name)} ${table.foreignKeys.map((key) => `ADD ${foreignKeyClause(q, key)}`).join(', ')}`);
    }
  }
  return [...statements, ...keys];
}

/**
 * `ALTER TABLE ... ADD COLUMN` for a planned column that an existing table lacks, typed as strapiTableStatements
 * types it (`table` is the planned table: its foreign keys decide MariaDB's `unsigned`). Nullable columns only: a
 * NOT NULL one has no value for the rows already there (additions.ts never asks for one).
 */
export function addColumnStatement(dialect: DialectName, table: LayoutTable, column: LayoutColumn): string {
  if (column.autoIncrement || !column.nullable) throw new Error(`${table.name}.${column.name}: only a nullable column is added to an existing table`);
  const q = quoteFor(dialect);
  return `ALTER TABLE ${q(table.name)} ADD COLUMN ${q(column.name)} ${strapiNativeType(table, column, dialect)} NULL`;
}

/** An index (or PostgreSQL's unique constraint) that an existing table lacks, as strapiTableStatements makes it. */
export function addIndexStatement(dialect: DialectName, table: string, index: LayoutIndex): string {
  const q = quoteFor(dialect);
  // MariaDB makes indexes inside CREATE TABLE; for a table that exists, CREATE INDEX gives the same catalog.
  if (dialect === 'mysql') return `CREATE ${index.unique ? 'UNIQUE ' : ''}INDEX ${q(index.name)} ON ${q(table)} (${index.columns.map(q).join(', ')})`;
  return indexStatement(dialect, q, table, index);
}

/** Foreign keys that an existing table lacks, in one ALTER (PostgreSQL and MariaDB; SQLite cannot add one). */
export function addForeignKeysStatement(dialect: DialectName, table: string, keys: readonly LayoutForeignKey[]): string {
  if (dialect === 'sqlite') throw new Error(`${table}: SQLite cannot add a foreign key to an existing table`);
  const q = quoteFor(dialect);
  return `ALTER TABLE ${q(table)} ${keys.map((key) => `ADD ${foreignKeyClause(q, key)}`).join(', ')}`;
}

/** What knex's `increments()` writes. */
const ID: Record<DialectName, string> = {
  sqlite: 'integer PRIMARY KEY AUTOINCREMENT NOT NULL',
  postgres: 'serial PRIMARY KEY',
  mysql: 'int unsigned NOT NULL AUTO_INCREMENT PRIMARY KEY',
};

function indexStatement(dialect: DialectName, q: (name: string) => string, table: string, index: LayoutIndex): string {
  const columns = index.columns.map(q).join(', ');
  // knex's `unique()` on PostgreSQL is a constraint (with its index of the same name); elsewhere a unique index.
  if (index.unique && dialect === 'postgres') return `ALTER TABLE ${q(table)} ADD CONSTRAINT ${q(index.name)} UNIQUE (${columns})`;
  return `CREATE ${index.unique ? 'UNIQUE ' : ''}INDEX ${q(index.name)} ON ${q(table)} (${columns})`;
}

function foreignKeyClause(q: (name: string) => string, key: LayoutForeignKey): string {
  const name = key.name === null ? '' : `CONSTRAINT ${q(key.name)} `;
  const onUpdate = key.onUpdate === 'NO ACTION' ? '' : ` ON UPDATE ${rule(key.onUpdate)}`;
  const onDelete = key.onDelete === 'NO ACTION' ? '' : ` ON DELETE ${rule(key.onDelete)}`;
  return `${name}FOREIGN KEY (${key.columns.map(q).join(', ')}) REFERENCES ${q(key.referencedTable)} (${key.referencedColumns.map(q).join(', ')})${onDelete}${onUpdate}`;
}

const RULES = new Set(['CASCADE', 'SET NULL', 'SET DEFAULT', 'RESTRICT', 'NO ACTION']);
function rule(value: string): string {
  if (!RULES.has(value)) throw new Error(`unknown foreign key action ${value}`);
  return value;
}

/** The shapes Strapi makes and this writes: an auto-increment `id` primary key, no defaults. */
function checkShape(table: LayoutTable): void {
  const auto = table.columns.filter((c) => c.autoIncrement);
  if (auto.length !== 1 || table.primaryKey.length !== 1 || table.primaryKey[0] !== auto[0]!.name || auto[0]!.type !== 'integer') {
    throw new Error(`${table.name}: Strapi's tables have one auto-increment integer primary key; this one has ${table.primaryKey.join(', ') || 'none'}`);
  }
  for (const column of table.columns) {
    if (column.default !== null) throw new Error(`${table.name}.${column.name}: Strapi's columns have no default (found ${column.default})`);
  }
}

/** knex quotes with backticks on SQLite and MariaDB, double quotes on PostgreSQL. */
function quoteFor(dialect: DialectName): (name: string) => string {
  if (dialect === 'postgres') return (name) => `"${name.replace(/"/g, '""')}"`;
  return (name) => `\`${name.replace(/`/g, '``')}\``;
}
