import { rmSync } from 'node:fs';
import { join } from 'node:path';
import Sqlite from 'better-sqlite3';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { folder } from './fixtures.js';
import { ensureBuilt, freePort, spawnCairn } from '../cli/build.js';
import { privateServerProblem, startPrivateMariadb, startPrivatePostgres, type PrivateServer } from '../helpers/private-server.js';
import type { DatabaseConfig } from '../../src/database/types.js';

/**
 * Real database faults, on servers of the test's own (never the shared ones): a restart with a write in flight,
 * connections cut by the server, an outage. Cairn runs as users run it (`cairn start`, a process of its own), so a
 * crash is seen as the process exiting.
 */

const article = {
  kind: 'collectionType',
  collectionName: 'articles',
  info: { singularName: 'article', pluralName: 'articles', displayName: 'Article' },
  options: { draftAndPublish: false },
  attributes: { title: { type: 'string' }, tags: { type: 'relation', relation: 'manyToMany', target: 'api::tag.tag' } },
};
const tag = {
  kind: 'collectionType',
  collectionName: 'tags',
  info: { singularName: 'tag', pluralName: 'tags', displayName: 'Tag' },
  options: { draftAndPublish: false },
  attributes: { name: { type: 'string' } },
};
const actions = ['find', 'findOne', 'create', 'update', 'delete'];

function writeApp(database: DatabaseConfig, port: number): string {
  return folder(
    {
      'package.json': '{ "type": "commonjs" }',
      'src/api/article/content-types/article/schema.json': JSON.stringify(article),
      'src/api/tag/content-types/tag/schema.json': JSON.stringify(tag),
      'config/database.json': JSON.stringify(database),
      'config/server.json': JSON.stringify({ port }),
      'config/permissions.json': JSON.stringify({
        roles: { public: { permissions: ['article', 'tag'].flatMap((t) => actions.map((a) => `api::${t}.${t}.${a}`)) } },
      }),
    },
    'cairn-app-',
  );
}

interface Answer {
  status: number;
  retryAfter: string | null;
  body: unknown;
  ms: number;
}

/** The fields of entries these tests read. */
interface Entry {
  documentId: string;
  title: string;
  name: string;
  tags: Entry[];
}
const entry = (answer: Answer) => (answer.body as { data: Entry }).data;
const entries = (answer: Answer) => (answer.body as { data: Entry[] }).data;

async function call(base: string, method: string, path: string, body?: unknown): Promise<Answer> {
  const started = performance.now();
  const response = await fetch(`${base}${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(20_000),
  });
  const text = await response.text();
  return { status: response.status, retryAfter: response.headers.get('retry-after'), body: text ? JSON.parse(text) : null, ms: performance.now() - started };
}

/** Polls until `done` holds; returns how long it took. */
async function until(done: () => Promise<boolean>, timeoutMs: number, what: string): Promise<number> {
  const started = performance.now();
  while (!(await done())) {
    if (performance.now() - started > timeoutMs) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
  return performance.now() - started;
}

const expectUnavailable = (answer: Answer) => {
  expect(answer.status, JSON.stringify(answer.body)).toBe(503);
  expect(answer.retryAfter).toMatch(/^\d+$/);
  expect(answer.body).toEqual({
    data: null,
    error: { status: 503, name: 'ServiceUnavailableError', message: expect.stringMatching(/database/i), details: {} },
  });
};

const wanted = (process.env.CAIRN_TEST_DIALECTS ?? 'sqlite,postgres,mysql').split(',').map((d) => d.trim());

beforeAll(ensureBuilt);

for (const dialect of ['postgres', 'mysql'] as const) {
  const problem = !wanted.includes(dialect) ? 'not in CAIRN_TEST_DIALECTS' : privateServerProblem(dialect);
  if (problem) {
    if (process.env.CI === 'true' && wanted.includes(dialect)) throw new Error(`CI: no private ${dialect} server: ${problem}`);
    console.warn(`skipping the database-fault suite on ${dialect}: ${problem}`);
    continue;
  }

  describe(`database faults [${dialect}]`, () => {
    let server: PrivateServer;
    let app: ReturnType<typeof spawnCairn>;
    /** Every Cairn process this suite started: a test that crashed one must not take the next tests down with it. */
    const apps: Array<ReturnType<typeof spawnCairn>> = [];
    let dir: string | undefined;
    let base: string;
    let articleId: string;
    let tagIds: string[];
    let linkTable: string;

    beforeAll(async () => {
      server = dialect === 'postgres' ? await startPrivatePostgres() : await startPrivateMariadb();
      const port = await freePort();
      dir = writeApp({ connection: { ...server.config.connection, acquireConnectionTimeout: 1000 } }, port);
      base = `http://127.0.0.1:${port}`;
      await startCairn();
      tagIds = [];
      for (const name of ['a', 'b']) tagIds.push(entry(await call(base, 'POST', '/api/tags', { data: { name } })).documentId);
      articleId = entry(await call(base, 'POST', '/api/articles', { data: { title: 'first', tags: [tagIds[0]] } })).documentId;
      const tables = await server.admin<{ name: string }>(
        dialect === 'postgres'
          ? `SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' AND table_name LIKE '%tags%lnk'`
          : `SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'cairn' AND table_name LIKE '%tags%lnk'`,
      );
      expect(tables).toHaveLength(1);
      linkTable = tables[0].name;
    }, 120_000);

    async function startCairn() {
      app = spawnCairn(['start', '--dir', dir!]);
      apps.push(app);
      await app.waitFor('REST API', 30_000);
    }

    beforeEach(async () => {
      await server.start();
      if (app.child.exitCode !== null) await startCairn();
    });

    afterAll(async () => {
      for (const started of apps) started.kill();
      await server?.destroy();
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    const alive = () => expect(app.child.exitCode, `Cairn exited:\n${app.output}`).toBe(null);
    /** The in-flight write's answer; if there is none (the connection broke), what the process printed says why. */
    const answerOf = (answer: Promise<Answer>) =>
      answer.catch((error: Error) => {
        throw new Error(`no answer (${error.message}); Cairn printed:\n${app.output}`);
      });

    /** Connections of the test's own (holding locks): closed after each test, even one that failed half-way. */
    const lockers: Array<Awaited<ReturnType<PrivateServer['connect']>>> = [];
    async function connect() {
      const locker = await server.connect();
      lockers.push(locker);
      return locker;
    }
    afterEach(async () => {
      for (const locker of lockers.splice(0)) await locker.close();
    });

    /** The causes of the `count` 503s Cairn logged since `from` (an offset in its output), each line checked. */
    async function logged503s(from: number, count: number): Promise<string[]> {
      const lines = () => app.output.slice(from).split('\n').filter((line) => line.includes('"statusCode":503'));
      await until(async () => lines().length >= count, 5000, `${count} logged 503s`); // the pipe may lag the answer
      return lines().map((line) => {
        const entry = JSON.parse(line);
        expect(entry).toMatchObject({ level: 50, req: { method: expect.any(String), url: expect.any(String) }, msg: expect.stringMatching(/database/) });
        return entry.err.message as string;
      });
    }

    /** A connection of the test's own holding a lock on the article-tag link table: reads go on, writes to it wait. */
    async function lockLinks() {
      const locker = await connect();
      if (dialect === 'postgres') {
        await locker.query('BEGIN');
        await locker.query(`LOCK TABLE "${linkTable}" IN SHARE MODE`);
      } else {
        await locker.query(`LOCK TABLES \`${linkTable}\` READ`);
      }
      return locker;
    }

    /** Waits until `count` of Cairn's statements wait on a lock (a table's or a row's). */
    async function waitingOnLock(count: number) {
      const waiting =
        dialect === 'postgres'
          ? `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = 'cairn' AND wait_event_type = 'Lock'`
          : // A row lock wait shows as a long 'Updating' (information_schema.innodb_trx lags behind).
            `SELECT count(*) AS n FROM information_schema.processlist
             WHERE db = 'cairn' AND (state LIKE 'Waiting for table%' OR (state = 'Updating' AND info LIKE 'UPDATE%'))`;
      await until(async () => Number((await server.admin<{ n: number }>(waiting))[0].n) >= count, 10_000, `${count} writes to wait on the lock`);
    }

    /** `PUT /api/articles/:id` with new tags; the test awaits its answer later (a crash must fail that await). */
    function putTags(documentId: string, title: string, tags: string[]): Promise<Answer> {
      const answer = call(base, 'PUT', `/api/articles/${documentId}`, { data: { title, tags } });
      answer.catch(() => {});
      return answer;
    }

    /**
     * Starts a write of the article (new title, new tags) and returns once it waits on the locked link table: the
     * article's row is already updated inside the write's transaction.
     */
    async function writeBlockedOnLinks() {
      const locker = await lockLinks();
      const answer = putTags(articleId, 'half', [tagIds[1]]);
      await waitingOnLock(1);
      return { answer, locker };
    }

    /** The article as the database has it: title and tag names. Nothing of a write that failed may show. */
    async function articleNow(): Promise<{ title: string; tags: string[] }> {
      const answer = await call(base, 'GET', `/api/articles/${articleId}?populate=tags`);
      expect(answer.status).toBe(200);
      return { title: entry(answer).title, tags: entry(answer).tags.map((t) => t.name) };
    }

    it('a restart with a write in flight: no crash, 503 with Retry-After, nothing half written, each 503 logged with its cause', async () => {
      const logFrom = app.output.length;
      const { answer, locker } = await writeBlockedOnLinks();
      await server.stop();
      await locker.close();
      expectUnavailable(await answerOf(answer));
      alive();

      // During the outage every request answers 503 at once (the server refuses connections), reads and writes alike.
      for (const [method, path, body] of [
        ['GET', '/api/articles'],
        ['GET', `/api/articles/${articleId}?populate=tags`],
        ['POST', '/api/articles', { data: { title: 'during' } }],
        ['PUT', `/api/articles/${articleId}`, { data: { title: 'during' } }],
      ] as const) {
        const during = await call(base, method, path, body);
        expectUnavailable(during);
        expect(during.ms).toBeLessThan(2000);
      }
      alive();

      // Back without restarting Cairn: the first request after the database accepts connections again succeeds.
      await server.start();
      const resumed = await until(async () => (await call(base, 'GET', '/api/articles')).status === 200, 10_000, 'a 200');
      expect(resumed).toBeLessThan(2000);
      expect(await articleNow()).toEqual({ title: 'first', tags: ['a'] });
      alive();

      // Logged: the in-flight write's own cause (not that of the ROLLBACK that failed after it), then the refusals.
      const causes = await logged503s(logFrom, 5);
      expect(causes).toHaveLength(5);
      // pg reports the cut either with the server's message or, when the socket closed first, with its own.
      expect(causes[0]).toMatch(dialect === 'postgres' ? /terminating connection due to administrator command|Client has encountered a connection error/ : /Connection lost: The server closed the connection/);
      for (const cause of causes.slice(1)) expect(cause).toMatch(/ECONNREFUSED/);
    }, 60_000);

    it('connections cut by the server (pg_terminate_backend / KILL): no crash, they are replaced, the cut write runs again once', async () => {
      const { answer, locker } = await writeBlockedOnLinks();
      // A read while the blocked write holds its connection needs a second one, which then waits idle in the pool
      // (several fast reads at once may all be served by one connection, so that alone proves nothing).
      expect((await call(base, 'GET', '/api/articles?populate=tags')).status).toBe(200);
      // Every connection of Cairn's, idle or in the blocked write, is cut; the test's own two are spared.
      const cut =
        dialect === 'postgres'
          ? (
              await server.admin<{ pid: number }>(
                `SELECT pid FROM pg_stat_activity WHERE datname = 'cairn' AND pid NOT IN (pg_backend_pid(), ${locker.id})`,
              )
            ).map((r) => r.pid)
          : (
              await server.admin<{ id: number }>(
                `SELECT id FROM information_schema.processlist WHERE db = 'cairn' AND id NOT IN (CONNECTION_ID(), ${locker.id})`,
              )
            ).map((r) => r.id);
      expect(cut.length).toBeGreaterThan(1);
      for (const id of cut) await server.admin(dialect === 'postgres' ? `SELECT pg_terminate_backend(${id})` : `KILL ${id}`);
      await locker.close();
      // The cut came before COMMIT: Cairn ran the whole write again on a new connection, and it landed once.
      const written = await answerOf(answer);
      expect(written.status, JSON.stringify(written.body)).toBe(200);
      expect(await articleNow()).toEqual({ title: 'half', tags: ['b'] });
      alive();
      const remaining =
        dialect === 'postgres'
          ? `SELECT count(*)::int AS n FROM pg_stat_activity WHERE pid IN (${cut.join(', ')})`
          : `SELECT count(*) AS n FROM information_schema.processlist WHERE id IN (${cut.join(', ')})`;
      await until(async () => Number((await server.admin<{ n: number }>(remaining))[0].n) === 0, 10_000, 'the cut connections to be gone');
      // Every request after that is served: the pool dropped the dead connections and opened new ones.
      const after = await Promise.all(Array.from({ length: 8 }, () => call(base, 'GET', '/api/articles?populate=tags')));
      expect(after.map((r) => r.status)).toEqual(Array(8).fill(200));
      expect((await call(base, 'PUT', `/api/articles/${articleId}`, { data: { title: 'second', tags: [tagIds[1]] } })).status).toBe(200);
      expect(await articleNow()).toEqual({ title: 'second', tags: ['b'] });
      alive();
    }, 60_000);

    it('a saturated pool: a request waits for a connection at most acquireConnectionTimeout (1 s here), then 503', async () => {
      const others: string[] = [];
      for (let i = 0; i < 5; i++) others.push(entry(await call(base, 'POST', '/api/articles', { data: { title: `other ${i}` } })).documentId);
      // Five writes, the pool's size, each hold a connection in their transaction while they wait on a row lock.
      const locker = await connect();
      await locker.query('BEGIN');
      await locker.query(`SELECT id FROM articles WHERE document_id IN (${others.map((id) => `'${id}'`).join(', ')}) FOR UPDATE`);
      const writes = others.map((documentId) =>
        call(base, 'PUT', `/api/articles/${documentId}`, { data: { title: 'renamed' } }).catch((error: Error) => {
          throw new Error(`no answer (${error.message}); Cairn printed:\n${app.output}`);
        }),
      );
      for (const write of writes) write.catch(() => {}); // awaited below
      await waitingOnLock(5);
      const logFrom = app.output.length;
      const read = await call(base, 'GET', '/api/tags');
      expectUnavailable(read);
      expect(read.ms).toBeGreaterThan(900);
      expect(read.ms).toBeLessThan(2500);
      expect(await logged503s(logFrom, 1)).toEqual([expect.stringMatching(dialect === 'postgres' ? /timeout exceeded when trying to connect/ : /no database connection within 1000 ms/)]);
      await locker.close();
      expect((await Promise.all(writes)).map((w) => w.status)).toEqual([200, 200, 200, 200, 200]);
      expect((await call(base, 'GET', '/api/tags')).status).toBe(200);
      alive();
    }, 60_000);

    it('GET /_health: 204 while the database answers, 503 while it does not', async () => {
      const up = await call(base, 'GET', '/_health');
      expect(up.status).toBe(204);
      expect(up.body).toBe(null);
      await server.stop();
      const down = await call(base, 'GET', '/_health');
      expectUnavailable(down);
      expect(down.ms).toBeLessThan(2000);
      await server.start();
      await until(async () => (await call(base, 'GET', '/_health')).status === 204, 10_000, '/_health to answer 204');
      alive();
    }, 60_000);
  });
}

describe('SQLite: several processes on one file', () => {
  const dirs: string[] = [];
  const apps: Array<ReturnType<typeof spawnCairn>> = [];

  afterAll(() => {
    for (const app of apps) app.kill();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('a write lock held by another process past busy_timeout (5 s): 503 with Retry-After, reads go on; writes resume after', async () => {
    const port = await freePort();
    const dir = writeApp({ connection: { client: 'sqlite', connection: { filename: '.tmp/data.db' } } }, port);
    dirs.push(dir);
    const base = `http://127.0.0.1:${port}`;
    const app = spawnCairn(['start', '--dir', dir]);
    apps.push(app);
    await app.waitFor('REST API', 30_000);
    const other = new Sqlite(join(dir, '.tmp', 'data.db'));
    try {
      other.exec('BEGIN IMMEDIATE'); // another process writing, for longer than Cairn waits
      const logFrom = app.output.length;
      const blocked = await call(base, 'POST', '/api/tags', { data: { name: 'blocked' } });
      expectUnavailable(blocked);
      expect(blocked.ms).toBeGreaterThan(4500);
      expect((await call(base, 'GET', '/api/tags')).status).toBe(200); // WAL: readers never wait for the writer
      await until(async () => app.output.slice(logFrom).includes('"statusCode":503'), 5000, 'the logged 503');
      // The log line carries the cause: SQLite's own error.
      expect(app.output.slice(logFrom)).toMatch(/"err":\{"type":"SqliteError","message":"database is locked".*"code":"SQLITE_BUSY"\}/);
    } finally {
      other.close(); // rolls back
    }
    expect((await call(base, 'POST', '/api/tags', { data: { name: 'after' } })).status).toBe(201);
    expect(entries(await call(base, 'GET', '/api/tags')).map((t) => t.name)).toEqual(['after']);
    expect(app.child.exitCode, app.output).toBe(null);
  }, 60_000);

  it('concurrent writes through both processes: no SQLITE_BUSY error, every write acknowledged and stored', async () => {
    const ports = [await freePort(), await freePort()];
    const dir = writeApp({ connection: { client: 'sqlite', connection: { filename: '.tmp/data.db' } } }, ports[0]);
    dirs.push(dir);
    const bases = ports.map((port) => `http://127.0.0.1:${port}`);
    for (const port of ports) {
      // One after the other: the second starts on the tables the first made.
      const app = spawnCairn(['start', '--dir', dir, '--port', String(port)]);
      apps.push(app);
      await app.waitFor('REST API', 30_000);
    }
    const tagIds: string[] = [];
    for (const name of ['a', 'b', 'c']) tagIds.push(entry(await call(bases[0], 'POST', '/api/tags', { data: { name } })).documentId);

    // 16 clients per process, each creating then updating its own articles (a read then writes in one transaction).
    const failures: string[] = [];
    await Promise.all(
      Array.from({ length: 32 }, async (_, client) => {
        const base = bases[client % 2];
        for (let i = 0; i < 6; i++) {
          const made = await call(base, 'POST', '/api/articles', { data: { title: `c${client}-${i}`, tags: [tagIds[i % 3]] } });
          if (made.status !== 201) {
            failures.push(`POST ${made.status} ${JSON.stringify(made.body)}`);
            continue;
          }
          const { documentId } = entry(made);
          const changed = await call(base, 'PUT', `/api/articles/${documentId}`, {
            data: { title: `c${client}-${i}!`, tags: { connect: [tagIds[(i + 1) % 3]] } },
          });
          if (changed.status !== 200) failures.push(`PUT ${changed.status} ${JSON.stringify(changed.body)}`);
        }
      }),
    );
    expect(failures).toEqual([]);
    const titles: string[] = [];
    for (const page of [1, 2]) {
      titles.push(...entries(await call(bases[1], 'GET', `/api/articles?pagination[page]=${page}&pagination[pageSize]=100&fields[0]=title`)).map((a) => a.title));
    }
    expect(titles.sort()).toEqual(Array.from({ length: 32 }, (_, c) => Array.from({ length: 6 }, (_, i) => `c${c}-${i}!`)).flat().sort());
    for (const app of apps) expect(app.child.exitCode, app.output).toBe(null);
  }, 120_000);
});
