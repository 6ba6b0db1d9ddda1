import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'dotenv';
import { ConfigError } from '../errors/index.js';

export interface Env {
  (key: string, fallback?: string): string | undefined;
  int(key: string, fallback?: number): number | undefined;
  float(key: string, fallback?: number): number | undefined;
  bool(key: string, fallback?: boolean): boolean | undefined;
  json(key: string, fallback?: unknown): unknown;
  array(key: string, fallback?: string[]): string[] | undefined;
  date(key: string, fallback?: Date): Date | undefined;
}

/** Loads `<dir>/.env` into process.env without overriding variables already set (as Strapi does). */
export function loadDotEnv(dir: string): void {
  const file = join(dir, '.env');
  if (!existsSync(file)) return;
  for (const [key, value] of Object.entries(parse(readFileSync(file)))) {
    if (process.env[key] === undefined) process.env[key] = value;
  }
}

/** Strapi's `env` helper: typed reads of environment variables, a clear error when a value can't be read. */
export function createEnv(source: NodeJS.ProcessEnv = process.env): Env {
  const read = (key: string) => source[key];
  const bad = (key: string, type: string): never => {
    throw new ConfigError(`environment variable ${key}="${source[key]}" is not a valid ${type}`);
  };
  const env = ((key: string, fallback?: string) => read(key) ?? fallback) as Env;
  env.int = (key, fallback) => {
    const v = read(key);
    if (v === undefined || v === '') return fallback;
    if (!/^-?\d+$/.test(v.trim())) return bad(key, 'integer');
    return Number.parseInt(v, 10);
  };
  env.float = (key, fallback) => {
    const v = read(key);
    if (v === undefined || v === '') return fallback;
    const n = Number(v);
    return Number.isFinite(n) ? n : bad(key, 'number');
  };
  env.bool = (key, fallback) => {
    const v = read(key)?.trim().toLowerCase();
    if (v === undefined || v === '') return fallback;
    if (v === 'true' || v === '1') return true;
    if (v === 'false' || v === '0') return false;
    return bad(key, 'boolean (true/false)');
  };
  env.json = (key, fallback) => {
    const v = read(key);
    if (v === undefined || v === '') return fallback;
    try {
      return JSON.parse(v);
    } catch {
      return bad(key, 'JSON value');
    }
  };
  env.array = (key, fallback) => {
    let v = read(key);
    if (v === undefined) return fallback;
    v = v.trim();
    if (v.startsWith('[') && v.endsWith(']')) v = v.slice(1, -1);
    return v
      .split(',')
      .map((s) => s.trim().replace(/^["']|["']$/g, ''))
      .filter((s) => s !== '');
  };
  env.date = (key, fallback) => {
    const v = read(key);
    if (v === undefined || v === '') return fallback;
    const d = new Date(v);
    return Number.isNaN(d.getTime()) ? bad(key, 'date') : d;
  };
  return env;
}
