import cluster from 'node:cluster';
import type { Cairn } from './cairn.js';

export interface StartOptions {
  dir: string;
  port?: number;
  host?: string;
  /** Worker processes sharing the port (node:cluster); 1 runs in this process. */
  workers?: number;
  quiet?: boolean;
}

export interface RunningServer {
  url: string;
  close(): Promise<void>;
}

const log = (quiet: boolean | undefined, message: string) => {
  if (!quiet) process.stdout.write(`${message}\n`);
};

/** Starts one Cairn process listening on its port; SIGINT/SIGTERM shut it down gracefully. */
export async function startServer(options: StartOptions & { skipSync?: boolean }): Promise<RunningServer> {
  const { createCairn } = await import('./cairn.js');
  const overrides: Record<string, unknown> = {};
  if (options.port !== undefined || options.host !== undefined) {
    overrides.server = { ...(options.port !== undefined ? { port: options.port } : {}), ...(options.host !== undefined ? { host: options.host } : {}) };
  }
  const cairn = await createCairn({ dir: options.dir, config: overrides as never, skipSync: options.skipSync });
  const { host, port } = cairn.config.server;
  const address = await cairn.fastify.listen({ host, port });
  const url = address.replace('[::1]', 'localhost');
  if (!cluster.isWorker) log(options.quiet, `Cairn is ready: ${url} (REST API under ${url}/api)`);
  installShutdown(cairn, options.quiet);
  return { url, close: () => cairn.close() };
}

/**
 * Graceful shutdown: stop accepting connections, let in-flight requests finish, close the database, exit 0.
 * A second signal, or 10 s without finishing, forces the exit.
 */
function installShutdown(cairn: Cairn, quiet?: boolean): void {
  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) process.exit(1);
    closing = true;
    if (!cluster.isWorker) log(quiet, `${signal} received: finishing in-flight requests`);
    const timer = setTimeout(() => process.exit(1), 10_000);
    timer.unref();
    cairn.close().then(
      () => process.exit(0),
      (error) => {
        process.stderr.write(`shutdown failed: ${(error as Error).message}\n`);
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', () => shutdown('SIGINT'));
  process.once('SIGTERM', () => shutdown('SIGTERM'));
}

/**
 * `--workers N`: the primary syncs the schema and runs bootstrap once (so seeding never races), then forks N
 * workers that share the port; a crashed worker is replaced (with a short backoff), signals are forwarded.
 */
export async function startCluster(options: StartOptions): Promise<void> {
  const workers = options.workers ?? 1;
  if (cluster.isWorker) {
    await startServer({ ...options, skipSync: true });
    return;
  }
  const { prepareApp } = await import('./cairn.js');
  await prepareApp({ dir: options.dir });
  let stopping = false;
  const fork = () => cluster.fork({ CAIRN_WORKER: '1' });
  for (let i = 0; i < workers; i++) fork();
  let listening = 0;
  cluster.on('listening', (_worker, address) => {
    if (++listening === workers) log(options.quiet, `Cairn is ready: http://${address.address ?? '127.0.0.1'}:${address.port} (${workers} workers)`);
  });
  cluster.on('exit', (worker, code) => {
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
      return;
    }
    log(options.quiet, `worker ${worker.process.pid} exited (${code}); starting another`);
    setTimeout(fork, 500);
  });
  const stop = (signal: NodeJS.Signals) => {
    stopping = true;
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill(signal);
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
}
