import { show } from './config-keys.js';

/** Small readers of config values shared by the checks of config/middlewares' entries. */

export const isPlain = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A value as an error message shows it. */
export const describe = (value: unknown): string => {
  if (isPlain(value)) {
    try {
      return JSON.stringify(value);
    } catch {
      return 'an object';
    }
  }
  return value === undefined ? 'undefined' : value === null ? 'null' : show(value);
};

/**
 * A size as koa-body takes it (through the `bytes` package): a number of bytes, or `'<n><unit>'` with `b`, `kb`,
 * `mb`, `gb`, `tb` or `pb` (powers of 1024; `'1.5mb'`), case-insensitive. Undefined for anything else.
 */
export function byteSize(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isSafeInteger(value) && value >= 1 ? value : undefined;
  if (typeof value !== 'string') return undefined;
  const match = /^\s*(\d+(?:\.\d+)?)\s*(b|kb|mb|gb|tb|pb)?\s*$/i.exec(value);
  if (!match) return undefined;
  const power = ['b', 'kb', 'mb', 'gb', 'tb', 'pb'].indexOf((match[2] ?? 'b').toLowerCase());
  const bytes = Math.floor(Number(match[1]) * 1024 ** power);
  return Number.isSafeInteger(bytes) && bytes >= 1 ? bytes : undefined;
}
