import type { ScalarAttribute } from '../model/types.js';
import { isIsoDate, storableYear } from '../query/index.js';
import { printValue } from './field-messages.js';

/**
 * Outcome of checking one scalar value from a request body. `late` marks what Strapi's database layer refuses after
 * its validation passed (a date that is not one): reported only when nothing else is wrong, worded as Strapi does.
 */
export type ScalarCheck = { ok: true; value: unknown } | { ok: false; message: string; late?: boolean };

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const UID = /^[A-Za-z0-9-_.~]*$/;
const TIME = /^(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3})\d*)?)?$/;

const fail = (message: string): ScalarCheck => ({ ok: false, message });
const late = (message: string): ScalarCheck => ({ ok: false, message, late: true });

/** Messages follow the reference server's wording, so clients that show them read the same text. */
function typeError(name: string, type: string, value: unknown): ScalarCheck {
  return fail(`${name} must be a \`${type}\` type, but the final value was: \`${printValue(value)}\`.`);
}

/**
 * Casts and checks a non-null value for `attribute`; the result is what gets stored (before dialect binding).
 * `name` is how messages name the field: its path in the body (`compo[0].title`), the attribute's name at the top.
 */
export function checkScalar(attribute: ScalarAttribute, raw: unknown, name = attribute.name, options: { draft?: boolean } = {}): ScalarCheck {
  // NUL can't be stored in text or JSON on PostgreSQL; refusing it everywhere keeps the databases alike.
  if ((typeof raw === 'string' && raw.includes('\u0000')) || (typeof raw === 'object' && raw !== null && JSON.stringify(raw).includes('\\u0000'))) {
    return fail(`${name} may not contain NUL characters`);
  }
  const cast = castScalar(attribute, raw, name);
  if (!cast.ok) return cast;
  return checkConstraints(attribute, cast.value, name, options.draft ?? false);
}

/**
 * Casts a non-null value to `attribute`'s type without its constraints (length, range, pattern): what Strapi's
 * Query Engine checks of a column's value. A Date is taken for a date, a time or a date-time.
 */
export function checkScalarType(attribute: Pick<ScalarAttribute, 'name' | 'type'>, raw: unknown): ScalarCheck {
  const value = raw instanceof Date ? (Number.isNaN(raw.getTime()) ? String(raw) : raw.toISOString()) : raw;
  if (typeof value === 'string' && value.includes('\u0000')) return fail(`${attribute.name} may not contain NUL characters`);
  const cast = castScalar(attribute as ScalarAttribute, value, attribute.name);
  return cast.ok || !cast.late ? cast : fail(`${attribute.name}: ${cast.message}`);
}

function castScalar(a: ScalarAttribute, raw: unknown, name: string): ScalarCheck {
  switch (a.type) {
    case 'enumeration':
      // Strapi's enumeration is a plain yup string, which casts a number to its text before checking the values.
      if (typeof raw === 'string') return { ok: true, value: raw };
      if (typeof raw === 'number' && Number.isFinite(raw)) return { ok: true, value: String(raw) };
      return typeError(name, 'string', raw);
    case 'string':
    case 'text':
    case 'richtext':
    case 'email':
    case 'uid':
    case 'password':
      // Strapi's other text types keep the value as sent (its validator undoes yup's cast): a number is refused.
      if (typeof raw === 'string') return { ok: true, value: raw };
      return typeError(name, 'string', raw);
    case 'integer':
    case 'float':
    case 'decimal': {
      const n = typeof raw === 'number' ? raw : typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : NaN;
      if (!Number.isFinite(n)) {
        return fail(`${name} must be a \`number\` type, but the final value was: \`NaN\` (cast from the value \`${JSON.stringify(raw)}\`).`);
      }
      if (a.type === 'integer' && (!Number.isInteger(n) || Math.abs(n) > 2147483647)) {
        return fail(`${name} must be an integer`);
      }
      return { ok: true, value: n };
    }
    case 'biginteger': {
      const text = typeof raw === 'number' && Number.isSafeInteger(raw) ? String(raw) : raw;
      if (typeof text !== 'string' || !/^-?\d{1,19}$/.test(text)) return fail(`${name} must be an integer`);
      return { ok: true, value: text };
    }
    case 'boolean':
      if (typeof raw === 'boolean') return { ok: true, value: raw };
      if (raw === 'true' || raw === 1 || raw === '1') return { ok: true, value: true };
      if (raw === 'false' || raw === 0 || raw === '0') return { ok: true, value: false };
      return typeError(name, 'boolean', raw);
    case 'date':
      return castDate(raw);
    case 'time':
      return castTime(raw);
    case 'datetime':
    case 'timestamp':
      return castDateTime(raw);
    case 'json':
      return { ok: true, value: raw };
    case 'blocks':
      return Array.isArray(raw) ? { ok: true, value: raw } : fail(`${name} must be an array of blocks`);
  }
}

/**
 * Dates, times and date-times are refused in the words of Strapi's database layer (its validation lets any value
 * through; the layer that stores them refuses it): no field name, and only when nothing else is wrong.
 */
function castDate(raw: unknown): ScalarCheck {
  const prefix = typeof raw === 'string' ? /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])/.exec(raw)?.[0] : undefined;
  if (!prefix || !(raw as string).startsWith(prefix) || ((raw as string).length > 10 && (raw as string)[10] !== 'T')) {
    return late('Invalid format, expected yyyy-MM-dd');
  }
  return isIsoDate(prefix) ? { ok: true, value: prefix } : late('Invalid date');
}

function castTime(raw: unknown): ScalarCheck {
  if (typeof raw !== 'string') return late(`Expected a string, got a ${typeof raw}`);
  const m = TIME.exec(raw);
  if (!m || +m[1] > 23 || +m[2] > 59 || +(m[3] ?? 0) > 59) return late('Invalid time format, expected HH:mm:ss.SSS');
  return { ok: true, value: `${m[1]}:${m[2]}:${m[3] ?? '00'}.${(m[4] ?? '').padEnd(3, '0')}` };
}

/**
 * Any ISO 8601 string or epoch milliseconds, stored as 'YYYY-MM-DDTHH:MM:SS.mmmZ' (UTC). The day must exist:
 * `2020-02-30T10:00:00Z` is refused, not read as March 1st (JavaScript's Date rolls it over).
 */
export function castDateTime(raw: unknown): ScalarCheck {
  const ok = typeof raw === 'number' || (typeof raw === 'string' && isIsoDate(raw.slice(0, 10)));
  const date = ok ? new Date(raw as string | number) : null;
  if (!date || Number.isNaN(date.getTime()) || !storableYear(date.getUTCFullYear())) {
    return late('Invalid format, expected a timestamp or an ISO date');
  }
  return { ok: true, value: date.toISOString() };
}

const STRING_MAX_LENGTH = 255;

/** `minLength` is checked when a draft is published, not on the draft (as Strapi 5 does); the rest always. */
function checkConstraints(a: ScalarAttribute, value: unknown, name: string, draft: boolean): ScalarCheck {
  if (typeof value === 'string') {
    if (!draft && a.minLength !== undefined && value.length < a.minLength) {
      return fail(`${name} must be at least ${a.minLength} characters`);
    }
    // A `string` (short text) holds at most 255 characters unless its schema says otherwise, as in Strapi 5 (its
    // column is a varchar(255) in Strapi's tables).
    const maxLength = a.maxLength ?? (a.type === 'string' ? STRING_MAX_LENGTH : undefined);
    if (maxLength !== undefined && value.length > maxLength) {
      return fail(`${name} must be at most ${maxLength} characters`);
    }
    if (a.type === 'enumeration' && a.enum && !a.enum.includes(value)) {
      // Strapi adds null to the allowed values (an enumeration may be empty), which prints as a trailing ", ".
      return fail(`${name} must be one of the following values: ${[...a.enum, ''].join(', ')}`);
    }
    if (a.type === 'email' && !EMAIL.test(value)) return fail(`${name} must be a valid email`);
    if (a.type === 'uid' && !UID.test(value)) {
      return fail(`${name} must match the following: "/^[A-Za-z0-9-_.~]*$/"`);
    }
    // An empty string skips the pattern unless the attribute is required (yup's excludeEmptyString, as Strapi sets it).
    if (a.regex && (value !== '' || a.required) && !new RegExp(a.regex).test(value)) {
      return fail(`${name} must match the following: "${String(new RegExp(a.regex))}"`);
    }
  }
  if (typeof value === 'number' || a.type === 'biginteger') {
    const n = Number(value);
    if (a.min !== undefined && n < a.min) return fail(`${name} must be greater than or equal to ${a.min}`);
    if (a.max !== undefined && n > a.max) return fail(`${name} must be less than or equal to ${a.max}`);
  }
  return { ok: true, value };
}
