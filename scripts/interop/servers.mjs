// Starting and stopping the two servers of an interop run: real Strapi (from the install cache) and Cairn (its CLI),
// each on a free port, each waited for until it answers.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';

/** A port nobody listens on right now (the system picks it; the server binds it a moment later). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Runs `node args…` in `cwd` with `env`, keeping the last 200 kB of its output for the error message. */
function launch(args, { cwd, env }) {
  const child = spawn(process.execPath, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const proc = { child, log: '' };
  const keep = (d) => {
    proc.log = (proc.log + d).slice(-200_000);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  proc.exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  return proc;
}

async function waitFor(proc, what, ready, timeoutMs) {
  const t0 = Date.now();
  for (;;) {
    if (proc.child.exitCode !== null || proc.child.signalCode !== null) throw new Error(`${what} exited before it was ready:\n${proc.log.slice(-4000)}`);
    if (await ready()) return;
    if (Date.now() - t0 > timeoutMs) {
      await stop(proc);
      throw new Error(`${what} did not answer within ${timeoutMs / 1000} s:\n${proc.log.slice(-4000)}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Strapi (`strapi start`, NODE_ENV=production, the admin panel off in the app's config) in `appDir`, whose
 * node_modules is the install cache. Ready once GET /api/articles answers 200 (the Public role may `find` after the
 * bootstrap) and the bootstrap has written the token file.
 */
export async function startStrapi({ appDir, env, port, tokenFile }) {
  const bin = join(appDir, 'node_modules', '@strapi', 'strapi', 'bin', 'strapi.js');
  const proc = launch([bin, 'start'], {
    cwd: appDir,
    env: { ...env, NODE_ENV: 'production', HOST: '127.0.0.1', PORT: String(port), STRAPI_TELEMETRY_DISABLED: 'true', BROWSER: 'none', STRAPI_LOG_LEVEL: env.STRAPI_LOG_LEVEL ?? 'warn', INTEROP_TOKEN_FILE: tokenFile },
  });
  proc.url = `http://127.0.0.1:${port}`;
  await waitFor(proc, 'Strapi', async () => existsSync(tokenFile) && (await status(`${proc.url}/api/articles`)) === 200, 300_000);
  return proc;
}

/** Cairn's CLI (`cairn start --dir appDir`), NODE_ENV=production; ready when it prints its URL and answers. */
export async function startCairn({ repoDir, appDir, env, port }) {
  const proc = launch([join(repoDir, 'bin', 'cairn.js'), 'start', '--dir', appDir, '--port', String(port)], {
    cwd: repoDir,
    env: { ...env, NODE_ENV: 'production', PORT: String(port) },
  });
  await waitFor(proc, 'Cairn', async () => {
    const ready = /Cairn is ready: (http:\/\/[^\s()]+)/.exec(proc.log);
    if (!ready) return false;
    proc.url = ready[1].replace(/\/$/, '');
    return true;
  }, 120_000);
  return proc;
}

/** SIGTERM, then SIGKILL after 20 s; resolves when the process is gone. */
export async function stop(proc) {
  if (proc.child.exitCode !== null || proc.child.signalCode !== null) return;
  proc.child.kill('SIGTERM');
  const timer = setTimeout(() => proc.child.kill('SIGKILL'), 20_000);
  await proc.exited;
  clearTimeout(timer);
}

async function status(url) {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(5000) });
    await res.arrayBuffer();
    return res.status;
  } catch {
    return 0;
  }
}
