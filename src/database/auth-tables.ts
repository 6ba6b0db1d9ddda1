import type { Database } from './types.js';
import { columnType, idColumn } from './column-types.js';
import { readSchema } from './schema-read.js';
import { sqlDialect } from './sql/dialect.js';

/**
 * Auth's own tables (not content-types): role permissions and API tokens. Created if missing; a read tells
 * whether they are, so an ordinary start writes nothing (and needs no Kysely). A database Strapi made has none of
 * them and gets none: auth reads and writes Strapi's own tables there (`up_permissions`, `strapi_api_tokens`).
 */
export async function ensureAuthTables(db: Database): Promise<void> {
  if (db.layout === 'strapi') return;
  const { columns } = await readSchema(db);
  if (columns.has('cairn_permissions') && columns.has('cairn_api_tokens')) return;
  const d = sqlDialect(db.dialect);
  const text = columnType(db.dialect, 'string');
  const datetime = columnType(db.dialect, 'datetime');
  await db.execute(`CREATE TABLE IF NOT EXISTS cairn_permissions (id ${idColumn(db.dialect)}, role_type ${text} NOT NULL, action ${text} NOT NULL)${d.tableOptions}`);
  // One row: bumped with every change to cairn_permissions, so that running processes notice it (see Permissions).
  await db.execute(`CREATE TABLE IF NOT EXISTS cairn_permissions_version (id ${columnType(db.dialect, 'integer')} PRIMARY KEY, version ${columnType(db.dialect, 'biginteger')} NOT NULL)${d.tableOptions}`);
  await db.execute(d.insertIfAbsent('cairn_permissions_version', 'id, version', '(1, 0)', 'id'));
  await db.execute(
    `CREATE TABLE IF NOT EXISTS cairn_api_tokens (id ${idColumn(db.dialect)}, name ${text} NOT NULL, description ${columnType(db.dialect, 'text')}, type ${text} NOT NULL, access_key ${text} NOT NULL, permissions ${columnType(db.dialect, 'text')}, lifespan ${columnType(db.dialect, 'biginteger')}, expires_at ${datetime}, last_used_at ${datetime}, created_at ${datetime})${d.tableOptions}`,
  );
}
