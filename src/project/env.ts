import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { parse as Parse } from 'dotenv';
import { ConfigError } from '../errors/index.js';

/** dotenv is required only when the app has a `.env` file (a few ms of every start otherwise). */
const require = createRequire(import.meta.url);

/** Strapi's `env` helper, handed to config files written as `({ env }) => ({ ... })`. */
export interface Env {
  (key: string): string | undefined;
  (key: string, fallback: string): string;
  int(key: string): number | undefined;
  int(key: string, fallback: number): number;
  float(key: string): number | undefined;
  float(key: string, fallback: number): number;
  bool(key: string): boolean | undefined;
  bool(key: string, fallback: boolean): boolean;
  json(key: string, fallback?: unknown): unknown;
  array(key: string): string[] | undefined;
  array(key: string, fallback: string[]): string[];
  date(key: string): Date | undefined;
  date(key: string, fallback: Date): Date;
  /** The value, which must be one of `expected` (Strapi silently falls back on anything else; a typo here should stop start-up). */
  oneOf(key: string, expected: readonly string[], fallback?: string): string | undefined;
}

/**
 * Loads `<dir>/.env` into process.env. Variables already set win (as in Strapi): the real environment
 * (a container, CI) must be able to override what a checked-out `.env` says.
 */
export function loadDotEnv(dir: string): void {
  const file = join(dir, '.env');
  if (!existsSync(file)) return;
  const { parse } = require('dotenv') as { parse: typeof Parse };
  for (const [key, value] of Object.entries(parse(readFileSync(file)))) {
    if (process.env[key] === undefined) process.env[key] = value;
  }
}

/**
 * Typed reads of environment variables. An unset or empty variable gives the fallback; a set value that doesn't
 * parse is a ConfigError naming the variable, never a silent NaN or `false` (PORT=abc must not start on port 0).
 */
export function createEnv(source: NodeJS.ProcessEnv = process.env): Env {
  /** The trimmed value, or undefined when unset or blank. */
  const read = (key: string): string | undefined => {
    const value = source[key]?.trim();
    return value === undefined || value === '' ? undefined : value;
  };
  const bad = (key: string, type: string): never => {
    throw new ConfigError(`environment variable ${key}=${JSON.stringify(source[key])} is not ${type}`);
  };

  const env = ((key: string, fallback?: string) => source[key] ?? fallback) as Env;

  env.int = ((key: string, fallback?: number) => {
    const v = read(key);
    if (v === undefined) return fallback;
    return /^[-+]?\d+$/.test(v) ? Number.parseInt(v, 10) : bad(key, 'an integer');
  }) as Env['int'];

  env.float = ((key: string, fallback?: number) => {
    const v = read(key);
    if (v === undefined) return fallback;
    // Number() alone would take '0x1f' and 'Infinity'; a config value is a plain decimal.
    return /^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(v) ? Number(v) : bad(key, 'a number');
  }) as Env['float'];

  env.bool = ((key: string, fallback?: boolean) => {
    const v = read(key)?.toLowerCase();
    if (v === undefined) return fallback;
    if (v === 'true' || v === '1') return true;
    if (v === 'false' || v === '0') return false;
    return bad(key, 'a boolean (true, false, 1 or 0)');
  }) as Env['bool'];

  env.json = (key, fallback) => {
    const v = read(key);
    if (v === undefined) return fallback;
    try {
      return JSON.parse(v);
    } catch (error) {
      return bad(key, `valid JSON (${(error as Error).message})`);
    }
  };

  // Strapi accepts `a,b` and `[a, b]`, with optional quotes around each item.
  env.array = ((key: string, fallback?: string[]) => {
    let v = read(key);
    if (v === undefined) return fallback;
    if (v.startsWith('[') && v.endsWith(']')) v = v.slice(1, -1);
    return v
      .split(',')
      .map((item) => item.trim().replace(/^(["'])(.*)\1$/, '$2'))
      .filter((item) => item !== '');
  }) as Env['array'];

  env.date = ((key: string, fallback?: Date) => {
    const v = read(key);
    if (v === undefined) return fallback;
    const date = new Date(v);
    return Number.isNaN(date.getTime()) ? bad(key, 'a date') : date;
  }) as Env['date'];

  env.oneOf = (key, expected, fallback) => {
    if (fallback !== undefined && !expected.includes(fallback)) {
      throw new ConfigError(`env.oneOf('${key}'): the default ${JSON.stringify(fallback)} is not one of ${expected.join(', ')}`);
    }
    const v = read(key);
    if (v === undefined) return fallback;
    return expected.includes(v) ? v : bad(key, `one of ${expected.join(', ')}`);
  };

  return env;
}
