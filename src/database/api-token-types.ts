/** API tokens as auth sees them, whichever layout stores them (api-tokens.ts). */

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
  /** The key, encrypted so that Strapi's admin can show it again (Strapi's layout only; null: it cannot). */
  encryptedKey?: string | null;
}
