import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, type Database } from '../../src/database/index.js';
import { readLayout, type DatabaseLayout } from '../../src/database/layout.js';
import { describeEachDialect } from '../helpers/databases.js';
import { loadStrapiFixture, strapiFixtureLayout } from '../helpers/strapi-fixture.js';

const script = join(import.meta.dirname, '..', '..', 'scripts', 'db-layout.mjs');

function dump(...args: string[]): { status: number | null; layout: DatabaseLayout; stdout: string; stderr: string } {
  const run = spawnSync(process.execPath, [script, ...args], { encoding: 'utf8' });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr, layout: run.status === 0 && run.stdout ? JSON.parse(run.stdout) : undefined! };
}

describe('scripts/db-layout.mjs on SQLite', () => {
  let dir: string;
  let file: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'cairn-layout-'));
    file = join(dir, 'small.db');
    const db = new SQLite(file);
    // What knex writes for Strapi (backquotes, a named constraint repeated by a table rebuild) and a few other forms.
    db.exec(`
      CREATE TABLE \`owners\` (\`id\` integer PRIMARY KEY AUTOINCREMENT NOT NULL, \`name\` varchar(255) NULL, \`price\` decimal(10,2),
        \`flag\` boolean DEFAULT '1', \`data\` json, \`at\` datetime, \`day\` date, \`size\` float NOT NULL DEFAULT 0);
      CREATE TABLE "links" ("id" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "owner_id" integer NULL, "other_id" integer, "owner_ord" float,
        CONSTRAINT "links_fk" FOREIGN KEY ("owner_id") REFERENCES "owners" ("id") ON DELETE CASCADE,
        CONSTRAINT "links_fk" FOREIGN KEY ("owner_id") REFERENCES "owners" ("id") ON DELETE CASCADE,
        FOREIGN KEY ("other_id") REFERENCES "owners" ON DELETE SET NULL);
      CREATE UNIQUE INDEX "links_uq" ON "links" ("owner_id", "other_id");
      CREATE INDEX "links_fk" ON "links" ("owner_id");
      CREATE TABLE plain (code TEXT PRIMARY KEY, note TEXT DEFAULT 'it''s');
    `);
    db.close();
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('prints the tables sorted, each with its columns, primary key, indexes and foreign keys, normalized', () => {
    const run = dump('--client', 'sqlite', file);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const { layout } = run;
    expect(layout.client).toBe('sqlite');
    expect(layout.tables.map((t) => t.name)).toEqual(['links', 'owners', 'plain']);
    const [links, owners, plain] = layout.tables;
    const column = (name: string, type: string, more: object = {}) => ({ name, type, nullable: true, default: null, autoIncrement: false, ...more });
    expect(owners!.columns).toEqual([
      column('at', 'datetime'),
      column('data', 'json'),
      column('day', 'date'),
      column('flag', 'boolean', { default: 'true' }),
      column('id', 'integer', { nullable: false, autoIncrement: true }),
      column('name', 'varchar(255)'),
      column('price', 'decimal(10,2)'),
      column('size', 'double', { nullable: false, default: '0' }),
    ]);
    expect(owners!.primaryKey).toEqual(['id']);
    expect(links!.indexes).toEqual([
      { name: 'links_fk', columns: ['owner_id'], unique: false },
      { name: 'links_uq', columns: ['owner_id', 'other_id'], unique: true },
    ]);
    // The repeated constraint is one key; an unnamed key that names no column refers to the primary key.
    expect(links!.foreignKeys).toEqual([
      { name: null, columns: ['other_id'], referencedTable: 'owners', referencedColumns: ['id'], onDelete: 'SET NULL', onUpdate: 'NO ACTION' },
      { name: 'links_fk', columns: ['owner_id'], referencedTable: 'owners', referencedColumns: ['id'], onDelete: 'CASCADE', onUpdate: 'NO ACTION' },
    ]);
    expect(plain).toEqual({
      name: 'plain',
      columns: [column('code', 'text'), column('note', 'text', { default: "it's" })],
      primaryKey: ['code'],
      indexes: [],
      foreignKeys: [],
    });
  });

  it('adds each column native type with --native, and writes to --out', () => {
    const out = join(dir, 'out.json');
    const run = dump('--client', 'sqlite', file, '--native', '--out', out);
    expect(run.status).toBe(0);
    expect(run.stdout).toBe('');
    const layout = JSON.parse(readFileSync(out, 'utf8')) as DatabaseLayout;
    const owners = layout.tables.find((t) => t.name === 'owners')!;
    expect(owners.columns.find((c) => c.name === 'size')).toMatchObject({ type: 'double', native: 'float' });
  });

  it('changes nothing in the file it reads', () => {
    const digest = () => createHash('sha256').update(readFileSync(file)).digest('hex');
    const before = digest();
    expect(dump('--client', 'sqlite', file).status).toBe(0);
    expect(digest()).toBe(before);
  });

  it('refuses a missing file or client with a message and status 2', () => {
    expect(dump('--client', 'sqlite', join(dir, 'missing.db')).status).not.toBe(0);
    const run = dump(file);
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/usage: db-layout\.mjs --client/);
  });
});

describeEachDialect('the Strapi-made fixture database', (dialect) => {
  let db: Database;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    const fixture = await loadStrapiFixture(dialect);
    drop = fixture.drop;
    db = await createDatabase(fixture.config);
  });
  afterAll(async () => {
    await db?.close();
    await drop?.();
  });

  it(`loads, and reads as test/fixtures/strapi-db/layout.${dialect}.json`, async () => {
    const layout = await readLayout((sql, params) => db.query(sql, params), dialect);
    expect(layout).toEqual(strapiFixtureLayout(dialect));
    const [{ n }] = await db.query<{ n: number | string }>('SELECT COUNT(*) AS n FROM restaurants');
    expect(Number(n)).toBe(1128);
  });
});
