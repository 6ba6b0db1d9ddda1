import type { Database } from '../database/types.js';
import { listRoleActions, listRoleTypes, readPermissionsVersion, replaceRoleActions, strapiInsertRole } from '../database/permissions.js';
import type { Documents } from '../documents/index.js';

export interface RoleConfig {
  name?: string;
  description?: string;
  permissions: string[];
}

const DEFAULT_ROLES: Record<string, { name: string; description: string }> = {
  public: { name: 'Public', description: 'Default role given to unauthenticated user.' },
  authenticated: { name: 'Authenticated', description: 'Default role given to authenticated user.' },
};

/**
 * A role's actions as loaded once. `version` is new with every load, so a cache keyed by it (parsed queries, whose
 * populate leaves out what the caller may not find) never serves a set of permissions that has changed since.
 */
export class RoleActions extends Set<string> {
  private static loads = 0;
  readonly version = ++RoleActions.loads;
}

/** How often a process checks whether another process (`cairn permissions grant`, another worker) changed permissions. */
export const PERMISSIONS_RECHECK_MS = 1000;

/**
 * Roles live in the `plugin::users-permissions.role` content-type (`up_roles`); their actions in Strapi's
 * `up_permissions` and its role links (database/permissions.ts). Permission sets are cached per role type. Strapi's
 * admin changes them too: a fingerprint of those tables stands for a version of them. A
 * process compares that version with its own at most once per PERMISSIONS_RECHECK_MS (one cheap read) and drops its
 * cache when it moved, so a change made elsewhere applies within a second, without a restart.
 */
export class Permissions {
  private readonly cache = new Map<string, RoleActions>();
  private version: string | undefined;
  private checkedAt = -Infinity;
  private checking: Promise<void> | undefined;

  constructor(
    private readonly db: Database,
    private readonly roles: Documents,
    private readonly recheckMs = PERMISSIONS_RECHECK_MS,
  ) {}

  /**
   * Creates public and authenticated if missing, then makes the configured roles hold what config/permissions
   * lists: exactly the listed ones among `governed` (the actions Cairn serves, which `cairn permissions` accepts),
   * and the others the role holds (see configuredActions). A role that already holds them is left as it is: an
   * ordinary start only reads (a database Strapi made has its roles already: nothing is written to it unless
   * config/permissions asks for a change).
   */
  async sync(config: Record<string, RoleConfig> | undefined, governed: Iterable<string>): Promise<void> {
    const served = new Set(governed);
    for (const [type, role] of Object.entries(DEFAULT_ROLES)) await this.ensureRole(type, role.name, role.description);
    for (const [type, role] of Object.entries(config ?? {})) {
      if (!Array.isArray(role?.permissions)) throw new Error(`config/permissions: role "${type}" needs a "permissions" list`);
      await this.ensureRole(type, role.name ?? DEFAULT_ROLES[type]?.name ?? type, role.description ?? DEFAULT_ROLES[type]?.description ?? '');
      await this.setConfigured(type, role.permissions, served);
    }
  }

  /** Makes a role named by config/permissions hold `listed` (configuredActions); writes nothing when it does. */
  async setConfigured(type: string, listed: readonly string[], governed: ReadonlySet<string>): Promise<void> {
    const held = await this.list(type);
    const wanted = configuredActions(held, listed, governed);
    if (!sameSet(held, new Set(wanted))) await this.set(type, wanted);
  }

  async ensureRole(type: string, name: string, description = ''): Promise<string> {
    const existing = await this.roles.findFirst({ filters: { type: { $eq: type } }, fields: ['type'] });
    if (existing) return existing.documentId;
    // A role is one plain row, as Strapi's admin makes it.
    return strapiInsertRole(this.db, { name, description, type });
  }

  async roleId(type: string): Promise<number | null> {
    const role = await this.roles.findFirst({ filters: { type: { $eq: type } }, fields: ['type'] });
    return role ? role.id : null;
  }

  /** The role types that exist. */
  roleTypes(): Promise<string[]> {
    return listRoleTypes(this.db);
  }

  async list(type: string): Promise<RoleActions> {
    if (Date.now() - this.checkedAt >= this.recheckMs) await this.recheck();
    let set = this.cache.get(type);
    if (!set) {
      set = new RoleActions(await listRoleActions(this.db, type));
      this.cache.set(type, set);
    }
    return set;
  }

  /** Drops every cached set: roles were changed here (the role routes), the next check reads them again. */
  forget(): void {
    this.cache.clear();
  }

  async set(type: string, actions: string[]): Promise<void> {
    await replaceRoleActions(this.db, type, actions);
    this.cache.delete(type);
  }

  /** One check at a time: requests arriving while it runs wait for the same one. */
  private recheck(): Promise<void> {
    this.checking ??= (async () => {
      try {
        const version = await readPermissionsVersion(this.db);
        if (version !== this.version) {
          this.cache.clear();
          this.version = version;
        }
        this.checkedAt = Date.now();
      } finally {
        this.checking = undefined;
      }
    })();
    return this.checking;
  }

  async grant(type: string, actions: string[]): Promise<void> {
    await this.set(type, [...(await this.list(type)), ...actions]);
  }

  async revoke(type: string, actions: string[]): Promise<void> {
    const remove = new Set(actions);
    await this.set(type, [...(await this.list(type))].filter((a) => !remove.has(a)));
  }
}

/**
 * What a role named by config/permissions holds: the `listed` actions, and those it holds that are not `governed`.
 * The list is exact for the actions Cairn serves; the others are not Cairn's to take away, above all
 * users-permissions' `plugin::users-permissions.auth.*`, which Strapi grants its public and authenticated roles
 * when it makes them (login, registration, password reset, sessions) and which Strapi checks on those routes: a role
 * that lost them would stop Strapi, sharing the database, from letting anyone log in. The file may add such an
 * action; Strapi's admin removes it.
 */
export function configuredActions(held: Iterable<string>, listed: Iterable<string>, governed: ReadonlySet<string>): string[] {
  return [...new Set([...[...held].filter((action) => !governed.has(action)), ...listed])];
}

const sameSet = (a: Set<string>, b: Set<string>) => a.size === b.size && [...a].every((x) => b.has(x));
