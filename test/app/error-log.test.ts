import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../helpers/databases.js';
import { startTestApp, type TestApp } from '../helpers/app.js';

/** A note type with no relations (its table can be dropped alone), and a GraphQL field whose resolver throws. */
const schemas = {
  contentTypes: {
    note: {
      kind: 'collectionType',
      collectionName: 'notes',
      info: { singularName: 'note', pluralName: 'notes', displayName: 'Note' },
      options: { draftAndPublish: false },
      attributes: { title: { type: 'string' } },
    },
  },
  config: { plugins: { graphql: { config: { v4CompatibilityMode: false } }, 'users-permissions': { config: { jwtSecret: 'log-test' } } } },
  index: `module.exports = { register({ strapi }) {
    strapi.plugin('graphql').service('extension').use(() => ({
      typeDefs: 'extend type Query { boom: String }',
      resolvers: { Query: { boom: () => { throw new TypeError('boom from the resolver'); } } },
      resolversConfig: { 'Query.boom': { auth: false } },
    }));
  } };`,
};

/** The database's own words for a table that is gone. */
const NO_TABLE = /no such table: notes|relation "notes" does not exist|Table '[^']+\.notes' doesn't exist/;

describeEachDialect('every 5xx is logged with its cause', (dialect) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(dialect, schemas);
  });
  afterAll(async () => app?.close());

  /** The error lines logged while `run` ran. */
  const errorsWhile = async (run: () => Promise<unknown>) => {
    const before = app.logs().length;
    await run();
    return app.logs().slice(before).filter((line) => line.level >= 50);
  };

  it('a GraphQL resolver that throws: INTERNAL_SERVER_ERROR that reveals nothing, its error and stack in the log', async () => {
    let res: Awaited<ReturnType<TestApp['request']>> | undefined;
    const logged = await errorsWhile(async () => (res = await app.request('POST', '/graphql', { query: '{ boom }' })));
    expect(res!.body).toEqual({ errors: [{ message: 'Internal Server Error', path: ['boom'], extensions: { code: 'INTERNAL_SERVER_ERROR' } }], data: { boom: null } });
    expect(logged).toHaveLength(1);
    expect(logged[0].err).toMatchObject({ type: 'TypeError', message: 'boom from the resolver' });
    expect(logged[0].err!.stack).toContain('TypeError: boom from the resolver\n    at ');
    expect(logged[0].req).toEqual({ method: 'POST', url: '/graphql' });
  });

  it("the client's mistakes are not logged as errors", async () => {
    const logged = await errorsWhile(async () => {
      expect((await app.request('GET', '/api/notes?nope=1')).status).toBe(400);
      expect((await app.request('POST', '/graphql', { query: '{ notes { nope } }' })).status).toBe(400);
      expect((await app.request('POST', '/graphql', { query: 'mutation { createNote(data: { title: 5 }) { title } }' })).status).toBe(400);
    });
    expect(logged).toEqual([]);
  });

  it('a table dropped behind the server: REST 500s and GraphQL INTERNAL_SERVER_ERRORs, each logged once with the database error', async () => {
    await app.cairn.db.execute(`DROP TABLE ${app.cairn.db.quote('notes')}`);
    const failures: Array<[string, () => Promise<Awaited<ReturnType<TestApp['request']>>>]> = [
      ['REST list', () => app.request('GET', '/api/notes')],
      ['REST create', () => app.request('POST', '/api/notes', { data: { title: 'x' } })],
      // A query of generated reads runs on the compiled path (one statement builds the answer)...
      ['GraphQL compiled read', () => app.request('POST', '/graphql', { query: '{ notes { title } }' })],
      // ...a mutation through field resolvers.
      ['GraphQL mutation', () => app.request('POST', '/graphql', { query: 'mutation { createNote(data: { title: "x" }) { title } }' })],
    ];
    for (const [what, run] of failures) {
      let res: Awaited<ReturnType<TestApp['request']>> | undefined;
      const statements: string[] = [];
      const stop = app.cairn.db.onQuery((sql) => statements.push(sql));
      const logged = await errorsWhile(async () => (res = await run()));
      stop();
      // The compiled path reports its failure: it does not drop it and run the query a second time another way.
      if (what === 'GraphQL compiled read') expect(statements.filter((sql) => /notes/.test(sql)), what).toHaveLength(1);
      if (what.startsWith('REST')) {
        expect(res!.status, what).toBe(500);
        expect(res!.body, what).toEqual({ data: null, error: { status: 500, name: 'InternalServerError', message: 'Internal Server Error', details: {} } });
      } else {
        expect(res!.body.errors, what).toEqual([expect.objectContaining({ message: 'Internal Server Error', extensions: { code: 'INTERNAL_SERVER_ERROR' } })]);
        expect(res!.raw, what).not.toMatch(NO_TABLE);
      }
      expect(logged, what).toHaveLength(1);
      expect(logged[0].err!.message, what).toMatch(NO_TABLE);
      expect(logged[0].err!.stack, what).toContain('\n    at ');
    }
  });
});
