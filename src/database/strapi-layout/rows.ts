import { newDocumentId } from '../document-id.js';
import { sqlDialect } from '../sql/dialect.js';
import type { Database, DialectName } from '../types.js';

/**
 * Rows of Strapi's own content types (roles' permissions, users, API tokens and theirs) as Strapi writes them: the
 * columns every content table has, datetimes in the form Strapi's driver stores them (docs/strapi-5-layout.md, 2).
 */

/** A moment as Strapi stores a datetime column: SQLite an INTEGER of milliseconds, elsewhere UTC wall-clock text. */
export function strapiDatetime(dialect: DialectName, at: Date): unknown {
  return dialect === 'sqlite' ? at.getTime() : sqlDialect(dialect).bindValue(at.toISOString(), 'datetime');
}

/**
 * A stored datetime as ISO 8601, whoever wrote it: milliseconds (Strapi's SQLite), a Date, or the text the drivers
 * give (`2026-11-25 03:58:46.519000`, `2026-11-25T04:06:53.664Z`); null for none.
 */
export function isoDatetime(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'number' || typeof value === 'bigint' || /^\d+$/.test(String(value))) return new Date(Number(value)).toISOString();
  const text = String(value);
  const m = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}:\d{2})(?:\.(\d+))?(Z|[+-]\d{2}:?\d{2})?$/.exec(text);
  if (!m) return new Date(text).toISOString();
  return `${m[1]}T${m[2]}.${(m[3] ?? '').padEnd(3, '0').slice(0, 3)}${m[4] && m[4] !== 'Z' ? m[4] : 'Z'}`;
}

/**
 * The columns a new row of one of Strapi's own types carries (they have neither Draft & Publish nor i18n): a new
 * document id; created, updated and published at `at`; no locale, no admin author (API writes leave them empty).
 */
export function newRowColumns(dialect: DialectName, at: Date): Record<string, unknown> {
  const now = strapiDatetime(dialect, at);
  return { document_id: newDocumentId(), created_at: now, updated_at: now, published_at: now, created_by_id: null, updated_by_id: null, locale: null };
}

/** Inserts one row (values already in the stored form) and answers its id. */
export async function insertRow(db: Database, table: string, values: Record<string, unknown>): Promise<number> {
  const names = Object.keys(values);
  const [row] = await db.query<{ id: number | string }>(
    `INSERT INTO ${db.quote(table)} (${names.map((n) => db.quote(n)).join(', ')}) VALUES (${names.map(() => '?').join(', ')}) RETURNING id`,
    names.map((n) => values[n]),
  );
  return Number(row.id);
}

/** `?, ?, ?`: one placeholder per value. */
export const marks = (values: readonly unknown[]) => values.map(() => '?').join(', ');
