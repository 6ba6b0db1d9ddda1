import { ApplicationError, NotFoundError, ValidationError } from '../errors/index.js';
import { strapiCreateRole, strapiDeleteRole, strapiRoleActionsById, strapiUpdateRole, strapiUserCountsByRole } from '../database/permissions.js';
import type { Database } from '../database/types.js';
import type { Documents, Entry } from '../documents/index.js';
import type { Model } from '../model/types.js';
import { permissionActions } from './actions.js';
import type { Permissions } from './roles.js';

/** One action in the permissions tree, as Strapi's admin reads and sends it. */
interface TreeAction {
  enabled: boolean;
  policy: string;
}

/** `{ [type]: { controllers: { [controller]: { [action]: { enabled, policy } } } } }`, type being `api::x` or `plugin::x`. */
export type PermissionsTree = Record<string, { controllers: Record<string, Record<string, TreeAction>> }>;

/** users-permissions' own auth actions that Cairn serves (not governed by config/permissions: roles.ts). */
const AUTH_ACTIONS = ['callback', 'changePassword', 'register', 'resetPassword'].map((a) => `plugin::users-permissions.auth.${a}`);

/**
 * Every action a role may hold as a tree, all disabled (`GET /api/users-permissions/permissions`, and the base of a
 * role's tree): the actions Cairn checks (permissionActions) and users-permissions' auth actions it serves.
 */
export function permissionsTree(model: Model): PermissionsTree {
  const tree: PermissionsTree = {};
  const all = permissionActions(model);
  const served = new Set(all);
  // A content-type's actions in Strapi's order (find, findOne, create, update, delete); the plugins' as listed.
  const controllers = [...new Set(all.filter((a) => a.startsWith('api::')).map((a) => a.slice(0, a.lastIndexOf('.'))))].sort();
  const contentApi = controllers.flatMap((c) => CONTENT_API_ORDER.map((name) => `${c}.${name}`).filter((a) => served.has(a)));
  const plugins = all.filter((a) => !a.startsWith('api::'));
  for (const action of [...contentApi, ...plugins, ...AUTH_ACTIONS]) setAction(tree, action, false);
  return tree;
}

const CONTENT_API_ORDER = ['find', 'findOne', 'create', 'update', 'delete', 'publish'];

/** `type.controller.action` (the type holding `::`, the action no dot) into the tree. */
function setAction(tree: PermissionsTree, action: string, enabled: boolean): void {
  const [type, controller, name] = splitAction(action);
  if (!name) return;
  const controllers = (tree[type] ??= { controllers: {} }).controllers;
  (controllers[controller] ??= {})[name] = { enabled, policy: '' };
}

function splitAction(action: string): [string, string, string] {
  const last = action.lastIndexOf('.');
  const middle = action.lastIndexOf('.', last - 1);
  return [action.slice(0, middle), action.slice(middle + 1, last), action.slice(last + 1)];
}

/** The enabled actions of a tree a client sent (`type.controller.action`); anything not shaped as a tree holds none. */
function enabledActions(tree: unknown): string[] {
  const actions: string[] = [];
  for (const [type, entry] of objectEntries(tree)) {
    for (const [controller, controllerActions] of objectEntries((entry as { controllers?: unknown } | null)?.controllers)) {
      for (const [name, action] of objectEntries(controllerActions)) {
        if ((action as { enabled?: unknown } | null)?.enabled) actions.push(`${type}.${controller}.${name}`);
      }
    }
  }
  return actions;
}

const objectEntries = (value: unknown): [string, unknown][] => (typeof value === 'object' && value !== null && !Array.isArray(value) ? Object.entries(value) : []);

/** Strapi's `_.snakeCase(_.deburr(_.toLower(name)))`: a role's type made from its name. */
export function roleTypeOf(name: string): string {
  const words = name
    .toLowerCase()
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .match(/[a-z]+|[0-9]+/g);
  return (words ?? []).join('_');
}

/**
 * users-permissions' role administration, as its Content API routes and Strapi's admin do it: roles with their
 * user counts, a role with its permissions tree, roles created, changed and deleted (its users move to the public
 * role) with their permissions, each in one transaction. Permission caches are dropped at once.
 */
export class RoleAdmin {
  constructor(
    private readonly db: Database,
    private readonly model: Model,
    private readonly roles: Documents,
    private readonly permissions: Permissions,
  ) {}

  /** Every role, by name, with `nb_users`. */
  async find(): Promise<Entry[]> {
    // All of them, whatever the app's `api.rest.maxLimit`.
    const all = { defaultLimit: Number.MAX_SAFE_INTEGER, maxLimit: Number.MAX_SAFE_INTEGER, withCount: false };
    const [{ results }, counts] = await Promise.all([this.roles.readMany({ sort: ['name:asc'] }, (params) => this.roles.spec(params, all)), strapiUserCountsByRole(this.db)]);
    return results.map((role) => ({ ...role, nb_users: counts.get(role.id) ?? 0 }));
  }

  /** The role `id` with its permissions tree: every action, enabled where the role holds it. */
  async findOne(id: string): Promise<Entry> {
    const role = await this.role(id);
    const tree = permissionsTree(this.model);
    for (const action of await strapiRoleActionsById(this.db, role.id)) setAction(tree, action, true);
    return { ...role, permissions: tree };
  }

  async create(body: unknown): Promise<void> {
    const input = nonEmptyBody(body);
    if (typeof input.name !== 'string' || input.name.trim() === '') throw fieldError('name', 'name is a required field');
    const type = optionalString(input, 'type') ?? roleTypeOf(input.name);
    if ((await this.permissions.roleTypes()).includes(type)) throw fieldError('type', `A role of type "${type}" already exists`);
    await strapiCreateRole(this.db, { name: input.name, description: optionalString(input, 'description') ?? null, type }, enabledActions(input.permissions));
    this.permissions.forget();
  }

  async update(id: string, body: unknown): Promise<void> {
    const input = nonEmptyBody(body);
    const changes: { name?: string; description?: string | null } = {};
    if (input.name !== undefined) {
      if (typeof input.name !== 'string' || input.name.trim() === '') throw fieldError('name', 'name must be a non-empty string');
      changes.name = input.name;
    }
    const description = optionalString(input, 'description');
    if (description !== undefined) changes.description = description;
    // As in Strapi, the tree sent is the role's whole set: an update without one leaves the role no permissions.
    if (!(await strapiUpdateRole(this.db, roleId(id), changes, enabledActions(input.permissions)))) throw new NotFoundError('Role not found');
    this.permissions.forget();
  }

  async delete(id: string): Promise<void> {
    const publicRole = await this.permissions.roleId('public');
    if (publicRole !== null && String(publicRole) === id) throw new ApplicationError('Cannot delete public role');
    if (publicRole === null) throw new ApplicationError('The public role is missing: users of a deleted role have no role to move to');
    if (!(await strapiDeleteRole(this.db, roleId(id), publicRole))) throw new NotFoundError('Role not found');
    this.permissions.forget();
  }

  private async role(id: string): Promise<Entry> {
    const { results } = await this.roles.findMany({ filters: { id: { $eq: roleId(id) } }, pagination: { page: 1, pageSize: 1 } });
    if (!results.length) throw new NotFoundError('Role not found');
    return results[0];
  }
}

/**
 * users-permissions' role service as app code calls it (`strapi.service('plugin::users-permissions.role')`, Strapi's
 * services/role.js): `find()`, `findOne(id)` (the role with its permissions tree), `createRole(data)`,
 * `updateRole(id, data)` (as in Strapi, `data.permissions` is the role's whole set) and `deleteRole(id)`, over the
 * role administration the REST routes use.
 */
export function strapiRoleService(roles: RoleAdmin) {
  return {
    find: () => roles.find(),
    findOne: (roleID: number | string) => roles.findOne(String(roleID)),
    createRole: (data: unknown) => roles.create(data),
    updateRole: (roleID: number | string, data: unknown) => roles.update(String(roleID), data),
    deleteRole: (roleID: number | string) => roles.delete(String(roleID)),
  };
}

/** A role id from the path: anything but a whole number names no role. */
function roleId(id: string): number {
  if (!/^\d+$/.test(id)) throw new NotFoundError('Role not found');
  return Number(id);
}

function nonEmptyBody(body: unknown): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body) || Object.keys(body).length === 0) throw new ValidationError('Request body cannot be empty');
  return body as Record<string, unknown>;
}

function optionalString(input: Record<string, unknown>, key: string): string | null | undefined {
  const value = input[key];
  if (value === undefined || value === null || typeof value === 'string') return value;
  throw fieldError(key, `${key} must be a \`string\` type`);
}

function fieldError(path: string, message: string): ValidationError {
  return ValidationError.fromFieldErrors([{ path: [path], message, name: 'ValidationError' }]);
}
