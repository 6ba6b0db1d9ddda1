import { afterEach, expect, it } from 'vitest';
import { describeEachDialect, freshDatabaseConfig } from '../helpers/databases.js';
import { createDatabase, readSchema, syncSchema, toPostgresPlaceholders, type Database } from '../../src/database/index.js';
import { buildModel } from '../../src/model/index.js';

const thing = (attributes: Record<string, unknown>) => ({
  contentTypes: [
    {
      schema: {
        kind: 'collectionType',
        collectionName: 'things',
        info: { singularName: 'thing', pluralName: 'things', displayName: 'Thing' },
        options: { draftAndPublish: true },
        pluginOptions: { i18n: { localized: true } },
        attributes,
      },
    },
  ],
});

it('? placeholders become $n for PostgreSQL, except inside literals', () => {
  expect(toPostgresPlaceholders(`SELECT '?' AS q, "a?" FROM t WHERE a = ? AND b = ?`)).toBe(`SELECT '?' AS q, "a?" FROM t WHERE a = $1 AND b = $2`);
});

describeEachDialect('schema sync', (dialect) => {
  let db: Database;
  let drop: () => Promise<void>;
  afterEach(async () => {
    await db?.close();
    await drop?.();
  });

  const columns = async (table: string) => {
    const tables = await (await db.kysely()).introspection.getTables();
    return tables.find((t) => t.name === table)?.columns.map((c) => c.name).sort();
  };

  it('creates tables, is idempotent, adds columns, and never drops one that holds data', async () => {
    const fresh = await freshDatabaseConfig(dialect);
    drop = fresh.drop;
    db = await createDatabase(fresh.config);
    const first = await syncSchema(db, buildModel(thing({ name: { type: 'string' }, old: { type: 'integer' }, peers: { type: 'relation', relation: 'manyToMany', target: 'api::thing.thing' } })));
    expect(first.createdTables).toEqual(expect.arrayContaining(['things', 'things_peers_lnk', 'files', 'up_users']));
    expect(await columns('things')).toEqual(['created_at', 'document_id', 'id', 'locale', 'name', 'old', 'published_at', 'updated_at']);
    expect(await columns('things_peers_lnk')).toEqual(['entity_id', 'id', 'inv_ord', 'ord', 'target_document_id', 'target_locale', 'target_status']);
    const again = await syncSchema(db, buildModel(thing({ name: { type: 'string' }, old: { type: 'integer' }, peers: { type: 'relation', relation: 'manyToMany', target: 'api::thing.thing' } })));
    expect(again).toEqual({ createdTables: [], addedColumns: [], warnings: [] });
    await db.execute(`INSERT INTO things (document_id, name, old) VALUES (?, ?, ?)`, ['d1', 'kept', 7]);
    const warnings: string[] = [];
    const changed = await syncSchema(db, buildModel(thing({ name: { type: 'string' }, openedOn: { type: 'date' } })), { warn: (m) => warnings.push(m) });
    expect(changed.addedColumns).toEqual(['things.opened_on']);
    expect(warnings).toEqual(expect.arrayContaining(['column things.old is not in the model: left in place', 'table things_peers_lnk is not in the model: left in place']));
    expect(await db.query(`SELECT name, old FROM things`)).toEqual([{ name: 'kept', old: 7 }]);
  });

  it('transactions roll back entirely; bigints stay exact strings', async () => {
    const fresh = await freshDatabaseConfig(dialect);
    drop = fresh.drop;
    db = await createDatabase(fresh.config);
    await syncSchema(db, buildModel(thing({ name: { type: 'string' }, big: { type: 'biginteger' } })));
    await expect(
      db.transaction(async (trx) => {
        await trx.execute(`INSERT INTO things (document_id, name) VALUES (?, ?)`, ['d1', 'x']);
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(await db.query('SELECT * FROM things')).toEqual([]);
    await db.execute(`INSERT INTO things (document_id, big) VALUES (?, ?)`, ['d2', '9007199254740097']);
    const [row] = await db.query<{ big: unknown }>('SELECT big FROM things');
    expect(String(row.big)).toBe('9007199254740097');
  });

  it('upgrades a link table from before per-link status: adds target_status, lets a document be linked per version', async () => {
    const fresh = await freshDatabaseConfig(dialect);
    drop = fresh.drop;
    db = await createDatabase(fresh.config);
    const model = buildModel(thing({ peers: { type: 'relation', relation: 'manyToMany', target: 'api::thing.thing' } }));
    await syncSchema(db, model);
    // The table as the previous version made it: no target_status, one link per (entry, document, locale).
    await db.execute(db.dialect === 'mysql' ? 'DROP INDEX things_peers_lnk_link_unique ON things_peers_lnk' : 'DROP INDEX things_peers_lnk_link_unique');
    await db.execute('ALTER TABLE things_peers_lnk DROP COLUMN target_status');
    await db.execute('CREATE UNIQUE INDEX things_peers_lnk_unique ON things_peers_lnk (entity_id, target_document_id, target_locale)');
    await db.execute(`INSERT INTO things (document_id) VALUES ('d1')`);
    const [{ id }] = await db.query<{ id: number }>('SELECT id FROM things');
    const link = `INSERT INTO things_peers_lnk (entity_id, target_document_id, target_locale, ord, inv_ord) VALUES (?, 'd2', 'en', 1, 1)`;
    await db.execute(link, [id]);

    const upgrade = await syncSchema(db, model);
    expect(upgrade.addedColumns).toEqual(['things_peers_lnk.target_status']);
    expect(await db.query('SELECT target_document_id, target_status FROM things_peers_lnk')).toEqual([{ target_document_id: 'd2', target_status: '' }]);
    const versioned = `INSERT INTO things_peers_lnk (entity_id, target_document_id, target_locale, target_status, ord, inv_ord) VALUES (?, 'd2', 'en', ?, 2, 2)`;
    await db.execute(versioned, [id, 'draft']);
    await db.execute(versioned, [id, 'published']);
    // The new unique index still refuses the same link twice.
    await expect(db.execute(versioned, [id, 'draft'])).rejects.toThrow();
    await expect(db.execute(link, [id])).rejects.toThrow();
    expect(await syncSchema(db, model)).toEqual({ createdTables: [], addedColumns: [], warnings: [] });
  });

  it('on an up-to-date database only reads (no lock, no DDL), and still warns; a missing index or column is put back', async () => {
    const fresh = await freshDatabaseConfig(dialect);
    drop = fresh.drop;
    db = await createDatabase(fresh.config);
    const model = buildModel(thing({ name: { type: 'string' }, peers: { type: 'relation', relation: 'manyToMany', target: 'api::thing.thing' } }));
    await syncSchema(db, model);
    await db.execute('CREATE TABLE extra_things (id INTEGER)');
    const statements: string[] = [];
    const stop = db.onQuery((sql) => statements.push(sql));
    const warnings: string[] = [];
    expect(await syncSchema(db, model, { warn: (m) => warnings.push(m) })).toEqual({ createdTables: [], addedColumns: [], warnings: ['table extra_things is not in the model: left in place'] });
    expect(warnings).toEqual(['table extra_things is not in the model: left in place']);
    expect(statements.length).toBeGreaterThan(0);
    expect(statements.filter((sql) => !/^\s*SELECT\b/i.test(sql))).toEqual([]);
    stop();

    await db.execute(db.dialect === 'mysql' ? 'DROP INDEX things_published_idx ON things' : 'DROP INDEX things_published_idx');
    expect((await readSchema(db)).indexes.get('things')).not.toContain('things_published_idx');
    await syncSchema(db, model);
    expect((await readSchema(db)).indexes.get('things')).toContain('things_published_idx');
    await db.execute('ALTER TABLE things DROP COLUMN name');
    expect((await syncSchema(db, model)).addedColumns).toEqual(['things.name']);
    expect(await syncSchema(db, model)).toEqual({ createdTables: [], addedColumns: [], warnings: ['table extra_things is not in the model: left in place'] });
  });
});
