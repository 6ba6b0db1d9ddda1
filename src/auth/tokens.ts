import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Database } from '../database/types.js';
import { sqlDialect } from '../database/sql/index.js';
import { ApplicationError, ValidationError } from '../errors/index.js';

export type TokenType = 'read-only' | 'full-access' | 'custom';

export interface ApiToken {
  id: number;
  name: string;
  description: string | null;
  type: TokenType;
  permissions: string[];
  expiresAt: string | null;
  lastUsedAt: string | null;
  createdAt: string;
}

/** Only an HMAC-SHA512 of a key (with the configured salt) is stored; the key itself is shown once. */
export function hashKey(key: string, salt: string): string {
  return createHmac('sha512', salt).update(key).digest('hex');
}

const LAST_USED_EVERY_MS = 60_000;

export class ApiTokens {
  private readonly lastWritten = new Map<number, number>();

  constructor(
    private readonly db: Database,
    private readonly salt: string,
  ) {}

  async create(input: { name: string; type: TokenType; description?: string; permissions?: string[]; lifespanDays?: number }): Promise<{ key: string; token: ApiToken }> {
    if (!input.name?.trim()) throw new ValidationError('A token needs a name');
    if (!['read-only', 'full-access', 'custom'].includes(input.type)) throw new ValidationError('type must be read-only, full-access or custom');
    if (input.type === 'custom' && !input.permissions?.length) throw new ValidationError('a custom token needs a list of actions');
    if (input.lifespanDays !== undefined && (!Number.isFinite(input.lifespanDays) || input.lifespanDays <= 0)) {
      throw new ValidationError('lifespan must be a positive number of days');
    }
    const existing = await this.db.query('SELECT id FROM cairn_api_tokens WHERE name = ?', [input.name]);
    if (existing.length) throw new ApplicationError(`A token named "${input.name}" already exists`);
    const key = randomBytes(64).toString('hex');
    const now = new Date();
    const lifespan = input.lifespanDays ? Math.round(input.lifespanDays * 86_400_000) : null;
    const expiresAt = lifespan ? new Date(now.getTime() + lifespan).toISOString() : null;
    const d = sqlDialect(this.db.dialect);
    await this.db.execute(
      'INSERT INTO cairn_api_tokens (name, description, type, access_key, permissions, lifespan, expires_at, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      [input.name, input.description ?? null, input.type, hashKey(key, this.salt), JSON.stringify(input.permissions ?? []), lifespan, d.bindValue(expiresAt, 'datetime'), d.bindValue(now.toISOString(), 'datetime')],
    );
    const token = (await this.list()).find((t) => t.name === input.name)!;
    return { key, token };
  }

  async list(): Promise<ApiToken[]> {
    const rows = await this.db.query<Record<string, unknown>>(`SELECT ${TOKEN_COLUMNS} FROM cairn_api_tokens ORDER BY id`);
    return rows.map(tokenOf);
  }

  /** Revokes by id or name; false when there was no such token. */
  async revoke(idOrName: string): Promise<boolean> {
    const byId = /^\d+$/.test(idOrName);
    const result = await this.db.execute(`DELETE FROM cairn_api_tokens WHERE ${byId ? 'id' : 'name'} = ?`, [byId ? Number(idOrName) : idOrName]);
    return result.affectedRows > 0;
  }

  /** The token a key belongs to, if valid and not expired. Found by its hash, then compared in constant time. */
  async verify(key: string): Promise<ApiToken | null> {
    const hash = hashKey(key, this.salt);
    // One statement per authenticated request: the token's row, found by its hash.
    const rows = await this.db.query<Record<string, unknown>>(`SELECT access_key, ${TOKEN_COLUMNS} FROM cairn_api_tokens WHERE access_key = ?`, [hash]);
    const row = rows[0];
    if (!row || !timingSafeEqual(Buffer.from(String(row.access_key)), Buffer.from(hash))) return null;
    const token = tokenOf(row);
    if (token.expiresAt && Date.parse(token.expiresAt) <= Date.now()) return null;
    await this.touch(token.id);
    return token;
  }

  /** `lastUsedAt`, written at most once a minute per token (a write per request would serialize reads). */
  private async touch(id: number): Promise<void> {
    const now = Date.now();
    if (now - (this.lastWritten.get(id) ?? 0) < LAST_USED_EVERY_MS) return;
    this.lastWritten.set(id, now);
    await this.db.execute('UPDATE cairn_api_tokens SET last_used_at = ? WHERE id = ?', [sqlDialect(this.db.dialect).bindValue(new Date(now).toISOString(), 'datetime'), id]);
  }
}

const TOKEN_COLUMNS = 'id, name, description, type, permissions, expires_at, last_used_at, created_at';

function tokenOf(r: Record<string, unknown>): ApiToken {
  return {
    id: Number(r.id),
    name: String(r.name),
    description: (r.description as string | null) ?? null,
    type: r.type as TokenType,
    permissions: JSON.parse(String(r.permissions ?? '[]')) as string[],
    expiresAt: iso(r.expires_at),
    lastUsedAt: iso(r.last_used_at),
    createdAt: iso(r.created_at)!,
  };
}

function iso(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value.toISOString();
  const text = String(value);
  return text.endsWith('Z') ? text : `${text.replace(' ', 'T')}${text.includes('.') ? '' : '.000'}Z`;
}
