import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, watch, type FSWatcher } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';

/** `cairn develop`: runs `cairn start` in a child process and restarts it when models, config or code change. */
export function registerDevelop(program: Command): void {
  program
    .command('develop')
    .description('start the app and restart it when config/, src/ or .env change')
    .option('-d, --dir <path>', 'app folder', '.')
    .option('-p, --port <number>', 'port (default: config/server)')
    .action((opts: { dir: string; port?: string }) => {
      const dir = resolve(opts.dir);
      const bin = fileURLToPath(new URL('../../../bin/cairn.js', import.meta.url));
      let child: ChildProcess | undefined;
      let timer: NodeJS.Timeout | undefined;
      const start = () => {
        const args = [bin, 'start', '--dir', dir, ...(opts.port ? ['--port', opts.port] : [])];
        child = spawn(process.execPath, args, { stdio: 'inherit', env: { ...process.env, NODE_ENV: process.env.NODE_ENV ?? 'development' } });
      };
      const restart = (what: string) => {
        clearTimeout(timer);
        timer = setTimeout(() => {
          process.stdout.write(`${what} changed: restarting\n`);
          const old = child;
          if (old && old.exitCode === null) {
            old.once('exit', start);
            old.kill('SIGTERM');
          } else start();
        }, 200);
      };
      const watchers: FSWatcher[] = [];
      for (const target of ['config', 'src', '.env']) {
        const path = join(dir, target);
        if (!existsSync(path)) continue;
        watchers.push(watch(path, { recursive: target !== '.env' }, (_event, file) => restart(join(target, String(file ?? '')))));
      }
      const stop = () => {
        watchers.forEach((w) => w.close());
        if (child && child.exitCode === null) {
          child.once('exit', () => process.exit(0));
          child.kill('SIGTERM');
        } else process.exit(0);
      };
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
      start();
    });
}
