import { existsSync } from 'node:fs';
import { afterEach, expect, it } from 'vitest';
import { describeEachDialect, freshDatabaseConfig } from '../helpers/databases.js';
import { writeApp } from '../helpers/app.js';
import { kitchen } from '../fixtures/kitchen.js';
import { createCairn } from '../../src/app/cairn.js';
import { createDatabase } from '../../src/database/index.js';
import type { Database, DatabaseConfig } from '../../src/database/index.js';
import { tablesIn } from '../../src/database/strapi-layout/new-database.js';
import { UnservedDatabaseError } from '../../src/database/unserved-database.js';
import { holdsStrapiLayout } from '../../src/database/storage-layout.js';
import { createLogger } from '../../src/app/logger.js';

const quiet = () => createLogger({ write: () => undefined });

/** Every table with its row count, and SQLite's journal mode: what a refused start must leave as it was. */
async function snapshot(config: DatabaseConfig): Promise<{ tables: Record<string, number>; journal?: unknown }> {
  const db = await createDatabase(config, { readOnly: true });
  try {
    const tables: Record<string, number> = {};
    for (const table of await tablesIn(db)) {
      const [row] = await db.query<{ n: unknown }>(`SELECT COUNT(*) AS n FROM ${db.quote(table)}`);
      tables[table] = Number(row!.n);
    }
    const journal = db.dialect === 'sqlite' ? (await db.query<{ journal_mode: unknown }>('PRAGMA journal_mode'))[0]?.journal_mode : undefined;
    return { tables, journal };
  } finally {
    await db.close();
  }
}

/** Cairn's former layout as its last code made it (schema-sync.ts, auth-tables.ts), trimmed to a few of its tables. */
async function makeFormerTables(db: Database): Promise<void> {
  const text = db.dialect === 'mysql' ? 'VARCHAR(255)' : 'TEXT';
  await db.execute(`CREATE TABLE cairn_permissions (id INTEGER PRIMARY KEY, role_type ${text} NOT NULL, action ${text} NOT NULL)`);
  await db.execute(`CREATE TABLE cairn_permissions_version (id INTEGER PRIMARY KEY, version BIGINT NOT NULL)`);
  await db.execute(`INSERT INTO cairn_permissions_version (id, version) VALUES (1, 0)`);
  await db.execute(`CREATE TABLE cairn_api_tokens (id INTEGER PRIMARY KEY, name ${text} NOT NULL, type ${text} NOT NULL, access_key ${text} NOT NULL)`);
  await db.execute(`CREATE TABLE restaurants (id INTEGER PRIMARY KEY, document_id ${text}, name ${text})`);
  await db.execute(`CREATE TABLE restaurants_categories_links (id INTEGER PRIMARY KEY, entity_id INTEGER, target_document_id ${text}, ord INTEGER)`);
}

describeEachDialect('the database at start', (dialect) => {
  const drops: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const drop of drops.splice(0)) await drop();
  });
  const fresh = async () => {
    const database = await freshDatabaseConfig(dialect);
    drops.push(database.drop);
    return database.config;
  };
  /** A database holding the tables `make` creates. */
  const holding = async (make: (db: Database) => Promise<void>) => {
    const config = await fresh();
    const db = await createDatabase(config);
    await make(db);
    await db.close();
    return config;
  };

  it("an empty one gets Strapi's layout, which the next open detects and a restart accepts", async () => {
    const dir = writeApp(kitchen);
    const config = await fresh();
    const cairn = await createCairn({ dir, config: { database: config } as never, log: quiet() });
    expect(await holdsStrapiLayout(cairn.db)).toBe(true);
    const tables = await tablesIn(cairn.db);
    expect(tables).toEqual(expect.arrayContaining(['strapi_migrations_internal', 'i18n_locale', 'up_roles', 'restaurants', 'restaurants_categories_lnk']));
    expect(tables.some((t) => t.startsWith('cairn_'))).toBe(false);
    await cairn.close();
    const again = await createCairn({ dir, config: { database: config } as never, log: quiet() });
    expect(await holdsStrapiLayout(again.db)).toBe(true);
    expect(await tablesIn(again.db)).toEqual(tables);
    await again.close();
  });

  it("one in Cairn's former layout is refused, naming its tables, and nothing is written", async () => {
    const config = await holding(makeFormerTables);
    const before = await snapshot(config);
    const start = createCairn({ dir: writeApp(kitchen), config: { database: config } as never, log: quiet() });
    await expect(start).rejects.toBeInstanceOf(UnservedDatabaseError);
    await expect(start).rejects.toThrow(
      "the database is in Cairn's former table layout (cairn_api_tokens, cairn_permissions, cairn_permissions_version; 5 tables in all: " +
        'cairn_api_tokens, cairn_permissions, cairn_permissions_version, restaurants, restaurants_categories_links): ' +
        'that layout is no longer served, and no release of Cairn used it, so there is nothing to migrate: ' +
        "point the app at an empty database (a start creates Strapi 5's tables in it) or at one Strapi 5 made, " +
        "or create Strapi 5's tables in an empty one with `cairn db create`; nothing was changed",
    );
    expect(await snapshot(config)).toEqual(before);
    if (dialect === 'sqlite') {
      expect(before.journal).toBe('delete');
      expect(existsSync(`${String((config.connection.connection as { filename: string }).filename)}-wal`)).toBe(false);
    }
  });

  it("one holding other tables but not Strapi's is refused as `cairn db create` refuses it, naming them", async () => {
    const config = await holding(async (db) => {
      await db.execute('CREATE TABLE unrelated (id INTEGER)');
      await db.execute('INSERT INTO unrelated (id) VALUES (7)');
    });
    const before = await snapshot(config);
    await expect(createCairn({ dir: writeApp(kitchen), config: { database: config } as never, log: quiet() })).rejects.toThrow(
      "the database holds tables, but not Strapi 5's (1 table: unrelated): Cairn serves Strapi 5's table layout only: " +
        "point the app at an empty database (a start creates Strapi 5's tables in it) or at one Strapi 5 made, " +
        "or create Strapi 5's tables in an empty one with `cairn db create`; nothing was changed",
    );
    expect(await snapshot(config)).toEqual({ tables: { unrelated: 1 }, journal: before.journal });
    expect(before.tables).toEqual({ unrelated: 1 });
  });
});
