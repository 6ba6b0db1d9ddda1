import type { Database } from './types.js';
import { sqlDialect } from './sql/dialect.js';

/** API tokens (`cairn_api_tokens`): only the hash of a key is stored. */

export type ApiTokenType = 'read-only' | 'full-access' | 'custom';

export interface StoredApiToken {
  id: number;
  name: string;
  description: string | null;
  type: ApiTokenType;
  permissions: string[];
  expiresAt: string | null;
  lastUsedAt: string | null;
  createdAt: string;
}

export interface NewApiToken {
  name: string;
  description: string | null;
  type: ApiTokenType;
  /** The key's hash. */
  accessKey: string;
  permissions: string[];
  /** Milliseconds, or null: never expires. */
  lifespan: number | null;
  /** ISO 8601. */
  expiresAt: string | null;
  createdAt: string;
}

const TOKEN_COLUMNS = 'id, name, description, type, permissions, expires_at, last_used_at, created_at';

export async function apiTokenNameTaken(db: Database, name: string): Promise<boolean> {
  return (await db.query('SELECT id FROM cairn_api_tokens WHERE name = ?', [name])).length > 0;
}

export async function insertApiToken(db: Database, token: NewApiToken): Promise<void> {
  const d = sqlDialect(db.dialect);
  await db.execute(
    'INSERT INTO cairn_api_tokens (name, description, type, access_key, permissions, lifespan, expires_at, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    [token.name, token.description, token.type, token.accessKey, JSON.stringify(token.permissions), token.lifespan, d.bindValue(token.expiresAt, 'datetime'), d.bindValue(token.createdAt, 'datetime')],
  );
}

export async function listApiTokens(db: Database): Promise<StoredApiToken[]> {
  const rows = await db.query<Record<string, unknown>>(`SELECT ${TOKEN_COLUMNS} FROM cairn_api_tokens ORDER BY id`);
  return rows.map(tokenOf);
}

/** Deletes the token with this id or name; false when there was none. */
export async function deleteApiToken(db: Database, which: { id: number } | { name: string }): Promise<boolean> {
  const result = 'id' in which
    ? await db.execute('DELETE FROM cairn_api_tokens WHERE id = ?', [which.id])
    : await db.execute('DELETE FROM cairn_api_tokens WHERE name = ?', [which.name]);
  return result.affectedRows > 0;
}

/** The token whose stored hash is `accessKey`, with that hash (to compare in constant time); null: none. */
export async function findApiTokenByKey(db: Database, accessKey: string): Promise<{ accessKey: string; token: StoredApiToken } | null> {
  // One statement per authenticated request: the token's row, found by its hash.
  const [row] = await db.query<Record<string, unknown>>(`SELECT access_key, ${TOKEN_COLUMNS} FROM cairn_api_tokens WHERE access_key = ?`, [accessKey]);
  return row ? { accessKey: String(row.access_key), token: tokenOf(row) } : null;
}

/** Records when the token was last used (`at`: ISO 8601). */
export async function touchApiToken(db: Database, id: number, at: string): Promise<void> {
  await db.execute('UPDATE cairn_api_tokens SET last_used_at = ? WHERE id = ?', [sqlDialect(db.dialect).bindValue(at, 'datetime'), id]);
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
