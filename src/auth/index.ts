import type { Cairn } from '../app/cairn.js';
import { RateLimitError } from '../errors/index.js';
import { createAccessControl } from './access.js';
import { createJwtService } from './jwt.js';
import { Permissions } from './roles.js';
import { registerAuthRoutes } from './routes.js';
import { ensureAuthTables } from '../database/auth-tables.js';
import { ApiTokens } from './tokens.js';

export { ApiTokens, type TokenType } from './tokens.js';
export { Permissions } from './roles.js';
export { ensureAuthTables } from '../database/auth-tables.js';

interface UsersPermissionsConfig {
  jwtSecret?: string;
  jwt?: { expiresIn?: string };
  register?: { enabled?: boolean; allowedFields?: string[] };
  minPasswordLength?: number;
  ratelimit?: { max?: number; interval?: number; window?: number };
}

/** The salt API keys are hashed with (`config/admin` → `apiToken.salt`); required in production. */
export function apiTokenSalt(cairn: { config: { admin: Record<string, unknown>; environment: string } }): string {
  const salt = (cairn.config.admin.apiToken as { salt?: string } | undefined)?.salt;
  if (salt) return salt;
  if (cairn.config.environment === 'production') throw new Error('config/admin: apiToken.salt is required in production (set API_TOKEN_SALT)');
  return 'cairn-development-api-token-salt';
}

/**
 * Users & permissions and API tokens: replaces the open access of a bare app, so nothing is reachable unless a
 * role (or the token) allows it. Roles from `config/permissions` are synced at start-up (the app's setup).
 */
export async function registerAuth(cairn: Cairn): Promise<void> {
  const config = (cairn.config.plugins['users-permissions']?.config ?? {}) as UsersPermissionsConfig;
  const permissions = new Permissions(cairn.db, cairn.documents('plugin::users-permissions.role'));
  cairn.setup.push(async () => {
    await ensureAuthTables(cairn.db);
    await permissions.sync(cairn.config.permissions?.roles);
  });
  const jwt = createJwtService({ secret: config.jwtSecret, expiresIn: config.jwt?.expiresIn, environment: cairn.config.environment, dir: cairn.config.dir });
  const tokens = new ApiTokens(cairn.db, apiTokenSalt(cairn));
  cairn.access = createAccessControl({ db: cairn.db, jwt, tokens, permissions });
  cairn.services.set('users-permissions', { permissions, jwt, tokens });
  const rateLimit = await import('@fastify/rate-limit');
  await cairn.fastify.register(rateLimit.default, {
    global: false,
    // The client address only: a key built from body fields could be rotated to escape the limit.
    keyGenerator: (req) => req.ip,
    errorResponseBuilder: () => new RateLimitError(),
  });
  registerAuthRoutes(cairn.fastify, cairn, {
    jwt,
    permissions,
    registerEnabled: config.register?.enabled ?? true,
    allowedFields: config.register?.allowedFields ?? [],
    minPasswordLength: config.minPasswordLength ?? 6,
    rateLimit: { max: config.ratelimit?.max ?? 10, timeWindow: config.ratelimit?.interval ?? config.ratelimit?.window ?? 60_000 },
  });
}
