import cluster, { type Worker } from 'node:cluster';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { DeepPartial } from '../project/config.js';
import { graphqlEndpoint } from '../graphql/index.js';
import type { AppConfig } from '../project/types.js';
import { withServerFlags } from './v8-flags.js';

export interface StartOptions {
  /** The app folder. */
  dir: string;
  /** Override config/server's port (0 picks a free one). */
  port?: number;
  /** Override config/server's host. */
  host?: string;
  /** Worker processes sharing the port (node:cluster). Default: config/server's `workers`, else 1 (no cluster). */
  workers?: number;
  /** Print nothing (tests, embedding). */
  quiet?: boolean;
  /** Install SIGINT/SIGTERM handlers that shut down and exit the process (the CLI does; embedders may not). Default true. */
  handleSignals?: boolean;
}

export interface RunningServer {
  /** Where the server listens, e.g. http://127.0.0.1:1337. */
  url: string;
  /** Graceful stop: no new connections, in-flight requests finish, the database closes (every worker's, in a cluster). */
  close(): Promise<void>;
}

/** A shutdown that doesn't finish in this time exits anyway: a hung request must not keep a deploy waiting. */
const FORCE_EXIT_MS = 10_000;
/** Worker restarts back off from 0.5 s up to 30 s; a worker that stayed up this long resets the backoff. */
const BACKOFF_START_MS = 500;
const BACKOFF_MAX_MS = 30_000;
const HEALTHY_AFTER_MS = 30_000;
/** Environment variable carrying a forked process's role and options (see the bottom of this file). */
const WORKER_ENV = 'CAIRN_WORKER';

const print = (quiet: boolean | undefined, message: string) => {
  if (!quiet) process.stdout.write(`${message}\n`);
};

/**
 * Starts the app: one process, or with `workers > 1` a node:cluster primary that forks workers sharing the port.
 * Cairn's own heavy modules (model, database, HTTP) are imported here, on demand, not by the CLI.
 */
export async function startServer(options: StartOptions): Promise<RunningServer> {
  const dir = resolve(options.dir);
  // Loading the config twice (here and in createCairn) costs a few ms; it keeps the primary free of the model/DB.
  // Its warnings are printed by the load that starts the app.
  const config = async () => (await import('../project/config.js')).loadConfig(dir, serverOverrides(options), { warn: () => undefined });
  let workers = options.workers;
  let loaded: AppConfig | undefined;
  if (workers === undefined) workers = (loaded = await config()).server.workers;
  // The primary serves nothing, but says where its workers listen, GraphQL included.
  if ((workers ?? 1) > 1) return startPrimary({ ...options, dir }, workers!, graphqlEndpoint(loaded ?? (await config())));
  return startProcess({ ...options, dir }, false);
}

/** `--port` / `--host` as config overrides (merged over config/server by loadConfig). */
function serverOverrides(options: StartOptions): DeepPartial<AppConfig> {
  const server: DeepPartial<AppConfig['server']> = {};
  if (options.port !== undefined) server.port = options.port;
  if (options.host !== undefined) server.host = options.host;
  return Object.keys(server).length ? { server } : {};
}

const WILDCARDS = new Set(['0.0.0.0', '::']);

/** A URL a person can open for the address a server bound: a wildcard address is reachable on the loopback one. */
function displayUrl(address: string, port: number): string {
  const shown = address === '0.0.0.0' ? '127.0.0.1' : address === '::' ? 'localhost' : address.includes(':') ? `[${address}]` : address;
  return `http://${shown}:${port}`;
}

/**
 * What `cairn start` prints once it listens: a link to the address really bound (for a wildcard, a loopback link
 * and the fact that every interface listens), its real port (`--port 0` picks one), and the GraphQL endpoint
 * when the plugin is on.
 */
function readyMessage(bound: { address: string; port: number }, graphql: string | undefined, workers?: number): string {
  const url = displayUrl(bound.address, bound.port);
  const notes = [
    ...(workers ? [`${workers} workers`] : []),
    ...(WILDCARDS.has(bound.address) ? [`listening on all interfaces, ${bound.address} port ${bound.port}`] : []),
  ];
  const lines = [`Cairn is ready: ${url}${notes.length ? ` (${notes.join('; ')})` : ''}`, `REST API: ${url}/api (e.g. curl ${url}/api/<pluralName>)`];
  if (graphql !== undefined) lines.push(`GraphQL: ${url}${graphql}`);
  return lines.join('\n');
}

/**
 * One serving process: the whole app, or one worker of a cluster (then the preparing process already synced the
 * schema and ran the setup and the app's `bootstrap`, which workers skip).
 */
async function startProcess(options: StartOptions & { dir: string }, isWorker: boolean): Promise<RunningServer> {
  const { createCairn } = await import('./cairn.js');
  const cairn = await createCairn({ dir: options.dir, config: serverOverrides(options), prepared: isWorker });
  const { host, port } = cairn.config.server;
  try {
    await cairn.fastify.listen({ host, port });
  } catch (error) {
    await cairn.close();
    throw error;
  }
  const address = cairn.fastify.server.address();
  const bound = typeof address === 'object' && address ? { address: address.address, port: address.port } : { address: host, port };
  const url = displayUrl(bound.address, bound.port);
  if (!isWorker) print(options.quiet, readyMessage(bound, graphqlEndpoint(cairn.config)));

  let closing: Promise<void> | undefined;
  const close = () => (closing ??= cairn.close());
  if (options.handleSignals !== false) {
    onShutdownSignal((signal) => {
      if (!isWorker) print(options.quiet, `${signal}: finishing in-flight requests (up to ${FORCE_EXIT_MS / 1000} s), then closing the database`);
      exitAfter(close());
    });
  }
  return { url, close };
}

/** Waits for a graceful shutdown, then exits 0 (1 if it failed or took longer than FORCE_EXIT_MS). */
function exitAfter(done: Promise<unknown>): void {
  setTimeout(() => {
    process.stderr.write(`cairn: shutdown took longer than ${FORCE_EXIT_MS / 1000} s, exiting\n`);
    process.exit(1);
  }, FORCE_EXIT_MS).unref();
  done.then(
    () => process.exit(0),
    (error: unknown) => {
      process.stderr.write(`cairn: shutdown failed: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(1);
    },
  );
}

/**
 * Runs `handler` on the first SIGINT or SIGTERM; later ones are ignored (FORCE_EXIT_MS bounds the wait). A
 * second signal is usually the same Ctrl-C arriving twice: from the terminal to the whole process group, and
 * forwarded by a parent (`cairn develop`, a cluster primary). Treating it as "exit now" would cut off the very
 * requests a graceful shutdown exists to finish.
 */
function onShutdownSignal(handler: (signal: NodeJS.Signals) => void): void {
  let received = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (received) return;
      received = true;
      handler(signal);
    });
  }
}

/**
 * The cluster primary. It never loads the model or the database itself: a first forked process runs
 * `prepareApp` (tables, the features' setup and the app's `bootstrap`, exactly once, so workers never race
 * on migrations or demo data), then N workers start `prepared`: they run `register` but none of that. A crashed
 * worker is replaced with exponential backoff (without a new bootstrap); SIGINT/SIGTERM are forwarded and the
 * primary exits once every worker is gone.
 */
async function startPrimary(options: StartOptions & { dir: string }, count: number, graphql: string | undefined): Promise<RunningServer> {
  const forkAs = (role: 'prepare' | 'serve') => cluster.fork({ [WORKER_ENV]: JSON.stringify({ role, options: { ...options, workers: undefined, handleSignals: true } }) });
  cluster.setupPrimary({ exec: fileURLToPath(import.meta.url), args: [], execArgv: withServerFlags(process.execArgv) });

  const prepared = await exitCode(forkAs('prepare'));
  if (prepared !== 0) throw startFailure(`preparing the app failed (exit code ${prepared})`);

  let stopping = false;
  let backoff = 0;
  const startedAt = new Map<Worker, number>();
  const fork = () => startedAt.set(forkAs('serve'), Date.now());

  const bound = await new Promise<{ address: string; port: number }>((resolveReady, rejectReady) => {
    let listening = 0;
    let ready = false;
    cluster.on('listening', (_worker, address) => {
      if (ready || ++listening < count) return;
      ready = true;
      resolveReady({ address: address.address || '127.0.0.1', port: address.port });
    });
    cluster.on('exit', (worker, code, signal) => {
      const uptime = Date.now() - (startedAt.get(worker) ?? Date.now());
      startedAt.delete(worker);
      if (stopping) return;
      if (!ready) {
        // A worker that can't start (port taken, bad model) won't start on a retry either.
        stopping = true;
        for (const other of Object.values(cluster.workers ?? {})) other?.kill('SIGTERM');
        rejectReady(startFailure(`a worker exited during start-up (${signal ?? `exit code ${code}`})`));
        return;
      }
      if (uptime > HEALTHY_AFTER_MS) backoff = 0;
      const delay = Math.min(BACKOFF_START_MS * 2 ** backoff++, BACKOFF_MAX_MS);
      print(options.quiet, `worker ${worker.process.pid} stopped (${signal ?? `exit code ${code}`}); starting another in ${delay} ms`);
      setTimeout(() => {
        if (!stopping) fork();
      }, delay).unref();
    });
    for (let i = 0; i < count; i++) fork();
  });
  const url = displayUrl(bound.address, bound.port);
  print(options.quiet, readyMessage(bound, graphql, count));

  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= new Promise<void>((resolveClosed) => {
      stopping = true;
      const alive = () => Object.values(cluster.workers ?? {}).filter((w): w is Worker => !!w && !w.isDead());
      if (!alive().length) return resolveClosed();
      cluster.on('exit', () => {
        if (!alive().length) resolveClosed();
      });
      for (const worker of alive()) worker.process.kill('SIGTERM');
    }));
  if (options.handleSignals !== false) {
    onShutdownSignal((signal) => {
      print(options.quiet, `${signal}: stopping ${count} workers`);
      exitAfter(close());
    });
  }
  return { url, close };
}

function exitCode(worker: Worker): Promise<number> {
  return new Promise((resolveExit) => worker.once('exit', (code, signal) => resolveExit(signal ? 1 : code)));
}

/** The failing process already printed its reason; this one-line error tells the CLI not to add a stack. */
function startFailure(message: string): Error {
  return Object.assign(new Error(message), { code: 'CAIRN_START_FAILED' });
}

/** In a forked process: prepare the app once, or serve it (see startPrimary). */
async function runForkedProcess(spec: string): Promise<void> {
  const { role, options } = JSON.parse(spec) as { role: 'prepare' | 'serve'; options: StartOptions & { dir: string } };
  try {
    if (role === 'prepare') {
      const { prepareApp } = await import('./cairn.js');
      await prepareApp({ dir: options.dir });
      process.exit(0);
    }
    await startProcess(options, true);
  } catch (error) {
    // Known start-up failures (bad config or model, port taken) are one line; anything else is a bug: its stack.
    const known = error instanceof Error && (['ConfigError', 'ModelError'].includes(error.name) || typeof (error as { code?: unknown }).code === 'string');
    process.stderr.write(`cairn: ${error instanceof Error ? (known ? error.message : (error.stack ?? error.message)) : String(error)}\n`);
    process.exit(1);
  }
}

// The primary forks this very file (cluster.setupPrimary's `exec` above): a worker needs nothing but this
// module and the app, not the CLI.
if (cluster.isWorker && process.env[WORKER_ENV]) void runForkedProcess(process.env[WORKER_ENV]);
