import { STRAPI_DEFAULT_ROLES } from '../../src/database/strapi-layout/default-rows.js';

/**
 * The actions users-permissions grants a role of `type` when Strapi (or Cairn, on an empty database) makes it, in
 * the role's order: a role made with a fresh database holds them, and config/permissions keeps them.
 */
export function strapiDefaultActions(type: 'public' | 'authenticated'): string[] {
  const role = STRAPI_DEFAULT_ROLES.find((r) => r.type === type);
  if (!role) throw new Error(`no default role ${type}`);
  return [...role.actions];
}

/** A role's actions as `roleActions` and `cairn permissions list` show them (sorted): the defaults and `actions`. */
export function withStrapiDefaults(type: 'public' | 'authenticated', actions: string[]): string[] {
  return [...new Set([...strapiDefaultActions(type), ...actions])].sort();
}
