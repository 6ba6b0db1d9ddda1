import type { FastifyRequest } from 'fastify';
import type { AccessControl, Caller } from './access-control.js';
import type { Database } from '../database/types.js';
import { findUserWithRole } from '../database/users.js';
import { UnauthorizedError } from '../errors/index.js';
import type { JwtService } from './jwt.js';
import type { Permissions, RoleActions } from './roles.js';
import type { ApiTokens } from './tokens.js';

const READ_ACTIONS = /\.(find|findOne)$/;

/**
 * The one place credentials are checked, for REST and GraphQL: no Authorization header → the public role;
 * `Bearer <jwt>` → the user's role (the user must exist and not be blocked); `Bearer <api key>` → the token's
 * type. Anything else is a 401: a bad credential never falls back to public access.
 */
export function createAccessControl(deps: { db: Database; jwt: JwtService; tokens: ApiTokens; permissions: Permissions }): AccessControl {
  const cache = new WeakMap<FastifyRequest, Promise<Caller>>();
  // Anonymous requests share one caller while the public role's permissions stay the same.
  let anonymous: { actions: RoleActions; caller: Caller } | undefined;
  const resolve = async (request: FastifyRequest): Promise<Caller> => {
    const header = request.headers.authorization;
    if (header === undefined || header === '') {
      const actions = await deps.permissions.list('public');
      if (anonymous?.actions !== actions) anonymous = { actions, caller: { kind: 'public', key: `role:public@${actions.version}`, can: (action) => actions.has(action) } };
      return anonymous.caller;
    }
    const match = /^Bearer\s+(\S+)$/i.exec(header);
    if (!match) throw new UnauthorizedError();
    const credential = match[1];
    if (credential.split('.').length === 3) {
      const verified = await deps.jwt.verify(credential);
      if (verified === null) throw new UnauthorizedError();
      const { userId, sessionId } = verified;
      const user = await findUserWithRole(deps.db, userId);
      if (!user || user.blocked) throw new UnauthorizedError();
      const roleType = user.role?.type ?? 'authenticated';
      const actions = await deps.permissions.list(roleType);
      return { kind: 'user', userId, ...(sessionId ? { sessionId } : {}), key: `role:${roleType}@${actions.version}`, can: (action) => actions.has(action) };
    }
    const token = await deps.tokens.verify(credential);
    if (!token) throw new UnauthorizedError();
    if (token.type === 'full-access') return { kind: 'token', key: 'full-access', fullAccess: true, can: () => true };
    if (token.type === 'read-only') return { kind: 'token', key: 'read-only', can: (action) => READ_ACTIONS.test(action) };
    const allowed = new Set(token.permissions);
    return { kind: 'token', key: `token:${token.id}`, can: (action) => allowed.has(action) };
  };
  return {
    caller(request) {
      // Resolved once per request, however many times REST, populate and GraphQL resolvers ask.
      let caller = cache.get(request);
      if (!caller) {
        caller = resolve(request);
        cache.set(request, caller);
      }
      return caller;
    },
  };
}
