import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, freshDatabaseConfig } from '../helpers/databases.js';
import { createDatabase } from '../../src/database/index.js';
import { plannedPerRun, StatementNames } from '../../src/database/statement-names.js';
import type { Database, DatabaseConfig } from '../../src/database/types.js';

/**
 * PostgreSQL plans a statement on every run unless it is prepared: Cairn names the texts it runs again
 * (src/database/statement-names.ts), on reads and in transactions, and keeps what each connection holds bounded.
 * Checked on the server's own record of a session's prepared statements (`pg_prepared_statements`).
 */
const postgres = DIALECTS.find((d) => d.name === 'postgres')!;
if (!postgres.available) console.warn(`skipping the statement-names suite (PostgreSQL only): ${postgres.reason}`);

describe.skipIf(!postgres.available)('PostgreSQL statement names', () => {
  let config: DatabaseConfig;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ config, drop } = await freshDatabaseConfig('postgres'));
  });
  afterAll(async () => drop?.());

  /** The texts of the statements the session (the one connection of a pool of one) holds prepared. */
  const preparedTexts = async (run: (sql: string) => Promise<Array<{ statement: string }>>) =>
    (await run("SELECT statement FROM pg_prepared_statements WHERE name LIKE 'cairn\\_%'")).map((r) => r.statement);

  describe('through the Database', () => {
    let db: Database;
    beforeAll(async () => {
      db = await createDatabase({ connection: { ...config.connection, pool: { min: 0, max: 1 } } });
      await db.execute('CREATE TABLE names_probe (id SERIAL PRIMARY KEY, label TEXT)');
    });
    afterAll(async () => db?.close());

    it("a transaction's statement run a second time is prepared; one run once is not", async () => {
      const insert = 'INSERT INTO names_probe (label) VALUES (?)';
      await db.transaction((trx) => trx.execute(insert, ['first']));
      const texts = () => preparedTexts((sql) => db.query(sql));
      expect(await texts()).not.toContain('INSERT INTO names_probe (label) VALUES ($1)');
      await db.transaction((trx) => trx.execute(insert, ['second']));
      await db.transaction((trx) => trx.execute(insert, ['third']));
      expect(await texts()).toContain('INSERT INTO names_probe (label) VALUES ($1)');
      // Run prepared, it still writes what it is given.
      expect((await db.query<{ label: string }>('SELECT label FROM names_probe ORDER BY id')).map((r) => r.label)).toEqual(['first', 'second', 'third']);
    });

    it('a statement marked planned per run is never prepared, however often it runs, and still runs', async () => {
      const marked = plannedPerRun('SELECT COUNT(*) AS n FROM names_probe WHERE id > ?');
      for (let i = 0; i < 3; i++) {
        const [row] = await db.transaction((trx) => trx.query<{ n: string }>(marked, [0]));
        expect(Number(row.n)).toBe(3);
        await db.query(marked, [0]);
      }
      expect((await preparedTexts((sql) => db.query(sql))).filter((t) => t.includes('names_probe WHERE id >'))).toEqual([]);
    });

    it('a read outside transactions too, with or without parameters', async () => {
      for (let i = 0; i < 2; i++) {
        await db.query('SELECT COUNT(*) AS n FROM names_probe WHERE label <> ?', ['x']);
        await db.query('SELECT MAX(id) AS m FROM names_probe');
      }
      const texts = await preparedTexts((sql) => db.query(sql));
      expect(texts).toContain('SELECT COUNT(*) AS n FROM names_probe WHERE label <> $1');
      expect(texts).toContain('SELECT MAX(id) AS m FROM names_probe');
    });

    it('a failed prepared statement leaves the transaction rolled back and the next run working', async () => {
      const insert = 'INSERT INTO names_probe (id, label) VALUES (?, ?)';
      await db.transaction((trx) => trx.execute(insert, [100, 'a']));
      await db.transaction((trx) => trx.execute(insert, [101, 'b']));
      // The same statement, now prepared, fails on a duplicate key: nothing of that transaction stays.
      await expect(db.transaction(async (trx) => {
        await trx.execute('UPDATE names_probe SET label = ? WHERE id = ?', ['changed', 100]);
        await trx.execute(insert, [101, 'again']);
      })).rejects.toThrow(/duplicate key/);
      expect((await db.query<{ label: string }>('SELECT label FROM names_probe WHERE id = ?', [100]))[0].label).toBe('a');
      await db.transaction((trx) => trx.execute(insert, [102, 'c']));
      expect((await db.query('SELECT id FROM names_probe WHERE id = ?', [102]))).toHaveLength(1);
    });
  });

  describe('on a pool of its own', () => {
    let pool: pg.Pool;
    const names = new StatementNames(4);
    beforeAll(() => {
      const { connection } = config.connection as { connection: pg.PoolConfig };
      pool = new pg.Pool({ ...connection, max: 1 });
      pool.on('connect', (client) => names.nameStatements(client));
      pool.on('acquire', (client) => names.tidy(client));
    });
    afterAll(async () => pool?.end());

    const texts = () => preparedTexts(async (sql) => (await pool.query(sql)).rows);

    it('a connection holds about `capacity` statements, however many texts it ran: the dropped ones are deallocated at checkout', async () => {
      for (let i = 0; i < 40; i++) {
        for (let run = 0; run < 2; run++) {
          const client = await pool.connect();
          try {
            const { rows } = await client.query(`SELECT $1::int + ${i} AS n`, [run]);
            expect(rows[0].n).toBe(run + i);
          } finally {
            client.release();
          }
        }
      }
      const held = await texts();
      // 4 named at most, and one more generation's worth dropped since the last checkout at the very most.
      expect(held.length).toBeGreaterThan(0);
      expect(held.length).toBeLessThanOrEqual(4);
      expect(held).toContain('SELECT $1::int + 39 AS n');
    });

    it('names never go to another text, so a text dropped and run again works under a new name', async () => {
      const again = async () => (await pool.query('SELECT $1::int + 0 AS n', [7])).rows[0].n;
      expect(await again()).toBe(7);
      expect(await again()).toBe(7);
      expect(await texts()).toContain('SELECT $1::int + 0 AS n');
    });

    it("statements without parameters (Kysely's begin and commit) run as they are", async () => {
      const client = await pool.connect();
      try {
        for (let i = 0; i < 3; i++) {
          await client.query('begin', []);
          await client.query('commit', []);
        }
      } finally {
        client.release();
      }
      expect((await texts()).filter((t) => /^(begin|commit)$/i.test(t))).toEqual([]);
    });
  });
});
