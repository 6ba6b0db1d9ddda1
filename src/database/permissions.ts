import type { Database } from './types.js';

/**
 * Role permissions, as Strapi keeps them: `up_permissions` linked to `up_roles` (strapi-layout/permissions.ts),
 * changed by Strapi's admin too. `readPermissionsVersion` is a fingerprint of those tables, which running processes
 * compare to notice changes made elsewhere; `replaceRoleActions` makes a role hold exactly the actions given.
 */
export {
  strapiCreateRole,
  strapiDeleteRole,
  strapiInsertRole,
  strapiRoleActionsById,
  strapiUpdateRole,
  strapiUserCountsByRole,
  strapiPermissionsFingerprint as readPermissionsVersion,
  strapiReplaceRoleActions as replaceRoleActions,
  strapiRoleActions as listRoleActions,
} from './strapi-layout/permissions.js';

/** The types of the roles that exist (`up_roles`), in order. */
export async function listRoleTypes(db: Database): Promise<string[]> {
  const rows = await db.query<{ type: string | null }>('SELECT type FROM up_roles ORDER BY type');
  return rows.map((r) => r.type).filter((t): t is string => typeof t === 'string');
}
