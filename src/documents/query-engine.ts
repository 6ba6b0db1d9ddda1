import { countRows, selectRows } from '../database/row-query.js';
import type { Database } from '../database/types.js';
import type { Component, ContentType, Model } from '../model/types.js';
import { isPlainObject, parseRowWhere, rowFields } from '../query/index.js';
import type { FieldRef } from '../query/types.js';
import type { DocumentHooks, LifecycleAction, LifecycleStates } from './hooks.js';
import { deleteRows, insertRows, rowData, updateRows } from './query-engine-writes.js';
import { parseRowPopulate, populateRows } from './query-engine-populate.js';
import { fromColumn } from './column-values.js';
import { queryableSystemType } from '../model/system-types.js';

/** A Query Engine read's parameters, as Strapi names them. */
export interface RowQueryParams {
  where?: unknown;
  populate?: unknown;
  select?: string | string[];
  orderBy?: unknown;
  limit?: number;
  offset?: number;
}

/** A Query Engine write's parameters, as Strapi names them. */
export interface RowWriteParams {
  where?: unknown;
  data?: unknown;
  select?: string | string[];
  populate?: unknown;
}

/** The members of Strapi's Query Engine that Cairn provides; its other members are errors naming themselves. */
export interface QueryEngine {
  findMany(params?: RowQueryParams): Promise<Record<string, unknown>[]>;
  findOne(params?: RowQueryParams): Promise<Record<string, unknown> | null>;
  count(params?: Pick<RowQueryParams, 'where'>): Promise<number>;
  create(params: RowWriteParams): Promise<Record<string, unknown> | null>;
  createMany(params: RowWriteParams): Promise<{ count: number; ids: number[] }>;
  update(params: RowWriteParams): Promise<Record<string, unknown> | null>;
  updateMany(params: RowWriteParams): Promise<{ count: number }>;
  delete(params: RowWriteParams): Promise<Record<string, unknown> | null>;
  deleteMany(params?: RowWriteParams): Promise<{ count: number }>;
}

const WRITES = new Set(['Create', 'CreateMany', 'Update', 'UpdateMany', 'Delete', 'DeleteMany']);
const READ_KEYS = ['where', 'select', 'orderBy', 'limit', 'offset', 'populate'];
/** Members code may probe on any object (promises, printers, matchers): absent, not errors. */
const PROBED = new Set(['then', 'toJSON', 'constructor', 'inspect', 'asymmetricMatch', '$$typeof', 'nodeType']);

/**
 * `strapi.db.query(uid)`: Strapi's Query Engine. Rows as stored, not documents: every version and locale, every
 * column by its attribute name (private ones and password hashes too: it is code's API, never a request's), `where`
 * in the filters' language (relations too), `select`, `orderBy` (`'name'`, `{ name: 'desc' }` or lists of them),
 * `limit`, `offset`, `populate` (query-engine-populate.ts). Writes as Strapi's entity manager makes them: rows, not
 * documents (no draft made for a published row; `documentId`, `locale`, `publishedAt` as data gives them, else a new
 * documentId, no locale and the time of the write, Strapi's model defaults), relations and components by row id
 * (query-engine-writes.ts), each in one transaction, with the content type's lifecycle events. Besides the app's
 * types and components, i18n's locales (`plugin::i18n.locale`): `afterWrite` runs once a write is done (the app reads
 * its locales again). The rest (findPage, load, populate's filters) is not provided: it throws, naming what to use
 * instead.
 */
export function queryEngine(db: Database, model: Model, uid: string, hooks?: DocumentHooks, afterWrite?: () => Promise<void>): QueryEngine {
  // i18n's locales, the sessions and users-permissions' permissions are Strapi's own types, not the app's: served
  // here only (system-types.ts).
  const schema: ContentType | Component | undefined = model.contentTypes.get(uid) ?? model.components.get(uid) ?? queryableSystemType(uid);
  if (!schema) {
    // Strapi's other own models that Cairn has no model of (admin users and roles...) are tables it reads through
    // its own services, not through this engine.
    if (/^(plugin|admin|strapi)::/.test(uid)) throw new Error(`strapi.db.query('${uid}') is not provided by Cairn (its models: ${[...model.contentTypes.keys()].join(', ')})`);
    throw new Error(`strapi.db.query('${uid}'): no such model (the app has ${[...model.contentTypes.keys()].join(', ')})`);
  }
  const fields = rowFields(schema);
  const fieldOf = (name: unknown, what: string): FieldRef => {
    const field = typeof name === 'string' ? fields.find((f) => f.name === name) : undefined;
    if (!field) throw new Error(`strapi.db.query('${uid}'): ${what} ${JSON.stringify(name)} is not a column of ${uid} (${fields.map((f) => f.name).join(', ')})`);
    return field;
  };
  const checkKeys = (params: object, allowed: readonly string[], what: string) => {
    // A key given as undefined is absent (`{ where, populate }` from a helper that got no populate).
    const unknown = Object.keys(params).filter((k) => !allowed.includes(k) && (params as Record<string, unknown>)[k] !== undefined);
    if (unknown.length) {
      throw new Error(`strapi.db.query('${uid}'): ${unknown.join(', ')} ${unknown.length > 1 ? 'are' : 'is'} not provided by Cairn (${what} takes ${allowed.join(', ')}; populate with strapi.documents(uid))`);
    }
  };
  const read = async (params: RowQueryParams = {}, limit?: number) => {
    checkKeys(params, READ_KEYS, 'a read');
    const select = params.select === undefined ? fields : (Array.isArray(params.select) ? params.select : [params.select]).map((name) => fieldOf(name, 'select'));
    const populate = parseRowPopulate(uid, model, schema, params.populate);
    // A populate needs each row's id; it is read, and left out of the answer if not selected.
    const columns = populate.size && !select.some((f) => f.name === 'id') ? [ID, ...select] : select;
    const rows = (
      await selectRows(db, model, schema, {
        filter: parseRowWhere(model, schema, params.where ?? {}),
        columns,
        orderBy: orderByOf(params.orderBy).map(([name, desc]) => ({ field: fieldOf(name, 'orderBy'), desc })),
        limit: limit ?? params.limit,
        offset: params.offset,
      })
    ).map((row) => shapeRow(schema, row, columns));
    if (!populate.size) return rows;
    await populateRows(db, model, schema, rows, populate, shapeRow);
    if (columns !== select) for (const row of rows) delete row.id;
    return rows;
  };
  const idsWhere = async (where: unknown, limit?: number): Promise<number[]> =>
    (await selectRows(db, model, schema, { filter: parseRowWhere(model, schema, where ?? {}), columns: [ID], orderBy: [], limit })).map((r) => Number(r.id));
  const requireWhere = (params: RowWriteParams, action: string) => {
    const where = params.where;
    if ((!isPlainObject(where) && !Array.isArray(where)) || Object.keys(where).length === 0) throw new Error(`strapi.db.query('${uid}').${action} requires a where parameter`);
  };
  // Strapi's lifecycle events of the Query Engine, on a content type (a component's rows fire none here).
  const fire = async <T>(action: string, params: object, run: () => Promise<T>): Promise<T> => {
    if (!hooks || schema.modelType !== 'contentType') return run();
    const before = `before${action}` as LifecycleAction;
    const after = `after${action}` as LifecycleAction;
    const states: LifecycleStates = new Map();
    const trx = db.inTransaction ? db : undefined;
    if (hooks.listens(uid, before)) await hooks.fire(before, schema, { params: params as Record<string, unknown> }, states, trx);
    const result = await run();
    if (hooks.listens(uid, after)) await hooks.fire(after, schema, { params: params as Record<string, unknown>, result }, states, trx);
    return result;
  };
  const lifecycle = async <T>(action: string, params: object, run: () => Promise<T>): Promise<T> => {
    const result = await fire(action, params, run);
    // What depends on the rows written (the app's locales) is read again once they are.
    if (afterWrite && WRITES.has(action)) await afterWrite();
    return result;
  };
  const byId = (id: number, params: Pick<RowWriteParams, 'select' | 'populate'>) => read({ where: { id }, select: params.select, populate: params.populate }, 1).then((rows) => rows[0] ?? null);

  const engine: QueryEngine = {
    findMany: (params = {}) => lifecycle('FindMany', params, () => read(params)),
    findOne: (params = {}) => lifecycle('FindOne', params, async () => (await read(params, 1))[0] ?? null),
    count: (params = {}) => lifecycle('Count', params, async () => countRows(db, model, schema, parseRowWhere(model, schema, params.where ?? {}))),
    create: (params) =>
      lifecycle('Create', params, async () => {
        checkKeys(params, ['data', 'select', 'populate'], 'create');
        const [id] = await insertRows(db, model, schema, [rowData(uid, schema, fields, params.data)]);
        return byId(id, params);
      }),
    createMany: (params) =>
      lifecycle('CreateMany', params, async () => {
        checkKeys(params, ['data'], 'createMany');
        if (!Array.isArray(params.data)) throw new Error(`strapi.db.query('${uid}').createMany expects data to be an array`);
        if (!params.data.length) throw new Error(`strapi.db.query('${uid}').createMany: nothing to insert`);
        const rows = params.data.map((datum) => rowData(uid, schema, fields, datum));
        if (rows.some((row) => row.relations.length)) throw new Error(`strapi.db.query('${uid}').createMany writes no relations (as Strapi's): create them one by one`);
        const ids = await insertRows(db, model, schema, rows);
        return { count: ids.length, ids };
      }),
    update: (params) =>
      lifecycle('Update', params, async () => {
        checkKeys(params, ['where', 'data', 'select', 'populate'], 'update');
        requireWhere(params, 'update');
        const data = rowData(uid, schema, fields, params.data);
        const [id] = await idsWhere(params.where, 1);
        if (id === undefined) return null;
        await updateRows(db, model, schema, [id], data);
        return byId(id, params);
      }),
    updateMany: (params) =>
      lifecycle('UpdateMany', params, async () => {
        checkKeys(params, ['where', 'data'], 'updateMany');
        const data = rowData(uid, schema, fields, params.data);
        if (data.relations.length) throw new Error(`strapi.db.query('${uid}').updateMany writes no relations (as Strapi's): update them one by one`);
        if (!Object.keys(data.columns).length) throw new Error(`strapi.db.query('${uid}').updateMany requires data`);
        const ids = await idsWhere(params.where);
        await updateRows(db, model, schema, ids, data);
        return { count: ids.length };
      }),
    delete: (params) =>
      lifecycle('Delete', params, async () => {
        checkKeys(params, ['where', 'select', 'populate'], 'delete');
        requireWhere(params, 'delete');
        const [id] = await idsWhere(params.where, 1);
        if (id === undefined) return null;
        const select = params.select === undefined ? undefined : ['id', ...(Array.isArray(params.select) ? params.select : [params.select])];
        const entity = await byId(id, { select, populate: params.populate });
        await deleteRows(db, model, schema, [id]);
        return entity;
      }),
    deleteMany: (params = {}) =>
      lifecycle('DeleteMany', params, async () => {
        checkKeys(params, ['where'], 'deleteMany');
        const ids = await idsWhere(params.where);
        await deleteRows(db, model, schema, ids);
        return { count: ids.length };
      }),
  };
  // The rest of Strapi's Query Engine (findPage, load, clone...): a call says it is not provided, rather
  // than `undefined is not a function` somewhere later.
  return new Proxy(engine, {
    get(target, key) {
      if (typeof key === 'symbol' || key in target || PROBED.has(key)) return Reflect.get(target, key);
      return () => {
        throw new Error(`strapi.db.query('${uid}').${key} is not provided by Cairn: use strapi.documents('${uid}')`);
      };
    },
  });
}

const ID: FieldRef = { name: 'id', column: 'id', type: 'id' };

/** A row as the Query Engine answers it: the columns read, by attribute name, typed. */
const shapeRow = (_schema: unknown, row: Record<string, unknown>, columns: readonly FieldRef[]) =>
  Object.fromEntries(columns.map((f) => [f.name, fromColumn(row[f.column], f.type)]));

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
