import { countRows, selectRows } from '../database/row-query.js';
import type { Database } from '../database/types.js';
import type { Component, ContentType, Model } from '../model/types.js';
import { parseRowWhere, rowFields } from '../query/index.js';
import type { FieldRef } from '../query/types.js';

/** A Query Engine read's parameters, as Strapi names them. */
export interface RowQueryParams {
  where?: unknown;
  select?: string | string[];
  orderBy?: unknown;
  limit?: number;
  offset?: number;
}

/** The reads of Strapi's Query Engine that Cairn provides; its other methods are errors naming themselves. */
export interface QueryEngine {
  findMany(params?: RowQueryParams): Promise<Record<string, unknown>[]>;
  findOne(params?: RowQueryParams): Promise<Record<string, unknown> | null>;
  count(params?: Pick<RowQueryParams, 'where'>): Promise<number>;
}

const READ_KEYS = ['where', 'select', 'orderBy', 'limit', 'offset'];
/** Members code may probe on any object (promises, printers, matchers): absent, not errors. */
const PROBED = new Set(['then', 'toJSON', 'constructor', 'inspect', 'asymmetricMatch', '$$typeof', 'nodeType']);

/**
 * `strapi.db.query(uid)`: Strapi's Query Engine, its reads. Rows as stored, not documents: every version and
 * locale, every column by its attribute name (private ones and password hashes too: it is code's API, never a
 * request's), `where` in the filters' language (relations too), `select`, `orderBy` (`'name'`, `{ name: 'desc' }`
 * or lists of them), `limit`, `offset`. One statement each. Writes, `populate` and the rest are not provided: they
 * throw, naming what to use instead, so code relying on them stops at once instead of misbehaving.
 */
export function queryEngine(db: Database, model: Model, uid: string): QueryEngine {
  const schema: ContentType | Component | undefined = model.contentTypes.get(uid) ?? model.components.get(uid);
  if (!schema) {
    // Strapi's own models that Cairn has no model of (i18n's locales, admin users, permissions) are tables it reads
    // through its own services, not through this engine.
    if (/^(plugin|admin|strapi)::/.test(uid)) throw new Error(`strapi.db.query('${uid}') is not provided by Cairn (its models: ${[...model.contentTypes.keys()].join(', ')})`);
    throw new Error(`strapi.db.query('${uid}'): no such model (the app has ${[...model.contentTypes.keys()].join(', ')})`);
  }
  const fields = rowFields(schema);
  const fieldOf = (name: unknown, what: string): FieldRef => {
    const field = typeof name === 'string' ? fields.find((f) => f.name === name) : undefined;
    if (!field) throw new Error(`strapi.db.query('${uid}'): ${what} ${JSON.stringify(name)} is not a column of ${uid} (${fields.map((f) => f.name).join(', ')})`);
    return field;
  };
  const read = async (params: RowQueryParams = {}, limit?: number) => {
    const unknown = Object.keys(params).filter((k) => !READ_KEYS.includes(k));
    if (unknown.length) {
      throw new Error(`strapi.db.query('${uid}'): ${unknown.join(', ')} ${unknown.length > 1 ? 'are' : 'is'} not provided by Cairn (a read takes ${READ_KEYS.join(', ')}; populate with strapi.documents(uid))`);
    }
    const select = params.select === undefined ? fields : (Array.isArray(params.select) ? params.select : [params.select]).map((name) => fieldOf(name, 'select'));
    const rows = await selectRows(db, model, schema, {
      filter: parseRowWhere(model, schema, params.where ?? {}),
      columns: select,
      orderBy: orderByOf(params.orderBy).map(([name, desc]) => ({ field: fieldOf(name, 'orderBy'), desc })),
      limit: limit ?? params.limit,
      offset: params.offset,
    });
    return rows.map((row) => Object.fromEntries(select.map((f) => [f.name, fromColumn(row[f.column], f.type)])));
  };
  const engine: QueryEngine = {
    findMany: (params) => read(params),
    findOne: async (params) => (await read(params, 1))[0] ?? null,
    count: async (params = {}) => countRows(db, model, schema, parseRowWhere(model, schema, params.where ?? {})),
  };
  // The rest of Strapi's Query Engine (create, update, delete and their *Many, findPage, populate, load...): a call
  // says it is not provided, rather than `undefined is not a function` somewhere later.
  return new Proxy(engine, {
    get(target, key) {
      if (typeof key === 'symbol' || key in target || PROBED.has(key)) return Reflect.get(target, key);
      return () => {
        throw new Error(`strapi.db.query('${uid}').${key} is not provided by Cairn: write through strapi.documents('${uid}')`);
      };
    },
  });
}

/** `'name'`, `'name:desc'`, `{ name: 'desc' }`, or a list of them: [attribute, descending]. */
function orderByOf(orderBy: unknown): [string, boolean][] {
  if (orderBy === undefined || orderBy === null) return [];
  if (Array.isArray(orderBy)) return orderBy.flatMap(orderByOf);
  if (typeof orderBy === 'string') {
    const [name, direction = 'asc'] = orderBy.split(':');
    return [[name, direction.toLowerCase() === 'desc']];
  }
  if (typeof orderBy === 'object') return Object.entries(orderBy).map(([name, direction]) => [name, String(direction).toLowerCase() === 'desc']);
  throw new Error(`orderBy must be a name, { name: 'asc' | 'desc' } or a list of them, not ${JSON.stringify(orderBy)}`);
}

/** A column's value as Strapi's Query Engine answers it: booleans, ISO datetimes, numbers, parsed JSON. */
function fromColumn(value: unknown, type: FieldRef['type']): unknown {
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
