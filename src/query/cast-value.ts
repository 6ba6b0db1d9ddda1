import { ValidationError } from '../errors/index.js';
import type { ColumnType, FieldRef } from './types.js';

const INTEGER = /^-?\d+$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME = /^(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3})\d*)?)?$/;

const NUMERIC = new Set<ColumnType>(['id', 'integer', 'float', 'decimal']);

function invalid(field: FieldRef, value: unknown, what: string): never {
  throw new ValidationError(`Invalid value ${JSON.stringify(value)} for ${field.name}: expected ${what}`, {
    key: field.name,
    source: 'query',
    param: 'filters',
  });
}

/** Casts one filter value to the column's type; a value that does not fit is a 400, never a silent mismatch. */
export function castFilterValue(field: FieldRef, value: unknown): string | number | boolean | null {
  if (value === null) return null;
  if (typeof value === 'object') invalid(field, value, 'a single value');
  const text = String(value);
  switch (field.type) {
    case 'id':
    case 'integer':
      if (typeof value === 'number' ? !Number.isInteger(value) : !INTEGER.test(text.trim())) invalid(field, value, 'an integer');
      return Number(text);
    case 'float':
    case 'decimal': {
      const n = typeof value === 'number' ? value : text.trim() === '' ? NaN : Number(text);
      if (!Number.isFinite(n)) invalid(field, value, 'a number');
      return n;
    }
    case 'biginteger':
      if (!INTEGER.test(text.trim())) invalid(field, value, 'an integer');
      return text.trim();
    case 'boolean':
      if (value === true || text === 'true' || text === '1') return true;
      if (value === false || text === 'false' || text === '0') return false;
      return invalid(field, value, 'true or false');
    case 'date': {
      const day = /^\d{4}-\d{2}-\d{2}T/.test(text) ? text.slice(0, 10) : text;
      if (!DATE.test(day) || Number.isNaN(Date.parse(`${day}T00:00:00Z`))) invalid(field, value, 'a date (YYYY-MM-DD)');
      return day;
    }
    case 'time': {
      const m = TIME.exec(text);
      if (!m) return invalid(field, value, 'a time (HH:mm:ss)');
      return `${m[1]}:${m[2]}:${m[3] ?? '00'}.${(m[4] ?? '').padEnd(3, '0')}`;
    }
    case 'datetime':
    case 'timestamp': {
      const ok = typeof value === 'number' || /^\d{4}-\d{2}-\d{2}/.test(text);
      const date = ok ? new Date(typeof value === 'number' ? value : text) : null;
      if (!date || Number.isNaN(date.getTime())) {
        throw new ValidationError('Invalid format, expected a timestamp or an ISO date', { key: field.name, source: 'query', param: 'filters' });
      }
      return date.toISOString();
    }
    default:
      return text;
  }
}

export function isNumericColumn(type: ColumnType): boolean {
  return NUMERIC.has(type);
}
