import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, type Database } from '../../src/database/index.js';
import type { DatabaseLayout, LayoutTable } from '../../src/database/layout.js';
import { checkStrapiLayout, formatLayoutDifferences } from '../../src/database/strapi-layout/check.js';
import { compareLayout } from '../../src/database/strapi-layout/compare.js';
import { loadModel, type Model } from '../../src/model/index.js';
import { describeEachDialect } from '../helpers/databases.js';
import { loadStrapiFixture } from '../helpers/strapi-fixture.js';
import { databaseSnapshot } from '../helpers/db-snapshot.js';

const CONFORMANCE_APP = join(import.meta.dirname, '..', 'fixtures', 'conformance', 'app');

const column = (name: string, type: string, more: object = {}) => ({ name, type, nullable: true, default: null, autoIncrement: false, ...more });
const id = column('id', 'integer', { nullable: false, autoIncrement: true });
const links: LayoutTable = {
  name: 'a_b_lnk',
  columns: [column('a_id', 'integer'), column('b_id', 'integer'), column('b_ord', 'double'), id],
  primaryKey: ['id'],
  indexes: [
    { name: 'a_b_lnk_fk', columns: ['a_id'], unique: false },
    { name: 'a_b_lnk_uq', columns: ['a_id', 'b_id'], unique: true },
  ],
  foreignKeys: [{ name: 'a_b_lnk_fk', columns: ['a_id'], referencedTable: 'a', referencedColumns: ['id'], onDelete: 'CASCADE', onUpdate: 'NO ACTION' }],
};
const plain: LayoutTable = { name: 'a', columns: [id, column('title', 'varchar(255)')], primaryKey: ['id'], indexes: [], foreignKeys: [] };
const layout = (...tables: LayoutTable[]): DatabaseLayout => ({ client: 'sqlite', tables });
const copy = (t: LayoutTable): LayoutTable => structuredClone(t);

describe('compareLayout: what a database lacks or has otherwise than planned', () => {
  it('finds nothing when the database has the planned tables, or more (tables, columns, indexes, keys)', () => {
    expect(compareLayout([plain, links], layout(plain, links))).toEqual([]);
    const more = copy(links);
    more.columns.push(column('extra', 'text'));
    more.indexes.push({ name: 'extra_idx', columns: ['extra'], unique: false });
    more.foreignKeys.push({ name: 'extra_fk', columns: ['extra'], referencedTable: 'a', referencedColumns: ['id'], onDelete: 'SET NULL', onUpdate: 'NO ACTION' });
    expect(compareLayout([plain, links], layout(plain, more, { ...plain, name: 'admin_roles' }))).toEqual([]);
    // Defaults are not compared: Strapi and Cairn write every value themselves.
    const withDefault = copy(plain);
    withDefault.columns[1]!.default = 'x';
    expect(compareLayout([plain], layout(withDefault))).toEqual([]);
  });

  it('names a missing table once (not each of its columns)', () => {
    expect(compareLayout([plain, links], layout(plain))).toEqual([{ table: 'a_b_lnk', expected: 'table', found: 'missing' }]);
  });

  it('names each column missing, or of another type, nullability or auto-increment', () => {
    const other = copy(links);
    other.columns = [column('a_id', 'bigint'), column('b_id', 'integer', { nullable: false }), column('id', 'integer', { nullable: false })];
    expect(compareLayout([links], layout(other))).toEqual([
      { table: 'a_b_lnk', column: 'a_id', expected: 'integer NULL', found: 'bigint NULL' },
      { table: 'a_b_lnk', column: 'b_id', expected: 'integer NULL', found: 'integer NOT NULL' },
      { table: 'a_b_lnk', column: 'b_ord', expected: 'double NULL', found: 'missing' },
      { table: 'a_b_lnk', column: 'id', expected: 'integer NOT NULL AUTO_INCREMENT', found: 'integer NOT NULL' },
    ]);
  });

  it('names a primary key, index or foreign key that is missing or differs (matched by name)', () => {
    const other = copy(links);
    other.primaryKey = [];
    other.indexes = [
      { name: 'a_b_lnk_fk', columns: ['a_id', 'b_id'], unique: false },
      { name: 'a_b_lnk_uq', columns: ['a_id', 'b_id'], unique: false },
    ];
    other.foreignKeys = [{ name: 'other_name', columns: ['a_id'], referencedTable: 'a', referencedColumns: ['id'], onDelete: 'CASCADE', onUpdate: 'NO ACTION' }];
    const differences = compareLayout([links], layout(other));
    expect(differences).toEqual([
      { table: 'a_b_lnk', expected: 'primary key (id)', found: 'no primary key' },
      { table: 'a_b_lnk', index: 'a_b_lnk_fk', expected: 'index (a_id)', found: 'index (a_id, b_id)' },
      { table: 'a_b_lnk', index: 'a_b_lnk_uq', expected: 'unique index (a_id, b_id)', found: 'index (a_id, b_id)' },
      { table: 'a_b_lnk', foreignKey: 'a_b_lnk_fk', expected: '(a_id) references a (id) ON DELETE CASCADE ON UPDATE NO ACTION', found: 'missing' },
    ]);
    other.foreignKeys = [{ ...links.foreignKeys[0]!, onDelete: 'SET NULL' }];
    expect(compareLayout([links], layout(other)).at(-1)).toEqual({
      table: 'a_b_lnk',
      foreignKey: 'a_b_lnk_fk',
      expected: '(a_id) references a (id) ON DELETE CASCADE ON UPDATE NO ACTION',
      found: '(a_id) references a (id) ON DELETE SET NULL ON UPDATE NO ACTION',
    });
    expect(formatLayoutDifferences(differences).split('\n')).toEqual([
      'a_b_lnk: expected primary key (id), found no primary key',
      'a_b_lnk index a_b_lnk_fk: expected index (a_id), found index (a_id, b_id)',
      'a_b_lnk index a_b_lnk_uq: expected unique index (a_id, b_id), found index (a_id, b_id)',
      'a_b_lnk foreign key a_b_lnk_fk: expected (a_id) references a (id) ON DELETE CASCADE ON UPDATE NO ACTION, found missing',
    ]);
    expect(formatLayoutDifferences([])).toBe('');
  });
});

let model: Model;
beforeAll(async () => {
  model = await loadModel(CONFORMANCE_APP);
});

describeEachDialect("checkStrapiLayout on the database real Strapi made for the conformance model", (dialect) => {
  let fixture: Awaited<ReturnType<typeof loadStrapiFixture>>;
  let db: Database;
  beforeAll(async () => {
    fixture = await loadStrapiFixture(dialect);
    db = await createDatabase(fixture.config, { readOnly: true });
  });
  afterAll(async () => {
    await db?.close();
    await fixture?.drop();
  });

  it('finds no difference, reading the catalog only: layout, row counts and file bytes are the same after', async () => {
    const file = dialect === 'sqlite' ? String(fixture.config.connection.connection.filename) : undefined;
    const before = await databaseSnapshot(db, file);
    const statements: string[] = [];
    const stop = db.onQuery((sql) => statements.push(sql));
    try {
      expect(await checkStrapiLayout(db, model)).toEqual([]);
    } finally {
      stop();
    }
    expect(statements.length).toBeGreaterThan(0);
    for (const sql of statements) expect(sql).toMatch(/^\s*SELECT\b/i);
    expect(await databaseSnapshot(db, file)).toEqual(before);
  });

  it('runs on a read-only connection, which refuses any write', async () => {
    await expect(db.execute('DELETE FROM up_permissions')).rejects.toThrow(/read.?only/i);
    expect(Number((await db.query<{ n: number | string }>('SELECT COUNT(*) AS n FROM up_permissions'))[0]!.n)).toBe(61);
  });
});

describeEachDialect('checkStrapiLayout on an altered copy of the Strapi database', (dialect) => {
  let fixture: Awaited<ReturnType<typeof loadStrapiFixture>>;
  let db: Database;
  beforeAll(async () => {
    fixture = await loadStrapiFixture(dialect);
    db = await createDatabase(fixture.config);
    const q = (name: string) => db.quote(name);
    await db.execute(`ALTER TABLE ${q('articles')} DROP COLUMN ${q('title')}`);
    // Another type (and NOT NULL) for chefs.bio: dropped and added again, which every dialect can do.
    await db.execute(`ALTER TABLE ${q('chefs')} DROP COLUMN ${q('bio')}`);
    await db.execute(`ALTER TABLE ${q('chefs')} ADD COLUMN ${q('bio')} integer NOT NULL DEFAULT 0`);
    await db.execute(`DROP TABLE ${q('articles_related_lnk')}`);
    await db.execute(`DROP INDEX ${q('articles_documents_idx')}${dialect === 'mysql' ? ` ON ${q('articles')}` : ''}`);
    // Strapi 5.47.1's admin_users has no reset_password_token_expires_at (a later 5.x added it): no difference;
    // registration_token is in every 5.x: a difference.
    await db.execute(`ALTER TABLE ${q('admin_users')} DROP COLUMN ${q('reset_password_token_expires_at')}`);
    await db.execute(`ALTER TABLE ${q('admin_users')} DROP COLUMN ${q('registration_token')}`);
  });
  afterAll(async () => {
    await db?.close();
    await fixture?.drop();
  });

  it("finds exactly the five changes, not the admin column that Strapi 5.x releases before 5.54's lack", async () => {
    const differences = await checkStrapiLayout(db, model);
    expect(differences).toEqual([
      { table: 'admin_users', column: 'registration_token', expected: 'varchar(255) NULL', found: 'missing' },
      { table: 'articles', column: 'title', expected: 'varchar(255) NULL', found: 'missing' },
      { table: 'articles', index: 'articles_documents_idx', expected: 'index (document_id, locale, published_at)', found: 'missing' },
      { table: 'articles_related_lnk', expected: 'table', found: 'missing' },
      { table: 'chefs', column: 'bio', expected: 'text NULL', found: 'integer NOT NULL' },
    ]);
    expect(formatLayoutDifferences(differences)).toBe(
      [
        'admin_users.registration_token: expected varchar(255) NULL, found missing',
        'articles.title: expected varchar(255) NULL, found missing',
        'articles index articles_documents_idx: expected index (document_id, locale, published_at), found missing',
        'articles_related_lnk: expected table, found missing',
        'chefs.bio: expected text NULL, found integer NOT NULL',
      ].join('\n'),
    );
  });
});
