import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Sqlite from 'better-sqlite3';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createDatabase, type Database, type DatabaseConfig } from '../../src/database/index.js';
import { holdsStrapiLayout } from '../../src/database/storage-layout.js';
import { describeEachDialect, freshDatabaseConfig } from '../helpers/databases.js';
import { databaseSnapshot } from '../helpers/db-snapshot.js';
import { cairn, ensureBuilt } from './build.js';

beforeAll(ensureBuilt);

const CONFORMANCE_SRC = join(import.meta.dirname, '..', 'fixtures', 'conformance', 'app', 'src');
const CREATED =
  "created Strapi 5's layout for this model: 59 tables, 1 locale and 2 roles with their default permissions " +
  "(Strapi adds its admin's tables and settings when it first starts on it)\n";
const MATCHES = "the database matches Strapi 5's layout for this model\n";
const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-db-create-'));
  dirs.push(dir);
  return dir;
};

/** An app folder: the conformance model, and config/database.json naming `database`. */
function appFor(database: DatabaseConfig): string {
  const dir = tempDir();
  cpSync(CONFORMANCE_SRC, join(dir, 'src'), { recursive: true });
  mkdirSync(join(dir, 'config'));
  writeFileSync(join(dir, 'config', 'database.json'), JSON.stringify(database));
  return dir;
}

const sha = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

it('cairn db --help lists create; db create --help names --dir', () => {
  expect(cairn(['db', '--help']).stdout).toMatch(/^ {2}create\b/m);
  const help = cairn(['db', 'create', '--help']);
  expect(help.status).toBe(0);
  expect(help.stdout).toContain('--dir');
});

it('a SQLite file that does not exist yet is an empty database: made, with its folder, and then passes db check', () => {
  const file = join(tempDir(), 'nested', 'data.db');
  const dir = appFor({ connection: { client: 'sqlite', connection: { filename: file } } });
  const run = cairn(['db', 'create', '--dir', dir]);
  expect(run.stderr).toBe('');
  expect(run.stdout).toBe(CREATED);
  expect(run.status).toBe(0);
  const check = cairn(['db', 'check', '--dir', dir]);
  expect(check.stdout).toBe(MATCHES);
  expect(check.status).toBe(0);
  const handle = new Sqlite(file, { readonly: true });
  try {
    expect(handle.pragma('journal_mode', { simple: true })).toBe('delete');
    expect(handle.prepare('SELECT code FROM i18n_locale').pluck().all()).toEqual(['en']);
  } finally {
    handle.close();
  }
});

it("a SQLite file with a table of its own: refused, exit 1, and not a byte changes (not even the journal mode Cairn's own layout sets)", () => {
  const file = join(tempDir(), 'data.db');
  const handle = new Sqlite(file);
  handle.exec("CREATE TABLE notes (id integer, body text); INSERT INTO notes VALUES (1, 'kept')");
  handle.close();
  const before = sha(file);
  const dir = appFor({ connection: { client: 'sqlite', connection: { filename: file } } });
  const run = cairn(['db', 'create', '--dir', dir]);
  expect(run.stdout).toBe('');
  expect(run.stderr).toBe("cairn: the database is not empty (1 table: notes): Strapi's layout is created in an empty database only; nothing was changed\n");
  expect(run.status).toBe(1);
  expect(sha(file)).toBe(before);
  expect(existsSync(`${file}-wal`)).toBe(false);
});

describeEachDialect('cairn db create', (dialect) => {
  let fresh: Awaited<ReturnType<typeof freshDatabaseConfig>>;
  let db: Database;
  let dir: string;
  const file = () => (dialect === 'sqlite' ? String(fresh.config.connection.connection.filename) : undefined);
  beforeAll(async () => {
    fresh = await freshDatabaseConfig(dialect);
    dir = appFor(fresh.config);
  });
  afterAll(async () => {
    await db?.close();
    await fresh?.drop();
  });

  it("on an empty database: creates Strapi's layout (exit 0), which db check then finds as Strapi makes it and Cairn opens as Strapi's", async () => {
    const run = cairn(['db', 'create', '--dir', dir]);
    expect(run.stderr).toBe('');
    expect(run.stdout).toBe(CREATED);
    expect(run.status).toBe(0);
    const check = cairn(['db', 'check', '--dir', dir]);
    expect(check.stderr).toBe('');
    expect(check.stdout).toBe(MATCHES);
    expect(check.status).toBe(0);
    db = await createDatabase(fresh.config);
    expect(await holdsStrapiLayout(db)).toBe(true);
    expect((await db.query<{ type: string }>('SELECT type FROM up_roles ORDER BY id')).map((r) => r.type)).toEqual(['authenticated', 'public']);
  });

  it('run again: refused with the tables it found, exit 1, and nothing written', async () => {
    const before = await databaseSnapshot(db, file());
    const run = cairn(['db', 'create', '--dir', dir]);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/^cairn: the database is not empty \(59 tables: admin_permissions, .*, and 49 more\): Strapi's layout is created in an empty database only; nothing was changed\n$/);
    expect(run.status).toBe(1);
    expect(await databaseSnapshot(db, file())).toEqual(before);
  });
});
