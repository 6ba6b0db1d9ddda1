import type { Database, DialectName } from './types.js';

/** Tables that only Strapi makes: the log of its internal migrations, and its stored schema. */
const STRAPI_MARKERS = ['strapi_migrations_internal', 'strapi_database_schema'];

const MARKER_QUERY: Record<DialectName, string> = {
  sqlite: `SELECT name FROM sqlite_master WHERE type = 'table' AND name IN (?, ?)`,
  postgres: `SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_name IN (?, ?)`,
  mysql: `SELECT TABLE_NAME AS name FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME IN (?, ?)`,
};

/**
 * Whether the database holds Strapi 5's tables (Strapi or `cairn db create` made it), from one catalog read (nothing
 * is written). One without them is either empty (a start makes it Strapi's) or refused (unserved-database.ts).
 */
export async function holdsStrapiLayout(db: Pick<Database, 'dialect' | 'query'>): Promise<boolean> {
  const rows = await db.query(MARKER_QUERY[db.dialect], STRAPI_MARKERS);
  return rows.length > 0;
}
