import { createCipheriv, createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Database } from '../database/types.js';
import { apiTokenNameTaken, deleteApiToken, findApiTokenByKey, insertApiToken, listApiTokens, touchApiToken, type ApiTokenType, type StoredApiToken } from '../database/api-tokens.js';
import { ApplicationError, ValidationError } from '../errors/index.js';

export type TokenType = ApiTokenType;
export type ApiToken = StoredApiToken;

/** Only an HMAC-SHA512 of a key (with the configured salt) is stored; the key itself is shown once. */
export function hashKey(key: string, salt: string): string {
  return createHmac('sha512', salt).update(key).digest('hex');
}

/**
 * A key encrypted as Strapi's admin encrypts it (`admin.secrets.encryptionKey`), so that its admin can show the key
 * again: `v1:<iv>:<AES-256-GCM ciphertext>:<tag>` in hex, the cipher's key the SHA-256 of the configured one.
 */
export function encryptKey(key: string, encryptionKey: string): string {
  const iv = randomBytes(16);
  const cipher = createCipheriv('aes-256-gcm', createHash('sha256').update(encryptionKey).digest(), iv);
  const encrypted = Buffer.concat([cipher.update(key, 'utf8'), cipher.final()]);
  return `v1:${iv.toString('hex')}:${encrypted.toString('hex')}:${cipher.getAuthTag().toString('hex')}`;
}

const LAST_USED_EVERY_MS = 60_000;

export class ApiTokens {
  private readonly lastWritten = new Map<number, number>();

  constructor(
    private readonly db: Database,
    private readonly salt: string,
    /** `admin.secrets.encryptionKey`: a database Strapi made keeps each key encrypted with it (none: not kept). */
    private readonly encryptionKey?: string,
  ) {}

  async create(input: { name: string; type: TokenType; description?: string; permissions?: string[]; lifespanDays?: number }): Promise<{ key: string; token: ApiToken }> {
    if (!input.name?.trim()) throw new ValidationError('A token needs a name');
    if (!['read-only', 'full-access', 'custom'].includes(input.type)) throw new ValidationError('type must be read-only, full-access or custom');
    if (input.type === 'custom' && !input.permissions?.length) throw new ValidationError('a custom token needs a list of actions');
    if (input.lifespanDays !== undefined && (!Number.isFinite(input.lifespanDays) || input.lifespanDays <= 0)) {
      throw new ValidationError('lifespan must be a positive number of days');
    }
    if (await apiTokenNameTaken(this.db, input.name)) throw new ApplicationError(`A token named "${input.name}" already exists`);
    const key = randomBytes(64).toString('hex');
    const now = new Date();
    const lifespan = input.lifespanDays ? Math.round(input.lifespanDays * 86_400_000) : null;
    const expiresAt = lifespan ? new Date(now.getTime() + lifespan).toISOString() : null;
    await insertApiToken(this.db, {
      name: input.name,
      description: input.description ?? null,
      type: input.type,
      accessKey: hashKey(key, this.salt),
      permissions: input.permissions ?? [],
      lifespan,
      expiresAt,
      createdAt: now.toISOString(),
      encryptedKey: this.encryptionKey ? encryptKey(key, this.encryptionKey) : null,
    });
    const token = (await this.list()).find((t) => t.name === input.name)!;
    return { key, token };
  }

  list(): Promise<ApiToken[]> {
    return listApiTokens(this.db);
  }

  /** Revokes by id or name; false when there was no such token. */
  revoke(idOrName: string): Promise<boolean> {
    return deleteApiToken(this.db, /^\d+$/.test(idOrName) ? { id: Number(idOrName) } : { name: idOrName });
  }

  /** The token a key belongs to, if valid and not expired. Found by its hash, then compared in constant time. */
  async verify(key: string): Promise<ApiToken | null> {
    const hash = hashKey(key, this.salt);
    const found = await findApiTokenByKey(this.db, hash);
    if (!found || !timingSafeEqual(Buffer.from(found.accessKey), Buffer.from(hash))) return null;
    const { token } = found;
    if (token.expiresAt && Date.parse(token.expiresAt) <= Date.now()) return null;
    await this.touch(token);
    return token;
  }

  /**
   * `lastUsedAt`, written at most once a minute per token (a write per request would serialize reads); on a
   * database Strapi made, only when Strapi would write it too (empty, or an hour old).
   */
  private async touch(token: ApiToken): Promise<void> {
    const now = Date.now();
    if (now - (this.lastWritten.get(token.id) ?? 0) < LAST_USED_EVERY_MS) return;
    this.lastWritten.set(token.id, now);
    await touchApiToken(this.db, token, new Date(now));
  }
}
