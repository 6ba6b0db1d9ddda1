import { createAccessControl } from './access.js';
import { AuthService, USER_UID } from './auth-service.js';
import type { AuthHost } from './host.js';
import { createJwtService, jwtSecret, type JwtOptions } from './jwt.js';
import { permissionActions } from './actions.js';
import { RoleAdmin, strapiRoleService } from './role-admin.js';
import { Permissions } from './roles.js';
import { registerAuthRoutes, usersPermissionsActions } from './routes.js';
import { ApiTokens } from './tokens.js';
import { DEFAULT_LIFESPANS, sessionJwtService, SessionManager, type SessionLifespans } from './sessions.js';
import { RefreshCookies, type SessionCookie } from './session-cookie.js';
import { BUILTIN_SCHEMAS, isSelectableScalar, type Model } from '../model/index.js';
import { intervalMs } from '../project/time-interval.js';
import { absoluteAdminUrl, absoluteServerUrl } from '../project/urls.js';
import type { EmailService } from '../email/index.js';

export { ApiTokens, type TokenType } from './tokens.js';
export { Permissions } from './roles.js';
export { AuthService, type AuthAnswer } from './auth-service.js';
export type { AuthHost } from './host.js';
export { RATE_LIMIT_MIDDLEWARE, USERS_PERMISSIONS_ROUTES, type UsersPermissionsActions, type UsersPermissionsHandler, type UsersPermissionsRoute } from './routes.js';

interface UsersPermissionsConfig {
  jwtSecret?: string;
  jwt?: JwtOptions;
  jwtManagement?: 'legacy-support' | 'refresh';
  sessions?: Partial<SessionLifespans> & { httpOnly?: boolean; cookie?: SessionCookie['cookie'] };
  register?: { enabled?: boolean; allowedFields?: string[] };
  minPasswordLength?: number;
  ratelimit?: { enabled?: boolean; max?: number; interval?: number | Record<string, number>; window?: number };
}

/** The salt API keys are hashed with (`config/admin` → `apiToken.salt`); required in production. */
export function apiTokenSalt(host: { config: { admin: Record<string, unknown>; environment: string } }): string {
  const salt = (host.config.admin.apiToken as { salt?: string } | undefined)?.salt;
  if (salt) return salt;
  if (host.config.environment === 'production') throw new Error('config/admin: apiToken.salt is required in production (set API_TOKEN_SALT)');
  return 'cairn-development-api-token-salt';
}

/** `config/admin` → `secrets.encryptionKey` (ENCRYPTION_KEY), with which Strapi keeps API keys showable; optional. */
export function apiTokenEncryptionKey(host: { config: { admin: Record<string, unknown> } }): string | undefined {
  const key = (host.config.admin.secrets as { encryptionKey?: unknown } | undefined)?.encryptionKey;
  return typeof key === 'string' && key !== '' ? key : undefined;
}

/**
 * Users & permissions and API tokens: replaces the open access of a bare app, so nothing is reachable unless a
 * role (or the token) allows it. Roles from `config/permissions` are synced at start-up (the app's setup).
 */
export async function registerAuth(host: AuthHost): Promise<void> {
  const config = (host.config.plugins['users-permissions']?.config ?? {}) as UsersPermissionsConfig;
  const permissions = new Permissions(host.db, host.documents('plugin::users-permissions.role'));
  host.setup.push(async () => {
    await permissions.sync(host.config.permissions?.roles, permissionActions(host.model));
  });
  const secretOptions = { secret: config.jwtSecret, environment: host.config.environment, dir: host.config.dir };
  // Strapi's "refresh" mode: sessions in strapi_sessions, short-lived access tokens and refresh tokens.
  const sessions = config.jwtManagement === 'refresh' ? new SessionManager(host.db, jwtSecret(secretOptions), config.jwt ?? {}, lifespans(config.sessions)) : undefined;
  const jwt = sessions ? sessionJwtService(sessions) : createJwtService({ ...secretOptions, jwt: config.jwt });
  const tokens = new ApiTokens(host.db, apiTokenSalt(host), apiTokenEncryptionKey(host));
  host.access = createAccessControl({ db: host.db, jwt, tokens, permissions });
  const auth = new AuthService(host, {
    jwt,
    permissions,
    registerEnabled: config.register?.enabled ?? true,
    allowedFields: config.register?.allowedFields ?? [],
    extendedFields: extendedUserFields(host.model),
    extendedScalars: extendedUserFields(host.model).filter((name) => isSelectableScalar(host.model.contentTypes.get(USER_UID)!.attributes.get(name)!)),
    minPasswordLength: config.minPasswordLength ?? 6,
    // Counted by the client address only: a key built from body fields could be rotated to escape the limit.
    // `enabled: false` turns it off, as Strapi's rate-limit middleware does.
    ...(config.ratelimit?.enabled === false
      ? {}
      : { rateLimit: { max: config.ratelimit?.max ?? 10, timeWindow: intervalMs(config.ratelimit?.interval) ?? config.ratelimit?.window ?? 60_000 } }),
    ...(sessions ? { sessions } : {}),
    email: () => host.services.get('email')!.email as EmailService,
    links: { server: absoluteServerUrl(host.config), admin: absoluteAdminUrl(host.config), apiPrefix: host.config.api.rest.prefix ?? '/api' },
    log: host.log,
  });
  const roles = new RoleAdmin(host.db, host.model, host.documents('plugin::users-permissions.role'), permissions);
  const cookies = new RefreshCookies({ config: config.sessions ?? {}, production: host.config.environment === 'production', appKeys: host.config.server.app?.keys });
  const actions = usersPermissionsActions(host, auth, roles, cookies);
  // `role` is Strapi's service of that name (app code reaches it as strapi.service('plugin::users-permissions.role')).
  host.services.set('users-permissions', { permissions, jwt, tokens, auth, actions, cookies, role: strapiRoleService(roles) });
  registerAuthRoutes(host.fastify, host, auth, actions, host.usersPermissionsRoutesByApp);
}

/** The `sessions` lifespans, each Strapi's default when unset or 0 (its `||`). */
function lifespans(given: Partial<SessionLifespans> = {}): SessionLifespans {
  const entries = Object.entries(DEFAULT_LIFESPANS).map(([key, fallback]) => [key, given[key as keyof SessionLifespans] || fallback]);
  return Object.fromEntries(entries) as SessionLifespans;
}

/** The user's attributes beyond the plugin's own: what the app's extension added (none without one). */
function extendedUserFields(model: Model): string[] {
  const own = BUILTIN_SCHEMAS.find((b) => b.uid === USER_UID)!.schema.attributes as Record<string, unknown>;
  return [...model.contentTypes.get(USER_UID)!.attributes.keys()].filter((name) => !Object.hasOwn(own, name));
}
