import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createDatabase, type Database, type DatabaseConfig } from '../../src/database/index.js';
import { describeEachDialect } from '../helpers/databases.js';
import { loadStrapiFixture } from '../helpers/strapi-fixture.js';
import { databaseSnapshot } from '../helpers/db-snapshot.js';
import { cairn, ensureBuilt } from './build.js';

beforeAll(ensureBuilt);

const CONFORMANCE_SRC = join(import.meta.dirname, '..', 'fixtures', 'conformance', 'app', 'src');
const MATCHES = "the database matches Strapi 5's layout for this model\n";
const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** An app folder: the conformance model, and config/database.json naming `database`. */
function appFor(database: DatabaseConfig): string {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-db-check-'));
  dirs.push(dir);
  cpSync(CONFORMANCE_SRC, join(dir, 'src'), { recursive: true });
  mkdirSync(join(dir, 'config'));
  writeFileSync(join(dir, 'config', 'database.json'), JSON.stringify(database));
  return dir;
}

it('cairn --help lists db; db check --help names --dir', () => {
  expect(cairn(['--help']).stdout).toMatch(/^ {2}db\b/m);
  const help = cairn(['db', 'check', '--help']);
  expect(help.status).toBe(0);
  expect(help.stdout).toContain('--dir');
});

it('a SQLite file that does not exist: one line, exit 1, and no file is created', () => {
  const missing = join(mkdtempSync(join(tmpdir(), 'cairn-db-check-')), 'nested', 'data.db');
  dirs.push(join(missing, '..', '..'));
  const dir = appFor({ connection: { client: 'sqlite', connection: { filename: missing } } });
  const run = cairn(['db', 'check', '--dir', dir]);
  expect(run.stdout).toBe('');
  expect(run.stderr).toBe(`cairn: no SQLite database file at ${missing} (opened read-only: none is created)\n`);
  expect(run.status).toBe(1);
  expect(existsSync(join(missing, '..'))).toBe(false);
});

describeEachDialect('cairn db check', (dialect) => {
  let fixture: Awaited<ReturnType<typeof loadStrapiFixture>>;
  let db: Database;
  let dir: string;
  const file = () => (dialect === 'sqlite' ? String(fixture.config.connection.connection.filename) : undefined);
  beforeAll(async () => {
    fixture = await loadStrapiFixture(dialect);
    db = await createDatabase(fixture.config);
    dir = appFor(fixture.config);
  });
  afterAll(async () => {
    await db?.close();
    await fixture?.drop();
  });

  it("on the database Strapi made for the app's model: says it matches, exit 0, and writes nothing", async () => {
    const before = await databaseSnapshot(db, file());
    const run = cairn(['db', 'check', '--dir', dir]);
    expect(run.stderr).toBe('');
    expect(run.stdout).toBe(MATCHES);
    expect(run.status).toBe(0);
    expect(await databaseSnapshot(db, file())).toEqual(before);
  });

  it('on an altered copy: each difference on a line, exit 1, and writes nothing', async () => {
    await db.execute(`ALTER TABLE ${db.quote('dishes')} DROP COLUMN ${db.quote('price')}`);
    await db.execute(`DROP TABLE ${db.quote('restaurants_cmps')}`);
    const before = await databaseSnapshot(db, file());
    const run = cairn(['db', 'check', '--dir', dir]);
    expect(run.stderr).toBe('');
    expect(run.stdout).toBe(
      [
        "the database differs from Strapi 5's layout for this model (2 differences):",
        `dishes.price: expected ${dialect === 'sqlite' ? 'double' : 'decimal(10,2)'} NULL, found missing`,
        'restaurants_cmps: expected table, found missing',
        '',
      ].join('\n'),
    );
    expect(run.status).toBe(1);
    expect(await databaseSnapshot(db, file())).toEqual(before);
  });

  it('cairn start on the altered copy: refuses with the same differences, exit 1, and writes nothing', async () => {
    const before = await databaseSnapshot(db, file());
    const run = cairn(['start', '--dir', dir, '--port', '0'], {}, { timeout: 60_000 });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain("cairn: the database's tables are not the ones Strapi 5 makes for this model (2 differences)");
    expect(run.stderr).toContain(`dishes.price: expected ${dialect === 'sqlite' ? 'double' : 'decimal(10,2)'} NULL, found missing\n`);
    expect(run.stderr).toContain('restaurants_cmps: expected table, found missing\n');
    expect(await databaseSnapshot(db, file())).toEqual(before);
  });
});

it('on a database Cairn made (db create), with a model that added and removed attributes: says what a start adds and what it refuses, exit 1, and writes nothing', async () => {
  const folder = mkdtempSync(join(tmpdir(), 'cairn-db-check-'));
  dirs.push(folder);
  const filename = join(folder, 'data.db');
  const dir = appFor({ connection: { client: 'sqlite', connection: { filename } } });
  expect(cairn(['db', 'create', '--dir', dir]).status).toBe(0);
  expect(cairn(['db', 'check', '--dir', dir]).stdout).toBe(MATCHES);

  const chef = join(dir, 'src', 'api', 'chef', 'content-types', 'chef', 'schema.json');
  const schema = JSON.parse(readFileSync(chef, 'utf8')) as { attributes: Record<string, object> };
  schema.attributes.nickname = { type: 'string' };
  writeFileSync(chef, JSON.stringify(schema));
  let run = cairn(['db', 'check', '--dir', dir]);
  expect(run.stderr).toBe('');
  expect(run.stdout).toBe(
    [
      "the database differs from Strapi 5's layout for this model (1 difference):",
      'Cairn made this database: a start adds:',
      'chefs.nickname: expected varchar(255) NULL, found missing',
      '',
    ].join('\n'),
  );
  expect(run.status).toBe(1);

  delete schema.attributes.bio;
  writeFileSync(chef, JSON.stringify(schema));
  const db = await createDatabase({ connection: { client: 'sqlite', connection: { filename } } }, { readOnly: true });
  try {
    const before = await databaseSnapshot(db, filename);
    run = cairn(['db', 'check', '--dir', dir]);
    expect(run.stdout).toBe(
      [
        "the database differs from Strapi 5's layout for this model (2 differences):",
        'Cairn made this database: a start adds:',
        'chefs.nickname: expected varchar(255) NULL, found missing',
        'a start refuses (Cairn drops and changes nothing):',
        'chefs.bio: expected none (not in the model; Cairn drops nothing: drop it yourself, or restore the model), found text NULL',
        '',
      ].join('\n'),
    );
    expect(run.status).toBe(1);
    expect(await databaseSnapshot(db, filename)).toEqual(before);
  } finally {
    await db.close();
  }
});
