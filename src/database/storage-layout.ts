import type { DialectName, StorageLayout } from './types.js';

/** Tables that only Strapi makes: the log of its internal migrations, and its stored schema. */
const STRAPI_MARKERS = ['strapi_migrations_internal', 'strapi_database_schema'];

const MARKER_QUERY: Record<DialectName, string> = {
  sqlite: `SELECT name FROM sqlite_master WHERE type = 'table' AND name IN (?, ?)`,
  postgres: `SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_name IN (?, ?)`,
  mysql: `SELECT TABLE_NAME AS name FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME IN (?, ?)`,
};

/** Runs one read; a `Database` fits, and so does a bare SQLite handle wrapped before the pool exists. */
type ReadQuery = (sql: string, params: readonly unknown[]) => Promise<Array<Record<string, unknown>>> | Array<Record<string, unknown>>;

/** The database's layout, from one catalog read (nothing is written). */
export async function detectStorageLayout(dialect: DialectName, query: ReadQuery): Promise<StorageLayout> {
  const rows = await query(MARKER_QUERY[dialect], STRAPI_MARKERS);
  return rows.length > 0 ? 'strapi' : 'cairn';
}
