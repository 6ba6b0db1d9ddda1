import type BetterSqlite3 from 'better-sqlite3';
import type { Pool as PgPool } from 'pg';
import type { Pool as MysqlPool, PoolConnection, RowDataPacket } from 'mysql2';
import { toPostgresPlaceholders } from './placeholders.js';
import { BoundedCache } from './bounded-cache.js';
import type { StatementNames } from './statement-names.js';

/**
 * Reads outside transactions run as prepared statements, so the database parses and plans each SQL text once
 * per connection: better-sqlite3 statements cached by text, PostgreSQL named statements (statement-names.ts, which
 * names the statements of transactions too), mysql2 `execute`.
 * The compiler emits one SQL text per query shape (database/sql/read-statements.ts), so a handful of texts
 * serve every request. Writes and transactions keep going through Kysely.
 */
export interface PreparedReads {
  run<Row>(sql: string, params: readonly unknown[]): Promise<Row[]> | Row[];
  /** Closes the connection or pool the reads run on (the one Kysely borrows from too). */
  close(): Promise<void>;
}

/** Statements kept: far above the texts an app's requests produce, low enough to bound the memory they hold. */
export const PREPARED_CAPACITY = 200;

export function sqlitePreparedReads(handle: BetterSqlite3.Database, capacity = PREPARED_CAPACITY): PreparedReads {
  const statements = new BoundedCache<BetterSqlite3.Statement>(capacity);
  return {
    run<Row>(sql: string, params: readonly unknown[]): Row[] {
      let statement = statements.get(sql);
      if (!statement) {
        statement = handle.prepare(sql);
        statements.set(sql, statement);
      }
      return statement.all(...params) as Row[];
    },
    async close() {
      if (handle.open) handle.close();
    },
  };
}

/**
 * PostgreSQL: a text run a second time runs as a named statement (statement-names.ts, whose names the pool's
 * connections use for transactions' statements too); each SQL text's `$n` form is computed once.
 */
export function postgresPreparedReads(pool: PgPool, names: StatementNames, capacity = PREPARED_CAPACITY): PreparedReads {
  /** Cairn's SQL text -> its text with `$n` placeholders. */
  const texts = new BoundedCache<string>(capacity);
  return {
    async run<Row>(sql: string, values: readonly unknown[]): Promise<Row[]> {
      let text = texts.get(sql);
      if (text === undefined) {
        text = toPostgresPlaceholders(sql);
        texts.set(sql, text);
      }
      const name = names.nameOf(text);
      const result = await pool.query(name === undefined ? { text, values: values as unknown[] } : { name, text, values: values as unknown[] });
      return result.rows as Row[];
    },
    async close() {
      await pool.end();
    },
  };
}

/**
 * MySQL/MariaDB: mysql2 keeps each connection's prepared statements (bounded by `maxPreparedStatements`).
 * Connections come from `getConnection` (the pool's, with a bounded wait: see connection.ts).
 */
export function mysqlPreparedReads(
  pool: MysqlPool,
  getConnection: (callback: (error: Error | null, connection?: PoolConnection) => void) => void,
): PreparedReads {
  return {
    run<Row>(sql: string, values: readonly unknown[]): Promise<Row[]> {
      return new Promise((resolve, reject) => {
        getConnection((connectionError, connection) => {
          if (connectionError) return reject(connectionError);
          try {
            connection!.execute<RowDataPacket[]>(sql, values as never, (error, rows) => {
              connection!.release();
              if (error) reject(error);
              else resolve(rows as Row[]);
            });
          } catch (error) {
            connection!.release();
            reject(error);
          }
        });
      });
    },
    close() {
      return new Promise((resolve, reject) => pool.end((error) => (error ? reject(error) : resolve())));
    },
  };
}
