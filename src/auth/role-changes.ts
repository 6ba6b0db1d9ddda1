import { readFile, writeFile } from 'node:fs/promises';
import { extname, relative } from 'node:path';
import { configLayers } from '../project/config.js';
import { ValidationError } from '../errors/index.js';
import { permissionActions } from './actions.js';
import type { RoleHost } from './host.js';
import { Permissions } from './roles.js';

export interface RoleChange {
  role: string;
  grant?: string[];
  revoke?: string[];
}

export interface RoleChangeResult {
  /**
   * The role's actions after the change; for a role the file names, the file's list (the role keeps besides them
   * the actions Cairn does not serve, such as users-permissions' `auth.*`: Permissions.sync).
   */
  actions: string[];
  /** The config file that names the role and was rewritten (relative to the app folder), if any. */
  file?: string;
}

/**
 * `cairn permissions grant|revoke`. `config/permissions` is the source of truth for the roles it names: it is synced
 * into the database at every start, so a change to such a role is written to the file and to the database (a change
 * to the database alone would be undone by the next start). A role the file does not name lives in the database
 * only. Unknown roles and actions are refused with the valid ones. Running servers see the database change within
 * PERMISSIONS_RECHECK_MS.
 */
export async function changeRole(host: RoleHost, change: RoleChange): Promise<RoleChangeResult> {
  const permissions = rolePermissions(host);
  const layers = await configLayers(host.config.dir, 'permissions');
  const valid = permissionActions(host.model);
  // First the state a start would make: the file's roles exist and hold what the file says.
  await permissions.sync(host.config.permissions?.roles, valid);
  await checkRole(permissions, change.role);
  const given = [...(change.grant ?? []), ...(change.revoke ?? [])];
  const unknown = given.filter((action) => !valid.includes(action));
  if (unknown.length) {
    throw new ValidationError(`unknown action${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}; the actions are:\n  ${valid.join('\n  ')}`);
  }
  const apply = (current: readonly string[]) => {
    const removed = new Set(change.revoke ?? []);
    return [...new Set([...current, ...(change.grant ?? [])])].filter((action) => !removed.has(action));
  };

  // The last layer that lists the role's permissions is the one the merged config took them from.
  const layer = [...layers].reverse().find((l) => Array.isArray(roleIn(l.value, change.role)?.permissions));
  if (!layer) {
    const actions = apply([...(await permissions.list(change.role))]);
    await permissions.set(change.role, actions);
    return { actions };
  }
  const shown = relative(host.config.dir, layer.file);
  if (extname(layer.file) !== '.json') {
    throw new ValidationError(
      `${shown} names role "${change.role}" and is synced at every start, but Cairn rewrites only JSON: change the role's permissions in ${shown}`,
    );
  }
  // Re-read the text rather than reuse the loaded value: only this role's list changes, nothing else in the file.
  const json = JSON.parse(await readFile(layer.file, 'utf8')) as { roles: Record<string, { permissions: string[] }> };
  const actions = apply(json.roles[change.role].permissions);
  json.roles[change.role].permissions = actions;
  await writeFile(layer.file, `${JSON.stringify(json, null, 2)}\n`);
  // As a start would: the file's list for the actions Cairn serves, the role's others kept.
  await permissions.setConfigured(change.role, actions, new Set(valid));
  return { actions, file: shown };
}

/** A role's actions as the database holds them (after the start-up sync of config/permissions). */
export async function roleActions(host: RoleHost, role: string): Promise<string[]> {
  const permissions = rolePermissions(host);
  await permissions.sync(host.config.permissions?.roles, permissionActions(host.model));
  await checkRole(permissions, role);
  return [...(await permissions.list(role))].sort();
}

function rolePermissions(host: RoleHost): Permissions {
  return new Permissions(host.db, host.documents('plugin::users-permissions.role'));
}

async function checkRole(permissions: Permissions, role: string): Promise<void> {
  const roles = await permissions.roleTypes();
  if (!roles.includes(role)) throw new ValidationError(`unknown role "${role}"; the roles are ${roles.join(', ')}`);
}

function roleIn(value: Record<string, unknown>, role: string): { permissions?: unknown } | undefined {
  const roles = value.roles;
  if (typeof roles !== 'object' || roles === null || !Object.hasOwn(roles, role)) return undefined;
  return (roles as Record<string, { permissions?: unknown }>)[role];
}
