import type { Database } from './types.js';

/** What a database holds now: each table's (and view's) columns and index names. */
export interface SchemaSnapshot {
  columns: Map<string, Set<string>>;
  indexes: Map<string, Set<string>>;
}

/**
 * The tables, columns and indexes of the connection's own schema (SQLite's main database, PostgreSQL's current
 * schema, MySQL's current database), read with two plain SELECTs: outside a transaction they run as prepared
 * reads, which is what lets a start on an up-to-date database finish without loading Kysely.
 */
export async function readSchema(db: Database): Promise<SchemaSnapshot> {
  const columnRows = await db.query<{ table_name: string; column_name: string | null }>(COLUMNS[db.dialect]);
  const indexRows = await db.query<{ table_name: string; index_name: string }>(INDEXES[db.dialect]);
  const columns = new Map<string, Set<string>>();
  for (const row of columnRows) {
    let set = columns.get(row.table_name);
    if (!set) columns.set(row.table_name, (set = new Set()));
    if (row.column_name !== null) set.add(row.column_name);
  }
  const indexes = new Map<string, Set<string>>();
  for (const row of indexRows) {
    let set = indexes.get(row.table_name);
    if (!set) indexes.set(row.table_name, (set = new Set()));
    set.add(row.index_name);
  }
  return { columns, indexes };
}

const COLUMNS = {
  sqlite: `SELECT m.name AS table_name, p.name AS column_name FROM sqlite_master m LEFT JOIN pragma_table_info(m.name) p
    WHERE m.type IN ('table', 'view') AND m.name NOT LIKE 'sqlite\\_%' ESCAPE '\\'`,
  postgres: `SELECT c.relname AS table_name, a.attname AS column_name FROM pg_catalog.pg_class c
    JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
    LEFT JOIN pg_catalog.pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
    WHERE c.relkind IN ('r', 'p', 'v') AND n.nspname = current_schema()`,
  mysql: `SELECT t.TABLE_NAME AS table_name, c.COLUMN_NAME AS column_name FROM information_schema.TABLES t
    LEFT JOIN information_schema.COLUMNS c ON c.TABLE_SCHEMA = t.TABLE_SCHEMA AND c.TABLE_NAME = t.TABLE_NAME
    WHERE t.TABLE_SCHEMA = DATABASE()`,
} as const;

const INDEXES = {
  sqlite: `SELECT tbl_name AS table_name, name AS index_name FROM sqlite_master WHERE type = 'index'`,
  postgres: `SELECT tablename AS table_name, indexname AS index_name FROM pg_catalog.pg_indexes WHERE schemaname = current_schema()`,
  mysql: `SELECT DISTINCT TABLE_NAME AS table_name, INDEX_NAME AS index_name FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = DATABASE()`,
} as const;
