import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, startupError, writeApp, type TestApp } from '../helpers/app.js';
import { kitchen } from '../fixtures/kitchen.js';

// Apollo Server's batching (`apolloServer.allowBatchedHttpRequests`), which Strapi passes to its Apollo Server: a POST
// whose body is a list of operations answers the list of their answers; off, Apollo's 400.
const withGraphql = (apolloServer: object) => ({
  ...kitchen,
  config: {
    plugins: {
      ...kitchen.config!.plugins,
      graphql: { config: { apolloServer } },
      'users-permissions': { config: { jwtSecret: 'batch-secret', ratelimit: { max: 1 } } },
    },
    permissions: { roles: { public: { permissions: ['api::chef.chef.find'] } } },
  },
});
const none = { authorization: '' };

describe('GraphQL batching', () => {
  let batching: TestApp;
  let single: TestApp;
  beforeAll(async () => {
    batching = await startTestApp('sqlite', withGraphql({ allowBatchedHttpRequests: true }));
    single = await startTestApp('sqlite', withGraphql({}));
    await batching.request('POST', '/api/chefs', { data: { name: 'Ann', age: 30 } });
  });
  afterAll(async () => {
    await batching?.close();
    await single?.close();
  });

  it('answers each operation in order, each with its own errors, in one HTTP 200', async () => {
    const res = await batching.request(
      'POST',
      '/graphql',
      [
        { query: '{ chefs { name } }' },
        { query: 'query Named($n: String) { chefs(filters: { name: { eq: $n } }) { name } }', variables: { n: 'Nobody' } },
        { query: '{ chefs { nope } }' },
        { variables: {} },
        { query: 'mutation { forgotPassword(email: "a@example.com") { ok } }' },
        { query: 'mutation { forgotPassword(email: "b@example.com") { ok } }' },
        { query: 'mutation { forgotPassword(email: "a@example.com") { ok } }' },
      ],
      none,
    );
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(7);
    expect(res.body[0]).toEqual({ data: { chefs: [{ name: 'Ann' }] } });
    expect(res.body[1]).toEqual({ data: { chefs: [] } });
    expect(res.body[2].errors[0]).toMatchObject({ message: expect.stringContaining('Cannot query field "nope" on type "Chef".'), extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } });
    expect(res.body[3]).toEqual({ errors: [{ message: 'Must provide query string.', extensions: { code: 'BAD_REQUEST' } }] });
    // Each operation counts in the rate limit on its own: one attempt per email, the third is the second for a@.
    expect(res.body[4]).toEqual({ data: { forgotPassword: { ok: true } } });
    expect(res.body[5]).toEqual({ data: { forgotPassword: { ok: true } } });
    expect(res.body[6].errors[0].extensions.code).toBe('RATE_LIMITED');
    // An empty list is Apollo's 400.
    expect(await batching.request('POST', '/graphql', [], none)).toMatchObject({
      status: 400,
      body: { errors: [{ message: 'No operations found in request.', extensions: { code: 'BAD_REQUEST' } }] },
    });
  });

  it('off (the default), a list is refused as Apollo Server refuses it; a single operation is answered as before', async () => {
    expect(await single.request('POST', '/graphql', [{ query: '{ chefs { name } }' }], none)).toMatchObject({
      status: 400,
      body: { errors: [{ message: 'Operation batching disabled.', extensions: { code: 'BAD_REQUEST' } }] },
    });
    expect((await single.request('POST', '/graphql', { query: '{ chefs { name } }' }, none)).status).toBe(200);
    // A mutation over GET keeps its 405 and Allow header.
    const get = await single.cairn.fastify.inject({ method: 'GET', url: `/graphql?query=${encodeURIComponent('mutation { forgotPassword(email: "x@example.com") { ok } }')}` });
    expect([get.statusCode, get.headers.allow]).toEqual([405, 'POST']);
  });

  it('a setting that is not true or false stops the start, naming it', async () => {
    const dir = writeApp(withGraphql({ allowBatchedHttpRequests: 'yes' }));
    expect(await startupError(dir)).toContain('graphql.config.apolloServer.allowBatchedHttpRequests must be true or false, not "yes"');
  });
});
