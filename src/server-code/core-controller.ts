import { AsyncLocalStorage } from 'node:async_hooks';
import type { Caller } from '../auth/access-control.js';
import type { ContentType } from '../model/types.js';
import { encodeSourceMaps, readSpec, toV4Text, type RestContext } from '../rest/index.js';
import { CALLER, EXTRA_KEYS } from './core-service.js';
import { checkInputParams, checkQueryParams, routeParamsOf } from './route-params.js';
import type { KoaContext } from './koa-context.js';
import { ValidationError } from './strapi-errors.js';

/** The ctx of the request being served (Strapi's `requestContext`): `transformResponse` reads its headers. */
export const requestContext = new AsyncLocalStorage<KoaContext>();

/** Who called, per ctx (set by the route's chain once its credentials are checked; open on `auth: false` routes). */
export const callers = new WeakMap<object, Caller>();
const OPEN_CALLER: Caller = { kind: 'public', key: 'open', can: () => true };
const callerOf = (ctx: object): Caller => callers.get(ctx) ?? OPEN_CALLER;

type Ctx = KoaContext;
type Service = Record<string, (...args: unknown[]) => Promise<unknown>>;
type Entry = Record<string, unknown>;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Strapi's core controller of one content-type: the prototype holds `sanitizeQuery`, `validateQuery`,
 * `sanitizeInput`, `validateInput`, `sanitizeOutput` and `transformResponse`; the object holds the actions (`find`,
 * `findOne`, `create`, `update`, `delete`), each calling `strapi.service(uid)` (the app's service when it has one,
 * whose reads are the compiled reader's). An app's `createCoreController` object gets this one as its prototype,
 * so `super.find(ctx)` in its methods is this `find`.
 *
 * Validation is sanitization here: Cairn fails closed (a parameter the caller may not use is a 400, never
 * dropped), so `sanitizeQuery` checks the query as the Content API does and returns it with the caller attached.
 */
export function createCoreController(rest: RestContext, contentType: ContentType, service: () => Service): Record<string, unknown> {
  const { uid } = contentType;
  // The route's extra parameters (route-params.ts) are checked with their schemas, the rest as the Content API does.
  const check = (ctx: Ctx) => {
    const { rest: query, parsed } = checkQueryParams(ctx.query ?? {}, routeParamsOf(ctx));
    readSpec(rest, contentType, { ...query }, callerOf(ctx));
    return { query, parsed };
  };
  const checkInput = (data: Record<string, unknown>) => checkInputParams(data, routeParamsOf(requestContext.getStore()));
  const proto = {
    transformResponse(data: unknown, meta: Record<string, unknown> = {}) {
      if (data === null || data === undefined) return data;
      if (!isObject(data) && !Array.isArray(data)) throw new Error('Entry must be an object or an array of objects');
      const ctx = requestContext.getStore();
      // Strapi reshapes first, then adds the source maps (none to a v4 shape: content-api.ts's answerShape).
      if (ctx?.get('strapi-response-format') === 'v4') return { data: JSON.parse(toV4Text(rest.model, contentType, JSON.stringify(data))), meta };
      if (ctx?.get('strapi-encode-source-maps') === 'true') return { data: encodeSourceMaps(rest.model, contentType, data), meta };
      return { data, meta };
    },
    async sanitizeOutput(data: unknown) {
      return withoutPrivate(data, contentType);
    },
    async sanitizeInput(data: unknown) {
      if (!isObject(data)) return data;
      const { rest: entry, parsed } = checkInput(data);
      const extra = Object.keys(parsed);
      return extra.length ? { ...entry, ...parsed, [EXTRA_KEYS]: extra } : data;
    },
    async sanitizeQuery(ctx: Ctx) {
      const { query, parsed } = check(ctx);
      const extra = Object.keys(parsed);
      return { ...query, ...parsed, [CALLER]: callerOf(ctx), ...(extra.length ? { [EXTRA_KEYS]: extra } : {}) };
    },
    async validateQuery(ctx: Ctx) {
      check(ctx);
    },
    async validateInput(data: unknown) {
      if (!isObject(data)) throw new ValidationError('Missing "data" payload in the request body');
      checkInput(data);
    },
  };
  const requireData = (ctx: Ctx) => {
    const body = (ctx.request.body ?? {}) as { data?: unknown };
    if (!isObject(body.data)) throw new ValidationError('Missing "data" payload in the request body');
    return body.data;
  };
  type Self = typeof proto;
  const actions =
    contentType.kind === 'singleType'
      ? {
          async find(this: Self, ctx: Ctx) {
            await this.validateQuery(ctx);
            const query = await this.sanitizeQuery(ctx);
            const entity = await service().find(query);
            return this.transformResponse(await this.sanitizeOutput(entity));
          },
          async update(this: Self, ctx: Ctx) {
            await this.validateQuery(ctx);
            const query = await this.sanitizeQuery(ctx);
            const data = requireData(ctx);
            await this.validateInput(data);
            const entity = await service().createOrUpdate({ ...query, data: await this.sanitizeInput(data) });
            return this.transformResponse(await this.sanitizeOutput(entity));
          },
          async delete(this: Self, ctx: Ctx) {
            await this.validateQuery(ctx);
            await service().delete(await this.sanitizeQuery(ctx));
            ctx.status = 204;
          },
        }
      : {
          async find(this: Self, ctx: Ctx) {
            await this.validateQuery(ctx);
            const query = await this.sanitizeQuery(ctx);
            const { results, pagination } = (await service().find(query)) as { results: Entry[]; pagination: unknown };
            return this.transformResponse(await this.sanitizeOutput(results), { pagination });
          },
          async findOne(this: Self, ctx: Ctx) {
            await this.validateQuery(ctx);
            const query = await this.sanitizeQuery(ctx);
            const entity = await service().findOne(ctx.params.id, query);
            return this.transformResponse(await this.sanitizeOutput(entity));
          },
          async create(this: Self, ctx: Ctx) {
            await this.validateQuery(ctx);
            const query = await this.sanitizeQuery(ctx);
            const data = requireData(ctx);
            await this.validateInput(data);
            const entity = await service().create({ ...query, data: await this.sanitizeInput(data) });
            ctx.status = 201;
            return this.transformResponse(await this.sanitizeOutput(entity));
          },
          async update(this: Self, ctx: Ctx) {
            await this.validateQuery(ctx);
            const query = await this.sanitizeQuery(ctx);
            const data = requireData(ctx);
            await this.validateInput(data);
            const entity = await service().update(ctx.params.id, { ...query, data: await this.sanitizeInput(data) });
            return this.transformResponse(await this.sanitizeOutput(entity));
          },
          async delete(this: Self, ctx: Ctx) {
            await this.validateQuery(ctx);
            await service().delete(ctx.params.id, await this.sanitizeQuery(ctx));
            ctx.status = 204;
          },
        };
  return Object.assign(Object.create(proto), actions, { [Symbol.for('cairn.server-code.uid')]: uid });
}

/** An entry (or list) without the content-type's private attributes (the reader never gives them; app code might). */
function withoutPrivate(data: unknown, contentType: ContentType): unknown {
  if (Array.isArray(data)) return data.map((item) => withoutPrivate(item, contentType));
  if (!isObject(data) || contentType.privateAttributes.size === 0) return data;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(data)) if (!contentType.privateAttributes.has(key)) out[key] = value;
  return out;
}
