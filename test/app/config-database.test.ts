import { rmSync } from 'node:fs';
import { afterAll, expect, it } from 'vitest';
import { loadConfig } from '../../src/project/config.js';
import { ConfigError } from '../../src/errors/index.js';
import { folder } from './fixtures.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** An app folder whose config/database.js sets `connection.acquireConnectionTimeout` to `value` (JS source). */
const load = (value: string) => {
  const dir = folder({
    'package.json': '{ "type": "commonjs" }',
    'config/database.js': `module.exports = { connection: { client: 'postgres', connection: {}, acquireConnectionTimeout: ${value} } };`,
  });
  dirs.push(dir);
  return loadConfig(dir);
};

it('acquireConnectionTimeout: milliseconds, a number or a string of one (env)', async () => {
  expect((await load('1500')).database.connection.acquireConnectionTimeout).toBe(1500);
  expect((await load('"2500"')).database.connection.acquireConnectionTimeout).toBe(2500);
  expect((await load('undefined')).database.connection.acquireConnectionTimeout).toBeUndefined();
});

it.each(['0', '-1', '1.5', '"soon"', 'true', '{}'])('acquireConnectionTimeout: %s is refused, naming the file and the key', async (value) => {
  const error = await load(value).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ConfigError);
  expect((error as Error).message).toMatch(/config\/database\.js: database\.connection\.acquireConnectionTimeout must be a positive number of milliseconds, not /);
});
