import { existsSync, mkdirSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import type { CompiledQuery, Dialect, Driver, Kysely, SqliteDatabase, SqliteDialectConfig } from 'kysely';
import type { Database as SqliteHandle } from 'better-sqlite3';
import { BoundedCache } from './bounded-cache.js';
import { toPostgresPlaceholders } from './placeholders.js';
import { answerTooLarge } from './answer-limits.js';
import { databaseUnavailable } from './unavailable.js';
import { CairnError, ServiceUnavailableError } from '../errors/index.js';
import type { Pool as MysqlPool, PoolConnection } from 'mysql2';
import type { Database, DatabaseConfig, DialectName, ExecuteResult } from './types.js';
import { mysqlLock, postgresLock, sqliteLock, type LockOptions, type ProcessLock } from './process-lock.js';
import { StatementNames } from './statement-names.js';
import { mysqlPreparedReads, postgresPreparedReads, PREPARED_CAPACITY, sqlitePreparedReads, type PreparedReads } from './prepared-reads.js';
import { allTaken, DOCUMENT_LOCK_WAIT_S, inLockOrder, lockStatements, lockTimedOut, RELEASE_SESSION_LOCKS, tryLockStatement } from './document-locks.js';
import { dialectOf } from './clients.js';
import { isTransientConflict, LockOrderConflict, retryDelayMs, TRANSACTION_ATTEMPTS } from './transient.js';

/** A read: what may run as a prepared statement outside transactions. */
const READ = /^\s*(?:SELECT|WITH)\b/i;

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

/** One transaction's document locks (document-locks.ts). */
interface TransactionLocks {
  held: Set<string>;
  /** MySQL: named locks were taken, which outlive the transaction on its connection until released. */
  session: boolean;
  /** See Database.locksInAnyOrder. */
  anyOrder: boolean;
}

/** A transient conflict that outlasted every attempt: the client may try again (503). */
function gaveUp(error: unknown): unknown {
  if (error instanceof ServiceUnavailableError) return error;
  return new ServiceUnavailableError(undefined, { cause: error instanceof CairnError && error.cause !== undefined ? error.cause : error });
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
    private readonly processLock?: ProcessLock,
    /** Destroys the root Kysely instance if one was made (the root connection only). */
    private readonly closeEngine?: () => Promise<void>,
    /** A transaction's document locks (transactions only). */
    private readonly locks?: TransactionLocks,
    /** What runs once this transaction commits (transactions only: one list per attempt, dropped if it fails). */
    private readonly committed?: Array<() => Promise<void> | void>,
  ) {}

  onCommit(callback: () => Promise<void> | void): void {
    if (this.committed) this.committed.push(callback);
    else void callback();
  }

  async lock(keys: Iterable<string>): Promise<void> {
    if (!this.locks) throw new Error('lock() runs inside a transaction');
    // SQLite: the transaction holds the database's one write lock already.
    if (this.dialect === 'sqlite') return;
    const wanted = inLockOrder(keys).filter((key) => !this.locks!.held.has(key));
    if (this.dialect === 'mysql' && wanted.length) this.locks.session = true;
    for (const statement of lockStatements(this.dialect, wanted)) {
      const [row] = await this.query(statement.sql, statement.params);
      if (lockTimedOut(this.dialect, row)) {
        throw new ServiceUnavailableError(`Another write to the same document held it for over ${DOCUMENT_LOCK_WAIT_S} s, try again shortly`);
      }
    }
    for (const key of wanted) this.locks.held.add(key);
  }

  get locksInAnyOrder(): boolean {
    return this.locks?.anyOrder ?? false;
  }

  async tryLock(keys: Iterable<string>): Promise<boolean> {
    if (!this.locks) throw new Error('tryLock() runs inside a transaction');
    const wanted = [...new Set(keys)].filter((key) => !this.locks!.held.has(key));
    const statement = tryLockStatement(this.dialect, wanted);
    if (!statement) return true;
    if (this.dialect === 'mysql') this.locks.session = true;
    if (!allTaken(await this.query(statement.sql, statement.params))) return false;
    for (const key of wanted) this.locks.held.add(key);
    return true;
  }

  exclusive<T>(name: string, fn: () => Promise<T>, options?: LockOptions): Promise<T> {
    if (!this.processLock) throw new Error('exclusive() runs on the root connection, not in a transaction');
    return this.processLock(name, fn, options);
  }

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

  /** A failed statement's error, as the caller sees it (see answer-limits.ts and unavailable.ts). */
  private readonly mapped = (error: unknown): unknown =>
    error instanceof CairnError ? error : (answerTooLarge(this.dialect, error) ?? databaseUnavailable(this.dialect, error) ?? error);
  private readonly failed = (error: unknown): Promise<never> => Promise.reject(this.mapped(error));

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
    const result = await this.run(sql, params).catch(this.failed);
    return {
      affectedRows: Number(result.numAffectedRows ?? result.numChangedRows ?? 0n),
      insertId: result.insertId === undefined ? undefined : Number(result.insertId),
    };
  }

  /**
   * Runs `fn` in a transaction. A transient conflict (a deadlock, a serialization failure, a connection lost before
   * COMMIT: transient.ts) runs it again, a few times with jittered waits, then answers 503; `fn` must therefore do
   * nothing outside the database that a second run would repeat. A failure during COMMIT is never retried: the
   * transaction may have committed, and running it again could apply the write twice.
   */
  async transaction<T>(fn: (trx: Database) => Promise<T>, options: { once?: boolean } = {}): Promise<T> {
    if (this.inTransaction) return fn(this);
    let first: unknown;
    // Locks out of order on a first attempt only (write-locks.ts); after such an attempt met a held lock, in order.
    let anyOrder = !options.once;
    for (let attempt = 1; ; attempt++) {
      const outcome = await this.transactionOnce(fn, anyOrder);
      if ('value' in outcome) return outcome.value;
      // Met a lock held elsewhere: the next attempt waits for it in order, at once (no other writer to step aside for).
      const reordered = outcome.error instanceof LockOrderConflict;
      if (reordered) anyOrder = false;
      else first ??= outcome.error;
      if (outcome.retryable && attempt < TRANSACTION_ATTEMPTS && !options.once) {
        if (!reordered) await new Promise((resolve) => setTimeout(resolve, retryDelayMs(attempt + 1)));
        continue;
      }
      // A later attempt's own answer stands (the document may be gone now: a 404); a 503 logs why the first
      // attempt failed, the fault the operator wants to see, not the refusals of the retries after it.
      const last = outcome.retryable ? gaveUp(outcome.error) : outcome.error;
      if (attempt > 1 && last instanceof ServiceUnavailableError) throw gaveUp(first);
      throw last;
    }
  }

  /** One attempt: its value, or the error to report and whether running `fn` again is safe and may succeed. */
  private async transactionOnce<T>(fn: (trx: Database) => Promise<T>, anyOrder: boolean): Promise<{ value: T } | { error: unknown; retryable: boolean }> {
    this.openTransactions.count++;
    let failed: { error: unknown } | undefined;
    let committing = false;
    const committed: Array<() => Promise<void> | void> = [];
    let succeeded = false;
    try {
      const { kysely, raw } = await this.engine();
      const locks: TransactionLocks = { held: new Set(), session: false, anyOrder };
      const run = (db: Kysely<any>) => {
        // MySQL/MariaDB: READ COMMITTED as PostgreSQL's default, so that what a write reads after taking a document's
        // lock is what the previous writer committed (REPEATABLE READ would show the snapshot of its first read).
        const builder = this.dialect === 'mysql' ? db.transaction().setIsolationLevel('read committed') : db.transaction();
        return builder.execute(async (trx) => {
          const engine = Promise.resolve({ kysely: trx, raw });
          const trxDb = new KyselyDatabase(this.dialect, () => engine, this.listeners, true, undefined, undefined, undefined, undefined, locks, committed);
          const result = await fn(trxDb).catch(
            (error: unknown) => {
              failed = { error };
              throw error;
            },
          );
          committing = true;
          return result;
        });
      };
      // MySQL's named locks belong to the connection, not the transaction: released on the same connection after
      // COMMIT or ROLLBACK, before the pool lends it to anyone else. (If the connection broke, the server released them.)
      const value =
        this.dialect !== 'mysql'
          ? await run(kysely)
          : await kysely.connection().execute(async (connection) => {
              try {
                return await run(connection);
              } finally {
                if (locks.session) await connection.executeQuery(raw(RELEASE_SESSION_LOCKS, [])).catch(ignoreLostConnection);
              }
            });
      succeeded = true;
      return { value };
    } catch (error) {
      // When the connection died, Kysely's ROLLBACK fails too and its error replaces the statement's: the statement's
      // is the cause. (The server rolls back a transaction whose connection is gone; BEGIN or COMMIT failing is mapped
      // here too: one cut during COMMIT may have committed.)
      const cause = failed ? failed.error : error;
      return { error: this.mapped(cause), retryable: !committing && isTransientConflict(this.dialect, cause) };
    } finally {
      this.openTransactions.count--;
      // Committed: what waited for it runs now, outside the transaction, before the caller gets the value (a failed
      // attempt's list is dropped with it).
      if (succeeded) for (const callback of committed) await callback();
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

/**
 * How long a statement may wait to get a connection (opening one, or for one of the pool's to be free) before it
 * fails with a 503: a database that is down answers at once (connection refused), one that is unreachable or
 * saturated within this time, instead of holding requests. Strapi's `acquireConnectionTimeout` overrides it.
 */
export const ACQUIRE_TIMEOUT_MS = 3000;

/** How long a SQLite statement waits for another connection's write lock (busy_timeout) before SQLITE_BUSY. */
export const SQLITE_BUSY_TIMEOUT_MS = 5000;

/** The SQLite file of `config/database`: a relative `filename` is resolved against the app folder. */
export function sqliteFilename(connection: Record<string, unknown>, baseDir: string | undefined): string {
  const given = String(connection.filename ?? '.tmp/data.db');
  return given === ':memory:' || isAbsolute(given) ? given : resolve(baseDir ?? process.cwd(), given);
}

/** See the 'connect' and 'connection' listeners below: the failing statement reports the error. */
const ignoreLostConnection = () => {};

type MysqlGetConnection = (callback: (error: Error | null, connection?: PoolConnection) => void) => void;

/**
 * mysql2's pool waits for a free connection without limit: this gives up after `timeoutMs` with a
 * `CAIRN_POOL_TIMEOUT` error (a 503, see unavailable.ts). A connection that comes after that goes back to the pool.
 */
function boundedGetConnection(pool: MysqlPool, timeoutMs: number): MysqlGetConnection {
  return (callback) => {
    let settled = false;
    const timer = setTimeout(() => {
      settled = true;
      callback(Object.assign(new Error(`no database connection within ${timeoutMs} ms`), { code: 'CAIRN_POOL_TIMEOUT' }));
    }, timeoutMs);
    pool.getConnection((error, connection) => {
      if (settled) return connection?.release();
      settled = true;
      clearTimeout(timer);
      callback(error, connection);
    });
  };
}

/**
 * SQLite transactions take the write lock at BEGIN (`BEGIN IMMEDIATE`): every Cairn transaction writes, and one
 * that began by reading (Kysely's plain BEGIN) could not upgrade to writing once another process had written
 * meanwhile: SQLITE_BUSY at once, busy_timeout or not. Waiting at BEGIN is what busy_timeout covers.
 */
function immediateSqliteDialect(kysely: KyselyModule, config: SqliteDialectConfig): Dialect {
  const dialect = new kysely.SqliteDialect(config);
  const createDriver = dialect.createDriver.bind(dialect);
  dialect.createDriver = (): Driver => {
    const driver = createDriver();
    driver.beginTransaction = async (connection) => {
      await connection.executeQuery(kysely.CompiledQuery.raw('begin immediate'));
    };
    return driver;
  };
  return dialect;
}

/**
 * better-sqlite3 compiles SQL on every `prepare()`, and Kysely prepares each statement it runs: a quarter of a
 * write's CPU went there. Writes repeat a few statement shapes, so their compiled statements are kept (bounded)
 * and run again; a statement runs to completion synchronously, so one is never in use twice at once.
 */
function cachingStatements(handle: SqliteHandle): SqliteDatabase {
  const statements = new BoundedCache<ReturnType<SqliteHandle['prepare']>>(PREPARED_CAPACITY);
  return {
    close: () => handle.close(),
    prepare(sql) {
      let statement = statements.get(sql);
      if (!statement) statements.set(sql, (statement = handle.prepare(sql)));
      return statement;
    },
  };
}

export interface CreateDatabaseOptions {
  /** Where a relative SQLite filename is resolved (the app folder). */
  baseDir?: string;
  /**
   * Every session refuses writes (a SQLite file opened read-only, which must exist; PostgreSQL and MySQL sessions in
   * read-only transactions): for commands that must leave the database as they found it (`cairn db check`).
   */
  readOnly?: boolean;
}

/** Opens a connection pool for Strapi's `config/database` shape. All sessions work in UTC. */
export async function createDatabase(config: DatabaseConfig, options: CreateDatabaseOptions = {}): Promise<Database> {
  const dialectName = dialectOf(config);
  const connection = config.connection.connection ?? {};
  const pool = config.connection.pool ?? {};
  const acquireTimeout = config.connection.acquireConnectionTimeout ?? ACQUIRE_TIMEOUT_MS;
  let dialect: (kysely: KyselyModule) => Dialect;
  let preparedReads: PreparedReads;
  let processLock: ProcessLock;
  if (dialectName === 'sqlite') {
    const { default: SQLite } = await import('better-sqlite3');
    const filename = sqliteFilename(connection, options.baseDir);
    if (filename !== ':memory:' && !options.readOnly) mkdirSync(dirname(filename), { recursive: true });
    if (options.readOnly && filename !== ':memory:' && !existsSync(filename)) {
      throw Object.assign(new Error(`no SQLite database file at ${filename} (opened read-only: none is created)`), { code: 'SQLITE_CANTOPEN' });
    }
    const sqliteHandle = options.readOnly ? new SQLite(filename, { readonly: true, fileMustExist: true }) : new SQLite(filename);
    sqliteHandle.pragma(`busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`);
    // The journal mode is left as the file has it (WAL would be written into its header): Strapi's (rollback
    // journal) in a file Strapi or Cairn made; an empty file gets Strapi's tables in that mode.
    sqliteHandle.pragma('foreign_keys = ON');
    sqliteHandle.pragma('synchronous = NORMAL');
    // SQLite's LOWER folds ASCII only; $eqi/$containsi fold every script like PostgreSQL does.
    sqliteHandle.function('cairn_lower', { deterministic: true }, (value: unknown) =>
      typeof value === 'string' ? value.toLowerCase() : value,
    );
    dialect = (kysely) => immediateSqliteDialect(kysely, { database: cachingStatements(sqliteHandle) });
    preparedReads = sqlitePreparedReads(sqliteHandle);
    // No busy timeout: better-sqlite3 would wait for it synchronously, stopping the event loop (sqliteLock polls).
    processLock = sqliteLock(filename, (file) => new SQLite(file, { timeout: 0 }));
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
      // No statement waits for a lock (a document's, a row's) longer than a write may: past it, a 503.
      options: `-c timezone=UTC -c lock_timeout=${DOCUMENT_LOCK_WAIT_S}s${schema ? ` -c search_path=${String(schema)}` : ''}${options.readOnly ? ' -c default_transaction_read_only=on' : ''}`,
      // Bounds both opening a connection and waiting for a free one: an outage answers 503 instead of hanging.
      connectionTimeoutMillis: acquireTimeout,
      keepAlive: true,
    };
    const pgPool = new pg.default.Pool(poolConfig as never);
    // Every statement with parameters, a transaction's as a read's, runs prepared once it repeats (statement-names.ts).
    const statementNames = new StatementNames(PREPARED_CAPACITY);
    // A connection the server cuts (restart, failover, pg_terminate_backend) emits 'error' on its client. An idle
    // client's goes to the pool's listener; a checked-out one (a transaction, a read) has none of pg's, and an
    // 'error' nobody listens to ends the process. Its statement fails too (answered 503, logged with the cause),
    // and the pool drops the client when it comes back (not queryable), opening a new one when needed.
    pgPool.on('connect', (client) => {
      client.on('error', ignoreLostConnection);
      statementNames.nameStatements(client);
    });
    pgPool.on('acquire', (client) => statementNames.tidy(client));
    pgPool.on('error', (error: Error) => process.emitWarning(`PostgreSQL connection lost: ${error.message}`));
    // Kysely gets the pool to borrow connections from, not to close: the Database closes it once (see close()).
    dialect = ({ PostgresDialect }) => new PostgresDialect({ pool: { connect: () => pgPool.connect(), end: async () => {} } as never });
    preparedReads = postgresPreparedReads(pgPool, statementNames);
    processLock = postgresLock(async () => {
      const client = new pg.default.Client(poolConfig as never);
      // Lost while held: the server released the lock; the unlock that follows reports the failure.
      client.on('error', (error: Error) => process.emitWarning(`PostgreSQL lock connection lost: ${error.message}`));
      await client.connect();
      return client;
    });
  } else {
    const mysql = await import('mysql2');
    // SQLite's `filename` can arrive here through config defaults; mysql2 warns on unknown options.
    const { filename: _filename, ...mysqlConnection } = connection as Record<string, unknown>;
    const mysqlPool = mysql.default.createPool({
      ...mysqlConnection,
      connectionLimit: pool.max ?? 10,
      connectTimeout: acquireTimeout,
      timezone: 'Z',
      dateStrings: true,
      supportBigNumbers: true,
      bigNumberStrings: true,
      decimalNumbers: true,
      charset: 'utf8mb4',
      // Per connection; mysql2's default (16,000) would let statements pile up on a long-lived connection.
      maxPreparedStatements: PREPARED_CAPACITY,
    });
    mysqlPool.on('connection', (connection) => {
      // mysql2 listens for a pooled connection's first 'error' only (to drop it from the pool): a second one, or
      // one while a query holds it, would end the process. The query fails with it (503), the pool opens another.
      connection.on('error', ignoreLostConnection);
      // JSON_ARRAYAGG and GROUP_CONCAT stop at group_concat_max_len (1 MiB by default on MariaDB): a populated list
      // longer than that would come back cut short. Raised to its maximum on every connection the pool opens.
      // A row or table lock is waited for as long as a document's lock, then a 503 (InnoDB's default is 50 s, a
      // table's metadata lock a day on MariaDB, a year on MySQL).
      const wait = DOCUMENT_LOCK_WAIT_S;
      connection.query(`SET SESSION group_concat_max_len = 4294967295, innodb_lock_wait_timeout = ${wait}, lock_wait_timeout = ${wait}`, (error) => {
        if (error) process.emitWarning(`MySQL: could not set the session's group_concat_max_len and lock waits: ${error.message}`);
      });
      // Queued before any statement of the pool's: the session refuses writes from its first one.
      if (options.readOnly) {
        connection.query('SET SESSION TRANSACTION READ ONLY', (error) => {
          if (error) process.emitWarning(`MySQL: could not make the session read-only: ${error.message}`);
        });
      }
    });
    const getConnection = boundedGetConnection(mysqlPool, acquireTimeout);
    dialect = ({ MysqlDialect }) => new MysqlDialect({ pool: { getConnection, end: (done: () => void) => done() } as never });
    preparedReads = mysqlPreparedReads(mysqlPool, getConnection);
    processLock = mysqlLock(async () => {
      const connection = await (await import('mysql2/promise')).default.createConnection({ ...mysqlConnection, timezone: 'Z', charset: 'utf8mb4' });
      connection.on('error', (error: Error) => process.emitWarning(`MySQL lock connection lost: ${error.message}`));
      return connection;
    });
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
  const db = new KyselyDatabase(dialectName, makeEngine, new Set(), false, preparedReads, { count: 0 }, processLock, closeEngine);
  if (dialectName === 'mysql') await db.query('SELECT 1');
  return db;
}
