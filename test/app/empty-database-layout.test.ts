import { afterEach, describe, expect, it } from 'vitest';
import { describeEachDialect, freshDatabaseConfig } from '../helpers/databases.js';
import { writeApp } from '../helpers/app.js';
import { kitchen } from '../fixtures/kitchen.js';
import { createCairn } from '../../src/app/cairn.js';
import { createDatabase } from '../../src/database/index.js';
import { tablesIn } from '../../src/database/strapi-layout/new-database.js';
import { emptyDatabaseLayout } from '../../src/app/empty-database-layout.js';
import { createLogger } from '../../src/app/logger.js';

const quiet = () => createLogger({ write: () => undefined });

describe('CAIRN_EMPTY_DATABASE_LAYOUT', () => {
  it("is 'strapi' unless set to 'cairn'; any other value is refused by name", () => {
    expect(emptyDatabaseLayout({})).toBe('strapi');
    expect(emptyDatabaseLayout({ CAIRN_EMPTY_DATABASE_LAYOUT: '' })).toBe('strapi');
    expect(emptyDatabaseLayout({ CAIRN_EMPTY_DATABASE_LAYOUT: 'cairn' })).toBe('cairn');
    expect(emptyDatabaseLayout({ CAIRN_EMPTY_DATABASE_LAYOUT: 'strapi' })).toBe('strapi');
    expect(() => emptyDatabaseLayout({ CAIRN_EMPTY_DATABASE_LAYOUT: 'Strapi' })).toThrow(/CAIRN_EMPTY_DATABASE_LAYOUT must be 'strapi' or 'cairn', not "Strapi"/);
  });
});

describeEachDialect('an empty database at start', (dialect) => {
  const saved = process.env.CAIRN_EMPTY_DATABASE_LAYOUT;
  const drops: Array<() => Promise<void>> = [];
  afterEach(async () => {
    if (saved === undefined) delete process.env.CAIRN_EMPTY_DATABASE_LAYOUT;
    else process.env.CAIRN_EMPTY_DATABASE_LAYOUT = saved;
    for (const drop of drops.splice(0)) await drop();
  });
  const fresh = async () => {
    const database = await freshDatabaseConfig(dialect);
    drops.push(database.drop);
    return database.config;
  };

  it("gets Strapi's layout, which the next open detects and a restart accepts", async () => {
    delete process.env.CAIRN_EMPTY_DATABASE_LAYOUT;
    const dir = writeApp(kitchen);
    const config = await fresh();
    const cairn = await createCairn({ dir, config: { database: config } as never, log: quiet() });
    expect(cairn.db.layout).toBe('strapi');
    const tables = await tablesIn(cairn.db);
    expect(tables).toEqual(expect.arrayContaining(['strapi_migrations_internal', 'i18n_locale', 'up_roles', 'restaurants', 'restaurants_categories_lnk']));
    expect(tables.some((t) => t.startsWith('cairn_'))).toBe(false);
    await cairn.close();
    // Even asked for the former layout, the database is Strapi's now: the layout is found, not chosen.
    process.env.CAIRN_EMPTY_DATABASE_LAYOUT = 'cairn';
    const again = await createCairn({ dir, config: { database: config } as never, log: quiet() });
    expect(again.db.layout).toBe('strapi');
    expect(await tablesIn(again.db)).toEqual(tables);
    await again.close();
  });

  it('with CAIRN_EMPTY_DATABASE_LAYOUT=cairn, an empty database gets the former layout', async () => {
    process.env.CAIRN_EMPTY_DATABASE_LAYOUT = 'cairn';
    const config = await fresh();
    const cairn = await createCairn({ dir: writeApp(kitchen), config: { database: config } as never, log: quiet() });
    expect(cairn.db.layout).toBe('cairn');
    const tables = await tablesIn(cairn.db);
    expect(tables).toContain('cairn_permissions');
    expect(tables).not.toContain('strapi_migrations_internal');
    await cairn.close();
  });

  it('a database that holds any table is left in the layout it has', async () => {
    const config = await fresh();
    const db = await createDatabase(config);
    await db.execute('CREATE TABLE unrelated (id INTEGER)');
    await db.close();
    delete process.env.CAIRN_EMPTY_DATABASE_LAYOUT;
    const cairn = await createCairn({ dir: writeApp(kitchen), config: { database: config } as never, log: quiet() });
    expect(cairn.db.layout).toBe('cairn');
    expect(await tablesIn(cairn.db)).not.toContain('strapi_migrations_internal');
    await cairn.close();
  });
});
