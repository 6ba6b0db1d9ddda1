import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachDialect } from '../helpers/databases.js';
import { startTestApp, type TestApp, type TestSchemas } from '../helpers/app.js';

interface Timing {
  path: Array<string | number>;
  parentType: string;
  fieldName: string;
  returnType: string;
  startOffset: number;
  duration: number;
}

const model = (graphql: Record<string, unknown>): TestSchemas => ({
  contentTypes: {
    author: {
      kind: 'collectionType',
      collectionName: 'authors',
      info: { singularName: 'author', pluralName: 'authors', displayName: 'Author' },
      options: { draftAndPublish: false },
      attributes: {
        name: { type: 'string' },
        books: { type: 'relation', relation: 'oneToMany', target: 'api::book.book', mappedBy: 'author' },
      },
    },
    book: {
      kind: 'collectionType',
      collectionName: 'books',
      info: { singularName: 'book', pluralName: 'books', displayName: 'Book' },
      options: { draftAndPublish: false },
      attributes: {
        title: { type: 'string' },
        author: { type: 'relation', relation: 'manyToOne', target: 'api::author.author', inversedBy: 'books' },
      },
    },
  },
  config: {
    plugins: {
      graphql: { config: { shape: 'v4', ...graphql } },
      'users-permissions': { config: { jwtSecret: 'tracing-secret' } },
    },
    permissions: { roles: { public: { permissions: ['api::author.author.find'] } } },
  },
});

// Tracing is the seed's (Strapi v4 ran Apollo Server 3): its schema, `shape: 'v4'`.
const QUERY = '{ authors(sort: "name:asc") { data { attributes { name books(sort: "title:asc") { data { id } } } } } }';

describeEachDialect('GraphQL tracing (apolloServer.tracing)', (dialect) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(dialect, model({ apolloServer: { tracing: true } }));
    const ann = (await app.request('POST', '/api/authors', { data: { name: 'Ann' } })).body.data.documentId;
    await app.request('POST', '/api/authors', { data: { name: 'Bob' } });
    for (const title of ['A1', 'A2']) await app.request('POST', '/api/books', { data: { title, author: ann } });
  });
  afterAll(async () => app?.close());

  it('adds every resolved field with its path, types and timings, in the Apollo tracing format', async () => {
    const before = Date.now();
    const res = await app.request('POST', '/graphql', { query: QUERY });
    const after = Date.now();
    expect(res.status).toBe(200);
    const books = res.body.data.authors.data[0].attributes.books.data.map((b: { id: string }) => ({ id: b.id }));
    expect(books).toHaveLength(2);
    expect(res.body.data).toEqual({ authors: { data: [{ attributes: { name: 'Ann', books: { data: books } } }, { attributes: { name: 'Bob', books: { data: [] } } }] } });
    const tracing = res.body.extensions.tracing;
    expect(Object.keys(tracing).sort()).toEqual(['duration', 'endTime', 'execution', 'startTime', 'version']);
    expect(tracing.version).toBe(1);
    const start = Date.parse(tracing.startTime);
    const end = Date.parse(tracing.endTime);
    expect(tracing.startTime).toBe(new Date(start).toISOString());
    expect(start).toBeGreaterThanOrEqual(before);
    expect(end).toBeGreaterThanOrEqual(start);
    expect(end).toBeLessThanOrEqual(after);
    expect(Number.isInteger(tracing.duration) && tracing.duration > 0).toBe(true);

    const resolvers = tracing.execution.resolvers as Timing[];
    // In the order the fields started; which sibling starts first is graphql-js's business, so compare sorted.
    const fields = resolvers.map((r) => [r.path.join('.'), r.parentType, r.fieldName, r.returnType]).sort((x, y) => x[0].localeCompare(y[0]));
    expect(fields).toEqual([
      ['authors', 'Query', 'authors', 'AuthorEntityResponseCollection'],
      ['authors.data', 'AuthorEntityResponseCollection', 'data', '[AuthorEntity!]!'],
      ['authors.data.0.attributes', 'AuthorEntity', 'attributes', 'Author'],
      ['authors.data.0.attributes.books', 'Author', 'books', 'BookRelationResponseCollection'],
      ['authors.data.0.attributes.books.data', 'BookRelationResponseCollection', 'data', '[BookEntity!]!'],
      ['authors.data.0.attributes.books.data.0.id', 'BookEntity', 'id', 'ID'],
      ['authors.data.0.attributes.books.data.1.id', 'BookEntity', 'id', 'ID'],
      ['authors.data.0.attributes.name', 'Author', 'name', 'String'],
      ['authors.data.1.attributes', 'AuthorEntity', 'attributes', 'Author'],
      ['authors.data.1.attributes.books', 'Author', 'books', 'BookRelationResponseCollection'],
      ['authors.data.1.attributes.books.data', 'BookRelationResponseCollection', 'data', '[BookEntity!]!'],
      ['authors.data.1.attributes.name', 'Author', 'name', 'String'],
    ]);
    const startOffsets = resolvers.map((r) => r.startOffset);
    expect(startOffsets).toEqual([...startOffsets].sort((x, y) => x - y));
    // Paths are arrays with list indexes as numbers, as Apollo's format has them.
    expect(resolvers.find((r) => r.fieldName === 'attributes')!.path).toEqual(['authors', 'data', 0, 'attributes']);
    for (const r of resolvers) {
      expect(Number.isInteger(r.startOffset) && r.startOffset > 0, r.path.join('.')).toBe(true);
      expect(Number.isInteger(r.duration) && r.duration >= 0, r.path.join('.')).toBe(true);
      expect(r.startOffset + r.duration, r.path.join('.')).toBeLessThanOrEqual(tracing.duration);
    }
    // The root field reads the database: its time covers the statement, so it outlasts a plain property read.
    expect(resolvers[0].duration).toBeGreaterThan(resolvers[1].duration);
    // A child starts after its parent has resolved.
    expect(resolvers[1].startOffset).toBeGreaterThanOrEqual(resolvers[0].startOffset + resolvers[0].duration);
  });

  it('traces GET queries, and requests whose fields fail (the failed field keeps its timing)', async () => {
    const get = await app.request('GET', `/graphql?query=${encodeURIComponent('{ authors { data { id } } }')}`);
    expect(get.status).toBe(200);
    expect(get.body.extensions.tracing.execution.resolvers[0]).toMatchObject({ path: ['authors'], fieldName: 'authors' });

    // The public role may not find books: the root field fails (FORBIDDEN) and its timing is still reported.
    const forbidden = await app.request('POST', '/graphql', { query: '{ books { data { id } } }' }, { authorization: '' });
    expect(forbidden.status).toBe(200);
    expect(forbidden.body.errors[0].extensions.code).toBe('FORBIDDEN');
    expect(forbidden.body.data).toEqual({ books: null });
    expect(forbidden.body.extensions.tracing.execution.resolvers).toEqual([
      expect.objectContaining({ path: ['books'], parentType: 'Query', fieldName: 'books', returnType: 'BookEntityResponseCollection' }),
    ]);
  });

  it('a request that does not run (parse or validation error) has no tracing', async () => {
    const invalid = await app.request('POST', '/graphql', { query: '{ authors { data { nope } } }' });
    expect(invalid.status).toBe(400);
    expect(invalid.body.extensions).toBeUndefined();
    const unparsable = await app.request('POST', '/graphql', { query: '{ authors {' });
    expect(unparsable.status).toBe(400);
    expect(unparsable.body.extensions).toBeUndefined();
  });

  it('each request has its own trace', async () => {
    const [a, b] = await Promise.all([app.request('POST', '/graphql', { query: '{ authors { data { id } } }' }), app.request('POST', '/graphql', { query: QUERY })]);
    expect(a.body.extensions.tracing.execution.resolvers).toHaveLength(4);
    expect(b.body.extensions.tracing.execution.resolvers).toHaveLength(12);
  });
});

describe('GraphQL tracing configuration', () => {
  for (const [title, graphql] of [
    ['off by default', {}],
    ['off with tracing: false', { apolloServer: { tracing: false } }],
    ["off when apolloServer has only Apollo Server's other options", { apolloServer: { cache: 'bounded' } }],
  ] as const) {
    it(`${title}: no extensions key`, async () => {
      const app = await startTestApp('sqlite', model(graphql));
      try {
        const res = await app.request('POST', '/graphql', { query: QUERY });
        expect(res.status).toBe(200);
        expect(res.body).toEqual({ data: { authors: { data: [] } } });
        expect(res.raw).not.toContain('extensions');
      } finally {
        await app.close();
      }
    });
  }

  it("with Strapi 5's schemas (flat, or v4CompatibilityMode) it has no effect, as in Strapi 5, and the start says so", async () => {
    for (const v4CompatibilityMode of [undefined, true]) {
      const app = await startTestApp('sqlite', model({ shape: undefined, v4CompatibilityMode, apolloServer: { tracing: true } }));
      try {
        const res = await app.request('POST', '/graphql', { query: '{ authors { name books { title } } }' });
        expect(res.status).toBe(200);
        expect(res.body).toEqual({ data: { authors: [] } });
        expect(res.raw).not.toContain('extensions');
        expect(app.logs().filter((l) => l.level === 40).map((l) => l.msg)).toEqual([
          "graphql.config.apolloServer.tracing is ignored: Strapi 5 adds no extensions.tracing; it applies to the seed's shape (shape: 'v4') only",
        ]);
      } finally {
        await app.close();
      }
    }
  });

  it('a tracing or apolloServer value of the wrong type stops the start with a message naming it', async () => {
    await expect(startTestApp('sqlite', model({ apolloServer: { tracing: 'yes' } }))).rejects.toThrow(
      'config/plugins.json: plugins.graphql.config.apolloServer.tracing must be true or false, not "yes"',
    );
    await expect(startTestApp('sqlite', model({ apolloServer: true }))).rejects.toThrow('config/plugins.json: plugins.graphql.config.apolloServer must be an object, not true');
    await expect(startTestApp('sqlite', model({ apolloServer: [] }))).rejects.toThrow('config/plugins.json: plugins.graphql.config.apolloServer must be an object, not []');
  });
});
