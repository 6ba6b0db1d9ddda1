import { resolve } from 'node:path';
import type { Command } from 'commander';
import { reportFatal } from '../errors.js';

/** `cairn start`: serve the app (several workers with --workers or config server.workers). */
export function registerStart(program: Command): void {
  program
    .command('start')
    .description('start the app')
    .option('-d, --dir <path>', 'app folder', '.')
    .option('-p, --port <number>', 'port (default: config/server)', (v) => Number.parseInt(v, 10))
    .option('--host <host>', 'host (default: config/server)')
    .option('-w, --workers <number>', 'worker processes sharing the port', (v) => Number.parseInt(v, 10))
    .action(async (opts: { dir: string; port?: number; host?: string; workers?: number }) => {
      try {
        const dir = resolve(opts.dir);
        let workers = opts.workers;
        if (workers === undefined && !process.env.CAIRN_WORKER) {
          const { loadConfig } = await import('../../app/config.js');
          workers = (await loadConfig(dir)).server.workers;
        }
        const server = await import('../../app/server.js');
        if ((workers ?? 1) > 1 || process.env.CAIRN_WORKER) await server.startCluster({ ...opts, dir, workers });
        else await server.startServer({ ...opts, dir });
      } catch (error) {
        reportFatal(error);
      }
    });
}
