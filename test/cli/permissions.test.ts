import { readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { noteApp } from '../app/fixtures.js';
import { cairn, ensureBuilt, freePort, spawnCairn } from './build.js';
import { withStrapiDefaults } from '../helpers/strapi-roles.js';

beforeAll(ensureBuilt);
const running: Array<ReturnType<typeof spawnCairn>> = [];
const dirs: string[] = [];
afterEach(() => running.splice(0).forEach((p) => p.kill()));
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** An anonymous POST: its status tells whether the public role may create notes. */
function post(port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: '/api/notes', method: 'POST', headers: { 'content-type': 'application/json' } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode!));
    });
    req.on('error', reject);
    req.end(JSON.stringify({ data: { title: 'x' } }));
  });
}

async function eventually(port: number, status: number): Promise<void> {
  for (const started = Date.now(); (await post(port)) !== status; ) {
    if (Date.now() - started > 3000) throw new Error(`still not ${status} after 3 s`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function startServer(dir: string, port: number) {
  const proc = spawnCairn(['start', '--dir', dir, '--port', String(port)]);
  running.push(proc);
  await proc.waitFor('REST API');
  return proc;
}

it('permissions grant/revoke: checked, written to config/permissions.json and the database, applied by the running server, kept by a restart', async () => {
  const dir = noteApp();
  dirs.push(dir);
  const file = join(dir, 'config', 'permissions.json');
  const port = await freePort();
  const server = await startServer(dir, port);
  expect(await post(port)).toBe(403);

  // Mistakes change nothing and say what is valid.
  const before = readFileSync(file, 'utf8');
  const role = cairn(['permissions', 'grant', '--dir', dir, '--role', 'editor', 'api::note.note.create']);
  expect(role.status).toBe(1);
  expect(role.stderr).toBe('cairn: unknown role "editor"; the roles are authenticated, public\n');
  const action = cairn(['permissions', 'grant', '--dir', dir, '--role', 'public', 'api::note.note.creat']);
  expect(action.status).toBe(1);
  expect(action.stderr).toMatch(/^cairn: unknown action api::note\.note\.creat; the actions are:\n {2}api::note\.note\.create\n {2}api::note\.note\.delete\n/);
  expect(readFileSync(file, 'utf8')).toBe(before);

  const granted = cairn(['permissions', 'grant', '--dir', dir, '--role', 'public', 'api::note.note.create']);
  expect(granted.stderr).toBe('');
  expect(granted.stdout).toBe(`granted api::note.note.create to public in ${join('config', 'permissions.json')} and the database; running servers apply it within 1 s\n`);
  expect(JSON.parse(readFileSync(file, 'utf8')).roles.public.permissions).toEqual(['api::note.note.find', 'api::note.note.create']);
  await eventually(port, 201);

  // The file is synced at start: the grant survives a restart instead of being undone by it.
  server.child.kill('SIGTERM');
  expect(await server.exited).toBe(0);
  const restarted = await startServer(dir, port);
  expect(await post(port)).toBe(201);

  const revoked = cairn(['permissions', 'revoke', '--dir', dir, '--role', 'public', 'api::note.note.create']);
  expect(revoked.stdout).toBe(`revoked api::note.note.create from public in ${join('config', 'permissions.json')} and the database; running servers apply it within 1 s\n`);
  await eventually(port, 403);

  // A role the file does not name lives in the database.
  const other = cairn(['permissions', 'grant', '--dir', dir, '--role', 'authenticated', 'api::note.note.update']);
  expect(other.stdout).toBe('granted api::note.note.update to authenticated in the database (config/permissions does not name this role); running servers apply it within 1 s\n');
  // The list shows the role as the database holds it: with users-permissions' own actions, which Strapi grants the
  // roles it makes and config/permissions leaves in place (dropping them would stop Strapi's login and registration).
  const listed = (actions: string[]) => actions.map((action) => `${action}\n`).join('');
  expect(cairn(['permissions', 'list', '--dir', dir, '--role', 'authenticated']).stdout).toBe(listed(withStrapiDefaults('authenticated', ['api::note.note.update'])));
  expect(cairn(['permissions', 'list', '--dir', dir, '--role', 'public']).stdout).toBe(listed(withStrapiDefaults('public', ['api::note.note.find'])));
  restarted.child.kill('SIGTERM');
  expect(await restarted.exited).toBe(0);
}, 60_000);
