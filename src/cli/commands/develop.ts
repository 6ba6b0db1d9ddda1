import type { Command } from 'commander';
import { reportFatal } from '../errors.js';
import { dirOption, parsePort } from '../options.js';

/**
 * `cairn develop`: runs `cairn start` in a child process and restarts it when config/, src/ or .env change.
 * A child process (rather than reloading in place) guarantees a clean slate: module caches, open handles and
 * the database connection all go with it.
 */
export function registerDevelop(program: Command): void {
  dirOption(program.command('develop').description('start the app and restart it when config/, src/ or .env change'))
    .option('-p, --port <number>', 'port (default: config/server, 1337)', parsePort)
    .option('-H, --host <host>', 'host (default: config/server, 127.0.0.1)')
    .action(async (opts: { dir: string; port?: number; host?: string }) => {
      try {
        const { runDevelop } = await import('../develop-runner.js');
        await runDevelop(opts);
      } catch (error) {
        reportFatal(error);
      }
    });
}
