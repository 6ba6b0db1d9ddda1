import * as z from 'zod/v4';
import { ValidationError } from './strapi-errors.js';

/**
 * The extra parameters a Content API route takes beyond Strapi's own, as Strapi 5 declares them (5.2x on): a route's
 * `request.query` (a Zod schema per query key) and `request.body['application/json']` (a Zod object whose keys other
 * than `data` are extra keys of `data`), and what `strapi.contentAPI.addQueryParams` / `addInputParams` add to the
 * routes their `matchRoute` picks. A value is checked with its schema, as Strapi checks it under `strictParams`
 * (Cairn's only mode): a failure is a 400 with Zod's message; a valid one reaches the app's code parsed, and never the
 * Document Service's query or write. A route's `request.params` and `response` describe the route for OpenAPI only, in
 * Strapi as here.
 */

/** Where a route's extra parameters ride on its `ctx.state.route` (register.ts), for the core controller's checks. */
export const ROUTE_PARAMS = Symbol('cairn.server-code.route-params');

/** The extra parameters of the route `ctx` is served on, if it has any. */
export const routeParamsOf = (ctx: { state?: { route?: unknown } } | undefined): RouteParams | undefined =>
  (ctx?.state?.route as { [ROUTE_PARAMS]?: RouteParams } | undefined)?.[ROUTE_PARAMS];

/** A Zod schema (Strapi's Zod 4, or any with `safeParse`): only `safeParse` is used. */
interface ParamSchema {
  safeParse(value: unknown): { success: true; data: unknown } | { success: false; error: { message: string } };
}

export interface RouteParams {
  query: ReadonlyMap<string, ParamSchema>;
  body: ReadonlyMap<string, ParamSchema>;
}

/** The parts of a route `matchRoute` and the route's own `request` are read from. */
export interface ParamRoute {
  method?: unknown;
  path?: unknown;
  request?: unknown;
}

type SchemaOrFactory = ParamSchema | ((zod: typeof z) => ParamSchema);
type Registration = Record<string, { schema: SchemaOrFactory; matchRoute?: (route: ParamRoute) => boolean }>;

/** Strapi's query keys (ALLOWED_QUERY_PARAM_KEYS of @strapi/utils 5.54): no extra parameter may take one. */
const CORE_QUERY_KEYS = new Set(['filters', 'sort', 'fields', 'populate', 'status', 'locale', 'page', 'pageSize', 'start', 'limit', '_q', 'publicationFilter', 'hasPublishedVersion', 'pagination', 'count', 'ordering']);
const RESERVED_INPUT_KEYS = new Set(['id', 'documentId']);
/** What addQueryParams takes (a query value is a string or a list of strings): Zod's scalar types, optional, defaulted or in an array. */
const QUERY_SCALARS = new Set(['string', 'number', 'boolean', 'enum']);

const isSchema = (value: unknown): value is ParamSchema => typeof (value as ParamSchema | null)?.safeParse === 'function';

/** Zod 4's description of a schema: its type, and the schema it wraps (optional, default) or lists (array). */
function zodDef(schema: unknown): { type?: string; innerType?: unknown; element?: unknown } {
  return ((schema as { _zod?: { def?: object } })._zod?.def ?? {}) as { type?: string };
}

function assertQueryScalar(schema: unknown, param: string): void {
  const def = zodDef(schema);
  if (def.type === 'optional' || def.type === 'default') return assertQueryScalar(def.innerType, param);
  if (def.type === 'array') return assertQueryScalar(def.element, param);
  if (!def.type || !QUERY_SCALARS.has(def.type)) {
    throw new Error(`contentAPI.addQueryParams: param "${param}" schema must be a scalar (string, number, boolean, enum) or array of scalars; got ${def.type ?? typeof schema}. Use addInputParams for nested objects.`);
  }
}

/**
 * `strapi.contentAPI`'s `addQueryParams` and `addInputParams`, called in the app's `register()`: the parameters are
 * merged into the routes when they are registered (after `register`), with Strapi's checks and its messages.
 */
export class ContentApiParams {
  private readonly query: Array<{ param: string; schema: ParamSchema; matchRoute?: (route: ParamRoute) => boolean }> = [];
  private readonly input: Array<{ param: string; schema: ParamSchema; matchRoute?: (route: ParamRoute) => boolean }> = [];
  /** Set once the routes are registered: a parameter added later would apply to none (Strapi drops it silently). */
  private closed = false;

  /** Called once the routes are registered (before the app's `bootstrap`). */
  close(): void {
    this.closed = true;
  }

  private open(what: string): void {
    if (this.closed) throw new Error(`contentAPI.${what}: the routes are registered already (this runs after register()): add parameters in register(), where they apply to the routes`);
  }

  addQueryParams(options: Registration): void {
    this.open('addQueryParams');
    for (const [param, { schema, matchRoute }] of Object.entries(options ?? {})) {
      const resolved = resolve(schema, `contentAPI.addQueryParams: param "${param}"`);
      assertQueryScalar(resolved, param);
      if (CORE_QUERY_KEYS.has(param)) throw new Error(`contentAPI.addQueryParams: param "${param}" is reserved by Strapi; use a different name`);
      if (this.query.some((o) => o.param === param)) throw new Error(`contentAPI.addQueryParams: param "${param}" has already been added`);
      this.query.push({ param, schema: resolved, matchRoute });
    }
  }

  addInputParams(options: Registration): void {
    this.open('addInputParams');
    for (const [param, { schema, matchRoute }] of Object.entries(options ?? {})) {
      const resolved = resolve(schema, `contentAPI.addInputParams: param "${param}"`);
      if (RESERVED_INPUT_KEYS.has(param)) throw new Error(`contentAPI.addInputParams: param "${param}" is reserved by Strapi; use a different name`);
      if (this.input.some((o) => o.param === param)) throw new Error(`contentAPI.addInputParams: param "${param}" has already been added`);
      this.input.push({ param, schema: resolved, matchRoute });
    }
  }

  /** Whether any registered parameter applies to `route`. */
  matches(route: ParamRoute): boolean {
    return [...this.query, ...this.input].some((o) => !o.matchRoute || o.matchRoute(route));
  }

  /**
   * The extra parameters of `route` (its path as its router file gives it, without the API prefix, as Strapi gives
   * it to `matchRoute`): its own `request` schemas and the registered ones it matches; undefined when it has none.
   */
  forRoute(route: ParamRoute): RouteParams | undefined {
    const { query, body } = ownParams(route);
    const where = `route ${String(route.method)} ${String(route.path)}`;
    for (const { param, schema, matchRoute } of this.query) {
      if (matchRoute && !matchRoute(route)) continue;
      if (query.has(param)) throw new Error(`contentAPI.addQueryParams: param "${param}" already exists on ${where}`);
      query.set(param, schema);
    }
    for (const { param, schema, matchRoute } of this.input) {
      if (matchRoute && !matchRoute(route)) continue;
      if (body.has(param)) throw new Error(`contentAPI.addInputParams: param "${param}" already exists on ${where}`);
      body.set(param, schema);
    }
    return query.size || body.size ? { query, body } : undefined;
  }
}

function resolve(schema: SchemaOrFactory, what: string): ParamSchema {
  const resolved = typeof schema === 'function' ? schema(z) : schema;
  if (!isSchema(resolved)) throw new Error(`${what}: schema must be a Zod schema (or a function of z returning one)`);
  return resolved;
}

/** A route's own `request`: `query` (key -> schema) and the extra `data` keys of its JSON body's object schema. */
function ownParams(route: ParamRoute): { query: Map<string, ParamSchema>; body: Map<string, ParamSchema> } {
  const where = `route ${String(route.method)} ${String(route.path)}`;
  const query = new Map<string, ParamSchema>();
  const body = new Map<string, ParamSchema>();
  const request = route.request;
  if (request === undefined) return { query, body };
  if (typeof request !== 'object' || request === null) throw new Error(`${where}: request must be an object ({ query, params, body })`);
  for (const key of Object.keys(request)) if (!['query', 'params', 'body'].includes(key)) throw new Error(`${where}: request.${key} is not supported by Cairn (request takes query, params and body)`);
  const { query: querySchemas, body: bodySchemas } = request as { query?: unknown; body?: unknown };
  for (const [key, schema] of Object.entries(querySchemas ?? {})) {
    if (!isSchema(schema)) throw new Error(`${where}: request.query.${key} must be a Zod schema`);
    // Strapi's own keys keep Strapi's rules: a schema given for one describes it (OpenAPI), it adds no parameter.
    if (!CORE_QUERY_KEYS.has(key)) query.set(key, schema);
  }
  for (const [type, schema] of Object.entries(bodySchemas ?? {})) {
    if (!isSchema(schema)) throw new Error(`${where}: request.body['${type}'] must be a Zod schema`);
    // As Strapi: the root keys of the JSON body's object schema, but `data` (the entry, checked against the model).
    const shape = type === 'application/json' ? (schema as { shape?: unknown }).shape : undefined;
    if (typeof shape !== 'object' || shape === null) continue;
    for (const [key, value] of Object.entries(shape)) if (key !== 'data' && isSchema(value)) body.set(key, value);
  }
  return { query, body };
}

/** `values` checked against `schemas` (those present): the parsed values, and `values` without them. */
function checked(values: Record<string, unknown>, schemas: ReadonlyMap<string, ParamSchema>, source: 'query' | 'body'): { rest: Record<string, unknown>; parsed: Record<string, unknown> } {
  const rest: Record<string, unknown> = {};
  const parsed: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(values)) {
    const schema = schemas.get(key);
    if (!schema) {
      rest[key] = value;
      continue;
    }
    const result = schema.safeParse(value);
    if (!result.success) throw new ValidationError(result.error?.message ?? (source === 'query' ? 'Invalid query param' : 'Validation failed'), { key, path: null, source, param: key });
    parsed[key] = result.data;
  }
  return { rest, parsed };
}

/** A query's extra parameters checked: the query the Content API reads (without them) and their parsed values. */
export const checkQueryParams = (query: Record<string, unknown>, params: RouteParams | undefined) =>
  params?.query.size ? checked(query, params.query, 'query') : { rest: query, parsed: {} };

/** An entry's (`data`'s) extra keys checked: the entry the Document Service writes (without them) and their parsed values. */
export const checkInputParams = (data: Record<string, unknown>, params: RouteParams | undefined) =>
  params?.body.size ? checked(data, params.body, 'body') : { rest: data, parsed: {} };
