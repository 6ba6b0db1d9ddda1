import type { Database } from '../types.js';
import type { ApiTokenType, NewApiToken, StoredApiToken } from '../api-token-types.js';
import { insertRow, isoDatetime, newRowColumns, strapiDatetime } from './rows.js';

/**
 * API tokens in Strapi's tables: `strapi_api_tokens` (content-API tokens have `kind` 'content-api', or NULL when
 * made before Strapi had kinds), and for custom tokens their actions in `strapi_api_token_permissions`, linked by
 * `strapi_api_token_permissions_token_lnk (api_token_permission_id, api_token_id, api_token_permission_ord)`.
 */

const CONTENT_API = "(t.kind = 'content-api' OR t.kind IS NULL)";
const TOKEN_WITH_ACTIONS =
  'SELECT t.id, t.name, t.description, t.type, t.access_key, t.expires_at, t.last_used_at, t.created_at, p.action FROM strapi_api_tokens t ' +
  'LEFT JOIN strapi_api_token_permissions_token_lnk l ON l.api_token_id = t.id LEFT JOIN strapi_api_token_permissions p ON p.id = l.api_token_permission_id';

/** Strapi writes `last_used_at` when it is empty or an hour old (its api-token strategy), not on every request. */
const LAST_USED_EVERY_MS = 3_600_000;

export async function strapiApiTokenNameTaken(db: Database, name: string): Promise<boolean> {
  return (await db.query('SELECT id FROM strapi_api_tokens WHERE name = ?', [name])).length > 0;
}

/** The content-API token whose stored hash is `accessKey`, with its actions. */
export async function strapiFindApiTokenByKey(db: Database, accessKey: string): Promise<{ accessKey: string; token: StoredApiToken } | null> {
  // One statement per authenticated request: the token's row and, for a custom token, its actions.
  const rows = await db.query<Record<string, unknown>>(`${TOKEN_WITH_ACTIONS} WHERE t.access_key = ? AND ${CONTENT_API} ORDER BY t.id, l.api_token_permission_ord, p.id`, [accessKey]);
  const [token] = tokensOf(rows);
  return token ? { accessKey: String(rows[0].access_key), token } : null;
}

/** The content-API tokens, by id. */
export async function strapiListApiTokens(db: Database): Promise<StoredApiToken[]> {
  return tokensOf(await db.query<Record<string, unknown>>(`${TOKEN_WITH_ACTIONS} WHERE ${CONTENT_API} ORDER BY t.id, l.api_token_permission_ord, p.id`));
}

/**
 * A token as Strapi's admin creates one (its api-token service): a row of kind 'content-api' and, for a custom
 * token, one permission row per action, linked in order; in one transaction.
 */
export async function strapiInsertApiToken(db: Database, token: NewApiToken): Promise<void> {
  const at = new Date(token.createdAt);
  await db.transaction(async (trx) => {
    const tokenId = await insertRow(trx, 'strapi_api_tokens', {
      ...newRowColumns(trx.dialect, at),
      name: token.name,
      description: token.description,
      kind: 'content-api',
      type: token.type,
      access_key: token.accessKey,
      encrypted_key: token.encryptedKey ?? null,
      last_used_at: null,
      expires_at: token.expiresAt === null ? null : strapiDatetime(trx.dialect, new Date(token.expiresAt)),
      lifespan: token.lifespan,
    });
    if (token.type !== 'custom') return;
    let ord = 0;
    for (const action of new Set(token.permissions)) {
      const permissionId = await insertRow(trx, 'strapi_api_token_permissions', { ...newRowColumns(trx.dialect, at), action });
      await trx.execute('INSERT INTO strapi_api_token_permissions_token_lnk (api_token_permission_id, api_token_id, api_token_permission_ord) VALUES (?, ?, ?)', [
        permissionId,
        tokenId,
        ++ord,
      ]);
    }
  });
}

/** Deletes a content-API token with its permissions and their links; false when there was none. */
export async function strapiDeleteApiToken(db: Database, which: { id: number } | { name: string }): Promise<boolean> {
  return db.transaction(async (trx) => {
    const [row] =
      'id' in which
        ? await trx.query<{ id: number | string }>(`SELECT t.id FROM strapi_api_tokens t WHERE t.id = ? AND ${CONTENT_API}`, [which.id])
        : await trx.query<{ id: number | string }>(`SELECT t.id FROM strapi_api_tokens t WHERE t.name = ? AND ${CONTENT_API} ORDER BY t.id LIMIT 1`, [which.name]);
    if (!row) return false;
    const id = Number(row.id);
    // The token's permissions belong to it alone: they go with it (Strapi leaves them behind, linked to nothing).
    await trx.execute('DELETE FROM strapi_api_token_permissions WHERE id IN (SELECT api_token_permission_id FROM strapi_api_token_permissions_token_lnk WHERE api_token_id = ?)', [id]);
    await trx.execute('DELETE FROM strapi_api_token_permissions_token_lnk WHERE api_token_id = ?', [id]);
    await trx.execute('DELETE FROM strapi_api_tokens WHERE id = ?', [id]);
    return true;
  });
}

/**
 * Records that the token was used at `now`, when Strapi would: its `last_used_at` is empty or an hour old. Strapi's
 * update moves `updated_at` with it. The condition is also in the statement, so processes racing write it once.
 */
export async function strapiTouchApiToken(db: Database, token: StoredApiToken, now: Date): Promise<void> {
  if (token.lastUsedAt !== null && now.getTime() - Date.parse(token.lastUsedAt) < LAST_USED_EVERY_MS) return;
  const at = strapiDatetime(db.dialect, now);
  const hourAgo = strapiDatetime(db.dialect, new Date(now.getTime() - LAST_USED_EVERY_MS));
  await db.execute('UPDATE strapi_api_tokens SET last_used_at = ?, updated_at = ? WHERE id = ? AND (last_used_at IS NULL OR last_used_at <= ?)', [at, at, token.id, hourAgo]);
}

/** Rows of tokens joined with their actions (ordered by token) as tokens. */
function tokensOf(rows: Array<Record<string, unknown>>): StoredApiToken[] {
  const tokens = new Map<number, StoredApiToken>();
  for (const r of rows) {
    const id = Number(r.id);
    let token = tokens.get(id);
    if (!token) {
      token = {
        id,
        name: String(r.name ?? ''),
        description: (r.description as string | null) ?? null,
        type: r.type as ApiTokenType,
        permissions: [],
        expiresAt: isoDatetime(r.expires_at),
        lastUsedAt: isoDatetime(r.last_used_at),
        createdAt: isoDatetime(r.created_at) ?? new Date(0).toISOString(),
      };
      tokens.set(id, token);
    }
    if (typeof r.action === 'string') token.permissions.push(r.action);
  }
  return [...tokens.values()];
}
