import type { Database } from '../types.js';
import { insertRow, marks, newRowColumns, strapiDatetime } from './rows.js';

/**
 * Roles' permissions in Strapi's tables: one `up_permissions` row per (role, action), linked to its role by
 * `up_permissions_role_lnk (permission_id, role_id, permission_ord)`. Strapi's admin changes a role by deleting the
 * rows of the actions it loses and creating rows for the ones it gains (users-permissions' role service); so does
 * Cairn, for config/permissions and `cairn permissions grant|revoke`.
 */

/** The actions of the role of type `roleType`, in the role's order. */
export async function strapiRoleActions(db: Database, roleType: string): Promise<string[]> {
  const rows = await db.query<{ action: string | null }>(
    'SELECT p.action FROM up_roles r JOIN up_permissions_role_lnk l ON l.role_id = r.id JOIN up_permissions p ON p.id = l.permission_id WHERE r.type = ? ORDER BY l.permission_ord, p.id',
    [roleType],
  );
  return rows.map((r) => r.action).filter((a): a is string => typeof a === 'string');
}

/**
 * Makes the role of type `roleType` hold exactly `actions`, in one transaction, as Strapi's admin would: the rows
 * of the actions it loses are deleted with their links; each action it gains gets a new row (a new document id,
 * created, updated and published now) linked at the end of the role's list. Nothing is written when it holds them.
 */
export async function strapiReplaceRoleActions(db: Database, roleType: string, actions: Iterable<string>): Promise<void> {
  await db.transaction(async (trx) => {
    const [role] = await trx.query<{ id: number | string }>('SELECT id FROM up_roles WHERE type = ? ORDER BY id LIMIT 1', [roleType]);
    if (!role) throw new Error(`up_roles has no role of type "${roleType}"`);
    await replaceActionsOfRole(trx, Number(role.id), actions);
  });
}

/** strapiReplaceRoleActions on the role `roleId`, inside the caller's transaction. */
async function replaceActionsOfRole(trx: Database, roleId: number, actions: Iterable<string>): Promise<void> {
  const wanted = new Set(actions);
  const held = await trx.query<{ id: number | string; action: string | null }>(
    'SELECT p.id, p.action FROM up_permissions_role_lnk l JOIN up_permissions p ON p.id = l.permission_id WHERE l.role_id = ?',
    [roleId],
  );
  const kept = new Set<string>();
  const dropped: number[] = [];
  for (const row of held) {
    // A second row of the same action is a duplicate (it grants nothing more): it goes too.
    if (row.action !== null && wanted.has(row.action) && !kept.has(row.action)) kept.add(row.action);
    else dropped.push(Number(row.id));
  }
  const added = [...wanted].filter((action) => !kept.has(action));
  await deletePermissions(trx, dropped);
  if (!added.length) return;
  // A new link goes after the role's last one, as Strapi orders a relation it connects.
  const [last] = await trx.query<{ ord: number | string | null }>('SELECT MAX(permission_ord) AS ord FROM up_permissions_role_lnk WHERE role_id = ?', [roleId]);
  let ord = Number(last?.ord ?? 0);
  const at = new Date();
  for (const action of added) {
    const permissionId = await insertRow(trx, 'up_permissions', { ...newRowColumns(trx.dialect, at), action });
    await trx.execute('INSERT INTO up_permissions_role_lnk (permission_id, role_id, permission_ord) VALUES (?, ?, ?)', [permissionId, roleId, ++ord]);
  }
}

async function deletePermissions(trx: Database, ids: number[]): Promise<void> {
  if (!ids.length) return;
  await trx.execute(`DELETE FROM up_permissions_role_lnk WHERE permission_id IN (${marks(ids)})`, ids);
  await trx.execute(`DELETE FROM up_permissions WHERE id IN (${marks(ids)})`, ids);
}

/** The actions of the role `roleId`, in the role's order. */
export async function strapiRoleActionsById(db: Database, roleId: number): Promise<string[]> {
  const rows = await db.query<{ action: string | null }>(
    'SELECT p.action FROM up_permissions_role_lnk l JOIN up_permissions p ON p.id = l.permission_id WHERE l.role_id = ? ORDER BY l.permission_ord, p.id',
    [roleId],
  );
  return rows.map((r) => r.action).filter((a): a is string => typeof a === 'string');
}

/** How many users each role has (roles without users are absent), by role id. */
export async function strapiUserCountsByRole(db: Database): Promise<Map<number, number>> {
  const rows = await db.query<{ role_id: number | string; n: number | string }>('SELECT role_id, COUNT(*) AS n FROM up_users_role_lnk GROUP BY role_id');
  return new Map(rows.map((r) => [Number(r.role_id), Number(r.n)]));
}

/** A new role holding `actions`, in one transaction (users-permissions' `createRole`); answers its id. */
export async function strapiCreateRole(db: Database, role: { name: string; description: string | null; type: string }, actions: Iterable<string>): Promise<number> {
  return db.transaction(async (trx) => {
    const id = await insertRow(trx, 'up_roles', { ...newRowColumns(trx.dialect, new Date()), name: role.name, description: role.description, type: role.type });
    await replaceActionsOfRole(trx, id, actions);
    return id;
  });
}

/**
 * Changes the role `roleId` in one transaction (users-permissions' `updateRole`): its name and description where
 * given (its `updated_at` moves), and exactly `actions`. False: no such role.
 */
export async function strapiUpdateRole(db: Database, roleId: number, changes: { name?: string; description?: string | null }, actions: Iterable<string>): Promise<boolean> {
  return db.transaction(async (trx) => {
    const [role] = await trx.query<{ id: number | string }>('SELECT id FROM up_roles WHERE id = ?', [roleId]);
    if (!role) return false;
    const columns: Record<string, unknown> = { ...changes, updated_at: strapiDatetime(trx.dialect, new Date()) };
    const names = Object.keys(columns);
    await trx.execute(`UPDATE up_roles SET ${names.map((n) => `${trx.quote(n)} = ?`).join(', ')} WHERE id = ?`, [...names.map((n) => columns[n]), roleId]);
    await replaceActionsOfRole(trx, roleId, actions);
    return true;
  });
}

/**
 * Deletes the role `roleId` in one transaction (users-permissions' `deleteRole`): its users move to the role
 * `fallbackRoleId` (after that role's users), its permissions go with it. False: no such role.
 */
export async function strapiDeleteRole(db: Database, roleId: number, fallbackRoleId: number): Promise<boolean> {
  return db.transaction(async (trx) => {
    const [role] = await trx.query<{ id: number | string }>('SELECT id FROM up_roles WHERE id = ?', [roleId]);
    if (!role) return false;
    const [last] = await trx.query<{ ord: number | string | null }>('SELECT MAX(user_ord) AS ord FROM up_users_role_lnk WHERE role_id = ?', [fallbackRoleId]);
    await trx.execute('UPDATE up_users_role_lnk SET role_id = ?, user_ord = user_ord + ? WHERE role_id = ?', [fallbackRoleId, Number(last?.ord ?? 0), roleId]);
    const held = await trx.query<{ id: number | string }>('SELECT permission_id AS id FROM up_permissions_role_lnk WHERE role_id = ?', [roleId]);
    await deletePermissions(trx, held.map((r) => Number(r.id)));
    await trx.execute('DELETE FROM up_roles WHERE id = ?', [roleId]);
    return true;
  });
}

/**
 * A fingerprint of every role's permissions, in one cheap statement: row counts, largest ids and latest changes of
 * `up_permissions`, its role links and `up_roles`. Whatever Strapi's admin does to a role (rows deleted, rows added,
 * a role saved) moves it, so a process that compares it with the last one read notices the change.
 */
export async function strapiPermissionsFingerprint(db: Database): Promise<string> {
  const [row] = await db.query<Record<string, unknown>>(
    'SELECT (SELECT COUNT(*) FROM up_permissions) AS p_count, (SELECT MAX(id) FROM up_permissions) AS p_max, (SELECT MAX(updated_at) FROM up_permissions) AS p_changed, ' +
      '(SELECT COUNT(*) FROM up_permissions_role_lnk) AS l_count, (SELECT MAX(id) FROM up_permissions_role_lnk) AS l_max, (SELECT SUM(role_id) FROM up_permissions_role_lnk) AS l_roles, ' +
      '(SELECT COUNT(*) FROM up_roles) AS r_count, (SELECT MAX(id) FROM up_roles) AS r_max, (SELECT MAX(updated_at) FROM up_roles) AS r_changed',
  );
  return ['p_count', 'p_max', 'p_changed', 'l_count', 'l_max', 'l_roles', 'r_count', 'r_max', 'r_changed'].map((key) => String(row?.[key] ?? '')).join('|');
}

/** A new role in `up_roles` (a type config/permissions names and the database lacks); answers its document id. */
export async function strapiInsertRole(db: Database, role: { name: string; description: string; type: string }): Promise<string> {
  const columns = newRowColumns(db.dialect, new Date());
  await insertRow(db, 'up_roles', { ...columns, name: role.name, description: role.description, type: role.type });
  return String(columns.document_id);
}
