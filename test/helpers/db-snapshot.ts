import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Database } from '../../src/database/types.js';
import { readLayout, type DatabaseLayout } from '../../src/database/layout.js';

/**
 * Everything a read-only command could have changed: the catalog (native types included), every table's row count
 * and, for SQLite, the file's bytes. Equal snapshots before and after: nothing was written.
 */
export async function databaseSnapshot(db: Database, sqliteFile?: string): Promise<{ layout: DatabaseLayout; counts: Record<string, number>; bytes: string | undefined }> {
  const layout = await readLayout((sql, params) => db.query(sql, params), db.dialect, { native: true });
  const counts: Record<string, number> = {};
  for (const table of layout.tables) {
    counts[table.name] = Number((await db.query<{ n: number | string }>(`SELECT COUNT(*) AS n FROM ${db.quote(table.name)}`))[0]!.n);
  }
  return { layout, counts, bytes: sqliteFile ? createHash('sha256').update(readFileSync(sqliteFile)).digest('hex') : undefined };
}

/** Every statement `db` runs while `fn` runs, with what `fn` returned. */
export async function statementsDuring<T>(db: Pick<Database, 'onQuery'>, fn: () => Promise<T>): Promise<{ result: T; statements: string[] }> {
  const statements: string[] = [];
  const stop = db.onQuery((sql) => {
    statements.push(sql);
  });
  try {
    return { result: await fn(), statements };
  } finally {
    stop();
  }
}

/** Every statement that writes rows (INSERT, UPDATE, DELETE) while `fn` runs on `db`. */
export async function writesDuring(db: Pick<Database, 'onQuery'>, fn: () => Promise<unknown>): Promise<string[]> {
  const { statements } = await statementsDuring(db, fn);
  return statements.filter((sql) => /^\s*(INSERT|UPDATE|DELETE)/i.test(sql));
}
