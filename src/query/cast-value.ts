import { ValidationError } from '../errors/index.js';
import type { ColumnType, FieldRef } from './types.js';
import { describe, type QueryParam } from './errors.js';

const INTEGER = /^[-+]?\d+$/;
const DECIMAL = /^[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME = /^(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?$/;
/**
 * ISO 8601 as clients send it: a date, optionally a time (`T` or a space), optionally a zone. `T` and `Z` in capitals
 * only, as Strapi 5.54's filters read dates (date-fns `parseISO`): `2022-06-15t12:00:00z` is a 400 there too.
 */
const DATETIME = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?)?(Z|[+-]\d{2}(?::?\d{2})?)?$/;

/** SQL INTEGER columns are 32-bit on PostgreSQL and MySQL: a value outside can't be compared there. */
const INT32 = { min: -2147483648, max: 2147483647 };
const INT64 = { min: -(2n ** 63n), max: 2n ** 63n - 1n };

const NUMERIC = new Set<ColumnType>(['id', 'integer', 'float', 'decimal']);

function invalid(field: FieldRef, value: unknown, what: string, path: string | null, param: QueryParam): never {
  throw new ValidationError(`Invalid value ${describe(value)} for ${field.name}: expected ${what}`, {
    key: field.name,
    path,
    source: 'query',
    param,
  });
}

function daysIn(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/**
 * Whether a year is one of 1 to 9999: what every database stores (PostgreSQL has no year 0, MySQL's DATETIME ends
 * at 9999), and what compares correctly as ISO text (SQLite: `+010000-01-01` sorts before `2024-...`).
 */
export function storableYear(year: number): boolean {
  return year >= 1 && year <= 9999;
}

function validDate(y: number, m: number, d: number): boolean {
  return storableYear(y) && m >= 1 && m <= 12 && d >= 1 && d <= daysIn(y, m);
}

/** Whether `text` is a real calendar day as `YYYY-MM-DD`, in a year every database stores. */
export function isIsoDate(text: string): boolean {
  const m = DATE.exec(text);
  return m !== null && validDate(+m[1], +m[2], +m[3]);
}

/**
 * An ISO 8601 date or datetime (or a number of milliseconds since the epoch), as 'YYYY-MM-DDTHH:MM:SS.mmmZ'.
 * Without a zone the time is UTC (what the reference does on a server in UTC). Undefined when invalid.
 */
export function normalizeDatetime(value: unknown): string | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? inYearRange(new Date(value)) : undefined;
  if (typeof value !== 'string') return undefined;
  const text = value.trim();
  // `2024` and `2024-05` are ISO dates (the first day of the year/month); other digit strings are epoch ms.
  if (/^\d{4}$/.test(text)) return normalizeDatetime(`${text}-01-01`);
  if (/^\d{4}-\d{2}$/.test(text)) return normalizeDatetime(`${text}-01`);
  if (/^-?\d+$/.test(text)) return normalizeDatetime(Number(text));
  const m = DATETIME.exec(text);
  if (!m) return undefined;
  const [, y, mo, d, h = '00', mi = '00', s = '00', fraction = '', zone = 'Z'] = m;
  if (!validDate(+y, +mo, +d) || +h > 23 || +mi > 59 || +s > 59) return undefined;
  let offset = 0;
  if (zone.toUpperCase() !== 'Z') {
    const zm = /^([+-])(\d{2}):?(\d{2})?$/.exec(zone)!;
    if (+zm[2] > 23 || +(zm[3] ?? 0) > 59) return undefined;
    offset = (zm[1] === '-' ? -1 : 1) * (+zm[2] * 60 + +(zm[3] ?? 0));
  }
  const date = new Date(0);
  // setUTCFullYear, not Date.UTC: Date.UTC reads years 0-99 as 1900-1999.
  date.setUTCFullYear(+y, +mo - 1, +d);
  date.setUTCHours(+h, +mi - offset, +s, +fraction.slice(0, 3).padEnd(3, '0'));
  return inYearRange(date);
}

/** The date as ISO text, if its (UTC) year is one every database stores (a zone offset can cross a year's end). */
function inYearRange(date: Date): string | undefined {
  return storableYear(date.getUTCFullYear()) ? date.toISOString() : undefined;
}

/**
 * Casts one filter value to the column's type (see FilterValue in types.ts); a value that does not fit is a 400,
 * never a silent mismatch. `path` is the attribute path, for the error details.
 */
export function castFilterValue(
  field: FieldRef,
  value: unknown,
  path: string | null = null,
  param: QueryParam = 'filters',
): string | number | boolean | null {
  if (value === null) return null;
  if (typeof value === 'object' || typeof value === 'function' || typeof value === 'symbol' || value === undefined) {
    invalid(field, value, 'a single value', path, param);
  }
  if (typeof value === 'bigint') value = value.toString();
  const text = typeof value === 'string' ? value.trim() : String(value);
  switch (field.type) {
    case 'id':
    case 'integer': {
      const n = typeof value === 'number' ? value : INTEGER.test(text) ? Number(text) : NaN;
      if (!Number.isInteger(n) || n < INT32.min || n > INT32.max) invalid(field, value, 'an integer', path, param);
      return n;
    }
    case 'float':
    case 'decimal': {
      const n = typeof value === 'number' ? value : DECIMAL.test(text) ? Number(text) : NaN;
      if (!Number.isFinite(n)) invalid(field, value, 'a number', path, param);
      return n;
    }
    case 'biginteger': {
      if (typeof value === 'number' ? !Number.isSafeInteger(value) : !INTEGER.test(text)) invalid(field, value, 'an integer', path, param);
      const n = BigInt(text);
      if (n < INT64.min || n > INT64.max) invalid(field, value, 'a 64-bit integer', path, param);
      return n.toString();
    }
    case 'boolean':
      // The spellings Strapi's parseType takes.
      if (value === true || text === 'true' || text === 't' || text === '1') return true;
      if (value === false || text === 'false' || text === 'f' || text === '0') return false;
      return invalid(field, value, 'true or false', path, param);
    case 'date': {
      if (isIsoDate(text)) return text;
      // A full datetime is accepted too: its (UTC) day.
      const datetime = typeof value === 'string' && text.length > 10 ? normalizeDatetime(text) : undefined;
      if (!datetime) invalid(field, value, 'a date (YYYY-MM-DD)', path, param);
      return datetime.slice(0, 10);
    }
    case 'time': {
      const m = TIME.exec(text);
      if (!m || +m[1] > 23 || +m[2] > 59 || +(m[3] ?? 0) > 59) return invalid(field, value, 'a time (HH:mm:ss.SSS)', path, param);
      return `${m[1]}:${m[2]}:${m[3] ?? '00'}.${(m[4] ?? '').slice(0, 3).padEnd(3, '0')}`;
    }
    case 'datetime':
    case 'timestamp': {
      const datetime = normalizeDatetime(value);
      if (!datetime) {
        // The reference's message for this case.
        throw new ValidationError('Invalid format, expected a timestamp or an ISO date', {
          key: field.name,
          path,
          source: 'query',
          param,
        });
      }
      return datetime;
    }
    default:
      // Text-like columns compare as text, whatever the value's JSON type (`filters[name][$eq]=5` from code).
      return typeof value === 'string' ? value : String(value);
  }
}

export function isNumericColumn(type: ColumnType): boolean {
  return NUMERIC.has(type);
}
