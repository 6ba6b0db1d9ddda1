import { readFileSync } from 'node:fs';
import type { Database } from '../types.js';

/**
 * The mark that Cairn made a database in Strapi's layout (createStrapiDatabase writes it): one row of Strapi's core
 * store, under a key no plugin of Strapi reads, so Strapi keeps it and ignores it (it adds no table or column). A
 * database with the mark is Cairn's to extend when the model adds to it (additions.ts); one without it was made by
 * Strapi, which alone alters its tables.
 */
export const CAIRN_MARK_KEY = 'plugin_cairn_database';

export interface CairnMark {
  createdBy: 'cairn';
  /** The version of Cairn that made the database. */
  version: string;
}

/** The core-store row of the mark, as createStrapiDatabase writes it (the value as Strapi stores one: JSON text). */
export function cairnMarkRow(): { key: string; type: string; value: CairnMark } {
  return { key: CAIRN_MARK_KEY, type: 'object', value: { createdBy: 'cairn', version: cairnVersion() } };
}

/** The mark, when the database has one (a read only; a database without the core store has none). */
export async function readCairnMark(db: Pick<Database, 'query' | 'quote'>): Promise<CairnMark | undefined> {
  const rows = await db.query<{ value: string | null }>(
    `SELECT ${db.quote('value')} FROM strapi_core_store_settings WHERE ${db.quote('key')} = ? ORDER BY id LIMIT 1`,
    [CAIRN_MARK_KEY],
  );
  const text = rows[0]?.value;
  if (typeof text !== 'string') return undefined;
  try {
    const value = JSON.parse(text) as Partial<CairnMark> | null;
    return value?.createdBy === 'cairn' ? { createdBy: 'cairn', version: String(value.version ?? '') } : undefined;
  } catch {
    return undefined;
  }
}

let version: string | undefined;
/** package.json's version (src/ and dist/ both sit three levels below it). */
function cairnVersion(): string {
  version ??= (JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
  return version;
}
