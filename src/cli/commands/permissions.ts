import type { Command } from 'commander';
import { reportFatal } from '../errors.js';
import { openApp } from '../app-database.js';

/**
 * `cairn permissions list|grant|revoke --role <type>`: a role's actions. A role that config/permissions names is
 * changed in that file and in the database (the file is synced at every start); any other role in the database.
 */
export function registerPermissions(program: Command): void {
  const permissions = program.command('permissions').description("read and change a role's permissions");
  const common = (command: Command) => command.option('-d, --dir <path>', 'app folder', '.').requiredOption('-r, --role <type>', 'role type, e.g. public');
  const run = async (opts: { dir: string }, fn: (cairn: import('../../app/cairn.js').Cairn, roles: typeof import('../../auth/role-changes.js')) => Promise<void>) => {
    try {
      const app = await openApp(opts.dir);
      try {
        await fn(app.cairn, await import('../../auth/role-changes.js'));
      } finally {
        await app.close();
      }
    } catch (error) {
      reportFatal(error);
    }
  };
  common(permissions.command('list').description("print a role's actions")).action((opts: { dir: string; role: string }) =>
    run(opts, async (cairn, roles) => {
      for (const action of await roles.roleActions(cairn, opts.role)) process.stdout.write(`${action}\n`);
    }),
  );
  for (const verb of ['grant', 'revoke'] as const) {
    common(permissions.command(`${verb} <actions...>`).description(verb === 'grant' ? 'allow actions' : 'disallow actions')).action(
      (actions: string[], opts: { dir: string; role: string }) =>
        run(opts, async (cairn, roles) => {
          const { PERMISSIONS_RECHECK_MS } = await import('../../auth/roles.js');
          const result = await roles.changeRole(cairn, { role: opts.role, [verb]: actions });
          const where = result.file ? `${result.file} and the database` : 'the database (config/permissions does not name this role)';
          process.stdout.write(
            `${verb === 'grant' ? 'granted' : 'revoked'} ${actions.join(', ')} ${verb === 'grant' ? 'to' : 'from'} ${opts.role} in ${where}; ` +
              `running servers apply it within ${PERMISSIONS_RECHECK_MS / 1000} s\n`,
          );
        }),
    );
  }
}
