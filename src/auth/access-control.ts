import type { FastifyRequest } from 'fastify';
import { ForbiddenError } from '../errors/index.js';

/** The caller of one request, once its credentials are checked: what it may do. */
export interface Caller {
  kind: 'public' | 'user' | 'token';
  /** Whether the caller may perform `action` (e.g. `api::article.article.find`). */
  can(action: string): boolean;
  /** The authenticated user's id, for `kind: 'user'`. */
  userId?: number;
  /** users-permissions' "refresh" mode: the session the user's access token belongs to. */
  sessionId?: string;
  /** Callers with the same key have the same permissions (caches of parsed queries are keyed by it). */
  key: string;
  /** A full-access API token: it may call a route that names no permission, which other tokens may not (Strapi's rule). */
  fullAccess?: boolean;
}

/**
 * Resolves who is calling. The auth feature (users & permissions, API tokens) replaces the open default;
 * REST and GraphQL both ask it, once per request, before acting. Bad credentials throw UnauthorizedError.
 */
export interface AccessControl {
  caller(request: FastifyRequest): Promise<Caller>;
}

/** Before the auth feature is registered, everything is open. */
export const OPEN_ACCESS: AccessControl = {
  caller: async () => ({ kind: 'public', key: 'open', can: () => true }),
};

/** The caller, after checking it may perform `action` (403 otherwise). */
export async function authorize(access: AccessControl, request: FastifyRequest, action: string): Promise<Caller> {
  const caller = await access.caller(request);
  if (!caller.can(action)) throw new ForbiddenError();
  return caller;
}

/** The permission that lets a caller read entries of a content-type (the upload plugin names its own). */
export function findAction(uid: string): string {
  return uid === 'plugin::upload.file' ? 'plugin::upload.content-api.find' : `${uid}.find`;
}
