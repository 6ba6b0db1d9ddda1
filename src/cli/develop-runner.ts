import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigError } from '../errors/index.js';
import { watchApp } from './watch.js';

const say = (message: string) => process.stdout.write(`[develop] ${message}\n`);

/** Runs the app in a child `cairn start` and replaces it after each batch of changes. Resolves never: signals end it. */
export async function runDevelop(opts: { dir: string; port?: number; host?: string }): Promise<void> {
  const dir = resolve(opts.dir);
  if (!existsSync(dir)) throw new ConfigError(`app folder ${dir} does not exist`);
  const bin = fileURLToPath(new URL('../../bin/cairn.js', import.meta.url));
  const args = [bin, 'start', '--dir', dir];
  if (opts.port !== undefined) args.push('--port', String(opts.port));
  if (opts.host !== undefined) args.push('--host', opts.host);

  let child: ChildProcess | undefined;
  let stopping = false;
  const start = () => {
    const current = spawn(process.execPath, args, {
      stdio: 'inherit',
      env: { ...process.env, NODE_ENV: process.env.NODE_ENV ?? 'development' },
    });
    child = current;
    current.once('exit', (code, signal) => {
      if (child === current && !stopping) say(`the app stopped (${signal ?? `exit code ${code}`}); waiting for a change to restart it`);
    });
  };
  /** Stops the running child gracefully (it finishes in-flight requests); resolves when it is gone. */
  const stopChild = () =>
    new Promise<void>((done) => {
      const current = child;
      child = undefined;
      if (!current || current.exitCode !== null || current.signalCode !== null) return done();
      current.once('exit', () => done());
      current.kill('SIGTERM');
    });

  let restarting = Promise.resolve();
  const watcher = watchApp({ root: dir, trees: [join(dir, 'config'), join(dir, 'src')], files: [join(dir, '.env')] }, (paths) => {
    const shown = paths.length > 5 ? `${paths.slice(0, 5).join(', ')} and ${paths.length - 5} more` : paths.join(', ');
    say(`changed: ${shown}; restarting`);
    // Changes arriving while a restart is under way queue behind it, so there is never more than one child.
    restarting = restarting.then(async () => {
      await stopChild();
      if (!stopping) start();
    });
  });

  const stop = async () => {
    if (stopping) return;
    stopping = true;
    watcher.close();
    await restarting;
    await stopChild();
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  say(`watching ${join(dir, 'config')}, ${join(dir, 'src')} and ${join(dir, '.env')}`);
  start();
}
