import type { Model } from '../../model/types.js';
import type { Database, DialectName } from '../types.js';
import { STRAPI_ADMIN_TABLES } from './admin-tables.js';
import { cairnMarkRow } from './cairn-mark.js';
import { createStrapiTables } from './create.js';
import { STRAPI_DEFAULT_LOCALE, STRAPI_DEFAULT_ROLES, STRAPI_DEFAULT_STORE, STRAPI_INTERNAL_MIGRATIONS } from './default-rows.js';
import { planStrapiLayout } from './plan.js';
import { insertRow, newRowColumns, strapiDatetime } from './rows.js';

export interface CreateStrapiDatabaseOptions {
  /** The moment written as the rows' created, updated and published times. */
  now?: Date;
  /**
   * The app's locales (config/plugins i18n, resolveLocales), the default one among them; Strapi's `en` when none.
   * Written as Strapi's i18n has them: the default first (Strapi makes it at its first start), the others after it
   * in the config's order (as made in Strapi's admin), and the default named in the core store.
   */
  locales?: ReadonlyArray<{ code: string; name: string; isDefault: boolean }>;
}

/** What createStrapiDatabase made. */
export interface CreatedStrapiDatabase {
  /** The tables created, by name, sorted: planStrapiLayout's and Strapi's admin's (admin-tables.ts). */
  tables: string[];
  /** Rows written, per table. */
  rows: Record<string, number>;
}

/**
 * Turns an EMPTY database into one Strapi 5.54 opens as its own, for this model: every table Strapi makes for it
 * (plan.ts's, and its admin's that Cairn does not use: admin-tables.ts; created as Strapi creates them: create.ts)
 * and the rows Strapi writes into a database it has just made (default-rows.ts): its internal migrations as run,
 * the app's locales (options.locales), users-permissions' two roles with their default actions and settings, and
 * the mark that Cairn made it (cairn-mark.ts: a start adds to it what the model adds, additions.ts). Strapi's first start on
 * it creates and alters no table, and changes none of these rows; it adds rows of its own (its stored schema,
 * content-manager and upload settings) as it does on a database it made.
 *
 * Refuses a database that holds any table (DatabaseNotEmptyError), before writing anything. SQLite and PostgreSQL
 * create and fill in one transaction; on MariaDB (where each CREATE TABLE commits) a failure drops what was made.
 * A SQLite file is left in Strapi's journal mode (`delete`).
 */
export async function createStrapiDatabase(db: Database, model: Model, options: CreateStrapiDatabaseOptions = {}): Promise<CreatedStrapiDatabase> {
  const locales = strapiLocaleRows(options.locales);
  const tables = [...planStrapiLayout(model, db.dialect), ...STRAPI_ADMIN_TABLES].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const present = await tablesIn(db);
  if (present.length) throw new DatabaseNotEmptyError(present);
  const at = options.now ?? new Date();
  let rows: Record<string, number>;
  if (db.dialect === 'mysql') {
    await createStrapiTables(db, tables);
    try {
      rows = await db.transaction((trx) => writeStrapiRows(trx, at, locales));
    } catch (error) {
      await db.execute(`DROP TABLE IF EXISTS ${tables.map((t) => db.quote(t.name)).join(', ')}`).catch(() => undefined);
      throw error;
    }
  } else {
    rows = await db.transaction(async (trx) => {
      await createStrapiTables(trx, tables);
      return writeStrapiRows(trx, at, locales);
    });
  }
  if (db.dialect === 'sqlite') await db.query('PRAGMA journal_mode = DELETE');
  return { tables: tables.map((t) => t.name), rows };
}

/** The database holds tables: creating Strapi's layout is for an empty one. Nothing was written. */
export class DatabaseNotEmptyError extends Error {
  readonly code = 'CAIRN_DATABASE_NOT_EMPTY';

  constructor(readonly tables: readonly string[]) {
    const shown = tables.slice(0, 10).join(', ') + (tables.length > 10 ? `, and ${tables.length - 10} more` : '');
    super(
      `the database is not empty (${tables.length} table${tables.length === 1 ? '' : 's'}: ${shown}): Strapi's layout is created in an empty database only; nothing was changed`,
    );
    this.name = 'DatabaseNotEmptyError';
  }
}

/** The tables and views of the connection's schema (SQLite's own `sqlite_*` aside), sorted. */
export async function tablesIn(db: Pick<Database, 'dialect' | 'query'>): Promise<string[]> {
  const rows = await db.query<{ name: string }>(TABLES[db.dialect]);
  return rows.map((r) => String(r.name)).sort();
}

const TABLES: Record<DialectName, string> = {
  sqlite: `SELECT name FROM sqlite_master WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'`,
  postgres: `SELECT c.relname AS name FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p', 'v', 'm', 'f')`,
  mysql: `SELECT TABLE_NAME AS name FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE()`,
};

/** default-rows.ts's rows, in the order Strapi writes them on its first start (ids as Strapi's). */
async function writeStrapiRows(db: Database, at: Date, locales: ReadonlyArray<{ code: string; name: string }>): Promise<Record<string, number>> {
  const now = strapiDatetime(db.dialect, at);
  const count: Record<string, number> = {};
  const add = (table: string) => (count[table] = (count[table] ?? 0) + 1);

  for (const name of STRAPI_INTERNAL_MIGRATIONS) {
    await db.execute(`INSERT INTO strapi_migrations_internal (name, ${db.quote('time')}) VALUES (?, ?)`, [name, now]);
    add('strapi_migrations_internal');
  }
  // Strapi's core store keeps values as JSON text; `key` and `value` are reserved words on some dialects.
  const store = `INSERT INTO strapi_core_store_settings (${['key', 'value', 'type', 'environment', 'tag'].map((c) => db.quote(c)).join(', ')}) VALUES (?, ?, ?, NULL, NULL)`;
  for (const row of STRAPI_DEFAULT_STORE) {
    // i18n names the locale it made first, the default.
    const value = row.key === 'plugin_i18n_default_locale' ? locales[0]!.code : row.value;
    await db.execute(store, [row.key, JSON.stringify(value), row.type]);
    add('strapi_core_store_settings');
  }
  for (const locale of locales) {
    await insertRow(db, 'i18n_locale', { ...newRowColumns(db.dialect, at), name: locale.name, code: locale.code });
    add('i18n_locale');
  }
  for (const role of STRAPI_DEFAULT_ROLES) {
    const roleId = await insertRow(db, 'up_roles', { ...newRowColumns(db.dialect, at), name: role.name, description: role.description, type: role.type });
    add('up_roles');
    let ord = 0;
    for (const action of role.actions) {
      const permissionId = await insertRow(db, 'up_permissions', { ...newRowColumns(db.dialect, at), action });
      await db.execute('INSERT INTO up_permissions_role_lnk (permission_id, role_id, permission_ord) VALUES (?, ?, ?)', [permissionId, roleId, ++ord]);
      add('up_permissions');
      add('up_permissions_role_lnk');
    }
  }
  // Last: the mark that Cairn made this database (cairn-mark.ts), a core-store row Strapi keeps and ignores.
  const mark = cairnMarkRow();
  await db.execute(store, [mark.key, JSON.stringify(mark.value), mark.type]);
  add('strapi_core_store_settings');
  return count;
}

/** The locales' rows in Strapi's order: the default first, then the others as configured. */
function strapiLocaleRows(locales: CreateStrapiDatabaseOptions['locales']): Array<{ code: string; name: string }> {
  if (!locales?.length) return [STRAPI_DEFAULT_LOCALE];
  const first = locales.find((l) => l.isDefault) ?? locales[0]!;
  return [first, ...locales.filter((l) => l !== first)].map(({ code, name }) => ({ code, name }));
}
