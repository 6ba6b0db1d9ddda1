import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe } from 'vitest';
import pg from 'pg';
import mysql from 'mysql2/promise';
import type { Database, DatabaseConfig, DialectName } from '../../src/database/types.js';
import { createDatabase } from '../../src/database/index.js';

const env = process.env;
const PG = {
  host: env.CAIRN_TEST_PG_HOST ?? '127.0.0.1',
  port: Number(env.CAIRN_TEST_PG_PORT ?? 5432),
  user: env.CAIRN_TEST_PG_USER ?? 'postgres',
  password: env.CAIRN_TEST_PG_PASSWORD ?? '',
};
const MYSQL = {
  host: env.CAIRN_TEST_MYSQL_HOST ?? '127.0.0.1',
  port: Number(env.CAIRN_TEST_MYSQL_PORT ?? 3306),
  user: env.CAIRN_TEST_MYSQL_USER ?? 'root',
  password: env.CAIRN_TEST_MYSQL_PASSWORD ?? '',
};

async function reachable(dialect: DialectName): Promise<string | null> {
  try {
    if (dialect === 'postgres') {
      const client = new pg.Client({ ...PG, database: 'postgres', connectionTimeoutMillis: 3000 });
      await client.connect();
      await client.end();
    } else if (dialect === 'mysql') {
      const connection = await mysql.createConnection({ ...MYSQL, connectTimeout: 3000 });
      await connection.end();
    }
    return null;
  } catch (error) {
    return (error as Error).message || String(error);
  }
}

const wanted = (env.CAIRN_TEST_DIALECTS ?? 'sqlite,postgres,mysql').split(',').map((d) => d.trim()) as DialectName[];

/**
 * The dialects this run covers. SQLite always; PostgreSQL and MariaDB/MySQL when reachable. With CI=true an
 * unreachable database is an error, not a skip.
 */
export const DIALECTS: Array<{ name: DialectName; available: boolean; reason?: string }> = await Promise.all(
  (['sqlite', 'postgres', 'mysql'] as DialectName[]).map(async (name) => {
    if (!wanted.includes(name)) return { name, available: false, reason: 'not in CAIRN_TEST_DIALECTS' };
    const problem = await reachable(name);
    if (problem && env.CI === 'true') throw new Error(`CI: the ${name} test database is unreachable: ${problem}`);
    return problem ? { name, available: false, reason: `unreachable (${problem})` } : { name, available: true };
  }),
);

const reported = new Set<string>();
/** Registers the suite once per available dialect; a skipped dialect is named with its reason. */
export function describeEachDialect(title: string, fn: (dialect: DialectName) => void): void {
  for (const dialect of DIALECTS) {
    if (!dialect.available) {
      if (!reported.has(dialect.name)) {
        reported.add(dialect.name);
        console.warn(`skipping the ${dialect.name} suites: ${dialect.reason}`);
      }
      continue;
    }
    describe(`${title} [${dialect.name}]`, () => fn(dialect.name));
  }
}

/** An empty database of its own for one test suite; `drop()` removes it. */
export async function freshDatabaseConfig(dialect: DialectName): Promise<{ config: DatabaseConfig; drop(): Promise<void> }> {
  const name = `cairn_t_${randomBytes(5).toString('hex')}`;
  if (dialect === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'cairn-db-'));
    return {
      config: { connection: { client: 'sqlite', connection: { filename: join(dir, 'data.db') } } },
      drop: async () => rmSync(dir, { recursive: true, force: true }),
    };
  }
  if (dialect === 'postgres') {
    const admin = new pg.Client({ ...PG, database: 'postgres' });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    return {
      config: { connection: { client: 'postgres', connection: { ...PG, database: name }, pool: { min: 0, max: 5 } } },
      drop: async () => {
        const c = new pg.Client({ ...PG, database: 'postgres' });
        await c.connect();
        await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await c.end();
      },
    };
  }
  const admin = await mysql.createConnection(MYSQL);
  await admin.query(`CREATE DATABASE ${name} CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  await admin.end();
  return {
    config: { connection: { client: 'mysql', connection: { ...MYSQL, database: name }, pool: { min: 0, max: 5 } } },
    drop: async () => {
      const c = await mysql.createConnection(MYSQL);
      await c.query(`DROP DATABASE IF EXISTS ${name}`);
      await c.end();
    },
  };
}

/** A fresh database for the enclosing suite: created and opened before its tests, closed and dropped after. */
export function useFreshDatabase(dialect: DialectName): () => Database {
  let db: Database | undefined;
  let drop: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    const fresh = await freshDatabaseConfig(dialect);
    drop = fresh.drop;
    db = await createDatabase(fresh.config);
  });
  afterAll(async () => {
    await db?.close();
    await drop?.();
  });
  return () => db!;
}
