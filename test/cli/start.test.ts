import { request } from 'node:http';
import { createServer } from 'node:net';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { noteApp } from '../app/fixtures.js';
import { ensureBuilt, freePort, spawnCairn } from './build.js';

beforeAll(ensureBuilt);
const running: Array<ReturnType<typeof spawnCairn>> = [];
const dirs: string[] = [];
afterEach(() => running.splice(0).forEach((p) => p.kill()));
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

function start(args: string[], server: Record<string, unknown> = {}, plugins?: Record<string, unknown>) {
  const dir = noteApp(server);
  dirs.push(dir);
  if (plugins) writeFileSync(join(dir, 'config', 'plugins.json'), JSON.stringify(plugins));
  const proc = spawnCairn(['start', '--dir', dir, ...args]);
  running.push(proc);
  return proc;
}

/** GET on a fresh connection (no keep-alive), so a cluster spreads requests over its workers. */
function getJson(url: string): Promise<{ status: number; body: { pid?: number; done?: boolean } }> {
  return new Promise((resolve, reject) => {
    request(url, { agent: false, headers: { connection: 'close' } }, (res) => {
      let text = '';
      res.on('data', (d) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(text) }));
    })
      .on('error', reject)
      .end();
  });
}

it('start prints the URL, serves the API; SIGTERM lets an in-flight request finish, then exits 0', async () => {
  const port = await freePort();
  const proc = start([], { port });
  await proc.waitFor('GraphQL: ');
  expect(proc.output).toContain(
    `Cairn is ready: http://127.0.0.1:${port}\nREST API: http://127.0.0.1:${port}/api (e.g. curl http://127.0.0.1:${port}/api/<pluralName>)\nGraphQL: http://127.0.0.1:${port}/graphql\n`,
  );
  expect((await getJson(`http://127.0.0.1:${port}/api/notes`)).status).toBe(200);
  const slow = getJson(`http://127.0.0.1:${port}/slow`);
  await new Promise((r) => setTimeout(r, 100));
  proc.child.kill('SIGTERM');
  expect((await slow).body).toEqual({ done: true });
  expect(await proc.exited).toBe(0);
  expect(proc.output).toContain('SIGTERM: finishing in-flight requests');
}, 30_000);

it('--port and --host override config/server; on 0.0.0.0 the link is a loopback one and the line says every interface listens; SIGINT exits 0 too', async () => {
  const port = await freePort();
  const proc = start(['--port', String(port), '--host', '0.0.0.0'], { port: 1 });
  await proc.waitFor('REST API');
  expect(proc.output).toContain(`Cairn is ready: http://127.0.0.1:${port} (listening on all interfaces, 0.0.0.0 port ${port})\n`);
  expect(proc.output).toContain(`REST API: http://127.0.0.1:${port}/api `);
  expect(proc.output).not.toContain('0.0.0.0:');
  expect((await getJson(`http://127.0.0.1:${port}/api/notes`)).status).toBe(200);
  proc.child.kill('SIGINT');
  expect(await proc.exited).toBe(0);
}, 30_000);

it("a 500 leaves its cause in the server's log (stdout), the answer reveals nothing", async () => {
  const port = await freePort();
  const proc = start([], { port });
  await proc.waitFor('REST API');
  expect((await getJson(`http://127.0.0.1:${port}/api/notes`)).status).toBe(200);
  // The database fails behind the server's back.
  const db = new SQLite(join(dirs.at(-1)!, '.tmp', 'data.db'));
  db.exec('DROP TABLE notes');
  db.close();
  const failed = await getJson(`http://127.0.0.1:${port}/api/notes?sort=title`);
  expect(failed).toEqual({ status: 500, body: { data: null, error: { status: 500, name: 'InternalServerError', message: 'Internal Server Error', details: {} } } });
  await proc.waitFor('no such table: notes');
  const line = JSON.parse(proc.output.split('\n').find((l) => l.includes('no such table: notes'))!);
  expect(line).toMatchObject({ level: 50, req: { method: 'GET', url: '/api/notes?sort=title' }, err: { type: 'SqliteError', message: 'no such table: notes' } });
  expect(line.err.stack).toContain('\n    at ');
  proc.child.kill('SIGTERM');
  expect(await proc.exited).toBe(0);
}, 30_000);

it('--port 0: the ready line names the port really bound, where the API answers', async () => {
  const proc = start(['--port', '0']);
  await proc.waitFor('GraphQL: ');
  const port = Number(/Cairn is ready: http:\/\/127\.0\.0\.1:(\d+)\n/.exec(proc.output)?.[1]);
  expect(port).toBeGreaterThan(0);
  expect(proc.output).toContain(`GraphQL: http://127.0.0.1:${port}/graphql\n`);
  expect((await getJson(`http://127.0.0.1:${port}/api/notes`)).status).toBe(200);
}, 30_000);

it('the GraphQL line follows the plugin: its endpoint when configured, none when disabled', async () => {
  const custom = start(['--port', '0'], {}, { graphql: { config: { endpoint: '/gql' } } });
  await custom.waitFor('REST API');
  const port = /Cairn is ready: (http:\/\/127\.0\.0\.1:\d+)\n/.exec(custom.output)?.[1];
  await custom.waitFor(`GraphQL: ${port}/gql\n`);
  const off = start(['--port', '0'], {}, { graphql: { enabled: false } });
  await off.waitFor('REST API');
  // The output is complete: the process printed the ready lines in one write and then serves.
  expect((await getJson(`${/Cairn is ready: (\S+)\n/.exec(off.output)?.[1]}/api/notes`)).status).toBe(200);
  expect(off.output).not.toContain('GraphQL');
}, 30_000);

const ipv6 = await new Promise<boolean>((resolve) => {
  const server = createServer().listen(0, '::', () => server.close(() => resolve(true)));
  server.on('error', () => resolve(false));
});
if (!ipv6) console.log('start.test.ts: this machine cannot listen on "::" (no IPv6): the "::" ready-line test is skipped');
it.skipIf(!ipv6)('--host ::: the link is http://localhost, and the line says every interface listens', async () => {
  const port = await freePort();
  const proc = start(['--port', String(port), '--host', '::']);
  await proc.waitFor('REST API');
  expect(proc.output).toContain(`Cairn is ready: http://localhost:${port} (listening on all interfaces, :: port ${port})\n`);
  expect((await getJson(`http://localhost:${port}/api/notes`)).status).toBe(200);
}, 30_000);

it('a port in use exits 1 with one line', async () => {
  const port = await freePort();
  const first = start([], { port });
  await first.waitFor('REST API');
  const second = start([], { port });
  expect(await second.exited).toBe(1);
  expect(second.output).toMatch(/^cairn: listen EADDRINUSE.*\n$/);
  first.child.kill('SIGTERM');
  expect(await first.exited).toBe(0);
}, 30_000);

it('--workers 2: workers share the port, a crashed worker is replaced, SIGTERM stops them all and exits 0', async () => {
  const port = await freePort();
  const proc = start(['--workers', '2'], { port, workerz: 3 });
  await proc.waitFor('REST API', 30_000);
  expect(proc.output).toContain(`Cairn is ready: http://127.0.0.1:${port} (2 workers)\n`);
  expect(proc.output).toContain(`GraphQL: http://127.0.0.1:${port}/graphql\n`);
  // A config warning is printed once, not once per process that loads the config.
  expect(proc.output.match(/server\.workerz is not a key Cairn or Strapi knows, and is ignored: did you mean workers\?\n/g)).toHaveLength(1);
  const pids = new Set<number>();
  for (let i = 0; i < 40 && pids.size < 2; i++) pids.add((await getJson(`http://127.0.0.1:${port}/pid`)).body.pid!);
  expect(pids.size).toBe(2);
  expect(pids.has(proc.child.pid!)).toBe(false); // the primary serves nothing

  const [victim] = pids;
  process.kill(victim, 'SIGKILL');
  await proc.waitFor(`worker ${victim} stopped (SIGKILL); starting another`);
  const after = new Set<number>();
  for (let i = 0; i < 200 && after.size < 2; i++) {
    try {
      after.add((await getJson(`http://127.0.0.1:${port}/pid`)).body.pid!);
    } catch {
      // between the crash and the replacement, a connection may land on the dead worker
    }
    await new Promise((r) => setTimeout(r, 25));
  }
  expect(after.size).toBe(2);
  expect(after.has(victim)).toBe(false);

  const workers = [...after];
  const slow = getJson(`http://127.0.0.1:${port}/slow`);
  await new Promise((r) => setTimeout(r, 100));
  proc.child.kill('SIGTERM');
  expect((await slow).body).toEqual({ done: true });
  expect(await proc.exited).toBe(0);
  for (const pid of workers) expect(() => process.kill(pid, 0)).toThrow(); // gone
}, 60_000);

it('--workers: a worker that cannot start stops the cluster with exit 1', async () => {
  const port = await freePort();
  const blocker = start([], { port });
  await blocker.waitFor('REST API');
  const proc = start(['--workers', '2'], { port });
  expect(await proc.exited).toBe(1);
  expect(proc.output).toContain('EADDRINUSE');
  expect(proc.output).toContain('a worker exited during start-up');
  blocker.child.kill('SIGTERM');
  await blocker.exited;
}, 60_000);
