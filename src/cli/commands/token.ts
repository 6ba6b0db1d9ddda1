import type { Command } from 'commander';
import { reportFatal } from '../errors.js';
import { openApp } from '../app-database.js';

/** `cairn token create|list|revoke`: API tokens. `create` prints only the key, once. */
export function registerToken(program: Command): void {
  const token = program.command('token').description('manage API tokens');
  const withTokens = async <T>(dir: string, fn: (tokens: import('../../auth/index.js').ApiTokens) => Promise<T>): Promise<T> => {
    const app = await openApp(dir);
    try {
      const { ApiTokens, apiTokenEncryptionKey, apiTokenSalt } = await import('../../auth/index.js');
      return await fn(new ApiTokens(app.cairn.db, apiTokenSalt(app.cairn), apiTokenEncryptionKey(app.cairn)));
    } finally {
      await app.close();
    }
  };
  token
    .command('create')
    .description('create a token and print its key (shown only this once)')
    .option('-d, --dir <path>', 'app folder', '.')
    .requiredOption('-n, --name <name>', 'token name (unique)')
    .option('-t, --type <type>', 'read-only | full-access | custom', 'read-only')
    .option('-a, --actions <list>', 'comma-separated actions, for custom tokens')
    .option('--description <text>', 'what the token is for')
    .option('-l, --lifespan <days>', 'expire after this many days', Number)
    .action(async (opts: { dir: string; name: string; type: string; actions?: string; description?: string; lifespan?: number }) => {
      try {
        const { key } = await withTokens(opts.dir, (tokens) =>
          tokens.create({
            name: opts.name,
            type: opts.type as 'read-only',
            description: opts.description,
            permissions: opts.actions?.split(',').map((a) => a.trim()).filter(Boolean),
            lifespanDays: opts.lifespan,
          }),
        );
        process.stdout.write(`${key}\n`);
      } catch (error) {
        reportFatal(error);
      }
    });
  token
    .command('list')
    .description('list tokens (never their keys)')
    .option('-d, --dir <path>', 'app folder', '.')
    .action(async (opts: { dir: string }) => {
      try {
        const list = await withTokens(opts.dir, (tokens) => tokens.list());
        for (const t of list) {
          process.stdout.write(`${t.id}\t${t.name}\t${t.type}\texpires ${t.expiresAt ?? 'never'}\tlast used ${t.lastUsedAt ?? 'never'}\n`);
        }
      } catch (error) {
        reportFatal(error);
      }
    });
  token
    .command('revoke <idOrName>')
    .description('delete a token')
    .option('-d, --dir <path>', 'app folder', '.')
    .action(async (idOrName: string, opts: { dir: string }) => {
      try {
        if (!(await withTokens(opts.dir, (tokens) => tokens.revoke(idOrName)))) {
          process.stderr.write(`cairn: no token ${idOrName}\n`);
          process.exit(1);
        }
        process.stdout.write(`revoked ${idOrName}\n`);
      } catch (error) {
        reportFatal(error);
      }
    });
}
