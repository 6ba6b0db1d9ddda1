import type { Command } from 'commander';
import { reportFatal } from '../errors.js';
import { dirOption, parsePort, parseWorkers } from '../options.js';

/** `cairn start`: serve the app (several worker processes with --workers or config/server's `workers`). */
export function registerStart(program: Command): void {
  dirOption(program.command('start').description('start the app'))
    .option('-p, --port <number>', 'port (default: config/server, 1337)', parsePort)
    .option('-H, --host <host>', 'host (default: config/server, 127.0.0.1)')
    .option('-w, --workers <number>', 'worker processes sharing the port (default: config/server, 1)', parseWorkers)
    .action(async (opts: { dir: string; port?: number; host?: string; workers?: number }) => {
      try {
        const { startServer } = await import('../../app/server.js');
        await startServer({ ...opts, handleSignals: true });
      } catch (error) {
        reportFatal(error);
      }
    });
}
