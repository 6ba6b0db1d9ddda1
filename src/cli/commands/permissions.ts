import type { Command } from 'commander';
import { reportFatal } from '../errors.js';
import { openAppDatabase } from '../app-database.js';

/** `cairn permissions list|grant|revoke --role <type>`: a role's actions (stored in cairn_permissions). */
export function registerPermissions(program: Command): void {
  const permissions = program.command('permissions').description("read and change a role's permissions");
  const run = (fn: (db: import('../../database/types.js').Database, role: string, actions: string[]) => Promise<void>) =>
    async (actions: string[], opts: { dir: string; role: string }) => {
      try {
        const app = await openAppDatabase(opts.dir);
        try {
          await fn(app.db, opts.role, actions);
        } finally {
          await app.close();
        }
      } catch (error) {
        reportFatal(error);
      }
    };
  const common = (command: Command) => command.option('-d, --dir <path>', 'app folder', '.').requiredOption('-r, --role <type>', 'role type, e.g. public');
  common(permissions.command('list').description("print a role's actions")).action(
    run(async (db, role) => {
      const rows = await db.query<{ action: string }>('SELECT action FROM cairn_permissions WHERE role_type = ? ORDER BY action', [role]);
      for (const row of rows) process.stdout.write(`${row.action}\n`);
    }).bind(null, []),
  );
  common(permissions.command('grant <actions...>').description('allow actions')).action(
    run(async (db, role, actions) => {
      for (const action of actions) {
        const existing = await db.query('SELECT id FROM cairn_permissions WHERE role_type = ? AND action = ?', [role, action]);
        if (!existing.length) await db.execute('INSERT INTO cairn_permissions (role_type, action) VALUES (?, ?)', [role, action]);
      }
    }),
  );
  common(permissions.command('revoke <actions...>').description('disallow actions')).action(
    run(async (db, role, actions) => {
      for (const action of actions) await db.execute('DELETE FROM cairn_permissions WHERE role_type = ? AND action = ?', [role, action]);
    }),
  );
}
