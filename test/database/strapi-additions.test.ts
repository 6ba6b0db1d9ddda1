import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, type Database, type DatabaseConfig } from '../../src/database/index.js';
import { holdsStrapiLayout } from '../../src/database/storage-layout.js';
import { readLayout, type LayoutTable } from '../../src/database/layout.js';
import { additionStatements, layoutChanges } from '../../src/database/strapi-layout/additions.js';
import type { DialectName } from '../../src/database/types.js';
import { readCairnMark } from '../../src/database/strapi-layout/cairn-mark.js';
import { LayoutMismatchError } from '../../src/database/strapi-layout/check.js';
import { startAppOn, writeApp, type TestSchemas } from '../helpers/app.js';
import { describeEachDialect, freshDatabaseConfig } from '../helpers/databases.js';
import { databaseSnapshot } from '../helpers/db-snapshot.js';
import { loadStrapiFixture } from '../helpers/strapi-fixture.js';

const CONFORMANCE_APP = join(import.meta.dirname, '..', 'fixtures', 'conformance', 'app');

const article = (attributes: Record<string, object>) => ({
  kind: 'collectionType',
  collectionName: 'articles',
  info: { singularName: 'article', pluralName: 'articles', displayName: 'Article' },
  options: { draftAndPublish: false },
  attributes: { title: { type: 'string' }, ...attributes },
});
const tag = {
  kind: 'collectionType',
  collectionName: 'tags',
  info: { singularName: 'tag', pluralName: 'tags', displayName: 'Tag' },
  options: { draftAndPublish: false },
  attributes: { name: { type: 'string' } },
};
const subtitle = { subtitle: { type: 'string' } };
const tags = { tags: { type: 'relation', relation: 'manyToMany', target: 'api::tag.tag' } };

/** The app's model, one version after another (a develop session). */
const VERSIONS: Record<string, TestSchemas> = {
  first: { contentTypes: { article: article({}) } },
  attribute: { contentTypes: { article: article(subtitle) } },
  contentType: { contentTypes: { article: article(subtitle), tag } },
  relation: { contentTypes: { article: article({ ...subtitle, ...tags }), tag } },
};

/** The tables (native types included) without the rows: what a start may add to. */
const nativeLayout = async (db: Database) => (await readLayout((sql, params) => db.query(sql, params), db.dialect, { native: true })).tables;
const tableNames = async (db: Database) => (await nativeLayout(db)).map((t) => t.name);

/** Starts the app of `schemas` on `database`, then closes it; answers the start's error, if any. */
async function startOnce(schemas: TestSchemas, database: DatabaseConfig, use?: (app: Awaited<ReturnType<typeof startAppOn>>) => Promise<void>): Promise<unknown> {
  const dir = writeApp(schemas);
  try {
    const app = await startAppOn(dir, database);
    try {
      await use?.(app);
    } finally {
      await app.close();
    }
    return undefined;
  } catch (error) {
    return error;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const column = (name: string, type: string, more: object = {}) => ({ name, type, nullable: true, default: null, autoIncrement: false, ...more });
const id = column('id', 'integer', { nullable: false, autoIncrement: true });
const plainTable = (name: string, ...columns: ReturnType<typeof column>[]): LayoutTable => ({ name, columns: [id, ...columns], primaryKey: ['id'], indexes: [], foreignKeys: [] });

describe('layoutChanges: what a start adds to a database Cairn made, and what it refuses', () => {
  const notes = plainTable('notes', column('body', 'text'));
  const planned: LayoutTable[] = [
    { ...notes, columns: [...notes.columns, column('title', 'varchar(255)'), column('rank', 'integer', { nullable: false })], indexes: [{ name: 'notes_title_idx', columns: ['title'], unique: false }] },
    {
      ...plainTable('notes_tags_lnk', column('note_id', 'integer')),
      foreignKeys: [{ name: 'notes_tags_lnk_fk', columns: ['note_id'], referencedTable: 'notes', referencedColumns: ['id'], onDelete: 'CASCADE', onUpdate: 'NO ACTION' }],
    },
    plainTable('tags', column('name', 'varchar(255)')),
  ];
  const found = { client: 'sqlite' as const, tables: [notes, plainTable('notes_tags_lnk', column('note_id', 'integer'))] };

  it('adds a nullable column, an index, a table; refuses a NOT NULL column (no value for the rows there) and, on SQLite, a foreign key', () => {
    const changes = layoutChanges(planned, found, 'sqlite');
    expect(changes.added.map((d) => d.column ?? d.index ?? d.table)).toEqual(['title', 'notes_title_idx', 'tags']);
    expect(changes.additions.tables.map((t) => t.name)).toEqual(['tags']);
    expect(changes.refused).toEqual([
      { table: 'notes', column: 'rank', expected: 'integer NOT NULL', found: 'missing' },
      { table: 'notes_tags_lnk', foreignKey: 'notes_tags_lnk_fk', expected: '(note_id) references notes (id) ON DELETE CASCADE ON UPDATE NO ACTION', found: 'missing' },
    ]);
    // PostgreSQL and MariaDB add a foreign key to a table that exists.
    expect(layoutChanges(planned, { ...found, client: 'postgres' }, 'postgres').added.map((d) => d.foreignKey ?? d.column ?? d.index)).toContain('notes_tags_lnk_fk');
  });

  it('orders the statements so that any prefix leaves additions only: columns, indexes, new tables, then foreign keys', () => {
    const tags = { ...plainTable('tags', column('name', 'varchar(255)')), indexes: [{ name: 'tags_name_idx', columns: ['name'], unique: true }] };
    const additions = {
      tables: [tags],
      columns: [{ table: planned[0]!, column: column('title', 'varchar(255)') }],
      indexes: [{ table: 'notes', index: { name: 'notes_title_idx', columns: ['title'], unique: false } }],
      foreignKeys: [{ table: 'notes_tags_lnk', foreignKey: planned[1]!.foreignKeys[0]! }],
    };
    expect(additionStatements('mysql', additions)).toEqual([
      'ALTER TABLE `notes` ADD COLUMN `title` varchar(255) NULL',
      'CREATE INDEX `notes_title_idx` ON `notes` (`title`)',
      'CREATE TABLE `tags` (`id` int unsigned NOT NULL AUTO_INCREMENT PRIMARY KEY, `name` varchar(255) NULL, UNIQUE KEY `tags_name_idx` (`name`)) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4',
      'ALTER TABLE `notes_tags_lnk` ADD CONSTRAINT `notes_tags_lnk_fk` FOREIGN KEY (`note_id`) REFERENCES `notes` (`id`) ON DELETE CASCADE',
    ]);
    expect(additionStatements('postgres', { ...additions, foreignKeys: [] })).toEqual([
      'ALTER TABLE "notes" ADD COLUMN "title" varchar(255) NULL',
      'CREATE INDEX "notes_title_idx" ON "notes" ("title")',
      'CREATE TABLE "tags" ("id" serial PRIMARY KEY, "name" varchar(255) NULL)',
      'ALTER TABLE "tags" ADD CONSTRAINT "tags_name_idx" UNIQUE ("name")',
    ]);
  });
});

const sqliteFile = (config: DatabaseConfig) => (config.connection.client === 'sqlite' ? String(config.connection.connection.filename) : undefined);

describeEachDialect('a start on a database Cairn made adds what the model added', (dialect: DialectName) => {
  let config: DatabaseConfig;
  let drop: () => Promise<void>;
  let side: Database;
  beforeAll(async () => {
    const fresh = await freshDatabaseConfig(dialect);
    config = fresh.config;
    drop = fresh.drop;
    expect(await startOnce(VERSIONS.first!, config, async (app) => {
      await app.cairn.documents('api::article.article').create({ data: { title: 'kept' } });
    })).toBeUndefined();
    side = await createDatabase(config);
  }, 120_000);
  afterAll(async () => {
    await side?.close();
    await drop?.();
  });

  it('the first start made it in Strapi\'s layout, with the mark', async () => {
    expect(await holdsStrapiLayout(side)).toBe(true);
    expect(await readCairnMark(side)).toMatchObject({ createdBy: 'cairn' });
  });

  it("a new attribute: its column is added, the rows stay, and the app writes it", async () => {
    expect(await startOnce(VERSIONS.attribute!, config, async (app) => {
      const entry = await app.cairn.documents('api::article.article').findFirst({});
      expect(entry).toMatchObject({ title: 'kept', subtitle: null });
      await app.cairn.documents('api::article.article').update({ documentId: String(entry!.documentId), data: { subtitle: 'added' } });
    })).toBeUndefined();
    const rows = await side.query<{ title: string; subtitle: string }>('SELECT title, subtitle FROM articles');
    expect(rows).toEqual([{ title: 'kept', subtitle: 'added' }]);
  }, 60_000);

  it("a new content type: its table is added", async () => {
    const before = await tableNames(side);
    expect(await startOnce(VERSIONS.contentType!, config)).toBeUndefined();
    expect((await tableNames(side)).filter((t) => !before.includes(t))).toEqual(['tags']);
  }, 60_000);

  it("a new relation: its _lnk table is added, with its indexes and foreign keys, and the app links through it", async () => {
    const before = await tableNames(side);
    expect(await startOnce(VERSIONS.relation!, config, async (app) => {
      const made = await app.cairn.documents('api::tag.tag').create({ data: { name: 'news' } });
      const entry = await app.cairn.documents('api::article.article').findFirst({});
      await app.cairn.documents('api::article.article').update({ documentId: String(entry!.documentId), data: { tags: [String(made.documentId)] } });
    })).toBeUndefined();
    expect((await tableNames(side)).filter((t) => !before.includes(t))).toEqual(['articles_tags_lnk']);
    expect(await side.query('SELECT COUNT(*) AS n FROM articles_tags_lnk').then((r) => Number((r[0] as { n: unknown }).n))).toBe(1);
  }, 60_000);

  it('ends with the very tables a first start makes for the last model (same DDL, native types, indexes, keys)', async () => {
    const fresh = await freshDatabaseConfig(dialect);
    try {
      expect(await startOnce(VERSIONS.relation!, fresh.config)).toBeUndefined();
      const made = await createDatabase(fresh.config, { readOnly: true });
      try {
        expect(await nativeLayout(side)).toEqual(await nativeLayout(made));
      } finally {
        await made.close();
      }
    } finally {
      await fresh.drop();
    }
  }, 120_000);

  it('a start again with the same model adds nothing', async () => {
    const before = await databaseSnapshot(side);
    expect(await startOnce(VERSIONS.relation!, config)).toBeUndefined();
    expect((await databaseSnapshot(side)).layout).toEqual(before.layout);
  }, 60_000);

  it('a change that is not an addition (a column of another type) is refused, naming it, and nothing is written', async () => {
    const changed: TestSchemas = { contentTypes: { article: article({ subtitle: { type: 'integer' }, ...tags, extra: { type: 'text' } }), tag } };
    const before = await databaseSnapshot(side, sqliteFile(config));
    const error = await startOnce(changed, config);
    expect(error).toBeInstanceOf(LayoutMismatchError);
    expect((error as LayoutMismatchError).cairnMade).toBe(true);
    // The addition that came with it (articles.extra) is not made either.
    expect((error as Error).message).toMatch(/Cairn made this database .* but it drops and changes nothing/);
    expect((error as Error).message.split('\n').slice(1)).toEqual([`articles.subtitle: expected integer NULL, found varchar(255) NULL`]);
    expect(await databaseSnapshot(side, sqliteFile(config))).toEqual(before);
  }, 60_000);

  it('a removed attribute is refused: its column is named, and that Cairn drops nothing; nothing is written', async () => {
    const removed: TestSchemas = { contentTypes: { article: article({ ...tags, extra: { type: 'text' } }), tag } };
    const before = await databaseSnapshot(side, sqliteFile(config));
    const error = await startOnce(removed, config);
    expect(error).toBeInstanceOf(LayoutMismatchError);
    expect((error as Error).message.split('\n').slice(1)).toEqual([
      'articles.subtitle: expected none (not in the model; Cairn drops nothing: drop it yourself, or restore the model), found varchar(255) NULL',
    ]);
    expect(await databaseSnapshot(side, sqliteFile(config))).toEqual(before);
  }, 60_000);

  it('a removed content type is refused, naming its tables; nothing is written', async () => {
    const before = await databaseSnapshot(side, sqliteFile(config));
    const error = await startOnce(VERSIONS.attribute!, config);
    expect(error).toBeInstanceOf(LayoutMismatchError);
    expect((error as Error).message.split('\n').slice(1)).toEqual([
      'articles_tags_lnk: expected none (not in the model; Cairn drops nothing: drop it yourself, or restore the model), found table',
      'tags: expected none (not in the model; Cairn drops nothing: drop it yourself, or restore the model), found table',
    ]);
    expect(await databaseSnapshot(side, sqliteFile(config))).toEqual(before);
  }, 60_000);
});

describeEachDialect('a start on a database Strapi made, with a model that adds to it', (dialect: DialectName) => {
  let fixture: Awaited<ReturnType<typeof loadStrapiFixture>>;
  let dir: string;
  beforeAll(async () => {
    fixture = await loadStrapiFixture(dialect);
    dir = mkdtempSync(join(tmpdir(), 'cairn-strapi-added-'));
    cpSync(CONFORMANCE_APP, dir, { recursive: true });
    // The same additions as above: an attribute (chefs.nickname), a content type, a relation to it.
    const chef = join(dir, 'src', 'api', 'chef', 'content-types', 'chef', 'schema.json');
    const schema = JSON.parse(readFileSync(chef, 'utf8')) as { attributes: Record<string, object> };
    schema.attributes.nickname = { type: 'string' };
    schema.attributes.tags = { type: 'relation', relation: 'manyToMany', target: 'api::tag.tag' };
    writeFileSync(chef, JSON.stringify(schema));
    const tagDir = join(dir, 'src', 'api', 'tag', 'content-types', 'tag');
    mkdirSync(tagDir, { recursive: true });
    writeFileSync(join(tagDir, 'schema.json'), JSON.stringify(tag));
  }, 120_000);
  afterAll(async () => {
    await fixture?.drop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('has no mark, refuses to start naming every difference, and changes nothing', async () => {
    const side = await createDatabase(fixture.config);
    try {
      expect(await readCairnMark(side)).toBeUndefined();
      // SQLite: the file's bytes too.
      const before = await databaseSnapshot(side, sqliteFile(fixture.config));
      const error = await startAppOn(dir, fixture.config).then(
        async (app) => {
          await app.close();
          return undefined;
        },
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(LayoutMismatchError);
      expect((error as LayoutMismatchError).cairnMade).toBe(false);
      expect((error as Error).message).toMatch(/Cairn changes nothing in a database that Strapi made/);
      expect((error as Error).message.split('\n').slice(1)).toEqual([
        'chefs.nickname: expected varchar(255) NULL, found missing',
        'chefs_tags_lnk: expected table, found missing',
        'tags: expected table, found missing',
      ]);
      expect(await databaseSnapshot(side, sqliteFile(fixture.config))).toEqual(before);
    } finally {
      await side.close();
    }
  }, 120_000);
});
