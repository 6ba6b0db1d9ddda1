import { afterEach, describe, expect, it } from 'vitest';
import SQLite from 'better-sqlite3';
import { createDatabase } from '../../src/database/index.js';
import { holdsStrapiLayout } from '../../src/database/storage-layout.js';
import { describeEachDialect, freshDatabaseConfig } from '../helpers/databases.js';
import { loadStrapiFixture } from '../helpers/strapi-fixture.js';

describeEachDialect('the storage layout a database holds', (dialect) => {
  const drops: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const drop of drops.splice(0)) await drop();
  });

  it('is not found in an empty database', async () => {
    const fresh = await freshDatabaseConfig(dialect);
    drops.push(fresh.drop);
    const db = await createDatabase(fresh.config);
    try {
      expect(await holdsStrapiLayout(db)).toBe(false);
    } finally {
      await db.close();
    }
  });

  it('is Strapi\'s for a database that Strapi 5 made', async () => {
    const fixture = await loadStrapiFixture(dialect);
    drops.push(fixture.drop);
    const db = await createDatabase(fixture.config);
    try {
      expect(await holdsStrapiLayout(db)).toBe(true);
      // A transaction sees the tables of the database it runs on.
      expect(await db.transaction((trx) => holdsStrapiLayout(trx))).toBe(true);
    } finally {
      await db.close();
    }
  });
});

describe('a SQLite file that Strapi made', () => {
  it('keeps the journal mode Strapi left it in (WAL would be written into its header)', async () => {
    const fixture = await loadStrapiFixture('sqlite');
    try {
      const filename = String(fixture.config.connection.connection.filename);
      const db = await createDatabase(fixture.config);
      await db.query('SELECT COUNT(*) AS n FROM articles');
      await db.close();
      const file = new SQLite(filename, { readonly: true });
      try {
        expect(file.pragma('journal_mode', { simple: true })).toBe('delete');
      } finally {
        file.close();
      }
    } finally {
      await fixture.drop();
    }
  });

  it('nor does an empty file: Strapi\'s tables are made in it in Strapi\'s mode', async () => {
    const fresh = await freshDatabaseConfig('sqlite');
    try {
      const db = await createDatabase(fresh.config);
      await db.close();
      const file = new SQLite(String(fresh.config.connection.connection.filename), { readonly: true });
      try {
        expect(file.pragma('journal_mode', { simple: true })).toBe('delete');
      } finally {
        file.close();
      }
    } finally {
      await fresh.drop();
    }
  });
});
