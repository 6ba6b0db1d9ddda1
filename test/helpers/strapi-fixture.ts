import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import pg from 'pg';
import mysql from 'mysql2/promise';
import type { DatabaseConfig, DialectName } from '../../src/database/types.js';
import { freshDatabaseConfig } from './databases.js';

/** test/fixtures/strapi-db: databases that real Strapi 5 made and seeded (its README says how). */
export const STRAPI_FIXTURE_DIR = join(import.meta.dirname, '..', 'fixtures', 'strapi-db');

/** The layout `scripts/db-layout.mjs` printed for the fixture database of `dialect`. */
export function strapiFixtureLayout(dialect: DialectName): unknown {
  return JSON.parse(readFileSync(join(STRAPI_FIXTURE_DIR, `layout.${dialect}.json`), 'utf8'));
}

/**
 * A fresh database holding a copy of the Strapi-made fixture database of `dialect` (the SQLite file, or the
 * PostgreSQL / MariaDB dump loaded into a new database). `drop()` removes it.
 */
export async function loadStrapiFixture(dialect: DialectName): Promise<{ config: DatabaseConfig; drop(): Promise<void> }> {
  const fresh = await freshDatabaseConfig(dialect);
  const connection = fresh.config.connection.connection;
  try {
    if (dialect === 'sqlite') {
      writeFileSync(String(connection.filename), gunzipSync(readFileSync(join(STRAPI_FIXTURE_DIR, 'strapi.sqlite.db.gz'))));
    } else if (dialect === 'postgres') {
      // pg_dump's `\restrict` / `\unrestrict` lines are psql meta-commands, not SQL.
      const sql = gunzipSync(readFileSync(join(STRAPI_FIXTURE_DIR, 'strapi.postgres.sql.gz')))
        .toString('utf8')
        .replace(/^\\(un)?restrict .*$/gm, '');
      // A connection of its own: the dump empties the session's search_path.
      const client = new pg.Client(connection as pg.ClientConfig);
      await client.connect();
      try {
        await client.query(sql);
      } finally {
        await client.end();
      }
    } else {
      const sql = gunzipSync(readFileSync(join(STRAPI_FIXTURE_DIR, 'strapi.mysql.sql.gz'))).toString('utf8');
      const client = await mysql.createConnection({ ...(connection as mysql.ConnectionOptions), multipleStatements: true });
      try {
        await client.query(sql);
      } finally {
        await client.end();
      }
    }
  } catch (error) {
    await fresh.drop();
    throw error;
  }
  return fresh;
}
