import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { createDatabase } from '../../src/database/index.js';
import { describeEachDialect, freshDatabaseConfig } from '../helpers/databases.js';
import { writeApp } from '../helpers/app.js';
import { withStrapiDefaults } from '../helpers/strapi-roles.js';
import { ensureBuilt, freePort, spawnCairn } from './build.js';

/**
 * An app whose bootstrap notes each run in bootstrap.log, and seeds one note when there is none, slowly (as a
 * seed that processes images would): another process starting meanwhile would find the table still empty.
 */
const index = `const { appendFileSync } = require('node:fs');
const { join } = require('node:path');
const note = (line) => appendFileSync(join(__dirname, '..', 'bootstrap.log'), line + ' ' + process.pid + '\\n');
module.exports = {
  register({ cairn }) {
    cairn.fastify.get('/pid', async () => ({ pid: process.pid }));
  },
  async bootstrap({ cairn }) {
    note('bootstrap');
    const notes = cairn.documents('api::note.note');
    if ((await notes.count()) > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await notes.create({ data: { title: 'seeded' } });
    note('seeded');
  },
};`;

const note = {
  kind: 'collectionType',
  collectionName: 'notes',
  info: { singularName: 'note', pluralName: 'notes', displayName: 'Note' },
  options: { draftAndPublish: false },
  attributes: { title: { type: 'string' } },
};

beforeAll(ensureBuilt);

describeEachDialect('start-up on one database: bootstrap once, with a lock', (dialect) => {
  const running: Array<ReturnType<typeof spawnCairn>> = [];
  const cleanup: Array<() => Promise<void> | void> = [];
  afterEach(() => running.splice(0).forEach((p) => p.kill()));
  afterAll(async () => {
    for (const step of cleanup.splice(0)) await step();
  });

  /** A fresh database and an app folder using it (no jwtSecret: processes share the generated one). */
  async function freshApp() {
    const database = await freshDatabaseConfig(dialect);
    const dir = writeApp({
      contentTypes: { note },
      config: { database: database.config, permissions: { roles: { public: { permissions: ['api::note.note.find'] } } } },
      index,
    });
    cleanup.push(() => rmSync(dir, { recursive: true, force: true }), () => database.drop());
    const lines = () => readFileSync(join(dir, 'bootstrap.log'), 'utf8').trim().split('\n');
    return { dir, database, lines };
  }

  const start = (dir: string, port: number, args: string[] = []) => {
    const proc = spawnCairn(['start', '--dir', dir, '--port', String(port), ...args]);
    running.push(proc);
    return proc;
  };
  const get = async (url: string, headers: Record<string, string> = {}) => {
    const res = await fetch(url, { headers: { connection: 'close', ...headers } });
    return { status: res.status, body: await res.json() };
  };

  it('two processes started at once: both serve; the schema, the roles and the seed are made once', async () => {
    const { dir, database, lines } = await freshApp();
    const ports = [await freePort(), await freePort()];
    const procs = ports.map((port) => start(dir, port));
    await Promise.all(procs.map((p) => p.waitFor('REST API', 60_000)));
    for (const port of ports) {
      const list = await get(`http://127.0.0.1:${port}/api/notes`);
      expect(list.status).toBe(200);
      expect(list.body.data.map((n: { title: string }) => n.title)).toEqual(['seeded']);
    }
    // Each process ran its bootstrap, one after the other: the second found the first's seed.
    expect(lines().filter((l) => l.startsWith('bootstrap'))).toHaveLength(2);
    expect(lines().filter((l) => l.startsWith('seeded'))).toHaveLength(1);
    const db = await createDatabase(database.config);
    try {
      const roles = await db.query<{ type: string }>('SELECT type FROM up_roles ORDER BY type');
      expect(roles.map((r) => r.type)).toEqual(['authenticated', 'public']);
      // Each role's actions once (no duplicate rows from the second process): Strapi's defaults and the file's grant.
      const actions = await db.query<{ type: string; action: string }>(
        'SELECT r.type, p.action FROM up_permissions p JOIN up_permissions_role_lnk l ON l.permission_id = p.id JOIN up_roles r ON r.id = l.role_id',
      );
      // Sorted here: the databases' collations order these names differently.
      expect([...actions].sort((a, b) => (a.type === b.type ? (a.action < b.action ? -1 : 1) : a.type < b.type ? -1 : 1))).toEqual([
        ...withStrapiDefaults('authenticated', []).map((action) => ({ type: 'authenticated', action })),
        ...withStrapiDefaults('public', ['api::note.note.find']).map((action) => ({ type: 'public', action })),
      ]);
      expect(await db.query<{ n: number | string }>('SELECT COUNT(*) AS n FROM up_permissions').then((r) => Number(r[0].n))).toBe(actions.length);
    } finally {
      await db.close();
    }
    // The same app: a user's JWT from one process is valid on the other (one generated secret).
    const registered = await fetch(`http://127.0.0.1:${ports[0]}/api/auth/local/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', connection: 'close' },
      body: JSON.stringify({ username: 'ann', email: 'ann@example.com', password: 'secret12' }),
    }).then((r) => r.json());
    expect((await get(`http://127.0.0.1:${ports[1]}/api/users/me`, { authorization: `Bearer ${registered.jwt}` })).body).toMatchObject({ username: 'ann' });
    for (const proc of procs) {
      proc.child.kill('SIGTERM');
      expect(await proc.exited).toBe(0);
    }
  }, 120_000);

  it('a 2-worker cluster runs bootstrap once; both workers serve', async () => {
    const { dir, lines } = await freshApp();
    const port = await freePort();
    const proc = start(dir, port, ['--workers', '2']);
    await proc.waitFor('REST API', 60_000);
    const pids = new Set<number>();
    for (let i = 0; i < 40 && pids.size < 2; i++) pids.add((await get(`http://127.0.0.1:${port}/pid`)).body.pid);
    expect(pids.size).toBe(2);
    expect((await get(`http://127.0.0.1:${port}/api/notes`)).body.data).toHaveLength(1);
    expect(lines()).toEqual([expect.stringMatching(/^bootstrap \d+$/), expect.stringMatching(/^seeded \d+$/)]);
    // Neither worker ran it: the process that prepared the app did.
    for (const pid of pids) expect(lines()[0]).not.toBe(`bootstrap ${pid}`);
    proc.child.kill('SIGTERM');
    expect(await proc.exited).toBe(0);
  }, 120_000);
});
