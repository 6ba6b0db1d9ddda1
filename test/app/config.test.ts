import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createEnv } from '../../src/app/env.js';
import { loadConfig } from '../../src/app/config.js';
import { ConfigError } from '../../src/errors/index.js';

const CONFORMANCE_APP = join(import.meta.dirname, '../../../shared/conformance/app');

describe('env helpers', () => {
  const env = createEnv({ S: 'text', I: '42', F: '1.5', B: 'true', B0: '0', J: '{"a":[1]}', A: 'a, b ,"c"', A2: '[x,y]', BAD: 'abc', D: '2024-01-02' });
  it('reads typed values with defaults', () => {
    expect(env('S')).toBe('text');
    expect(env('MISSING', 'fallback')).toBe('fallback');
    expect(env.int('I')).toBe(42);
    expect(env.int('MISSING', 7)).toBe(7);
    expect(env.float('F')).toBe(1.5);
    expect(env.bool('B')).toBe(true);
    expect(env.bool('B0')).toBe(false);
    expect(env.json('J')).toEqual({ a: [1] });
    expect(env.array('A')).toEqual(['a', 'b', 'c']);
    expect(env.array('A2')).toEqual(['x', 'y']);
    expect(env.date('D')?.toISOString()).toBe('2024-01-02T00:00:00.000Z');
  });
  it('a value that does not parse names the variable', () => {
    expect(() => env.int('BAD')).toThrow(ConfigError);
    expect(() => env.int('BAD')).toThrow(/BAD/);
    expect(() => env.float('BAD')).toThrow(/BAD/);
    expect(() => env.bool('BAD')).toThrow(/BAD/);
    expect(() => env.json('BAD')).toThrow(/BAD/);
  });
});

function app(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-config-'));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(dir, name, '..'), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}

describe('config folder', () => {
  it('loads the conformance app unchanged (CommonJS functions of env)', async () => {
    const config = await loadConfig(CONFORMANCE_APP);
    expect(config.server.port).toBe(1337);
    expect(config.api.rest).toEqual({ defaultLimit: 25, maxLimit: 100, withCount: true });
    expect((config.plugins.i18n.config as { locales: string[] }).locales).toEqual(['en', 'fr']);
    expect(Object.keys(config.permissions!.roles!)).toEqual(['public', 'authenticated']);
  });

  it('reads .ts, .mjs, .json files and .env, with env-specific overrides', async () => {
    const dir = app({
      'config/server.ts': 'export default ({ env }: any) => ({ port: env.int("CAIRN_TEST_PORT", 1) });',
      'config/api.mjs': 'export default { rest: { defaultLimit: 10, maxLimit: 50, withCount: false } };',
      'config/plugins.json': '{ "i18n": { "config": { "defaultLocale": "fr" } } }',
      'config/env/production/api.json': '{ "rest": { "maxLimit": 20 } }',
      '.env': 'CAIRN_TEST_PORT=4242\n',
    });
    const previous = process.env.NODE_ENV;
    process.env.NODE_ENV = 'production';
    try {
      const config = await loadConfig(dir);
      expect(config.server.port).toBe(4242);
      expect(config.api.rest).toEqual({ defaultLimit: 10, maxLimit: 20, withCount: false });
      expect(config.plugins.i18n.config).toEqual({ defaultLocale: 'fr' });
    } finally {
      process.env.NODE_ENV = previous;
      delete process.env.CAIRN_TEST_PORT;
    }
  });

  it('bad configs stop with the file and the reason', async () => {
    await expect(loadConfig(app({ 'config/server.js': 'module.exports = {', 'package.json': '{"type":"commonjs"}' }))).rejects.toThrow(/server\.js/);
    await expect(loadConfig(app({ 'config/server.json': '{}', 'config/server.js': 'module.exports = {}' }))).rejects.toThrow(/both define "server"/);
    await expect(loadConfig(app({ 'config/server.json': '{ "port": 99999 }' }))).rejects.toThrow(/not a valid port/);
    await expect(loadConfig(app({ 'config/api.json': '{ "rest": { "defaultLimit": 200, "maxLimit": 100 } }' }))).rejects.toThrow(/defaultLimit/);
    await expect(loadConfig(app({ 'config/database.json': '{ "connection": { "client": "oracle" } }' }))).rejects.toThrow(/client must be sqlite, postgres or mysql/);
    await expect(loadConfig('/nonexistent/app')).rejects.toThrow(/does not exist/);
  });
});
