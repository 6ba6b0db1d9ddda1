import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createEnv, loadDotEnv } from '../../src/project/env.js';
import { ConfigError } from '../../src/errors/index.js';

describe('env helpers', () => {
  const env = createEnv({
    S: 'text',
    EMPTY: '',
    I: '42',
    NEG: ' -7 ',
    F: '1.5',
    EXP: '2e3',
    BT: 'true',
    B1: '1',
    BF: 'FALSE',
    B0: '0',
    J: '{"a":[1]}',
    A: 'a, b ,"c"',
    A2: "[x, 'y']",
    D: '2024-01-02',
    BAD: 'abc',
    HEX: '0x1f',
    MODE: 'fast',
  });

  it('env(key, default) reads strings', () => {
    expect(env('S')).toBe('text');
    expect(env('MISSING')).toBeUndefined();
    expect(env('MISSING', 'fallback')).toBe('fallback');
    expect(env('EMPTY', 'fallback')).toBe(''); // set but empty is still set, as in Strapi
  });

  it('env.int / env.float', () => {
    expect(env.int('I')).toBe(42);
    expect(env.int('NEG')).toBe(-7);
    expect(env.int('MISSING', 7)).toBe(7);
    expect(env.int('EMPTY', 7)).toBe(7);
    expect(env.int('MISSING')).toBeUndefined();
    expect(env.float('F')).toBe(1.5);
    expect(env.float('I')).toBe(42);
    expect(env.float('EXP')).toBe(2000);
    expect(env.float('MISSING', 0.5)).toBe(0.5);
  });

  it('env.bool takes true/false and 1/0', () => {
    expect(env.bool('BT')).toBe(true);
    expect(env.bool('B1')).toBe(true);
    expect(env.bool('BF')).toBe(false);
    expect(env.bool('B0')).toBe(false);
    expect(env.bool('MISSING', true)).toBe(true);
    expect(env.bool('MISSING')).toBeUndefined();
  });

  it('env.json, env.array, env.date, env.oneOf', () => {
    expect(env.json('J')).toEqual({ a: [1] });
    expect(env.json('MISSING', { d: 1 })).toEqual({ d: 1 });
    expect(env.array('A')).toEqual(['a', 'b', 'c']);
    expect(env.array('A2')).toEqual(['x', 'y']);
    expect(env.array('MISSING', ['k'])).toEqual(['k']);
    expect(env.date('D')?.toISOString()).toBe('2024-01-02T00:00:00.000Z');
    expect(env.oneOf('MODE', ['fast', 'slow'])).toBe('fast');
    expect(env.oneOf('MISSING', ['fast', 'slow'], 'slow')).toBe('slow');
  });

  it('a value that does not parse is a ConfigError naming the variable and its value', () => {
    for (const read of [() => env.int('BAD'), () => env.int('F'), () => env.float('BAD'), () => env.float('HEX'), () => env.bool('BAD'), () => env.json('BAD'), () => env.date('BAD')]) {
      expect(read).toThrow(ConfigError);
    }
    expect(() => env.int('BAD')).toThrow('environment variable BAD="abc" is not an integer');
    expect(() => env.bool('BAD')).toThrow(/BAD="abc" is not a boolean/);
    expect(() => env.json('BAD')).toThrow(/BAD="abc" is not valid JSON/);
    expect(() => env.oneOf('MODE', ['a', 'b'])).toThrow(/MODE="fast" is not one of a, b/);
    expect(() => env.oneOf('MODE', ['a', 'b'], 'c')).toThrow(/default "c"/);
  });
});

describe('.env', () => {
  const keys = ['CAIRN_DOTENV_A', 'CAIRN_DOTENV_B'];
  afterEach(() => keys.forEach((k) => delete process.env[k]));

  it('loads <dir>/.env without overriding variables already set', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cairn-dotenv-'));
    writeFileSync(join(dir, '.env'), 'CAIRN_DOTENV_A=from-file\nCAIRN_DOTENV_B="quoted value" # comment\n');
    process.env.CAIRN_DOTENV_A = 'from-environment';
    loadDotEnv(dir);
    expect(process.env.CAIRN_DOTENV_A).toBe('from-environment');
    expect(process.env.CAIRN_DOTENV_B).toBe('quoted value');
  });

  it('a folder without .env is fine', () => {
    expect(() => loadDotEnv(mkdtempSync(join(tmpdir(), 'cairn-dotenv-')))).not.toThrow();
  });
});
