import { existsSync } from 'node:fs';
import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDialect, freshDatabaseConfig } from '../helpers/databases.js';
import { createDatabase } from '../../src/database/index.js';
import type { DatabaseConfig } from '../../src/database/types.js';

/**
 * Reads run as prepared statements outside Kysely, so a process that only reads (a cluster worker) never opens
 * Kysely's side of the pool. Closing the database must still close every connection it opened, or the process
 * could not exit and the database would keep its sessions.
 */
describeEachDialect('closing a database that only read', (dialect) => {
  let config: DatabaseConfig;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ config, drop } = await freshDatabaseConfig(dialect));
    // A table, so that SQLite in WAL mode keeps a write-ahead log while a connection is open: the file is switched to
    // WAL here (Cairn leaves a file's journal mode as it finds it), and the log shows whether a connection is left.
    const setup = await createDatabase(config);
    await setup.execute('CREATE TABLE closing_probe (id INTEGER)');
    await setup.close();
    if (dialect === 'sqlite') {
      const file = new SQLite(String((config.connection.connection as { filename: string }).filename));
      file.pragma('journal_mode = WAL');
      file.close();
    }
  });
  afterAll(async () => drop?.());

  /** Sessions other than the observer's own on the test database (PostgreSQL, MySQL). */
  const otherSessions = async () => {
    const observer = await createDatabase(config);
    try {
      const sql =
        dialect === 'postgres'
          ? 'SELECT COUNT(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()'
          : 'SELECT COUNT(*) AS n FROM information_schema.processlist WHERE db = DATABASE() AND id <> CONNECTION_ID()';
      const [{ n }] = await observer.query<{ n: number | string }>(sql);
      return Number(n);
    } finally {
      await observer.close();
    }
  };

  it('closes its connections', async () => {
    const db = await createDatabase(config);
    const rows = await db.query<{ one: number | string }>('SELECT 1 AS one');
    expect(Number(rows[0].one)).toBe(1);
    if (dialect === 'sqlite') {
      const file = String((config.connection.connection as { filename: string }).filename);
      expect(existsSync(`${file}-wal`)).toBe(true);
      await db.close();
      // SQLite removes the write-ahead log when its last connection closes.
      expect(existsSync(`${file}-wal`)).toBe(false);
      return;
    }
    expect(await otherSessions()).toBeGreaterThan(0);
    await db.close();
    await expect.poll(otherSessions, { timeout: 5000 }).toBe(0);
  });

  it('closes its connections after writes and transactions too', async () => {
    const db = await createDatabase(config);
    await db.execute('INSERT INTO closing_probe (id) VALUES (1)');
    await db.transaction(async (trx) => trx.execute('INSERT INTO closing_probe (id) VALUES (2)'));
    expect(await db.query('SELECT id FROM closing_probe ORDER BY id')).toHaveLength(2);
    await expect(db.close()).resolves.toBeUndefined();
    if (dialect !== 'sqlite') await expect.poll(otherSessions, { timeout: 5000 }).toBe(0);
  });
});
