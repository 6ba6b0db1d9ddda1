import type { Database } from './types.js';
import { documentLockKey } from './document-locks.js';

/**
 * Strapi's core store (`strapi_core_store_settings`): plugin and core settings kept as rows of `key`, `value` (JSON
 * text), `type`, `environment` and `tag`, which Strapi's admin edits (users-permissions' `advanced` and `email`
 * settings...). Read and written as Strapi 5.54's `core-store` service does: a key is `<type>_<name>_<key>`
 * (`plugin_users-permissions_advanced`), `environment` and `tag` null unless given.
 */
export interface StoreKey {
  key: string;
  /** `core` unless given. */
  type?: string;
  name?: string;
  environment?: string | null;
  tag?: string | null;
}

/** The row key of `params`, as Strapi's store names it. */
export function storeRowKey({ key, type = 'core', name }: StoreKey): string {
  return `${type}${name ? `_${name}` : ''}_${key}`;
}

function where(db: Database, params: StoreKey): { sql: string; values: unknown[] } {
  const [k, environment, tag] = [db.quote('key'), db.quote('environment'), db.quote('tag')];
  const values: unknown[] = [storeRowKey(params)];
  // Strapi's `environment: environment || null`: a row of another environment is another setting.
  const env = params.environment || null;
  const tagged = params.tag || null;
  let sql = `${k} = ?`;
  sql += env === null ? ` AND ${environment} IS NULL` : ` AND ${environment} = ?`;
  if (env !== null) values.push(env);
  sql += tagged === null ? ` AND ${tag} IS NULL` : ` AND ${tag} = ?`;
  if (tagged !== null) values.push(tagged);
  return { sql, values };
}

/**
 * The stored value (null: no such row), parsed by its `type` as Strapi's store parses it: `object`, `array`,
 * `boolean` and `string` are JSON, `number` a number, any other type null.
 */
export async function readStoreValue(db: Database, params: StoreKey): Promise<unknown> {
  const { sql, values } = where(db, params);
  const [row] = await db.query<{ value: string | null; type: string | null }>(
    `SELECT ${db.quote('value')} AS value, type FROM strapi_core_store_settings WHERE ${sql} ORDER BY id LIMIT 1`,
    values,
  );
  if (!row) return null;
  if (row.type === 'number') return Number(row.value);
  if (!['object', 'array', 'boolean', 'string'].includes(row.type ?? '')) return null;
  try {
    return JSON.parse(row.value ?? '');
  } catch {
    // Strapi's fallback for a value that is not JSON.
    return new Date(row.value ?? '');
  }
}

/** Sets the value (JSON text, `type` its `typeof`), making the row when missing; concurrent first sets make one. */
export async function writeStoreValue(db: Database, params: StoreKey, value: unknown): Promise<void> {
  const text = JSON.stringify(value) ?? String(value);
  const type = typeof value;
  await db.transaction(async (trx) => {
    await trx.lock([documentLockKey('strapi::core-store', storeRowKey(params))]);
    const { sql, values } = where(trx, params);
    // Found first, not by an UPDATE's count: MySQL counts only the rows an UPDATE changed.
    const [row] = await trx.query<{ id: number }>(`SELECT id FROM strapi_core_store_settings WHERE ${sql} ORDER BY id LIMIT 1`, values);
    if (row) {
      await trx.execute(`UPDATE strapi_core_store_settings SET ${trx.quote('value')} = ?, type = ? WHERE id = ?`, [text, type, row.id]);
      return;
    }
    const columns = ['key', 'value', 'type', 'environment', 'tag'].map((c) => trx.quote(c)).join(', ');
    await trx.execute(`INSERT INTO strapi_core_store_settings (${columns}) VALUES (?, ?, ?, ?, ?)`, [storeRowKey(params), text, type, params.environment || null, params.tag || null]);
  });
}

/** Deletes the value's row (none: nothing). */
export async function deleteStoreValue(db: Database, params: StoreKey): Promise<void> {
  const { sql, values } = where(db, params);
  await db.execute(`DELETE FROM strapi_core_store_settings WHERE ${sql}`, values);
}
