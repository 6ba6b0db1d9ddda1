import type { ColumnType } from '../query/types.js';

/** A column's value as Strapi's Query Engine answers it: booleans, ISO datetimes, numbers, parsed JSON. */
export function fromColumn(value: unknown, type: ColumnType): unknown {
  if (value === null || value === undefined) return null;
  switch (type) {
    case 'boolean':
      return value === true || value === 1 || value === '1';
    case 'datetime':
    case 'timestamp': {
      const date = value instanceof Date ? value : new Date(typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : (value as string | number));
      return Number.isNaN(date.getTime()) ? null : date.toISOString();
    }
    case 'date':
      return value instanceof Date ? value.toISOString().slice(0, 10) : String(value).slice(0, 10);
    case 'json':
      if (typeof value !== 'string') return value;
      try {
        return JSON.parse(value);
      } catch {
        return value;
      }
    case 'id':
    case 'integer':
    case 'float':
    case 'decimal':
      return Number(value);
    case 'biginteger':
      return String(value);
    default:
      return value;
  }
}
