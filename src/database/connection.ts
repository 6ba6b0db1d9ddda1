import { mkdirSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import type { CompiledQuery, Dialect, Kysely } from 'kysely';
import { toPostgresPlaceholders } from './placeholders.js';
import { answerTooLarge } from './answer-limits.js';
import type { Database, DatabaseConfig, DialectName, ExecuteResult } from './types.js';
import { mysqlPreparedReads, postgresPreparedReads, PREPARED_CAPACITY, sqlitePreparedReads, type PreparedReads } from './prepared-reads.js';

/** A read: what may run as a prepared statement outside transactions. */
const READ = /^\s*(?:SELECT|WITH)\b/i;

/** `sqlite` | `postgres` | `mysql`, from Strapi's client names. */
export function dialectOf(config: DatabaseConfig): DialectName {
  const client = config.connection.client;
  if (client === 'sqlite' || client === 'better-sqlite3') return 'sqlite';
  if (client === 'postgres' || client === 'pg') return 'postgres';
  if (client === 'mysql' || client === 'mysql2') return 'mysql';
  throw new Error(`config/database: unknown client "${String(client)}" (use sqlite, postgres or mysql)`);
}

type Listener = (sql: string, params: readonly unknown[]) => void;
type KyselyModule = typeof import('kysely');

/**
 * Kysely (about 120 ms of module loading, a third of a start) is imported on the first statement that needs it:
 * a write, a transaction, or a read inside one. Reads outside transactions run as prepared statements without
 * it, so a start on an up-to-date database and the first reads never load it.
 */
let kyselyModule: Promise<KyselyModule> | undefined;
const loadKysely = () => (kyselyModule ??= import('kysely'));

/** A Kysely instance (the root one, made on first use, or a transaction's) and how to hand it raw SQL. */
interface Engine {
  kysely: Kysely<any>;
  raw(sql: string, params: unknown[]): CompiledQuery;
}

class KyselyDatabase implements Database {
  constructor(
    readonly dialect: DialectName,
    private readonly engine: () => Promise<Engine>,
    private readonly listeners: Set<Listener>,
    readonly inTransaction: boolean,
    /** Reads outside transactions (the root connection only). */
    private readonly preparedReads?: PreparedReads,
    /** Open transactions on the shared SQLite connection: reads then queue behind them instead of seeing them. */
    private readonly openTransactions: { count: number } = { count: 0 },
    /** Destroys the root Kysely instance if one was made (the root connection only). */
    private readonly closeEngine?: () => Promise<void>,
  ) {}

  quote(identifier: string): string {
    return this.dialect === 'mysql' ? `\`${identifier.replace(/`/g, '``')}\`` : `"${identifier.replace(/"/g, '""')}"`;
  }

  async kysely(): ReturnType<Database['kysely']> {
    return (await this.engine()).kysely;
  }

  /** Runs one statement through Kysely (its queue, its connection or the transaction's). */
  private async run<Row>(sql: string, params: readonly unknown[]) {
    const { kysely, raw } = await this.engine();
    for (const listener of this.listeners) listener(sql, params);
    return kysely.executeQuery<Row>(raw(this.dialect === 'postgres' ? toPostgresPlaceholders(sql) : sql, params as unknown[]));
  }

  /** A failed statement's error, as the caller sees it (see answer-limits.ts). */
  private readonly failed = (error: unknown): Promise<never> => Promise.reject(answerTooLarge(this.dialect, error) ?? error);

  // Not async: a read on SQLite is synchronous, and this is every request's path; no promise layer more than needed.
  query<Row = Record<string, unknown>>(sql: string, params: readonly unknown[] = []): Promise<Row[]> {
    try {
      // SQLite shares one connection: while a transaction is open there, reads wait in Kysely's queue behind it.
      const prepared = this.preparedReads && !(this.dialect === 'sqlite' && this.openTransactions.count > 0) && READ.test(sql);
      if (prepared) {
        for (const listener of this.listeners) listener(sql, params);
        const rows = this.preparedReads!.run<Row>(sql, params);
        return Array.isArray(rows) ? Promise.resolve(rows) : rows.catch(this.failed);
      }
      return this.run<Row>(sql, params).then((result) => result.rows, this.failed);
    } catch (error) {
      return this.failed(error);
    }
  }

  async execute(sql: string, params: readonly unknown[] = []): Promise<ExecuteResult> {
    const result = await this.run(sql, params);
    return {
      affectedRows: Number(result.numAffectedRows ?? result.numChangedRows ?? 0n),
      insertId: result.insertId === undefined ? undefined : Number(result.insertId),
    };
  }

  async transaction<T>(fn: (trx: Database) => Promise<T>): Promise<T> {
    if (this.inTransaction) return fn(this);
    this.openTransactions.count++;
    try {
      const { kysely, raw } = await this.engine();
      return await kysely.transaction().execute((trx) => {
        const engine = Promise.resolve({ kysely: trx, raw });
        return fn(new KyselyDatabase(this.dialect, () => engine, this.listeners, true));
      });
    } finally {
      this.openTransactions.count--;
    }
  }

  onQuery(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Kysely, if it was ever loaded, releases what it holds (SQLite's handle); the pool itself is closed here,
   * once: Kysely only borrowed from it, and a process that only reads (a cluster worker) may never load Kysely.
   */
  async close(): Promise<void> {
    await this.closeEngine?.();
    await this.preparedReads?.close();
  }
}

/** Opens a connection pool for Strapi's `config/database` shape. All sessions work in UTC. */
export async function createDatabase(config: DatabaseConfig, options: { baseDir?: string } = {}): Promise<Database> {
  const dialectName = dialectOf(config);
  const connection = config.connection.connection ?? {};
  const pool = config.connection.pool ?? {};
  let dialect: (kysely: KyselyModule) => Dialect;
  let preparedReads: PreparedReads;
  if (dialectName === 'sqlite') {
    const { default: SQLite } = await import('better-sqlite3');
    const given = String(connection.filename ?? '.tmp/data.db');
    const filename = given === ':memory:' || isAbsolute(given) ? given : resolve(options.baseDir ?? process.cwd(), given);
    if (filename !== ':memory:') mkdirSync(dirname(filename), { recursive: true });
    const sqliteHandle = new SQLite(filename);
    sqliteHandle.pragma('journal_mode = WAL');
    sqliteHandle.pragma('foreign_keys = ON');
    sqliteHandle.pragma('busy_timeout = 5000');
    sqliteHandle.pragma('synchronous = NORMAL');
    // SQLite's LOWER folds ASCII only; $eqi/$containsi fold every script like PostgreSQL does.
    sqliteHandle.function('cairn_lower', { deterministic: true }, (value: unknown) =>
      typeof value === 'string' ? value.toLowerCase() : value,
    );
    dialect = ({ SqliteDialect }) => new SqliteDialect({ database: sqliteHandle });
    preparedReads = sqlitePreparedReads(sqliteHandle);
  } else if (dialectName === 'postgres') {
    const pg = await import('pg');
    const types = new pg.default.TypeOverrides();
    types.setTypeParser(20, (v: string) => v); // int8: exact, as a string
    types.setTypeParser(1700, (v: string) => Number(v)); // numeric
    for (const oid of [1082, 1083, 1114, 1184]) types.setTypeParser(oid, (v: string) => v); // date/time as text
    const { connectionString, schema, filename: _filename, ...rest } = connection as Record<string, unknown>;
    const poolConfig = {
      ...(connectionString ? { connectionString: connectionString as string } : rest),
      types,
      min: pool.min ?? 0,
      max: pool.max ?? 10,
      options: `-c timezone=UTC${schema ? ` -c search_path=${String(schema)}` : ''}`,
    };
    const pgPool = new pg.default.Pool(poolConfig as never);
    // An idle pooled connection can be cut by the server (restart, failover, admin command); without a listener
    // that error would crash the process. The pool drops the client and opens a new one when needed.
    pgPool.on('error', (error: Error) => process.emitWarning(`PostgreSQL connection lost: ${error.message}`));
    // Kysely gets the pool to borrow connections from, not to close: the Database closes it once (see close()).
    dialect = ({ PostgresDialect }) => new PostgresDialect({ pool: { connect: () => pgPool.connect(), end: async () => {} } as never });
    preparedReads = postgresPreparedReads(pgPool);
  } else {
    const mysql = await import('mysql2');
    // SQLite's `filename` can arrive here through config defaults; mysql2 warns on unknown options.
    const { filename: _filename, ...mysqlConnection } = connection as Record<string, unknown>;
    const mysqlPool = mysql.default.createPool({
      ...mysqlConnection,
      connectionLimit: pool.max ?? 10,
      timezone: 'Z',
      dateStrings: true,
      supportBigNumbers: true,
      bigNumberStrings: true,
      decimalNumbers: true,
      charset: 'utf8mb4',
      // Per connection; mysql2's default (16,000) would let statements pile up on a long-lived connection.
      maxPreparedStatements: PREPARED_CAPACITY,
    });
    // JSON_ARRAYAGG and GROUP_CONCAT stop at group_concat_max_len (1 MiB by default on MariaDB): a populated list
    // longer than that would come back cut short. Raised to its maximum on every connection the pool opens.
    mysqlPool.on('connection', (connection) => {
      connection.query('SET SESSION group_concat_max_len = 4294967295', (error) => {
        if (error) process.emitWarning(`MySQL: could not raise group_concat_max_len: ${error.message}`);
      });
    });
    dialect = ({ MysqlDialect }) => new MysqlDialect({ pool: { getConnection: mysqlPool.getConnection.bind(mysqlPool), end: (done: () => void) => done() } as never });
    preparedReads = mysqlPreparedReads(mysqlPool);
  }
  let engine: Promise<Engine> | undefined;
  const makeEngine = () =>
    (engine ??= loadKysely().then((module) => ({
      kysely: new module.Kysely<any>({ dialect: dialect(module) }),
      raw: (sql: string, params: unknown[]) => module.CompiledQuery.raw(sql, params),
    })));
  const closeEngine = async () => {
    if (engine) await (await engine).kysely.destroy();
  };
  const db = new KyselyDatabase(dialectName, makeEngine, new Set(), false, preparedReads, { count: 0 }, closeEngine);
  if (dialectName === 'mysql') await db.query('SELECT 1');
  return db;
}
