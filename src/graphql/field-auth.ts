import type { Caller } from '../auth/access-control.js';

/**
 * What a root field (or a relation field: its target's `find`) needs from its caller, declared by the schema builders in the field's config as
 * `extensions: { cairn: <FieldAuth> }` and enforced in one place (`finalizeSchema`'s resolver wrapper):
 * - `{ action }`: the caller's role or token must grant the action (`api::article.article.find`);
 * - `{ public: true }`: anyone (register, login);
 * - `{ authenticated: true }`: a logged-in user or a full-access token, the rule Strapi applies to a field with no
 *   scope (`me`, and root fields added by extensions without a `resolversConfig`).
 */
export type FieldAuth = { action: string } | { public: true } | { authenticated: true };

/** The `extensions` of a generated root field that needs `action`. */
export function needs(auth: FieldAuth): { cairn: FieldAuth } {
  return { cairn: auth };
}

/** The declaration of a field's config `extensions`, if it has one. */
export function declaredAuth(extensions: unknown): FieldAuth | undefined {
  const cairn = (extensions as { cairn?: unknown } | null | undefined)?.cairn;
  if (!cairn || typeof cairn !== 'object') return undefined;
  return cairn as FieldAuth;
}

/**
 * Whether `caller` passes `scope`: every listed action must be granted, as Strapi's users-permissions and API token
 * strategies check it. No scope at all means "authenticated": a user, or a full-access token.
 */
export function allows(caller: Caller, scope: readonly string[] | undefined): boolean {
  if (!scope || !scope.length) return caller.kind === 'user' || (caller.kind === 'token' && caller.key === 'full-access');
  return scope.every((action) => caller.can(action));
}
