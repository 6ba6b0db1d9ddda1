import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../helpers/databases.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import type { DialectName } from '../../src/database/types.js';

const model = {
  contentTypes: {
    post: {
      kind: 'collectionType',
      collectionName: 'posts',
      info: { singularName: 'post', pluralName: 'posts', displayName: 'Post' },
      options: { draftAndPublish: false },
      attributes: { title: { type: 'string' }, views: { type: 'integer' } },
    },
  },
};

/** A row of `posts` in Strapi's layout, as app code writes it through knex. */
const row = (documentId: string, title: string, views: number) => {
  const now = new Date();
  return { document_id: documentId.padEnd(24, '0'), title, views, created_at: now, updated_at: now, published_at: now };
};

/** `.raw`'s answer is the driver's, as in Strapi: rows (SQLite), `{ rows }` (PostgreSQL), `[rows, fields]` (MySQL). */
const rawRows = (dialect: DialectName, answer: any): Array<Record<string, unknown>> =>
  dialect === 'sqlite' ? answer : dialect === 'postgres' ? answer.rows : answer[0];

/** App code (src/index.js) writing and reading through Strapi's knex in bootstrap, and its dialect. */
const index = (key: string) => `
module.exports = {
  async bootstrap({ strapi }) {
    const seen = (globalThis[${JSON.stringify(key)}] = { queries: [] });
    const knex = strapi.db.connection;
    const listener = (query) => void seen.queries.push(query.sql);
    knex.on('query', listener);
    const now = new Date();
    await knex('posts').insert({ document_id: 'bootstrap000000000000000', title: 'from bootstrap', views: 3, created_at: now, updated_at: now, published_at: now });
    knex.removeListener('query', listener);
    seen.rows = await knex('posts').select('title', 'views').where('title', 'from bootstrap');
    seen.raw = await knex.raw('select title from posts where views = ?', [3]);
    seen.client = strapi.db.dialect.client;
    seen.batch = strapi.db.dialect.getBatchInsertSize();
    seen.tables = await strapi.db.dialect.schemaInspector.getTables();
  },
};
`;

describeEachDialect('strapi.db.connection: Strapi\'s knex on the app\'s database', (dialect) => {
  let app: TestApp;
  const key = `__knex_${dialect}`;
  const seen = () => (globalThis as unknown as Record<string, any>)[key];
  const knex = () => app.cairn.strapi.db.connection;
  beforeAll(async () => {
    app = await startTestApp(dialect, { ...model, index: index(key) });
  });
  afterAll(async () => app?.close());

  it('bootstrap writes and reads through it; .on/.removeListener("query") hear its statements; .raw answers as the driver does', async () => {
    expect(seen().queries).toHaveLength(1);
    expect(seen().queries[0]).toMatch(/^insert into [`"]posts[`"]/);
    expect(seen().rows).toEqual([{ title: 'from bootstrap', views: 3 }]);
    expect(rawRows(dialect, seen().raw)).toEqual([{ title: 'from bootstrap' }]);
    const got = await app.request('GET', '/api/posts?filters[title]=from%20bootstrap');
    expect(got.body.data.map((p: { title: string; views: number }) => [p.title, p.views])).toEqual([['from bootstrap', 3]]);
  });

  it('a row written through knex is read by REST at once, and one REST writes by knex', async () => {
    await knex()('posts').insert(row('knexrow', 'through knex', 7));
    const got = await app.request('GET', '/api/posts?filters[title]=through%20knex');
    expect(got.status).toBe(200);
    expect(got.body.data).toMatchObject([{ documentId: 'knexrow'.padEnd(24, '0'), title: 'through knex', views: 7 }]);
    const created = await app.request('POST', '/api/posts', { data: { title: 'through REST', views: 11 } });
    expect(created.status).toBe(201);
    expect(await knex()('posts').select('document_id', 'views').where({ title: 'through REST' })).toEqual([{ document_id: created.body.data.documentId, views: 11 }]);
    await knex()('posts').where({ title: 'through REST' }).update({ views: 12 });
    expect((await app.request('GET', `/api/posts/${created.body.data.documentId}`)).body.data.views).toBe(12);
    await knex()('posts').where({ title: 'through REST' }).del();
    expect((await app.request('GET', `/api/posts/${created.body.data.documentId}`)).status).toBe(404);
  });

  it("strapi.db.getConnection(table) is that knex on the table (Strapi 5.54's), and without one the knex itself", async () => {
    const { db } = app.cairn.strapi;
    expect(await db.getConnection('posts').select('title').where({ title: 'from bootstrap' })).toEqual([{ title: 'from bootstrap' }]);
    expect(db.getConnection()).toBe(knex());
  });

  it("strapi.db.dialect: Strapi's client name, batch size, tables and schema updates; other members are errors", async () => {
    expect(seen().client).toBe(dialect);
    expect(seen().batch).toBe(dialect === 'sqlite' ? 500 : 1000);
    expect(seen().tables).toEqual(expect.arrayContaining(['posts', 'strapi_migrations_internal', 'up_users']));
    const { dialect: strapiDialect } = app.cairn.strapi.db;
    await strapiDialect.startSchemaUpdate();
    await strapiDialect.endSchemaUpdate();
    if (dialect === 'sqlite') expect(rawRows(dialect, await knex().raw('pragma foreign_keys'))).toEqual([{ foreign_keys: 1 }]);
    expect(() => (strapiDialect as unknown as Record<string, unknown>).getSqlType).toThrow('strapi.db.dialect.getSqlType is not provided by Cairn');
  });

  it("inside strapi.db.transaction knex does not join it: .transacting(trx) throws, and a knex read does not see the transaction's writes", async () => {
    const { db } = app.cairn.strapi;
    let outside: unknown;
    await db.transaction(async ({ trx, rollback }) => {
      await db.query('api::post.post').create({ data: { title: 'uncommitted', views: 1 } });
      expect(() => knex()('posts').select('id').transacting(trx as never)).toThrow(/trx is Cairn's transaction, not a knex one/);
      expect(() => knex().raw('select 1').transacting(trx as never)).toThrow(/cannot join it/);
      outside = await knex()('posts').select('id').where({ title: 'uncommitted' });
      await rollback();
    });
    expect(outside).toEqual([]);
  });

  it('a knex write waiting for a lock the Cairn transaction around it holds fails after the wait instead of hanging', { timeout: 40_000 }, async () => {
    const { db } = app.cairn.strapi;
    const [{ id }] = await knex()('posts').select('id').where({ title: 'through knex' });
    const started = Date.now();
    const failure = await db
      .transaction(async () => {
        await db.query('api::post.post').update({ where: { id }, data: { views: 8 } });
        // SQLite: the database's write lock (busy timeout); PostgreSQL and MySQL: the row's lock (lock wait).
        await knex()('posts').where({ id }).update({ views: 9 });
      })
      .then(
        () => undefined,
        (error: Error) => error,
      );
    // The statement's error, which the transaction answers as Cairn's other lock waits: a 503 (try again).
    expect(failure).toMatchObject({ name: 'ServiceUnavailableError' });
    expect((failure as Error & { cause: { code: string } }).cause.code).toMatch(/^(SQLITE_BUSY|55P03|ER_LOCK_WAIT_TIMEOUT)$/);
    expect(Date.now() - started).toBeLessThan(20_000);
    // Nothing of it was written.
    expect(await knex()('posts').select('views').where({ id })).toEqual([{ views: 7 }]);
  });
});

describeEachDialect('strapi.db.connection: closed with the app', (dialect) => {
  it('is one instance, and close() releases its connections', async () => {
    const tcp = () => process.getActiveResourcesInfo().filter((name) => name === 'TCPSocketWrap').length;
    const before = tcp();
    const app = await startTestApp(dialect, model);
    let closed = false;
    try {
      const knex = app.cairn.strapi.db.connection;
      expect(knex).toBe(app.cairn.strapi.db.connection);
      const connection = (await knex.client.acquireConnection()) as { open?: boolean };
      await knex.client.releaseConnection(connection);
      expect(await knex('posts').count({ n: '*' })).toHaveLength(1);
      await app.close();
      closed = true;
      expect(knex.client.pool).toBeUndefined();
      expect(() => app.cairn.strapi.db.connection).toThrow('the app is closed');
      if (dialect === 'sqlite') expect(connection.open).toBe(false);
      else {
        // Sockets end a moment after the pools' end() resolves.
        for (let i = 0; i < 40 && tcp() > before; i++) await new Promise((resolve) => setTimeout(resolve, 50));
        expect(tcp()).toBeLessThanOrEqual(before);
      }
    } finally {
      if (!closed) await app.close();
    }
  });
});

it("README's example of strapi.db.connection runs as written", async () => {
  const readme = readFileSync(resolve(import.meta.dirname, '../../README.md'), 'utf8');
  const example = /For example, in `src\/index.js`, with an `api::article.article` type \(table `articles`\):\s*```js\n([\s\S]*?)```/.exec(readme)![1].replace(/^ {2}/gm, '');
  const article = {
    kind: 'collectionType',
    collectionName: 'articles',
    info: { singularName: 'article', pluralName: 'articles', displayName: 'Article' },
    options: { draftAndPublish: true },
    attributes: { title: { type: 'string' } },
  };
  const app = await startTestApp('sqlite', { contentTypes: { article }, index: example });
  try {
    expect(app.logs().map((line) => line.msg)).toContain('0 article rows; latest published: ');
  } finally {
    await app.close();
  }
});
