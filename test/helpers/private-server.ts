import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import mysql from 'mysql2/promise';
import type { DatabaseConfig } from '../../src/database/types.js';

/**
 * A database server of a test's own, in a temp folder, that the test may stop, restart and cut connections of
 * without disturbing anyone else's tests on the shared servers. `destroy()` stops it and removes its folder.
 */
export interface PrivateServer {
  readonly dialect: 'postgres' | 'mysql';
  readonly port: number;
  /** `config/database` for a Cairn on this server's `cairn` database. */
  readonly config: DatabaseConfig;
  /** Runs one statement as the superuser on the `cairn` database (a new connection each time). */
  admin<Row = Record<string, unknown>>(sql: string): Promise<Row[]>;
  /** A connection of the test's own (to hold locks), closed by the caller; `id` is its server-side id. */
  connect(): Promise<{ id: number; query(sql: string): Promise<unknown>; close(): Promise<void> }>;
  /** Stops the server the way an administrator's restart does (connections are told and closed). */
  stop(): Promise<void>;
  /** Starts it again (nothing to do when it runs). */
  start(): Promise<void>;
  destroy(): Promise<void>;
}

const PG_BIN = '/usr/lib/postgresql/15/bin';
const MARIADBD = '/usr/sbin/mariadbd';
const MARIADB_INSTALL_DB = '/usr/bin/mariadb-install-db';

/** Why a private server of this kind cannot run here, or null when it can. */
export function privateServerProblem(dialect: 'postgres' | 'mysql'): string | null {
  const needed = dialect === 'postgres' ? [join(PG_BIN, 'initdb'), join(PG_BIN, 'pg_ctl')] : [MARIADBD, MARIADB_INSTALL_DB];
  const missing = needed.filter((file) => !existsSync(file));
  return missing.length ? `${missing.join(', ')} not installed` : null;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

function run(command: string, args: string[], asUser?: string): void {
  const [file, argv] = asUser ? ['runuser', ['-u', asUser, '--', command, ...args]] : [command, args];
  const result = spawnSync(file, argv, { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (${result.status}):\n${result.stdout}${result.stderr}`);
}

/** PostgreSQL refuses to run as root: as root, the server runs as the `postgres` user. */
export async function startPrivatePostgres(): Promise<PrivateServer> {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-pg-'));
  const asUser = userInfo().uid === 0 ? 'postgres' : undefined;
  try {
    if (asUser) {
      const { uid, gid } = lookupUser(asUser);
      chownSync(dir, uid, gid);
    }
    const data = join(dir, 'data');
    run(join(PG_BIN, 'initdb'), ['-D', data, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8'], asUser);
    const port = await freePort();
    const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`;
    const pgCtl = (...args: string[]) => run(join(PG_BIN, 'pg_ctl'), ['-D', data, '-l', join(dir, 'log'), ...args], asUser);
    let running = false;
    const start = async () => {
      if (running) return;
      pgCtl('-o', options, '-w', 'start');
      running = true;
    };
    await start();
    const connection = { host: '127.0.0.1', port, user: 'postgres', password: '' };
    const admin = async <Row>(sql: string, database = 'cairn') => {
      const client = new pg.Client({ ...connection, database });
      await client.connect();
      try {
        return (await client.query(sql)).rows as Row[];
      } finally {
        await client.end();
      }
    };
    await admin('CREATE DATABASE cairn', 'postgres');
    return {
      dialect: 'postgres',
      port,
      config: { connection: { client: 'postgres', connection: { ...connection, database: 'cairn' }, pool: { min: 0, max: 5 } } },
      admin: (sql) => admin(sql),
      async connect() {
        const client = new pg.Client({ ...connection, database: 'cairn' });
        client.on('error', () => {}); // a restart the test makes cuts this connection too
        await client.connect();
        const id = Number((await client.query('SELECT pg_backend_pid() AS id')).rows[0].id);
        return { id, query: (sql) => client.query(sql), close: () => client.end().catch(() => {}) };
      },
      // -m fast: what a service restart does (backends get 57P01 "terminating connection due to administrator command").
      async stop() {
        pgCtl('-m', 'fast', '-w', 'stop');
        running = false;
      },
      start,
      async destroy() {
        try {
          pgCtl('-m', 'immediate', '-w', 'stop');
        } catch {
          // already stopped
        }
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}

function lookupUser(name: string): { uid: number; gid: number } {
  const id = (flag: string) => Number(spawnSync('id', [flag, name], { encoding: 'utf8' }).stdout.trim());
  return { uid: id('-u'), gid: id('-g') };
}

/** MariaDB in a temp folder, root without a password; as root the server runs as root (`--user=root`). */
export async function startPrivateMariadb(): Promise<PrivateServer> {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-mariadb-'));
  const data = join(dir, 'data');
  const user = userInfo().username;
  let server: ChildProcess | undefined;
  try {
    // --no-defaults: the machine's my.cnf (datadir, socket, log paths) must not leak in.
    run(MARIADB_INSTALL_DB, ['--no-defaults', `--datadir=${data}`, '--auth-root-authentication-method=normal', `--user=${user}`, '--skip-test-db']);
    const port = await freePort();
    const connection = { host: '127.0.0.1', port, user: 'root', password: '' };
    const start = async () => {
      if (server && server.exitCode === null) return;
      server = spawn(
        MARIADBD,
        ['--no-defaults', `--datadir=${data}`, `--port=${port}`, '--bind-address=127.0.0.1', `--socket=${join(dir, 's')}`, `--user=${user}`,
          `--pid-file=${join(dir, 'pid')}`, `--log-error=${join(dir, 'log')}`, '--innodb-buffer-pool-size=16M', '--skip-log-bin'],
        { stdio: 'ignore' },
      );
      for (const started = Date.now(); ; ) {
        try {
          const c = await mysql.createConnection(connection);
          await c.end();
          return;
        } catch (error) {
          if (server!.exitCode !== null) throw new Error(`mariadbd exited (${server.exitCode}) at start`);
          if (Date.now() - started > 30_000) throw error;
          await new Promise((r) => setTimeout(r, 100));
        }
      }
    };
    await start();
    const admin = async <Row>(sql: string, database?: string) => {
      const c = await mysql.createConnection({ ...connection, database });
      try {
        return (await c.query(sql))[0] as Row[];
      } finally {
        await c.end();
      }
    };
    await admin('CREATE DATABASE cairn CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci');
    const stop = async () => {
      const running = server;
      if (!running || running.exitCode !== null) return;
      const exited = new Promise((r) => running.once('exit', r));
      running.kill('SIGTERM'); // mariadbd's normal shutdown: connections are killed, then it exits
      await exited;
    };
    return {
      dialect: 'mysql',
      port,
      config: { connection: { client: 'mysql', connection: { ...connection, database: 'cairn' }, pool: { min: 0, max: 5 } } },
      admin: (sql) => admin(sql, 'cairn'),
      async connect() {
        const c = await mysql.createConnection({ ...connection, database: 'cairn' });
        c.on('error', () => {}); // a restart the test makes cuts this connection too
        return { id: c.threadId, query: (sql) => c.query(sql), close: () => c.end().catch(() => {}) };
      },
      stop,
      start,
      async destroy() {
        if (server && server.exitCode === null) {
          const exited = new Promise((r) => server!.once('exit', r));
          server.kill('SIGKILL');
          await exited;
        }
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    if (server && server.exitCode === null) server.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}
