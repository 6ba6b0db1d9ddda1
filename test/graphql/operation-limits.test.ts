import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCairn } from '../../src/app/cairn.js';
import { describeEachDialect, freshDatabaseConfig } from '../helpers/databases.js';
import { startTestApp, writeApp, type TestApp, type TestSchemas } from '../helpers/app.js';
import { kitchen } from '../fixtures/kitchen.js';
import { isLocalesRecheck } from '../helpers/auth-statements.js';

type Entry = Record<string, any>;

/** The queries are in the seed's shape (`shape: 'v4'`). */
const withGraphql = (graphql: Record<string, unknown> | undefined): TestSchemas => ({
  ...kitchen,
  config: {
    plugins: { ...kitchen.config!.plugins, graphql: { config: { shape: 'v4', ...graphql } } },
    permissions: { roles: { public: { permissions: ['api::restaurant.restaurant.find', 'api::category.category.find'] } } },
  },
});

const aliases = (count: number, field = 'restaurants { data { id } }') => `{ ${Array.from({ length: count }, (_, i) => `a${i}: ${field}`).join(' ')} }`;
/** 1 + 1 + 1 + 1 + `count` field selections. */
const names = (count: number) => `{ restaurants { data { id attributes { ${'name '.repeat(count)}} } } }`;
/** 30 aliases of 32 field selections each, and `typenames` more. */
const fields = (typenames: number) =>
  aliases(
    30,
    'restaurants { data { id attributes { name stars createdAt updatedAt publishedAt locale chef { data { id attributes { name age email rating active born } } } categories { data { id attributes { name slug } } } } } meta { pagination { total page pageSize pageCount } } }',
  ).replace(/^\{/, `{ ${'__typename '.repeat(typenames)}`);
/** Two root lists of 100 restaurants with `second` categories each in the second one: 100 + 100 * 99 + 100 + 100 * second items. */
const items = (second: number) => {
  const list = (size: number) => `restaurants(pagination: { pageSize: 100 }) { data { attributes { categories(pagination: { pageSize: ${size} }) { data { id } } } } }`;
  return `{ a: ${list(99)} b: ${list(second)} }`;
};
/** 23 + `count` lexical tokens. */
const tokens = (count: number) => `{ restaurants(filters: { name: { in: [${' "R1"'.repeat(count)} ] } }) { data { id } } }`;

describeEachDialect('GraphQL: what one operation may cost (default limits)', (dialect) => {
  let app: TestApp;
  const gql = async (query: string) => {
    const res = await app.request('POST', '/graphql', { query }, { authorization: '' });
    return { status: res.status, body: res.body as { data?: Entry; errors?: Entry[] } };
  };
  /** The answer and the statements the database received while it was made. */
  const counted = async (query: string) => {
    const statements: string[] = [];
    // The locales' recheck, sent by whichever request first finds its period over, is not the operation's.
    const stop = app.cairn.db.onQuery((sql) => void (isLocalesRecheck(sql) || statements.push(sql)));
    try {
      return { ...(await gql(query)), statements };
    } finally {
      stop();
    }
  };
  const refused = (answer: { status: number; body: { errors?: Entry[] } }, code: string, message: string) => {
    expect(answer.status).toBe(400);
    expect(answer.body.errors).toHaveLength(1);
    expect(answer.body.errors![0].extensions.code).toBe(code);
    expect(answer.body.errors![0].message).toBe(message);
  };

  beforeAll(async () => {
    app = await startTestApp(dialect, withGraphql(undefined));
    const categories: string[] = [];
    for (const name of ['Pizza', 'Sushi']) categories.push((await app.request('POST', '/api/categories', { data: { name } })).body.data.documentId);
    for (const name of ['R1', 'R2', 'R3']) await app.request('POST', '/api/restaurants', { data: { name, categories } });
  });
  afterAll(async () => app?.close());

  it('the 5,000-alias request of 100-item lists is a 400 before any statement runs', async () => {
    const started = performance.now();
    const attack = await counted(aliases(5000, 'restaurants(pagination: { pageSize: 100 }) { data { id attributes { name } } }'));
    const elapsed = performance.now() - started;
    refused(attack, 'GRAPHQL_PARSE_FAILED', 'The query has more tokens than graphql.config.maxTokens allows (10000)');
    expect(attack.statements).toEqual([]);
    // It used to answer 37 MB in 1.7 s; refused at the parser, it costs milliseconds.
    expect(elapsed).toBeLessThan(1000);
    // Within the token limit, the aliases are counted.
    const fewer = await counted(aliases(500, 'restaurants(pagination: { pageSize: 100 }) { data { id } }'));
    refused(fewer, 'GRAPHQL_VALIDATION_FAILED', 'The operation has 500 aliases, more than graphql.config.maxAliases allows (30)');
    expect(fewer.body.errors![0].extensions.error).toEqual({
      name: 'ValidationError',
      message: fewer.body.errors![0].message,
      details: { limit: 'maxAliases', max: 30, found: 500 },
    });
    expect(fewer.statements).toEqual([]);
  });

  it('just under each default limit answers; one over is refused with the limit named, without SQL', async () => {
    const atAliases = await gql(aliases(30));
    expect(atAliases.status).toBe(200);
    expect(atAliases.body.data!.a29.data).toHaveLength(3);
    refused(await counted(aliases(31)), 'GRAPHQL_VALIDATION_FAILED', 'The operation has 31 aliases, more than graphql.config.maxAliases allows (30)');

    const atFields = await gql(fields(40));
    expect(atFields.status).toBe(200);
    expect(atFields.body.data!.a29.data[0].attributes.categories.data).toHaveLength(2);
    const overFields = await counted(fields(41));
    refused(overFields, 'GRAPHQL_VALIDATION_FAILED', 'The operation has 1001 field selections, more than graphql.config.maxFields allows (1000)');
    expect(overFields.statements).toEqual([]);

    const atItems = await gql(items(99));
    expect(atItems.status).toBe(200);
    expect(atItems.body.data!.b.data[0].attributes.categories.data).toHaveLength(2);
    const overItems = await counted(items(100));
    refused(overItems, 'GRAPHQL_VALIDATION_FAILED', 'The operation has 20100 list items, more than graphql.config.maxItems allows (20000)');
    expect(overItems.statements).toEqual([]);

    const atTokens = await gql(tokens(10_000 - 23));
    expect(atTokens.status).toBe(200);
    expect(atTokens.body.data!.restaurants.data).toHaveLength(1);
    const overTokens = await counted(tokens(10_001 - 23));
    refused(overTokens, 'GRAPHQL_PARSE_FAILED', 'The query has more tokens than graphql.config.maxTokens allows (10000)');
    expect(overTokens.statements).toEqual([]);
  });

  it('the same field repeated a thousand times (no aliases) is refused with its count rather than "Validation aborted." from the field-merging check', async () => {
    const started = performance.now();
    const repeated = await counted(`{ ${'restaurants { data { id } } '.repeat(1000)}}`);
    refused(repeated, 'GRAPHQL_VALIDATION_FAILED', 'The operation has 3000 field selections, more than graphql.config.maxFields allows (1000)');
    expect(performance.now() - started).toBeLessThan(1000);
    expect(repeated.statements).toEqual([]);
  });

  it('fragments are expanded: a fragment bomb is refused at once, a fragment cycle gets the specified error', async () => {
    const levels = 40;
    const bomb = Array.from({ length: levels }, (_, i) => `fragment F${i} on Restaurant { ${i + 1 < levels ? `...F${i + 1} ...F${i + 1}` : 'name'} }`).join(' ');
    const started = performance.now();
    const answer = await counted(`{ restaurants { data { attributes { ...F0 } } } } ${bomb}`);
    refused(answer, 'GRAPHQL_VALIDATION_FAILED', `The operation has ${3 + 2 ** (levels - 1)} field selections, more than graphql.config.maxFields allows (1000)`);
    expect(performance.now() - started).toBeLessThan(1000);
    expect(answer.statements).toEqual([]);
    const cycle = await gql('{ restaurants { data { attributes { ...A } } } } fragment A on Restaurant { name ...B } fragment B on Restaurant { ...A }');
    expect(cycle.status).toBe(400);
    expect(cycle.body.errors![0].message).toBe('Cannot spread fragment "A" within itself via "B".');
  });
});

describe('GraphQL: the operation limits are configurable [sqlite]', () => {
  let app: TestApp;
  const gql = async (query: string, variables?: Entry) => {
    const res = await app.request('POST', '/graphql', { query, variables }, { authorization: '' });
    return { status: res.status, body: res.body as { data?: Entry; errors?: Entry[] } };
  };
  beforeAll(async () => {
    // Numbers, or strings of them as `env('X')` gives.
    app = await startTestApp('sqlite', withGraphql({ maxAliases: 2, maxFields: '12', maxItems: 25, maxTokens: 40, amountLimit: 5, depthLimit: 5 }));
    for (const name of ['R1', 'R2', 'R3', 'R4', 'R5', 'R6']) await app.request('POST', '/api/restaurants', { data: { name } });
  });
  afterAll(async () => app?.close());

  it('each limit is the configured one', async () => {
    expect((await gql(aliases(2))).status).toBe(200);
    expect((await gql(aliases(3))).body.errors![0].message).toBe('The operation has 3 aliases, more than graphql.config.maxAliases allows (2)');
    expect((await gql(names(8))).status).toBe(200);
    expect((await gql(names(9))).body.errors![0].message).toBe('The operation has 13 field selections, more than graphql.config.maxFields allows (12)');
    expect((await gql(tokens(40 - 23))).status).toBe(200);
    expect((await gql(tokens(41 - 23))).body.errors![0].message).toBe('The query has more tokens than graphql.config.maxTokens allows (40)');
    // amountLimit caps what a list counts: pageSize 100 is 5 items, so 5 + 5 * 4 fits 25, 5 + 5 * 5 does not.
    const nested = (size: number) => `{ restaurants(pagination: { pageSize: 100 }) { data { attributes { categories(pagination: { pageSize: ${size} }) { data { id } } } } } }`;
    const at = await gql(nested(4));
    expect(at.status).toBe(200);
    expect(at.body.data!.restaurants.data).toHaveLength(5);
    expect((await gql(nested(5))).body.errors![0].message).toBe('The operation has 30 list items, more than graphql.config.maxItems allows (25)');
    // A page size given by a variable may reach amountLimit, so it counts as that.
    const variable = 'query($p: PaginationArg) { restaurants { data { attributes { categories(pagination: $p) { data { id } } } } } }';
    expect((await gql(variable, { p: { pageSize: 1 } })).body.errors![0].message).toBe('The operation has 30 list items, more than graphql.config.maxItems allows (25)');
  });
});

describe('GraphQL: bad limit values stop the start [sqlite]', () => {
  /** Starts Cairn on an app with this graphql config; returns the start's error (undefined: it started). */
  const startError = async (graphql: Record<string, unknown>) => {
    const dir = writeApp(withGraphql(graphql));
    const database = await freshDatabaseConfig('sqlite');
    try {
      const cairn = await createCairn({ dir, config: { database: database.config } as never });
      await cairn.close();
      return undefined;
    } catch (error) {
      return error as Error;
    } finally {
      rmSync(dir, { recursive: true, force: true });
      await database.drop();
    }
  };

  it('every limit must be a positive integer (or a string of one)', async () => {
    const cases: Array<[string, unknown, string]> = [
      ['maxAliases', 0, '0'],
      ['maxFields', -1, '-1'],
      ['maxItems', 1.5, '1.5'],
      ['maxTokens', 'many', '"many"'],
      ['depthLimit', true, 'true'],
      ['amountLimit', null, 'null'],
      ['maxItems', '', '""'],
      ['maxAliases', [3], '[3]'],
    ];
    for (const [key, value, shown] of cases) {
      const error = await startError({ [key]: value });
      expect(error?.name, `${key}: ${shown}`).toBe('ConfigError');
      expect(error?.message).toMatch(/config\/plugins\.json: plugins\.graphql\.config\.\w+ must be a positive integer, not /);
      expect(error?.message.endsWith(`plugins.graphql.config.${key} must be a positive integer, not ${shown}`), error?.message).toBe(true);
    }
    expect(await startError({ maxAliases: ' 40 ', maxItems: 1 })).toBeUndefined();
  });
});
