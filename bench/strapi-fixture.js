// A copy of the database real Strapi 5 made (test/fixtures/strapi-db), for the benchmarks on Strapi's layout, loaded as
// the tests load it (test/helpers/strapi-fixture.ts): SQLite's file, or PostgreSQL's dump in a new database.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import pg from 'pg';

const FIXTURES = join(import.meta.dirname, '..', 'test', 'fixtures', 'strapi-db');

/** A fresh copy of the database Strapi made, as the tests load it (test/helpers/strapi-fixture.ts). */
export async function fixtureCopy(dialect) {
  if (dialect === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'cairn-strapi-bench-'));
    writeFileSync(join(dir, 'data.db'), gunzipSync(readFileSync(join(FIXTURES, 'strapi.sqlite.db.gz'))));
    return { config: { connection: { client: 'sqlite', connection: { filename: join(dir, 'data.db') } } }, drop: async () => rmSync(dir, { recursive: true, force: true }) };
  }
  const name = `cairn_strapi_bench_${Date.now()}`;
  const admin = async (sql) => {
    const client = new pg.Client({ host: '127.0.0.1', user: 'postgres', database: 'postgres' });
    await client.connect();
    await client.query(sql);
    await client.end();
  };
  await admin(`CREATE DATABASE ${name}`);
  const connection = { host: '127.0.0.1', user: 'postgres', database: name };
  const client = new pg.Client(connection);
  await client.connect();
  await client.query(gunzipSync(readFileSync(join(FIXTURES, 'strapi.postgres.sql.gz'))).toString('utf8').replace(/^\\(un)?restrict .*$/gm, ''));
  await client.end();
  return { config: { connection: { client: 'postgres', connection } }, drop: () => admin(`DROP DATABASE ${name} WITH (FORCE)`) };
}
