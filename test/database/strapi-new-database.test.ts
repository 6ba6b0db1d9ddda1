import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import Sqlite from 'better-sqlite3';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createDatabase, type Database, type DatabaseConfig } from '../../src/database/index.js';
import type { DialectName } from '../../src/database/types.js';
import { holdsStrapiLayout } from '../../src/database/storage-layout.js';
import { readStrapiLocales } from '../../src/database/strapi-locales.js';
import { checkStrapiLayout } from '../../src/database/strapi-layout/check.js';
import { isoDatetime } from '../../src/database/strapi-layout/rows.js';
import { planStrapiLayout } from '../../src/database/strapi-layout/plan.js';
import { STRAPI_ADMIN_TABLES } from '../../src/database/strapi-layout/admin-tables.js';
import { readLayout, type LayoutTable } from '../../src/database/layout.js';
import { createStrapiDatabase, DatabaseNotEmptyError, tablesIn } from '../../src/database/strapi-layout/new-database.js';
import { CAIRN_MARK_KEY, readCairnMark } from '../../src/database/strapi-layout/cairn-mark.js';
import { resolveLocales } from '../../src/project/locales.js';
import { loadModel, type Model } from '../../src/model/index.js';
import { describeEachDialect, freshDatabaseConfig } from '../helpers/databases.js';
import { databaseSnapshot } from '../helpers/db-snapshot.js';
import { loadStrapiFixture, STRAPI_FIXTURE_DIR } from '../helpers/strapi-fixture.js';

const CONFORMANCE_APP = join(import.meta.dirname, '..', 'fixtures', 'conformance', 'app');
const NOW = new Date('2026-11-25T10:11:12.345Z');
const PACKAGE_VERSION = (JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', 'package.json'), 'utf8')) as { version: string }).version;

/**
 * What real Strapi 5.54.0 wrote into the database it made for the conformance model (the SQLite fixture, read with
 * better-sqlite3, not through Cairn) before its app's bootstrap and the seed wrote anything: its migration log, the
 * core-store keys of i18n and users-permissions, the first locale, the two roles and the permissions it granted them.
 */
interface StrapiFirstRows {
  migrations: string[];
  store: Array<{ key: string; type: string; value: string; environment: null; tag: null }>;
  locale: { name: string; code: string };
  roles: Array<{ id: number; name: string; description: string; type: string }>;
  permissions: Array<{ action: string; role_id: number; permission_ord: number }>;
}

let model: Model;
let strapi: StrapiFirstRows;
beforeAll(async () => {
  model = await loadModel(CONFORMANCE_APP);
  const fixture = new Sqlite(gunzipSync(readFileSync(join(STRAPI_FIXTURE_DIR, 'strapi.sqlite.db.gz'))));
  try {
    strapi = {
      migrations: fixture.prepare('SELECT name FROM strapi_migrations_internal ORDER BY id').pluck().all() as string[],
      store: fixture
        .prepare(
          "SELECT key, type, value, environment, tag FROM strapi_core_store_settings WHERE key IN ('plugin_i18n_default_locale', 'plugin_users-permissions_grant', 'plugin_users-permissions_email', 'plugin_users-permissions_advanced') ORDER BY id",
        )
        .all() as StrapiFirstRows['store'],
      locale: fixture.prepare('SELECT name, code FROM i18n_locale ORDER BY id LIMIT 1').get() as StrapiFirstRows['locale'],
      roles: fixture.prepare('SELECT id, name, description, type FROM up_roles ORDER BY id').all() as StrapiFirstRows['roles'],
      // Strapi's own grants come first (ids 1..13); the reference app's bootstrap granted the rest.
      permissions: fixture
        .prepare('SELECT p.action, l.role_id, l.permission_ord FROM up_permissions p JOIN up_permissions_role_lnk l ON l.permission_id = p.id WHERE p.id <= 13 ORDER BY p.id')
        .all() as StrapiFirstRows['permissions'],
    };
  } finally {
    fixture.close();
  }
});

const sqliteFile = (config: DatabaseConfig) => (config.connection.client === 'sqlite' ? String(config.connection.connection.filename) : undefined);
const datetimeOf = (dialect: DialectName, value: unknown) => (dialect === 'sqlite' ? value : isoDatetime(value));
const nowAsStored = (dialect: DialectName) => (dialect === 'sqlite' ? NOW.getTime() : NOW.toISOString());

describeEachDialect("createStrapiDatabase: an empty database becomes Strapi 5's for the conformance model", (dialect) => {
  let config: DatabaseConfig;
  let drop: () => Promise<void>;
  let db: Database;
  let created: Awaited<ReturnType<typeof createStrapiDatabase>>;
  beforeAll(async () => {
    const fresh = await freshDatabaseConfig(dialect);
    config = fresh.config;
    drop = fresh.drop;
    db = await createDatabase(config);
    expect(await holdsStrapiLayout(db)).toBe(false); // an empty database
    created = await createStrapiDatabase(db, model, { now: NOW });
  }, 120_000);
  afterAll(async () => {
    await db?.close();
    await drop?.();
  });

  it("has exactly the plan's tables and Strapi's admin's, and checkStrapiLayout finds no difference", async () => {
    const planned = planStrapiLayout(model, dialect).map((t) => t.name);
    const all = [...planned, ...STRAPI_ADMIN_TABLES.map((t) => t.name)].sort();
    expect(all).toHaveLength(59);
    expect(created.tables).toEqual(all);
    expect(await tablesIn(db)).toEqual(all);
    expect(await checkStrapiLayout(db, model)).toEqual([]);
  });

  it("has Strapi's admin tables as real Strapi made them for the same model, native types included", async () => {
    const nativeTables = async (of: Database) => {
      const layout = await readLayout((sql, params) => of.query(sql, params), dialect, { native: true });
      const admin = new Set(STRAPI_ADMIN_TABLES.map((t) => t.name));
      return layout.tables.filter((t: LayoutTable) => admin.has(t.name));
    };
    const fixture = await loadStrapiFixture(dialect);
    const strapiDb = await createDatabase(fixture.config, { readOnly: true });
    try {
      const strapiTables = await nativeTables(strapiDb);
      expect(strapiTables).toHaveLength(21);
      expect(await nativeTables(db)).toEqual(strapiTables);
    } finally {
      await strapiDb.close();
      await fixture.drop();
    }
  }, 120_000);

  it("is detected as Strapi's layout, and opened as one", async () => {
    expect(await holdsStrapiLayout(db)).toBe(true);
    const reopened = await createDatabase(config, { readOnly: true });
    try {
      expect(await holdsStrapiLayout(reopened)).toBe(true);
    } finally {
      await reopened.close();
    }
  });

  it("logs Strapi's internal migrations as run, by the names and in the order Strapi does", async () => {
    const rows = await db.query<{ id: number; name: string; time: unknown }>(`SELECT id, name, ${db.quote('time')} FROM strapi_migrations_internal ORDER BY id`);
    expect(rows.map((r) => r.name)).toEqual(strapi.migrations);
    expect(rows.map((r) => Number(r.id))).toEqual(strapi.migrations.map((_, i) => i + 1));
    // knex's plain `datetime` on MariaDB has no fraction: the milliseconds go, as they do from Strapi's own rows.
    const logged = dialect === 'mysql' ? '2026-11-25T10:11:12.000Z' : nowAsStored(dialect);
    for (const row of rows) expect(datetimeOf(dialect, row.time)).toEqual(logged);
    expect(await db.query('SELECT id FROM strapi_migrations')).toEqual([]);
    // No stored schema: Strapi compares the tables with its models at its first start and adds its admin's own.
    expect(await db.query('SELECT id FROM strapi_database_schema')).toEqual([]);
  });

  it('writes the core-store keys of i18n and users-permissions with the very values Strapi stores', async () => {
    const rows = await db.query<Record<string, unknown>>(
      `SELECT ${['key', 'type', 'value', 'environment', 'tag'].map((c) => db.quote(c)).join(', ')} FROM strapi_core_store_settings ORDER BY id`,
    );
    // Strapi's four rows as Strapi writes them, then Cairn's mark (a key no plugin of Strapi reads).
    expect(rows.slice(0, 4)).toEqual(strapi.store);
    expect(rows.map((r) => r.key)).toEqual([
      'plugin_i18n_default_locale',
      'plugin_users-permissions_grant',
      'plugin_users-permissions_email',
      'plugin_users-permissions_advanced',
      CAIRN_MARK_KEY,
    ]);
    expect(rows[4]).toEqual({ key: CAIRN_MARK_KEY, type: 'object', value: JSON.stringify({ createdBy: 'cairn', version: PACKAGE_VERSION }), environment: null, tag: null });
    expect(await readCairnMark(db)).toEqual({ createdBy: 'cairn', version: PACKAGE_VERSION });
  });

  it('a database Strapi made has no such mark', async () => {
    const fixture = await loadStrapiFixture(dialect);
    const strapiDb = await createDatabase(fixture.config, { readOnly: true });
    try {
      expect(await readCairnMark(strapiDb)).toBeUndefined();
    } finally {
      await strapiDb.close();
      await fixture.drop();
    }
  }, 120_000);

  it("has Strapi's first locale, English (en), the default", async () => {
    const [row] = await db.query<Record<string, unknown>>('SELECT * FROM i18n_locale');
    expect(await db.query('SELECT id FROM i18n_locale')).toHaveLength(1);
    expect({ name: row!.name, code: row!.code }).toEqual(strapi.locale);
    expect(row!.document_id).toMatch(/^[a-z0-9]{24}$/);
    for (const column of ['created_at', 'updated_at', 'published_at']) expect(datetimeOf(dialect, row![column])).toEqual(nowAsStored(dialect));
    expect([row!.locale, row!.created_by_id, row!.updated_by_id]).toEqual([null, null, null]);
    const { locales, defaultCode } = await readStrapiLocales(db);
    expect(defaultCode).toBe('en');
    expect(locales.map((l) => [l.code, l.name, l.publishedAt])).toEqual([['en', 'English (en)', NOW.toISOString()]]);
  });

  it('has the roles Authenticated (id 1) and Public (id 2) with the permissions Strapi grants them, in its order', async () => {
    const roles = await db.query<Record<string, unknown>>('SELECT id, name, description, type, document_id, published_at, locale FROM up_roles ORDER BY id');
    expect(roles.map((r) => ({ id: Number(r.id), name: r.name, description: r.description, type: r.type }))).toEqual(strapi.roles);
    for (const role of roles) {
      expect(role.document_id).toMatch(/^[a-z0-9]{24}$/);
      expect(datetimeOf(dialect, role.published_at)).toEqual(nowAsStored(dialect));
      expect(role.locale).toBeNull();
    }
    const permissions = await db.query<Record<string, unknown>>(
      'SELECT p.action, l.role_id, l.permission_ord FROM up_permissions p JOIN up_permissions_role_lnk l ON l.permission_id = p.id ORDER BY p.id',
    );
    expect(permissions.map((p) => ({ action: p.action, role_id: Number(p.role_id), permission_ord: Number(p.permission_ord) }))).toEqual(strapi.permissions);
    expect(created.rows).toEqual({
      strapi_migrations_internal: 8,
      strapi_core_store_settings: 5,
      i18n_locale: 1,
      up_roles: 2,
      up_permissions: 13,
      up_permissions_role_lnk: 13,
    });
    // Nothing else holds a row: content, users, files and tokens start empty.
    const snapshot = await databaseSnapshot(db);
    const filled = Object.entries(snapshot.counts).filter(([, n]) => n > 0).map(([table]) => table).sort();
    expect(filled).toEqual(Object.keys(created.rows).sort());
  });

  if (dialect === 'sqlite') {
    it("leaves the file in Strapi's journal mode (delete), not Cairn's WAL", async () => {
      const file = new Sqlite(sqliteFile(config)!, { readonly: true });
      try {
        expect(file.pragma('journal_mode', { simple: true })).toBe('delete');
      } finally {
        file.close();
      }
    });
  }

  it('refuses to run again (the database is no longer empty) and changes nothing', async () => {
    const before = await databaseSnapshot(db, sqliteFile(config));
    const error = await createStrapiDatabase(db, model).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DatabaseNotEmptyError);
    expect((error as DatabaseNotEmptyError).tables).toEqual([...created.tables].sort());
    expect((error as Error).message).toMatch(
      /^the database is not empty \(59 tables: admin_permissions, admin_permissions_api_token_lnk, admin_permissions_role_lnk, admin_roles, admin_users, (\w+, ){5}and 49 more\): Strapi's layout is created in an empty database only; nothing was changed$/,
    );
    expect(await databaseSnapshot(db, sqliteFile(config))).toEqual(before);
  });
});

describeEachDialect('createStrapiDatabase on a database that holds a table of its own', (dialect) => {
  let config: DatabaseConfig;
  let drop: () => Promise<void>;
  let db: Database;
  beforeAll(async () => {
    const fresh = await freshDatabaseConfig(dialect);
    config = fresh.config;
    drop = fresh.drop;
    db = await createDatabase(config);
    await db.execute(`CREATE TABLE ${db.quote('notes')} (${db.quote('id')} integer, ${db.quote('body')} varchar(20))`);
    await db.execute(`INSERT INTO ${db.quote('notes')} VALUES (1, 'kept')`);
  });
  afterAll(async () => {
    await db?.close();
    await drop?.();
  });

  it('refuses, naming the table, and writes nothing', async () => {
    const before = await databaseSnapshot(db, sqliteFile(config));
    await expect(createStrapiDatabase(db, model)).rejects.toBeInstanceOf(DatabaseNotEmptyError);
    await expect(createStrapiDatabase(db, model)).rejects.toThrow(
      "the database is not empty (1 table: notes): Strapi's layout is created in an empty database only; nothing was changed",
    );
    expect(await databaseSnapshot(db, sqliteFile(config))).toEqual(before);
    expect(await tablesIn(db)).toEqual(['notes']);
  });
});

describeEachDialect("createStrapiDatabase with the app's locales (config/plugins i18n)", (dialect) => {
  let drop: () => Promise<void>;
  let db: Database;
  let created: Awaited<ReturnType<typeof createStrapiDatabase>>;
  // The default is not the first configured: Strapi makes its default locale first (id 1), the others come after.
  const locales = resolveLocales({ defaultLocale: 'fr', locales: ['en', 'fr', { code: 'de', name: 'Deutsch' }, 'es', 'fr-CA'] });
  beforeAll(async () => {
    const fresh = await freshDatabaseConfig(dialect);
    drop = fresh.drop;
    db = await createDatabase(fresh.config);
    created = await createStrapiDatabase(db, model, { now: NOW, locales });
  }, 120_000);
  afterAll(async () => {
    await db?.close();
    await drop?.();
  });

  it("writes every locale as Strapi's i18n has them: the default first, then the others in order, named as Strapi names them", async () => {
    const rows = await db.query<Record<string, unknown>>('SELECT * FROM i18n_locale ORDER BY id');
    expect(rows.map((r) => [Number(r.id), r.code, r.name])).toEqual([
      [1, 'fr', 'French (fr)'],
      [2, 'en', 'English (en)'],
      [3, 'de', 'Deutsch'],
      [4, 'es', 'Spanish (es)'],
      // Strapi's name (its iso-locales list), not ICU's "Canadian French".
      [5, 'fr-CA', 'French (Canada) (fr-CA)'],
    ]);
    // The same columns as the `en` row Strapi writes: a document id, the times, no locale and no admin author.
    for (const row of rows) {
      expect(row.document_id).toMatch(/^[a-z0-9]{24}$/);
      for (const column of ['created_at', 'updated_at', 'published_at']) expect(datetimeOf(dialect, row[column])).toEqual(nowAsStored(dialect));
      expect([row.locale, row.created_by_id, row.updated_by_id]).toEqual([null, null, null]);
    }
    expect(new Set(rows.map((r) => r.document_id)).size).toBe(5);
    expect(created.rows.i18n_locale).toBe(5);
  });

  it('names the default in the core store, where Strapi keeps it, and reads back as the app configured them', async () => {
    const [setting] = await db.query<{ value: string; type: string }>(
      `SELECT ${db.quote('value')}, type FROM strapi_core_store_settings WHERE ${db.quote('key')} = 'plugin_i18n_default_locale'`,
    );
    expect(setting).toEqual({ value: '"fr"', type: 'string' });
    const { locales: stored, defaultCode } = await readStrapiLocales(db);
    expect(defaultCode).toBe('fr');
    expect(stored.map((l) => l.code)).toEqual(['fr', 'en', 'de', 'es', 'fr-CA']);
  });
});
