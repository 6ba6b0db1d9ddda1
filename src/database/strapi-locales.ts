import type { Database } from './types.js';

/** A row of Strapi's `i18n_locale`, with the entry fields Strapi answers `GET /api/i18n/locales` with. */
export interface StoredLocale {
  id: number;
  documentId: string;
  name: string;
  code: string;
  createdAt: string | null;
  updatedAt: string | null;
  publishedAt: string | null;
}

/**
 * The locales of a database that Strapi made (`i18n_locale`, edited in Strapi's admin) and the default one
 * (`strapi_core_store_settings` `plugin_i18n_default_locale`, a JSON string), in id order. Reads only.
 */
export async function readStrapiLocales(db: Database): Promise<{ locales: StoredLocale[]; defaultCode: string | undefined }> {
  const rows = await db.query<Record<string, unknown>>(
    'SELECT id, document_id, name, code, created_at, updated_at, published_at FROM i18n_locale WHERE code IS NOT NULL ORDER BY id',
  );
  const [setting] = await db.query<{ value: string | null }>(
    `SELECT value FROM strapi_core_store_settings WHERE ${db.quote('key')} = 'plugin_i18n_default_locale' ORDER BY id DESC LIMIT 1`,
  );
  let defaultCode: string | undefined;
  try {
    const parsed: unknown = setting?.value ? JSON.parse(setting.value) : undefined;
    if (typeof parsed === 'string') defaultCode = parsed;
  } catch {
    defaultCode = undefined;
  }
  const locales = rows.map((r) => ({
    id: Number(r.id),
    documentId: String(r.document_id),
    name: String(r.name ?? r.code),
    code: String(r.code),
    createdAt: storedDatetime(r.created_at),
    updatedAt: storedDatetime(r.updated_at),
    publishedAt: storedDatetime(r.published_at),
  }));
  return { locales, defaultCode };
}

/**
 * A datetime as Strapi stores it, in ISO 8601: milliseconds since the epoch (Strapi's SQLite), a Date, or the UTC
 * wall time text PostgreSQL and MySQL give (`2026-11-25 03:56:25.326`).
 */
export function storedDatetime(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'number' || /^\d+$/.test(String(value))) return new Date(Number(value)).toISOString();
  const text = String(value);
  if (text.endsWith('Z')) return text;
  const date = new Date(`${text.replace(' ', 'T')}Z`);
  return Number.isNaN(date.getTime()) ? text : date.toISOString();
}
