import type { Database } from './types.js';
import { isoDatetime } from './strapi-layout/rows.js';

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
    createdAt: isoDatetime(r.created_at),
    updatedAt: isoDatetime(r.updated_at),
    publishedAt: isoDatetime(r.published_at),
  }));
  return { locales, defaultCode };
}
