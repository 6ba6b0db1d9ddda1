import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installErrorHandling } from '../../src/rest/index.js';
import { ValidationError } from '../../src/errors/index.js';

/** The error envelope on a bare Fastify instance: which failures are the client's (4xx) and which are bugs (500). */
describe('error handling', () => {
  const app = Fastify();
  const logged: Array<{ obj: { err?: Error }; message: string }> = [];
  beforeAll(async () => {
    installErrorHandling(app, { error: (obj: object, message: string) => logged.push({ obj, message }) } as never);
    app.post('/echo', async (req) => req.body);
    app.get('/invalid', async () => {
      throw new ValidationError('Invalid key nope', { key: 'nope' });
    });
    // A JSON text Cairn itself failed to parse (say, one a database cut short): a bug, not the client's fault.
    app.get('/internal-syntax-error', async () => JSON.parse('{"data": [1, 2'));
    app.get('/crash', async () => {
      throw new TypeError('x is undefined');
    });
    await app.ready();
  });
  afterAll(() => app.close());

  const call = async (method: 'GET' | 'POST', url: string, payload?: string) => {
    const res = await app.inject({ method, url, payload, headers: payload ? { 'content-type': 'application/json' } : {} });
    return { status: res.statusCode, body: res.json() };
  };

  it('a request body that is not JSON is the client\'s ValidationError (400), never named SyntaxError', async () => {
    expect(await call('POST', '/echo', '{"data": ')).toMatchObject({ status: 400, body: { data: null, error: { status: 400, name: 'ValidationError', message: 'Invalid JSON body' } } });
  });

  it("Cairn's own errors keep their status and name", async () => {
    expect(await call('GET', '/invalid')).toMatchObject({ status: 400, body: { error: { name: 'ValidationError', message: 'Invalid key nope' } } });
  });

  it('a SyntaxError or any other error from the server itself is a 500 that reveals nothing, and is logged with its cause', async () => {
    for (const [url, cause] of [['/internal-syntax-error', SyntaxError], ['/crash', TypeError]] as const) {
      logged.length = 0;
      const { status, body } = await call('GET', url);
      expect(status, url).toBe(500);
      expect(body).toEqual({ data: null, error: { status: 500, name: 'InternalServerError', message: 'Internal Server Error', details: {} } });
      expect(logged, url).toHaveLength(1);
      expect(logged[0].obj.err, url).toBeInstanceOf(cause);
      expect(logged[0].message, url).toContain(`GET ${url} failed: ${logged[0].obj.err!.message}`);
    }
  });

  it("the client's errors are not logged", async () => {
    logged.length = 0;
    await call('GET', '/invalid');
    await call('POST', '/echo', '{"data": ');
    expect(logged).toEqual([]);
  });
});
