import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, type Database } from '../../src/database/index.js';
import { readLayout, type DatabaseLayout, type LayoutTable } from '../../src/database/layout.js';
import type { DialectName } from '../../src/database/types.js';
import { checkStrapiLayout } from '../../src/database/strapi-layout/check.js';
import { createStrapiTables, strapiTableStatements, TablesExistError } from '../../src/database/strapi-layout/create.js';
import { planStrapiLayout } from '../../src/database/strapi-layout/plan.js';
import { loadModel, type Model } from '../../src/model/index.js';
import { describeEachDialect, freshDatabaseConfig, useFreshDatabase } from '../helpers/databases.js';
import { loadStrapiFixture, strapiFixtureLayout } from '../helpers/strapi-fixture.js';

const CONFORMANCE_APP = join(import.meta.dirname, '..', 'fixtures', 'conformance', 'app');

let model: Model;
beforeAll(async () => {
  model = await loadModel(CONFORMANCE_APP);
});

const layoutOf = (db: Database, native = false) => readLayout((sql, params) => db.query(sql, params), db.dialect, { native });
const byName = (layout: DatabaseLayout | unknown) => new Map((layout as DatabaseLayout).tables.map((t) => [t.name, t]));

/**
 * What differs from Strapi's own tables below what readLayout reads (none of it read nor relied on by Strapi, which
 * addresses tables, columns, indexes and keys by name):
 * - column order: `id` first, then the plan's (alphabetical) order, where Strapi follows the model's attribute order;
 * - SQLite's stored CREATE TABLE text: Strapi's was rebuilt by knex to add its foreign keys (`"table"` quoting, each
 *   FK clause written twice); ours is written once, with backticks; PRAGMA reads are the same;
 * - MariaDB's AUTO_INCREMENT counters and PostgreSQL's sequence positions (data, not layout).
 */
const INVISIBLE_DIFFERENCES = ['column order', "SQLite's stored CREATE TABLE text", 'auto-increment counters'];

/** `table.column native` of each column: what knex wrote, below the normalization. */
const nativeTypes = (table: LayoutTable) => table.columns.map((c) => `${table.name}.${c.name} ${c.native}`);

/** MariaDB's character sets below the types: each table's collation and each text column's (`table` / `table.column`). */
const COLLATIONS = `SELECT TABLE_NAME AS name, TABLE_COLLATION AS collation FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE()
  UNION ALL SELECT CONCAT(TABLE_NAME, '.', COLUMN_NAME), COLLATION_NAME FROM information_schema.COLUMNS
  WHERE TABLE_SCHEMA = DATABASE() AND COLLATION_NAME IS NOT NULL`;
const collations = async (db: Database) => new Map((await db.query<{ name: string; collation: string }>(COLLATIONS)).map((r) => [r.name, r.collation]));

/**
 * PostgreSQL below the layout: which unique indexes are UNIQUE constraints (`table constraint`), and each `id`'s
 * default (`table nextval(...)`: the sequence serial made).
 */
const PG_DETAILS = `SELECT cl.relname || ' ' || c.conname AS detail FROM pg_catalog.pg_constraint c
    JOIN pg_catalog.pg_class cl ON cl.oid = c.conrelid JOIN pg_catalog.pg_namespace n ON n.oid = cl.relnamespace
    WHERE c.contype = 'u' AND n.nspname = current_schema()
  UNION ALL SELECT table_name || ' ' || column_default FROM information_schema.columns
    WHERE table_schema = current_schema() AND column_name = 'id'`;
const pgDetails = async (db: Database) => (await db.query<{ detail: string }>(PG_DETAILS)).map((r) => r.detail).sort();

/** The native layout of the database real Strapi made (the fixture dump loaded into a fresh database). */
async function strapiNativeLayout(dialect: DialectName): Promise<{ tables: Map<string, LayoutTable>; collations: Map<string, string>; pg: string[] }> {
  const fixture = await loadStrapiFixture(dialect);
  const db = await createDatabase(fixture.config);
  try {
    return {
      tables: byName(await layoutOf(db, true)),
      collations: dialect === 'mysql' ? await collations(db) : new Map(),
      pg: dialect === 'postgres' ? await pgDetails(db) : [],
    };
  } finally {
    await db.close();
    await fixture.drop();
  }
}

describeEachDialect("createStrapiTables: Strapi's tables for the conformance model on an empty database", (dialect) => {
  let db: Database;
  let drop: () => Promise<void>;
  let strapi: Awaited<ReturnType<typeof strapiNativeLayout>>;
  beforeAll(async () => {
    strapi = await strapiNativeLayout(dialect);
    const fresh = await freshDatabaseConfig(dialect);
    drop = fresh.drop;
    db = await createDatabase(fresh.config);
    await createStrapiTables(db, planStrapiLayout(model, dialect));
  }, 180_000);
  afterAll(async () => {
    await db?.close();
    await drop?.();
  });

  it('makes a database that checkStrapiLayout finds nothing wrong with', async () => {
    expect(await checkStrapiLayout(db, model)).toEqual([]);
  });

  it("reads back, table by table, exactly the fixture's tables of the same names (normalized), and no other table", async () => {
    const created = await layoutOf(db);
    const fixture = byName(strapiFixtureLayout(dialect));
    expect(created.tables.map((t) => t.name)).toEqual(planStrapiLayout(model, dialect).map((t) => t.name));
    for (const table of created.tables) expect(table, table.name).toEqual(fixture.get(table.name));
  });

  it("writes Strapi's native types, column by column (read from the database real Strapi made)", async () => {
    const created = await layoutOf(db, true);
    expect(created.tables).toHaveLength(38);
    for (const table of created.tables) {
      const made = strapi.tables.get(table.name);
      expect(made, table.name).toBeDefined();
      expect(table.columns.every((c) => typeof c.native === 'string' && c.native !== ''), table.name).toBe(true);
      expect(nativeTypes(table), table.name).toEqual(nativeTypes(made!));
    }
  });

  // PostgreSQL only: what readLayout reads alike for a unique index and a UNIQUE constraint, and serial's sequences.
  if (dialect === 'postgres') {
    it("makes Strapi's unique indexes UNIQUE constraints, and each id's sequence as serial names it, as Strapi", async () => {
      const created = await pgDetails(db);
      const planned = new Set(planStrapiLayout(model, dialect).map((t) => t.name));
      expect(created).toContain("articles_categories_lnk articles_categories_lnk_uq");
      expect(created).toContain("articles nextval('articles_id_seq'::regclass)");
      expect(created).toEqual(strapi.pg.filter((detail) => planned.has(detail.split(' ')[0]!)));
    });
  }

  // MariaDB only: table options, and the json columns MariaDB makes of knex's `json`.
  if (dialect === 'mysql') {
    it("gives every table and text column Strapi's collation (utf8mb4_general_ci; json: utf8mb4_bin)", async () => {
      const found = await collations(db);
      expect(found.size).toBeGreaterThan(38);
      for (const [name, collation] of found) expect(collation, name).toBe(strapi.collations.get(name));
    });

    it('makes every table InnoDB in utf8mb4, and json columns longtext utf8mb4_bin with a json_valid check, as Strapi', async () => {
      const tables = await db.query<{ ENGINE: string; TABLE_COLLATION: string }>(
        `SELECT ENGINE, TABLE_COLLATION FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE()`,
      );
      expect(tables).toHaveLength(38);
      for (const t of tables) {
        expect(t.ENGINE).toBe('InnoDB');
        expect(t.TABLE_COLLATION).toMatch(/^utf8mb4_/);
      }
      const [tags] = await db.query<{ COLUMN_TYPE: string; COLLATION_NAME: string }>(
        `SELECT COLUMN_TYPE, COLLATION_NAME FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 'restaurants' AND COLUMN_NAME = 'tags'`,
      );
      expect(tags).toEqual({ COLUMN_TYPE: 'longtext', COLLATION_NAME: 'utf8mb4_bin' });
      const checks = await db.query(`SELECT CHECK_CLAUSE AS clause FROM information_schema.CHECK_CONSTRAINTS WHERE CONSTRAINT_SCHEMA = DATABASE() AND TABLE_NAME = 'restaurants'`);
      expect(checks).toEqual([{ clause: 'json_valid(`tags`)' }]);
    });
  }

  it('refuses to create them again, naming the tables, and changes nothing', async () => {
    const before = await layoutOf(db, true);
    const error = await createStrapiTables(db, planStrapiLayout(model, dialect)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TablesExistError);
    expect((error as TablesExistError).tables).toHaveLength(38);
    expect((error as TablesExistError).message).toContain('articles_categories_lnk');
    expect(await layoutOf(db, true)).toEqual(before);
  });

  it('refuses when only some of the tables exist, and creates none of the others', async () => {
    const extra: LayoutTable = {
      name: 'brand_new',
      columns: [{ name: 'id', type: 'integer', nullable: false, default: null, autoIncrement: true }],
      primaryKey: ['id'],
      indexes: [],
      foreignKeys: [],
    };
    const articles = planStrapiLayout(model, dialect).find((t) => t.name === 'articles')!;
    await expect(createStrapiTables(db, [extra, articles])).rejects.toThrow("cannot create Strapi's tables: 1 already exist (articles); nothing was created");
    expect((await layoutOf(db)).tables.map((t) => t.name)).not.toContain('brand_new');
  });
});

describeEachDialect('createStrapiTables: a failure half-way', (dialect) => {
  const fresh = useFreshDatabase(dialect);

  it(
    dialect === 'mysql'
      ? 'leaves no table: MariaDB commits each CREATE TABLE, so the tables made so far are dropped'
      : 'leaves no table: every statement ran in one transaction, rolled back',
    async () => {
      // The last table's index names a column it does not have: the database refuses it after every other table.
      const broken: LayoutTable = {
        name: 'zz_broken',
        columns: [{ name: 'id', type: 'integer', nullable: false, default: null, autoIncrement: true }],
        primaryKey: ['id'],
        indexes: [{ name: 'zz_broken_idx', columns: ['missing'], unique: false }],
        foreignKeys: [],
      };
      await expect(createStrapiTables(fresh(), [...planStrapiLayout(model, dialect), broken])).rejects.toThrow(/missing/i);
      expect((await layoutOf(fresh())).tables).toEqual([]);
      // And the database is usable afterwards: the plan alone is created.
      await createStrapiTables(fresh(), planStrapiLayout(model, dialect));
      expect(await checkStrapiLayout(fresh(), model)).toEqual([]);
    },
    120_000,
  );
});

describe('strapiTableStatements', () => {
  it(`writes \`id\` first, whatever the plan's column order (known differences: ${INVISIBLE_DIFFERENCES.join('; ')})`, () => {
    for (const dialect of ['sqlite', 'postgres', 'mysql'] as DialectName[]) {
      for (const sql of strapiTableStatements(dialect, planStrapiLayout(model, dialect)).filter((s) => s.startsWith('CREATE TABLE'))) {
        expect(sql, sql).toMatch(/^CREATE TABLE [`"][a-z_0-9]+[`"] \([`"]id[`"] /);
      }
    }
  });
});

describe('strapiTableStatements: bad plans are refused before any statement', () => {
  const id = { name: 'id', type: 'integer', nullable: false, default: null, autoIncrement: true };
  const table = (more: Partial<LayoutTable> = {}): LayoutTable => ({ name: 't', columns: [id], primaryKey: ['id'], indexes: [], foreignKeys: [], ...more });

  it('refuses a table planned twice', () => {
    expect(() => strapiTableStatements('sqlite', [table(), table()])).toThrow('t is planned twice');
  });

  it('refuses a table without an auto-increment integer id primary key', () => {
    expect(() => strapiTableStatements('postgres', [table({ columns: [{ ...id, autoIncrement: false }] })])).toThrow('one auto-increment integer primary key');
    expect(() => strapiTableStatements('postgres', [table({ primaryKey: [] })])).toThrow('this one has none');
  });

  it('refuses a default (Strapi writes none) and a type it has no spelling for', () => {
    const column = { name: 'c', type: 'text', nullable: true, default: 'x', autoIncrement: false };
    expect(() => strapiTableStatements('mysql', [table({ columns: [id, column] })])).toThrow("t.c: Strapi's columns have no default (found x)");
    expect(() => strapiTableStatements('mysql', [table({ columns: [id, { ...column, default: null, type: 'geometry' }] })])).toThrow(
      "t.c: no mysql type for Strapi's geometry",
    );
  });

  it('refuses an unknown foreign key action', () => {
    const foreignKeys = [{ name: 'k', columns: ['id'], referencedTable: 't', referencedColumns: ['id'], onDelete: 'EXPLODE', onUpdate: 'NO ACTION' }];
    expect(() => strapiTableStatements('sqlite', [table({ foreignKeys })])).toThrow('unknown foreign key action EXPLODE');
  });
});
