import type { FastifyInstance, FastifyReply, FastifyRequest, RouteHandlerMethod } from 'fastify';
import type { Logger } from 'pino';
import { ConfigError, ForbiddenError, NotFoundError, UnauthorizedError } from '../errors/index.js';
import { appModuleAliases, describeLoadError, loadAppModule } from '../project/config-module.js';
import { applicationMiddlewares, type AppMiddlewareRef, type ResponseHandlers } from '../project/middlewares.js';
import type { AppConfig } from '../project/types.js';
import type { QueryStringParser } from '../query/index.js';
import { errorAnswer } from '../rest/index.js';
import { requestContext } from './core-controller.js';
import { KoaContext } from './koa-context.js';
import { inFile } from './load-api.js';
import { compose, type Middleware } from './policies.js';
import { respond } from './respond.js';

/**
 * A route handler that runs app code on a Koa `ctx` itself (server-code/register.ts): under application
 * middlewares it serves into their `ctx` (the answer stays in it) instead of building its own.
 */
export const KOA_ROUTE = Symbol('cairn.server-code.koa-route');
export type KoaRoute = (ctx: KoaContext) => Promise<void>;

/**
 * What a wrapped route's answer is in `ctx.body`, as in Strapi: `'object'` (a REST answer: its JSON object, parsed
 * only if a middleware reads it), `'text'` (GraphQL: Apollo's Koa integration leaves the JSON text there).
 */
export type AnswerKind = 'object' | 'text';

/** What application middlewares need of the app. */
export interface AppMiddlewaresHost {
  readonly config: AppConfig;
  readonly fastify: FastifyInstance;
  readonly queryString: QueryStringParser;
  readonly log: Pick<Logger, 'error'>;
}

export interface ApplicationMiddlewares {
  /** The app's middlewares, in list order. */
  readonly names: string[];
  /**
   * Calls each one's factory `(config, { strapi })`, as Strapi does once the routes exist and before the app's
   * `bootstrap()`. Requests arrive only after it.
   */
  build(strapi: unknown): void;
  /** The handler of requests no route takes, under the middlewares for the URLs they wrap. */
  aroundNotFound(handler: RouteHandlerMethod): RouteHandlerMethod;
}

type Factory = (config: unknown, app: { strapi: unknown }) => unknown;

/**
 * The app's application middlewares (config/middlewares' `global::x`, `api::a.x`, `{ resolve }`): loads their files
 * (a file that does not load stops the start, naming it) and wraps, from now on, every route `wraps` names: each
 * request builds one Koa `ctx` and runs the middlewares in list order around the route (its own chain on the same
 * `ctx` for a route of the app's server code; Cairn's handler otherwise, its answer then in `ctx.status`, `ctx.body`
 * and the response headers). `strapi::errors`' place in the list is kept: the app's middlewares listed before it see
 * an error's answer in `ctx`, those after it see the error thrown. Without any, nothing is wrapped: undefined.
 */
export async function loadApplicationMiddlewares(host: AppMiddlewaresHost, wraps: (url: string) => AnswerKind | undefined): Promise<ApplicationMiddlewares | undefined> {
  const { middlewares: refs, errorsAt, responses } = applicationMiddlewares(host.config.middlewares, host.config.dir);
  if (!refs.length && !responses) return undefined;
  // A name's factory is the one the server code registered (`strapi.middleware(name)`, as Strapi looks it up: the
  // same module as the routes' middlewares); a `resolve`'s module is loaded here.
  const factories: Array<{ ref: AppMiddlewareRef; factory?: Factory }> = [];
  for (const ref of refs) {
    if (ref.byName) {
      factories.push({ ref });
      continue;
    }
    let exported: unknown;
    try {
      exported = await loadAppModule(ref.file, host.config.dir, appModuleAliases());
    } catch (error) {
      throw new ConfigError(`${ref.file}: ${describeLoadError(error, ref.file)}`);
    }
    if (typeof exported !== 'function') {
      throw new ConfigError(`${ref.file}: middleware ${JSON.stringify(ref.name)} must export a factory (config, { strapi }) => async (ctx, next) => { ... }, as Strapi's do`);
    }
    factories.push({ ref, factory: exported as Factory });
  }

  let chain: Middleware[] | undefined;
  /** A handler under the middlewares: one ctx per request, the chain around the route (or Cairn's handler). */
  const around = (handler: RouteHandlerMethod, kind: AnswerKind): RouteHandlerMethod => {
    const koaRoute = (handler as { [KOA_ROUTE]?: KoaRoute })[KOA_ROUTE];
    let run: ((ctx: KoaContext) => Promise<unknown>) | undefined;
    return async function (this: FastifyInstance, req: FastifyRequest, reply: FastifyReply) {
      if (!chain) throw new Error('application middlewares are built before requests');
      // Built once per route: the request is the ctx's (`this` is the route's Fastify instance, the same each time).
      run ??= compose([...chain, koaRoute ? (ctx) => koaRoute(ctx) : (ctx) => answerOf(handler, this, ctx, kind)]);
      const ctx = new KoaContext(req, reply, paramsOf(req), () => host.queryString.ofUrl(req.url), host.config.server.app?.keys);
      // The route reads `ctx.query` once a middleware read or replaced it (Strapi's routes read that object).
      host.queryString.give(req, () => ctx.request.parsedQuery);
      try {
        await requestContext.run(ctx, () => run!(ctx));
      } catch (error) {
        // The headers set before the error stay on its answer, as Strapi's error middleware leaves them.
        reply.headers(ctx.headersOut);
        throw error;
      }
      return respond(ctx, reply);
    };
  };
  host.fastify.addHook('onRoute', (route) => {
    const kind = wraps(route.url);
    if (kind) route.handler = around(route.handler as RouteHandlerMethod, kind);
  });

  return {
    names: refs.map((r) => r.name),
    aroundNotFound(handler) {
      // A request no route takes goes through them too (as Strapi's, which run before its router): they may answer it.
      // Under them nothing answers it (Koa's 404, no body, as Strapi's router leaves it): strapi::errors, or the
      // answer's end, makes it Strapi's NotFoundError.
      const unanswered: RouteHandlerMethod = () => undefined;
      const wrapped = { object: around(unanswered, 'object'), text: around(unanswered, 'text') };
      return function (this: FastifyInstance, req: FastifyRequest, reply: FastifyReply) {
        const at = req.url.indexOf('?');
        const kind = wraps(at === -1 ? req.url : req.url.slice(0, at));
        return (kind ? wrapped[kind] : handler).call(this, req, reply);
      };
    },
    build(strapi) {
      const registered = (name: string) => (strapi as { middleware(name: string): unknown }).middleware(name);
      const steps = factories.map(({ ref, factory }) => ({ at: ref.at, step: instantiate(ref, factory ?? factoryOf(ref, registered(ref.name)), strapi) }));
      if (responses) steps.push({ at: responses.at, step: responsesStep(responses, host.log) });
      steps.sort((a, b) => a.at - b.at);
      const built = steps.map((s) => s.step);
      // Strapi's error answers are made where strapi::errors is listed: around the middlewares after it.
      const before = errorsAt === undefined ? 0 : steps.filter((s) => s.at < errorsAt).length;
      chain = before ? [...built.slice(0, before), errorsStep(host.log), ...built.slice(before)] : built;
    },
  };
}

/** The route's params, Strapi's names for them: a Content API route's `:documentId` is `ctx.params.id`. */
function paramsOf(req: FastifyRequest): Record<string, string> {
  const { documentId, ...params } = (req.params ?? {}) as Record<string, string>;
  return documentId === undefined ? params : { ...params, id: documentId };
}

/** A named middleware's factory, as the server code registered it from its file. */
function factoryOf(ref: AppMiddlewareRef, registered: unknown): Factory {
  if (typeof registered === 'function') return registered as Factory;
  throw new ConfigError(`${ref.file}: middleware ${JSON.stringify(ref.name)} must export a factory (config, { strapi }) => async (ctx, next) => { ... }, as Strapi's do`);
}

/** A middleware's handler, as Strapi's `instantiateMiddleware` makes it: nothing returned is a step that only goes on. */
function instantiate(ref: AppMiddlewareRef, factory: Factory, strapi: unknown): Middleware {
  let handler: unknown;
  try {
    handler = factory(ref.config, { strapi });
  } catch (error) {
    // Strapi's message; the stack still names the app's line that threw.
    const message = `Middleware "${ref.name}": ${error instanceof Error ? error.message : String(error)}`;
    throw inFile(ref.file, Object.assign(new Error(message), { stack: error instanceof Error ? error.stack : undefined }));
  }
  if (handler === undefined || handler === null) return (_ctx, next) => next();
  if (typeof handler !== 'function') {
    const promise = typeof (handler as { then?: unknown }).then === 'function';
    throw inFile(ref.file, new Error(`Middleware "${ref.name}": its factory must return a function (ctx, next)${promise ? ', not a promise (Strapi does not await the factory)' : ''}`));
  }
  return handler as Middleware;
}

/**
 * `strapi::errors`: an error thrown further in becomes the answer in `ctx` (Strapi's status and body), and so does a
 * request nothing answered (Strapi's NotFoundError).
 */
function errorsStep(log: Pick<Logger, 'error'>): Middleware {
  return async (ctx, next) => {
    let error: unknown;
    try {
      await next();
      if (ctx.answered) return;
      error = new NotFoundError();
    } catch (thrown) {
      error = thrown;
    }
    const answer = errorAnswer(error, ctx.fastifyRequest, log);
    ctx.send(answer.body, answer.status);
    if (answer.retryAfter !== undefined) ctx.set('retry-after', String(answer.retryAfter));
  };
}

/**
 * `strapi::responses` (Strapi 5.54's middlewares/responses.js): once the rest of the chain answered, the handler of
 * its status runs with `ctx`. Listed before `strapi::errors`, it sees every answer, errors included. Listed after it,
 * it sees what Strapi answers without throwing past it (probed on Strapi 5.54): a 404 of no route or no document,
 * with no body (a body the handler sets makes it a 200, as Koa does; none leaves Strapi's 404), and the 401 and 403
 * of the permission check, with their error body; other errors go on as thrown, their handler not run.
 */
function responsesStep({ handlers }: ResponseHandlers, log: Pick<Logger, 'error'>): Middleware {
  const run = async (ctx: KoaContext, next: () => Promise<unknown>) => {
    const handler = handlers[String(ctx.status)];
    if (typeof handler === 'function') await handler(ctx, next);
  };
  return async (ctx, next) => {
    try {
      await next();
    } catch (error) {
      if (error instanceof NotFoundError && !ctx.answered) {
        await run(ctx, next);
        if (!ctx.answered) throw error;
        return;
      }
      if (!(error instanceof ForbiddenError || error instanceof UnauthorizedError)) throw error;
      const answer = errorAnswer(error, ctx.fastifyRequest, log);
      ctx.send(answer.body, answer.status);
      await run(ctx, next);
      return;
    }
    await run(ctx, next);
  };
}

/**
 * Runs one of Cairn's own handlers under the middlewares, its answer kept for them instead of sent: the status and
 * headers it set move to `ctx`, its body becomes `ctx.body` (JSON text parsed only if a middleware reads it).
 */
async function answerOf(handler: RouteHandlerMethod, self: FastifyInstance, ctx: KoaContext, kind: AnswerKind): Promise<void> {
  const { fastifyRequest: req, reply } = ctx;
  let payload: unknown;
  let sent = false;
  const stand: FastifyReply = Object.create(reply, {
    // A reply is a thenable settled once sent: the handler's `return reply.send(...)` must not wait for that.
    then: { value: undefined },
    send: {
      value(value?: unknown) {
        // The first answer counts (Fastify's own sends nothing twice), and never the reply itself (handed back to send()).
        if (!sent && value !== stand) [payload, sent] = [value, true];
        return stand;
      },
    },
  });
  const returned = await handler.call(self, req, stand);
  if (!sent && returned !== undefined && returned !== stand) [payload, sent] = [returned, true];
  if (!sent) return; // nothing answered: Koa's 404
  for (const [name, value] of Object.entries(reply.getHeaders())) {
    if (value !== undefined) ctx.headersOut[name] = typeof value === 'number' ? String(value) : value;
    reply.removeHeader(name);
  }
  const status = reply.statusCode;
  const type = String(ctx.headersOut['content-type'] ?? '');
  const plain = payload !== null && typeof payload === 'object' && !Buffer.isBuffer(payload) && typeof (payload as { pipe?: unknown }).pipe !== 'function';
  if (typeof payload === 'string' && kind === 'object' && type.includes('json')) return ctx.answerJson(payload, status);
  if (plain && kind === 'text') {
    if (!type) ctx.type = 'json';
    return ctx.send(JSON.stringify(payload), status);
  }
  ctx.send(payload, status);
}
