import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

export const root = join(import.meta.dirname, '..', '..');
export const bin = join(root, 'bin', 'cairn.js');

const newest = (dir: string): number => {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) latest = Math.max(latest, statSync(join(entry.parentPath, entry.name)).mtimeMs);
  }
  return latest;
};

/**
 * The CLI runs compiled code (bin/cairn.js imports dist/), as users run it: build unless dist/ is already newer
 * than every source file (each CLI test file would otherwise spend seconds rebuilding).
 */
export function ensureBuilt(): void {
  let built = 0;
  try {
    built = newest(join(root, 'dist'));
  } catch {
    // no dist/ yet
  }
  if (built >= newest(join(root, 'src'))) return;
  const build = spawnSync('npm', ['run', 'build'], { cwd: root, encoding: 'utf8' });
  if (build.status !== 0) throw new Error(`npm run build failed:\n${build.stdout}${build.stderr}`);
}

/**
 * `node bin/cairn.js ...args`, synchronously. `timeout` (ms) kills a command that should have exited (a server
 * that started when it should have refused to) instead of hanging the test.
 */
export function cairn(args: string[], env: Record<string, string> = {}, options: { timeout?: number; cwd?: string } = {}) {
  return spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', env: { ...process.env, ...env }, timeout: options.timeout, cwd: options.cwd });
}

/** A running `cairn` process whose output is collected; `waitFor` polls it for a pattern. */
export function spawnCairn(args: string[], env: Record<string, string> = {}, options: { detached?: boolean } = {}) {
  // detached: its own process group, so a test can signal the group the way a terminal's Ctrl-C does.
  const child: ChildProcess = spawn(process.execPath, [bin, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env }, detached: options.detached });
  const proc = {
    child,
    output: '',
    exited: new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code))),
    async waitFor(pattern: RegExp | string, timeoutMs = 15_000): Promise<void> {
      const found = () => (typeof pattern === 'string' ? proc.output.includes(pattern) : pattern.test(proc.output));
      for (const started = Date.now(); !found(); ) {
        if (child.exitCode !== null) throw new Error(`cairn exited (${child.exitCode}) before printing ${pattern}:\n${proc.output}`);
        if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${pattern}:\n${proc.output}`);
        await new Promise((r) => setTimeout(r, 25));
      }
    },
    /** Stops the process if a test left it running. */
    kill() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      if (options.detached) process.kill(-child.pid!, 'SIGKILL');
      else child.kill('SIGKILL');
    },
  };
  child.stdout!.on('data', (d) => (proc.output += d));
  child.stderr!.on('data', (d) => (proc.output += d));
  return proc;
}

/** A free TCP port (listen on 0, read it, release it). */
export async function freePort(): Promise<number> {
  const { createServer } = await import('node:net');
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}
