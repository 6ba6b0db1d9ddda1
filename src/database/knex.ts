import { createRequire } from 'node:module';
import type { Knex } from 'knex';
import type { DatabaseConfig, DialectName } from './types.js';
import { dialectOf } from './clients.js';
import { ACQUIRE_TIMEOUT_MS, SQLITE_BUSY_TIMEOUT_MS, sqliteFilename } from './connection.js';
import { DOCUMENT_LOCK_WAIT_S } from './document-locks.js';

/**
 * `strapi.db.dialect`, the part of Strapi 5.54's dialect (`@strapi/database`'s dialects/) Cairn provides: its name
 * (`client`), the batch size of its bulk inserts, the tables (`schemaInspector.getTables()`) and the foreign key
 * checks turned off and on around a schema change (`startSchemaUpdate`/`endSchemaUpdate`), on the knex connection.
 */
export interface StrapiDialect {
  readonly client: DialectName;
  getBatchInsertSize(): number;
  readonly schemaInspector: { getTables(): Promise<string[]> };
  startSchemaUpdate(): Promise<void>;
  endSchemaUpdate(): Promise<void>;
}

/** Strapi's knex (`strapi.db.connection`) on Cairn's database, made on first use, and its dialect. */
export interface StrapiKnex {
  /** The knex instance: built (knex loaded, its pool made) the first time this is read. */
  readonly connection: Knex;
  readonly dialect: StrapiDialect;
  /** Destroys knex's pool, if it was ever made; after it, `connection` throws. */
  close(): Promise<void>;
}

export interface StrapiKnexOptions {
  /** Where a relative SQLite filename is resolved (the app folder), as Cairn's own connection resolves it. */
  baseDir?: string;
  readOnly?: boolean;
}

/** The knex connections beside Cairn's own: a small pool, never the cost of an app that does not use it. */
const POOL_MAX = 2;

/**
 * Strapi's knex on the database of `config` (knex's client `better-sqlite3`, `pg` or `mysql2`, as Strapi's
 * `createConnection` maps them), with the driver settings of Strapi's dialects (its pg type parsers, its mysql2
 * typeCast) and Cairn's waits: SQLite's busy timeout, PostgreSQL's and MySQL's lock waits, the acquire timeout. Knex
 * is loaded, and its pool made, only when `connection` is first read: an app that never reads it pays nothing.
 */
export function strapiKnex(config: DatabaseConfig, options: StrapiKnexOptions = {}): StrapiKnex {
  const client = dialectOf(config);
  let instance: Knex | undefined;
  let closed = false;
  const connection = (): Knex => {
    if (closed) throw new Error('strapi.db.connection: the app is closed (its knex destroyed)');
    return (instance ??= buildKnex(config, client, options));
  };
  const raw = async (sql: string, bindings: readonly unknown[] = []) => connection().raw(sql, bindings as Knex.RawBinding[]);
  const dialect: StrapiDialect = {
    client,
    // Strapi: SQLite's compound SELECT limit (knex inserts rows as UNION ALL), 1000 elsewhere.
    getBatchInsertSize: () => (client === 'sqlite' ? 500 : 1000),
    schemaInspector: { getTables: () => tablesOf(client, config, raw) },
    async startSchemaUpdate() {
      if (client === 'sqlite') await raw('pragma foreign_keys = off');
      else if (client === 'mysql') await raw('set foreign_key_checks = 0').catch(() => {}); // Strapi ignores a refusal (session rights)
    },
    async endSchemaUpdate() {
      if (client === 'sqlite') await raw('pragma foreign_keys = on');
      else if (client === 'mysql') await raw('set foreign_key_checks = 1');
    },
  };
  return {
    get connection() {
      return connection();
    },
    dialect,
    async close() {
      closed = true;
      const made = instance;
      instance = undefined;
      await made?.destroy();
    },
  };
}

/** Strapi's schema inspectors' table lists (Strapi's own queries). */
async function tablesOf(client: DialectName, config: DatabaseConfig, raw: (sql: string, bindings?: readonly unknown[]) => Promise<unknown>): Promise<string[]> {
  if (client === 'sqlite') {
    const rows = (await raw(`select name from sqlite_master where type = 'table' and name NOT LIKE 'sqlite%'`)) as Array<{ name: string }>;
    return rows.map((row) => row.name);
  }
  if (client === 'postgres') {
    const schema = String(config.connection.connection?.schema ?? 'public');
    const { rows } = (await raw(
      `SELECT table_name FROM information_schema.tables WHERE table_schema = ? AND table_type = 'BASE TABLE' AND table_name != 'geometry_columns' AND table_name != 'spatial_ref_sys'`,
      [schema],
    )) as { rows: Array<{ table_name: string }> };
    return rows.map((row) => row.table_name);
  }
  const [rows] = (await raw(`SELECT t.table_name as table_name FROM information_schema.tables t WHERE table_type = 'BASE TABLE' AND table_schema = schema()`)) as [
    Array<{ table_name: string }>,
  ];
  return rows.map((row) => row.table_name);
}

function buildKnex(config: DatabaseConfig, client: DialectName, options: StrapiKnexOptions): Knex {
  const require = createRequire(import.meta.url);
  const knex = require('knex') as typeof import('knex').knex;
  const connection = { ...(config.connection.connection ?? {}) } as Record<string, unknown>;
  const acquireConnectionTimeout = config.connection.acquireConnectionTimeout ?? ACQUIRE_TIMEOUT_MS;
  if (client === 'sqlite') {
    const filename = sqliteFilename(connection, options.baseDir);
    if (filename === ':memory:') {
      throw new Error("strapi.db.connection: an in-memory SQLite database (':memory:') is its one connection's own: knex's would be another, empty database");
    }
    return knex({
      client: 'better-sqlite3',
      connection: { filename, ...(options.readOnly ? { options: { readonly: true } } : {}) },
      useNullAsDefault: true,
      acquireConnectionTimeout,
      // One connection (SQLite writes one at a time). A write waits for the lock Cairn's own connection holds at most
      // Cairn's busy timeout, then fails (SQLITE_BUSY), as Cairn's do: never for ever.
      pool: {
        min: 0,
        max: 1,
        afterCreate(handle: import('better-sqlite3').Database, done: (error: Error | null, handle: unknown) => void) {
          try {
            handle.pragma(`busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`);
            handle.pragma('foreign_keys = ON');
            done(null, handle);
          } catch (error) {
            done(error as Error, handle);
          }
        },
      },
    });
  }
  if (client === 'postgres') {
    const pg = require('pg') as typeof import('pg');
    // Strapi's postgres dialect: dates, JSONB and numerics as it reads them (on this pool's types, not pg's global ones).
    const types = new pg.TypeOverrides();
    types.setTypeParser(pg.types.builtins.DATE, 'text', (value: string) => value);
    types.setTypeParser(pg.types.builtins.JSONB, 'text', (value: string) => value);
    types.setTypeParser(pg.types.builtins.NUMERIC, 'text', parseFloat);
    const { connectionString, schema, filename: _filename, ...rest } = connection;
    return knex({
      client: 'pg',
      connection: {
        ...(connectionString ? { connectionString: connectionString as string } : rest),
        types,
        // Cairn's sessions' settings: UTC, and a lock (a row Cairn's transaction holds) waited for at most as long.
        options: `-c timezone=UTC -c lock_timeout=${DOCUMENT_LOCK_WAIT_S}s`,
        connectionTimeoutMillis: acquireConnectionTimeout,
      } as Knex.PgConnectionConfig,
      ...(schema ? { searchPath: [String(schema)] } : {}),
      acquireConnectionTimeout,
      pool: { min: 0, max: POOL_MAX },
    });
  }
  const { filename: _filename, ...rest } = connection;
  return knex({
    client: 'mysql2',
    connection: {
      ...rest,
      // Strapi's mysql dialect's driver settings: big numbers as strings, decimals as numbers, TINYINT(1) as booleans,
      // DATE as text.
      supportBigNumbers: true,
      bigNumberStrings: rest.bigNumberStrings ?? true,
      typeCast: (field: { type: string; length: number; string(): string | null }, next: () => unknown) => {
        if (field.type === 'DECIMAL' || field.type === 'NEWDECIMAL') {
          const value = field.string();
          return value === null ? null : Number(value);
        }
        if (field.type === 'TINY' && field.length === 1) {
          const value = field.string();
          return value ? value === '1' : null;
        }
        if (field.type === 'DATE') return field.string();
        return next();
      },
      timezone: 'Z',
      charset: 'utf8mb4',
      connectTimeout: acquireConnectionTimeout,
    } as Knex.MySql2ConnectionConfig,
    acquireConnectionTimeout,
    pool: {
      min: 0,
      max: POOL_MAX,
      // A row or table lock (one Cairn's transaction holds) is waited for as long as Cairn's own sessions wait.
      afterCreate(handle: { query(sql: string, callback: (error: Error | null) => void): void }, done: (error: Error | null, handle: unknown) => void) {
        handle.query(`SET SESSION innodb_lock_wait_timeout = ${DOCUMENT_LOCK_WAIT_S}, lock_wait_timeout = ${DOCUMENT_LOCK_WAIT_S}`, (error) => done(error, handle));
      },
    },
  });
}
