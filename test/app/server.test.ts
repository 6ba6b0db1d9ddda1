import { rmSync } from 'node:fs';
import { afterAll, expect, it } from 'vitest';
import { startServer } from '../../src/app/server.js';
import { folder, noteApp } from './fixtures.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

it('startServer listens (port 0 picks a free one), serves the API, and close() lets an in-flight request finish', async () => {
  const dir = noteApp();
  dirs.push(dir);
  const server = await startServer({ dir, port: 0, host: '0.0.0.0', quiet: true, handleSignals: false });
  // A wildcard host is shown as the loopback address a person can open.
  expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  const list = await fetch(`${server.url}/api/notes`);
  expect(list.status).toBe(200);
  expect(await list.json()).toMatchObject({ data: [], meta: { pagination: { total: 0 } } });

  const slow = fetch(`${server.url}/slow`).then((r) => r.json());
  await new Promise((r) => setTimeout(r, 100));
  const closed = server.close();
  expect(await slow).toEqual({ done: true });
  await closed;
  await expect(fetch(`${server.url}/api/notes`)).rejects.toThrow();
  // close() is idempotent.
  await server.close();
});

it('a port in use is a clear error and leaves nothing open', async () => {
  const first = noteApp();
  const second = noteApp();
  dirs.push(first, second);
  const server = await startServer({ dir: first, port: 0, quiet: true, handleSignals: false });
  const port = Number(new URL(server.url).port);
  try {
    await expect(startServer({ dir: second, port, quiet: true, handleSignals: false })).rejects.toMatchObject({ code: 'EADDRINUSE' });
  } finally {
    await server.close();
  }
});

it("a route declaring JSON schemas (an app's) is validated and serialized by Fastify's compilers, built on first use", async () => {
  const dir = folder({
    'package.json': '{ "type": "commonjs" }',
    // An app with no content-types: its config file is what makes the folder an app.
    'config/server.js': 'module.exports = {};',
    'src/index.js': `module.exports = { register({ cairn }) {
      cairn.fastify.post('/echo', {
        schema: {
          body: { type: 'object', required: ['n'], properties: { n: { type: 'integer', minimum: 1 } } },
          headers: { type: 'object', properties: { 'x-mode': { enum: ['plain', 'loud'] } } },
          response: { 200: { type: 'object', properties: { n: { type: 'integer' } } } },
        },
      }, async (req) => ({ n: req.body.n, secret: 'dropped by the response schema' }));
    } };`,
  });
  dirs.push(dir);
  const server = await startServer({ dir, port: 0, quiet: true, handleSignals: false });
  try {
    const post = (body: unknown, headers: Record<string, string> = {}) =>
      fetch(`${server.url}/echo`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
    const ok = await post({ n: 2 }, { 'x-mode': 'loud' });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ n: 2 });
    expect((await post({ n: 0 })).status).toBe(400);
    expect((await post({})).status).toBe(400);
    expect((await post({ n: 1 }, { 'x-mode': 'quiet' })).status).toBe(400);
  } finally {
    await server.close();
  }
});
