import { rmSync } from 'node:fs';
import { afterAll, expect, it } from 'vitest';
import { startServer } from '../../src/app/server.js';
import { noteApp } from './fixtures.js';

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
