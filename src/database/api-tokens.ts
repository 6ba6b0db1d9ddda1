import type { Database } from './types.js';
import type { ApiTokenType, NewApiToken, StoredApiToken } from './api-token-types.js';
import { sqlDialect } from './sql/dialect.js';
import {
  strapiApiTokenNameTaken,
  strapiDeleteApiToken,
  strapiFindApiTokenByKey,
  strapiInsertApiToken,
  strapiListApiTokens,
  strapiTouchApiToken,
} from './strapi-layout/api-tokens.js';

/**
 * API tokens: only the hash of a key is stored. Cairn's layout keeps them in `cairn_api_tokens`; Strapi's in
 * `strapi_api_tokens` and, for custom tokens, their permission rows (strapi-layout/api-tokens.ts).
 */

export type { ApiTokenType, NewApiToken, StoredApiToken } from './api-token-types.js';

const TOKEN_COLUMNS = 'id, name, description, type, permissions, expires_at, last_used_at, created_at';

export async function apiTokenNameTaken(db: Database, name: string): Promise<boolean> {
  if (db.layout === 'strapi') return strapiApiTokenNameTaken(db, name);
  return (await db.query('SELECT id FROM cairn_api_tokens WHERE name = ?', [name])).length > 0;
}

export async function insertApiToken(db: Database, token: NewApiToken): Promise<void> {
  if (db.layout === 'strapi') return strapiInsertApiToken(db, token);
  const d = sqlDialect(db.dialect);
  await db.execute(
    'INSERT INTO cairn_api_tokens (name, description, type, access_key, permissions, lifespan, expires_at, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    [token.name, token.description, token.type, token.accessKey, JSON.stringify(token.permissions), token.lifespan, d.bindValue(token.expiresAt, 'datetime'), d.bindValue(token.createdAt, 'datetime')],
  );
}

export async function listApiTokens(db: Database): Promise<StoredApiToken[]> {
  if (db.layout === 'strapi') return strapiListApiTokens(db);
  const rows = await db.query<Record<string, unknown>>(`SELECT ${TOKEN_COLUMNS} FROM cairn_api_tokens ORDER BY id`);
  return rows.map(tokenOf);
}

/** Deletes the token with this id or name; false when there was none. */
export async function deleteApiToken(db: Database, which: { id: number } | { name: string }): Promise<boolean> {
  if (db.layout === 'strapi') return strapiDeleteApiToken(db, which);
  const result = 'id' in which
    ? await db.execute('DELETE FROM cairn_api_tokens WHERE id = ?', [which.id])
    : await db.execute('DELETE FROM cairn_api_tokens WHERE name = ?', [which.name]);
  return result.affectedRows > 0;
}

/** The token whose stored hash is `accessKey`, with that hash (to compare in constant time); null: none. */
export async function findApiTokenByKey(db: Database, accessKey: string): Promise<{ accessKey: string; token: StoredApiToken } | null> {
  if (db.layout === 'strapi') return strapiFindApiTokenByKey(db, accessKey);
  // One statement per authenticated request: the token's row, found by its hash.
  const [row] = await db.query<Record<string, unknown>>(`SELECT access_key, ${TOKEN_COLUMNS} FROM cairn_api_tokens WHERE access_key = ?`, [accessKey]);
  return row ? { accessKey: String(row.access_key), token: tokenOf(row) } : null;
}

/**
 * Records that the token was used at `now` (its caller asks at most once a minute per token). Strapi's layout keeps
 * Strapi's own rule: written when empty or an hour old.
 */
export async function touchApiToken(db: Database, token: StoredApiToken, now: Date): Promise<void> {
  if (db.layout === 'strapi') return strapiTouchApiToken(db, token, now);
  await db.execute('UPDATE cairn_api_tokens SET last_used_at = ? WHERE id = ?', [sqlDialect(db.dialect).bindValue(now.toISOString(), 'datetime'), token.id]);
}

function tokenOf(r: Record<string, unknown>): StoredApiToken {
  return {
    id: Number(r.id),
    name: String(r.name),
    description: (r.description as string | null) ?? null,
    type: r.type as ApiTokenType,
    permissions: JSON.parse(String(r.permissions ?? '[]')) as string[],
    expiresAt: iso(r.expires_at),
    lastUsedAt: iso(r.last_used_at),
    createdAt: iso(r.created_at)!,
  };
}

/** A stored datetime as ISO 8601: drivers give a Date (PostgreSQL, MySQL) or the text SQLite holds. */
function iso(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value.toISOString();
  const text = String(value);
  return text.endsWith('Z') ? text : `${text.replace(' ', 'T')}${text.includes('.') ? '' : '.000'}Z`;
}
