import type { ScalarAttribute } from '../model/types.js';
import { isIsoDate, storableYear } from '../query/index.js';

/** Outcome of checking one scalar value from a request body. */
export type ScalarCheck = { ok: true; value: unknown } | { ok: false; message: string };

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const UID = /^[A-Za-z0-9-_.~]*$/;
const TIME = /^(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3})\d*)?)?$/;

const fail = (message: string): ScalarCheck => ({ ok: false, message });

/** Messages follow the reference server's wording, so clients that show them read the same text. */
function typeError(name: string, type: string, value: unknown): ScalarCheck {
  return fail(`${name} must be a \`${type}\` type, but the final value was: \`${JSON.stringify(value) ?? 'undefined'}\`.`);
}

/** Casts and checks a non-null value for `attribute`; the result is what gets stored (before dialect binding). */
export function checkScalar(attribute: ScalarAttribute, raw: unknown): ScalarCheck {
  // NUL can't be stored in text or JSON on PostgreSQL; refusing it everywhere keeps the databases alike.
  if ((typeof raw === 'string' && raw.includes('\u0000')) || (typeof raw === 'object' && raw !== null && JSON.stringify(raw).includes('\\u0000'))) {
    return fail(`${attribute.name} may not contain NUL characters`);
  }
  const cast = castScalar(attribute, raw);
  if (!cast.ok) return cast;
  return checkConstraints(attribute, cast.value);
}

function castScalar(a: ScalarAttribute, raw: unknown): ScalarCheck {
  switch (a.type) {
    case 'string':
    case 'text':
    case 'richtext':
    case 'email':
    case 'uid':
    case 'enumeration':
    case 'password':
      if (typeof raw === 'string') return { ok: true, value: raw };
      if (typeof raw === 'number' && Number.isFinite(raw)) return { ok: true, value: String(raw) };
      return typeError(a.name, 'string', raw);
    case 'integer':
    case 'float':
    case 'decimal': {
      const n = typeof raw === 'number' ? raw : typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : NaN;
      if (!Number.isFinite(n)) {
        return fail(`${a.name} must be a \`number\` type, but the final value was: \`NaN\` (cast from the value \`${JSON.stringify(raw)}\`).`);
      }
      if (a.type === 'integer' && (!Number.isInteger(n) || Math.abs(n) > 2147483647)) {
        return fail(`${a.name} must be an integer`);
      }
      return { ok: true, value: n };
    }
    case 'biginteger': {
      const text = typeof raw === 'number' && Number.isSafeInteger(raw) ? String(raw) : raw;
      if (typeof text !== 'string' || !/^-?\d{1,19}$/.test(text)) return fail(`${a.name} must be an integer`);
      return { ok: true, value: text };
    }
    case 'boolean':
      if (typeof raw === 'boolean') return { ok: true, value: raw };
      if (raw === 'true' || raw === 1 || raw === '1') return { ok: true, value: true };
      if (raw === 'false' || raw === 0 || raw === '0') return { ok: true, value: false };
      return typeError(a.name, 'boolean', raw);
    case 'date':
      return castDate(a.name, raw);
    case 'time':
      return castTime(a.name, raw);
    case 'datetime':
    case 'timestamp':
      return castDateTime(a.name, raw);
    case 'json':
      return { ok: true, value: raw };
    case 'blocks':
      return Array.isArray(raw) ? { ok: true, value: raw } : fail(`${a.name} must be an array of blocks`);
  }
}

function castDate(name: string, raw: unknown): ScalarCheck {
  if (typeof raw !== 'string') return fail(`${name} must be a valid date`);
  const text = /^\d{4}-\d{2}-\d{2}T/.test(raw) ? raw.slice(0, 10) : raw;
  return isIsoDate(text) ? { ok: true, value: text } : fail(`${name} must be a valid date`);
}

function castTime(name: string, raw: unknown): ScalarCheck {
  const m = typeof raw === 'string' ? TIME.exec(raw) : null;
  if (!m || +m[1] > 23 || +m[2] > 59 || +(m[3] ?? 0) > 59) return fail(`${name} must be a valid time`);
  return { ok: true, value: `${m[1]}:${m[2]}:${m[3] ?? '00'}.${(m[4] ?? '').padEnd(3, '0')}` };
}

/** Any ISO 8601 string or epoch milliseconds, stored as 'YYYY-MM-DDTHH:MM:SS.mmmZ' (UTC). */
export function castDateTime(name: string, raw: unknown): ScalarCheck {
  const ok = typeof raw === 'number' || (typeof raw === 'string' && /^\d{4}-\d{2}-\d{2}/.test(raw));
  const date = ok ? new Date(raw as string | number) : null;
  if (!date || Number.isNaN(date.getTime()) || !storableYear(date.getUTCFullYear())) return fail(`${name} must be a valid datetime`);
  return { ok: true, value: date.toISOString() };
}

function checkConstraints(a: ScalarAttribute, value: unknown): ScalarCheck {
  if (typeof value === 'string') {
    if (a.minLength !== undefined && value.length < a.minLength) {
      return fail(`${a.name} must be at least ${a.minLength} characters`);
    }
    if (a.maxLength !== undefined && value.length > a.maxLength) {
      return fail(`${a.name} must be at most ${a.maxLength} characters`);
    }
    if (a.type === 'enumeration' && a.enum && !a.enum.includes(value)) {
      return fail(`${a.name} must be one of the following values: ${a.enum.join(', ')}`);
    }
    if (a.type === 'email' && !EMAIL.test(value)) return fail(`${a.name} must be a valid email`);
    if (a.type === 'uid' && !UID.test(value)) {
      return fail(`${a.name} must match the following: "/^[A-Za-z0-9-_.~]*$/"`);
    }
    if (a.regex && value !== '' && !new RegExp(a.regex).test(value)) {
      return fail(`${a.name} must match the following: "${a.regex}"`);
    }
  }
  if (typeof value === 'number' || a.type === 'biginteger') {
    const n = Number(value);
    if (a.min !== undefined && n < a.min) return fail(`${a.name} must be greater than or equal to ${a.min}`);
    if (a.max !== undefined && n > a.max) return fail(`${a.name} must be less than or equal to ${a.max}`);
  }
  return { ok: true, value };
}
