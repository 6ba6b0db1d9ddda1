import type { Database } from './types.js';
import { strapiPermissionsFingerprint, strapiReplaceRoleActions, strapiRoleActions } from './strapi-layout/permissions.js';

export { strapiInsertRole } from './strapi-layout/permissions.js';

/**
 * Role permissions. Cairn's layout keeps the actions of each role type in `cairn_permissions`, and the one-row
 * counter `cairn_permissions_version` that every change bumps (running processes compare it to notice changes made
 * elsewhere). Strapi's layout keeps them in `up_permissions` linked to `up_roles` (strapi-layout/permissions.ts),
 * changed by Strapi's admin too: there a fingerprint of those tables stands for the counter.
 */

/** The types of the roles that exist (`up_roles`), in order. */
export async function listRoleTypes(db: Database): Promise<string[]> {
  const rows = await db.query<{ type: string | null }>('SELECT type FROM up_roles ORDER BY type');
  return rows.map((r) => r.type).filter((t): t is string => typeof t === 'string');
}

export async function listRoleActions(db: Database, roleType: string): Promise<string[]> {
  if (db.layout === 'strapi') return strapiRoleActions(db, roleType);
  const rows = await db.query<{ action: string }>('SELECT action FROM cairn_permissions WHERE role_type = ?', [roleType]);
  return rows.map((r) => r.action);
}

/** Makes the role hold exactly `actions` (and, in Cairn's layout, bumps the version) in one transaction. */
export async function replaceRoleActions(db: Database, roleType: string, actions: Iterable<string>): Promise<void> {
  if (db.layout === 'strapi') return strapiReplaceRoleActions(db, roleType, actions);
  await db.transaction(async (trx) => {
    await trx.execute('DELETE FROM cairn_permissions WHERE role_type = ?', [roleType]);
    for (const action of new Set(actions)) await trx.execute('INSERT INTO cairn_permissions (role_type, action) VALUES (?, ?)', [roleType, action]);
    await trx.execute('UPDATE cairn_permissions_version SET version = version + 1 WHERE id = 1');
  });
}

/**
 * What changes whenever any role's permissions change, from one cheap read: Cairn's version counter ('0' before
 * any change), or the fingerprint of Strapi's tables.
 */
export async function readPermissionsVersion(db: Database): Promise<string> {
  if (db.layout === 'strapi') return strapiPermissionsFingerprint(db);
  const [row] = await db.query<{ version: number | string }>('SELECT version FROM cairn_permissions_version WHERE id = 1');
  return String(row?.version ?? 0);
}
