import type { Database } from '../database/types.js';
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
 * Roles live in the `plugin::users-permissions.role` content-type; their actions in `cairn_permissions`.
 * Permission sets are cached per role type and dropped on every change, so a request costs no query.
 */
export class Permissions {
  private readonly cache = new Map<string, Set<string>>();

  constructor(
    private readonly db: Database,
    private readonly roles: Documents,
  ) {}

  /**
   * Creates public and authenticated if missing, then makes the configured roles hold exactly their actions. A
   * role that already holds them is left as it is: an ordinary start only reads.
   */
  async sync(config: Record<string, RoleConfig> | undefined): Promise<void> {
    for (const [type, role] of Object.entries(DEFAULT_ROLES)) await this.ensureRole(type, role.name, role.description);
    for (const [type, role] of Object.entries(config ?? {})) {
      if (!Array.isArray(role?.permissions)) throw new Error(`config/permissions: role "${type}" needs a "permissions" list`);
      await this.ensureRole(type, role.name ?? DEFAULT_ROLES[type]?.name ?? type, role.description ?? DEFAULT_ROLES[type]?.description ?? '');
      if (!sameSet(await this.list(type), new Set(role.permissions))) await this.set(type, role.permissions);
    }
  }

  async ensureRole(type: string, name: string, description = ''): Promise<string> {
    const existing = await this.roles.findFirst({ filters: { type: { $eq: type } }, fields: ['type'] });
    if (existing) return existing.documentId;
    const created = await this.roles.create({ data: { name, description, type } });
    return created.documentId;
  }

  async roleId(type: string): Promise<number | null> {
    const role = await this.roles.findFirst({ filters: { type: { $eq: type } }, fields: ['type'] });
    return role ? role.id : null;
  }

  async list(type: string): Promise<Set<string>> {
    let set = this.cache.get(type);
    if (!set) {
      const rows = await this.db.query<{ action: string }>('SELECT action FROM cairn_permissions WHERE role_type = ?', [type]);
      set = new Set(rows.map((r) => r.action));
      this.cache.set(type, set);
    }
    return set;
  }

  async set(type: string, actions: string[]): Promise<void> {
    await this.db.transaction(async (trx) => {
      await trx.execute('DELETE FROM cairn_permissions WHERE role_type = ?', [type]);
      for (const action of new Set(actions)) await trx.execute('INSERT INTO cairn_permissions (role_type, action) VALUES (?, ?)', [type, action]);
    });
    this.cache.delete(type);
  }

  async grant(type: string, actions: string[]): Promise<void> {
    await this.set(type, [...(await this.list(type)), ...actions]);
  }

  async revoke(type: string, actions: string[]): Promise<void> {
    const remove = new Set(actions);
    await this.set(type, [...(await this.list(type))].filter((a) => !remove.has(a)));
  }
}

const sameSet = (a: Set<string>, b: Set<string>) => a.size === b.size && [...a].every((x) => b.has(x));
