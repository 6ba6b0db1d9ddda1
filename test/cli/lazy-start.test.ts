import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ensureBuilt, freePort, root, spawnCairn } from './build.js';

// The example app as users start it (`cairn start --dir examples/restaurants`), on a database this file seeds
// first, with a hook recording every module the process loads: what a start loads is what the first REST request
// waits for (issue 14). GraphQL, image processing and multipart parsing wait for the first request needing them.

const work = mkdtempSync(join(tmpdir(), 'cairn-startup-'));
const env = { DATABASE_FILENAME: join(work, 'data.db'), JWT_SECRET: 'startup-test-secret', NODE_ENV: 'development' };
const running: Array<ReturnType<typeof spawnCairn>> = [];

beforeAll(async () => {
  ensureBuilt();
  // The first start seeds the demo data (and may load what seeding needs): the tests look at the next ones.
  const { url, proc } = await startExample();
  expect((await fetch(`${url}/api/restaurants`)).status).toBe(200);
  await stop(proc);
}, 120_000);

afterAll(async () => {
  for (const proc of running) proc.kill();
  rmSync(work, { recursive: true, force: true });
});

async function startExample(record?: string) {
  const port = await freePort();
  const hook = pathToFileURL(join(import.meta.dirname, 'fixtures', 'record-modules.mjs')).href;
  const extra: Record<string, string> = record ? { NODE_OPTIONS: `--import=${hook}`, CAIRN_TEST_LOADED_MODULES: record } : {};
  const proc = spawnCairn(['start', '--dir', join(root, 'examples', 'restaurants'), '--port', String(port)], { ...env, ...extra });
  running.push(proc);
  await proc.waitFor('REST API', 90_000);
  return { url: `http://127.0.0.1:${port}`, proc };
}

async function stop(proc: ReturnType<typeof spawnCairn>) {
  proc.child.kill('SIGTERM');
  expect(await proc.exited).toBe(0);
}

/** The packages (`graphql`, `@fastify/busboy`) and Cairn's own compiled files (`dist/...`) a process has loaded. */
function loaded(file: string): { packages: Set<string>; files: Set<string> } {
  const paths = readFileSync(file, 'utf8').split('\n').filter(Boolean);
  const packages = new Set(paths.map((p) => /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(p)?.[1]).filter((p): p is string => !!p));
  const files = new Set(paths.filter((p) => p.startsWith(join(root, 'dist'))).map((p) => p.slice(root.length + 1)));
  return { packages, files };
}

const graphql = (url: string, query: string) =>
  fetch(`${url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query }) }).then(async (res) => ({
    status: res.status,
    body: await res.json(),
  }));

/** What the start must not load: each waits for the first request that needs it. */
const DEFERRED = ['graphql', 'graphql-jit', 'nexus', '@graphql-tools/schema', '@graphql-tools/utils', 'sharp', '@fastify/busboy', '@fastify/multipart', 'kysely', 'jose', 'qs'];

it('a start on a seeded database serves its first REST request without loading GraphQL, sharp, multipart parsing, Kysely or jose', async () => {
  const record = join(work, 'modules-rest.txt');
  const { url, proc } = await startExample(record);
  const res = await fetch(`${url}/api/restaurants`);
  expect(res.status).toBe(200);
  expect((await res.json()).data).toHaveLength(25);
  const { packages, files } = loaded(record);
  // The record is complete: what the first request needed is in it.
  expect([...packages]).toEqual(expect.arrayContaining(['fastify', 'better-sqlite3']));
  expect([...files]).toEqual(expect.arrayContaining(['dist/app/cairn.js', 'dist/rest/index.js', 'dist/graphql/index.js']));
  expect(DEFERRED.filter((name) => packages.has(name))).toEqual([]);
  expect([...files].filter((f) => f.startsWith('dist/graphql/') && !['index.js', 'extension.js', 'options.js', 'config.js', 'playground.js', 'field-auth.js'].includes(f.slice(13)))).toEqual([]);
  await stop(proc);
}, 120_000);

it('the first GraphQL requests, two at once, load GraphQL once and both answer what REST answers; sharp still waits', async () => {
  const record = join(work, 'modules-graphql.txt');
  const { url, proc } = await startExample(record);
  expect(loaded(record).packages.has('graphql')).toBe(false);
  const query = '{ restaurants(sort: "name:asc", pagination: { pageSize: 5 }) { data { id attributes { name } } meta { pagination { total } } } }';
  const [first, second] = await Promise.all([graphql(url, query), graphql(url, query)]);
  expect(first.status).toBe(200);
  expect(second).toEqual(first);
  const rest = await (await fetch(`${url}/api/restaurants?sort=name:asc&pagination[pageSize]=5&fields[0]=name`)).json();
  expect(first.body).toEqual({
    data: {
      restaurants: {
        data: rest.data.map((r: { documentId: string; name: string }) => ({ id: r.documentId, attributes: { name: r.name } })),
        meta: { pagination: { total: rest.meta.pagination.total } },
      },
    },
  });
  const paths = readFileSync(record, 'utf8').split('\n');
  expect(paths.filter((p) => p.endsWith(join('dist', 'graphql', 'endpoint.js')))).toHaveLength(1);
  const { packages } = loaded(record);
  expect([...packages]).toEqual(expect.arrayContaining(['graphql', 'graphql-jit']));
  expect(packages.has('sharp')).toBe(false);
  // Later requests use what the first ones built.
  expect(await graphql(url, '{ restaurants(pagination: { pageSize: 1 }) { meta { pagination { total } } } }')).toEqual({
    status: 200,
    body: { data: { restaurants: { meta: { pagination: { total: rest.meta.pagination.total } } } } },
  });
  await stop(proc);
}, 120_000);
