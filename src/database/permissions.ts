import type { Database } from './types.js';

/**
 * Role permissions: the actions of each role type in `cairn_permissions`, and the one-row counter
 * `cairn_permissions_version` every change bumps (running processes compare it to notice changes made elsewhere).
 */

/** The types of the roles that exist (`up_roles`), in order. */
export async function listRoleTypes(db: Database): Promise<string[]> {
  const rows = await db.query<{ type: string | null }>('SELECT type FROM up_roles ORDER BY type');
  return rows.map((r) => r.type).filter((t): t is string => typeof t === 'string');
}

export async function listRoleActions(db: Database, roleType: string): Promise<string[]> {
  const rows = await db.query<{ action: string }>('SELECT action FROM cairn_permissions WHERE role_type = ?', [roleType]);
  return rows.map((r) => r.action);
}

/** Makes the role hold exactly `actions`, and bumps the version, in one transaction. */
export async function replaceRoleActions(db: Database, roleType: string, actions: Iterable<string>): Promise<void> {
  await db.transaction(async (trx) => {
    await trx.execute('DELETE FROM cairn_permissions WHERE role_type = ?', [roleType]);
    for (const action of new Set(actions)) await trx.execute('INSERT INTO cairn_permissions (role_type, action) VALUES (?, ?)', [roleType, action]);
    await trx.execute('UPDATE cairn_permissions_version SET version = version + 1 WHERE id = 1');
  });
}

/** The version of the permissions (0 before any change). */
export async function readPermissionsVersion(db: Database): Promise<number> {
  const [row] = await db.query<{ version: number | string }>('SELECT version FROM cairn_permissions_version WHERE id = 1');
  return Number(row?.version ?? 0);
}
