import type { ServerCodeRegistry } from './strapi-object.js';
import type { KoaContext } from './koa-context.js';
import { PolicyError } from './strapi-errors.js';

type Policy = (context: unknown, config: unknown, app: { strapi: unknown }) => unknown;
export type Middleware = (ctx: KoaContext, next: () => Promise<unknown>) => unknown;

/** Policies Strapi's plugins provide that Cairn's own features stand for. */
export const BUILT_IN_POLICIES: Record<string, Policy> = {
  // users-permissions' own: a logged-in user calls.
  'plugin::users-permissions.isAuthenticated': (context) => Boolean((context as { state?: { user?: unknown } }).state?.user),
};

/**
 * A route's `config.policies` as Strapi resolves them: a function, a name (`global::x`, `api::<api>.x`,
 * `plugin::users-permissions.isAuthenticated`, or a plain name of the route's `namespace`: its API's policies
 * folder, `api::<api>`, or its plugin's, `plugin::<name>`), or `{ name, config }`. An unknown name stops start-up (Strapi's "Policy x not found.").
 */
export function resolvePolicies(list: unknown, namespace: string, registry: ServerCodeRegistry): Array<{ handler: Policy; config: unknown }> {
  if (list === undefined) return [];
  if (!Array.isArray(list)) throw new Error('config.policies must be an array');
  return list.map((entry) => {
    if (typeof entry === 'function') return { handler: entry as Policy, config: {} };
    const { name, config } = typeof entry === 'string' ? { name: entry, config: {} } : ((entry ?? {}) as { name?: unknown; config?: unknown });
    if (typeof name !== 'string') throw new Error(`a policy must be a name, a function or { name, config }, not ${JSON.stringify(entry)}`);
    const found =
      registry.policies.get(name) ??
      BUILT_IN_POLICIES[name] ??
      registry.policies.get(`${namespace}.${name}`) ??
      BUILT_IN_POLICIES[`${namespace}.${name}`] ??
      registry.policies.get(`global::${name}`);
    if (typeof found !== 'function') {
      const known = [...registry.policies.keys(), ...Object.keys(BUILT_IN_POLICIES)];
      throw new Error(`Policy ${name} not found (known: ${known.join(', ') || 'none'})`);
    }
    return { handler: found as Policy, config: config ?? {} };
  });
}

/** The policies of a route as the first step of its chain: one not answering `true` or `undefined` is a 403 PolicyError. */
export function policiesStep(policies: Array<{ handler: Policy; config: unknown }>, strapi: unknown): Middleware {
  return async (ctx, next) => {
    // Strapi's policy context: the ctx, with `type` ('koa') and `is(type)`.
    const context = Object.create(ctx, { type: { value: 'koa' }, is: { value: (type: string) => type === 'koa' } });
    for (const { handler, config } of policies) {
      const result = await handler(context, config, { strapi });
      if (result !== true && result !== undefined) throw new PolicyError();
    }
    return next();
  };
}

/**
 * A route's `config.middlewares` as Strapi resolves them: a function `(ctx, next)`, or a registered middleware's
 * name (`global::x`, `api::<api>.x`) or `{ name, config }`, whose file exports a factory `(config, { strapi }) =>
 * (ctx, next)`. An unknown name stops start-up.
 */
export function resolveMiddlewares(list: unknown, registry: ServerCodeRegistry, strapi: unknown): Middleware[] {
  if (list === undefined) return [];
  if (!Array.isArray(list)) throw new Error('Route middlewares config must be an array');
  return list.map((entry) => {
    if (typeof entry === 'function') return entry as Middleware;
    const { name, config, resolve } = typeof entry === 'string' ? { name: entry, config: {}, resolve: undefined } : ((entry ?? {}) as { name?: unknown; config?: unknown; resolve?: unknown });
    if (resolve !== undefined) throw new Error(`a route middleware given by { resolve } (a package or path) is not supported by Cairn: use its name or a function`);
    if (typeof name !== 'string') throw new Error(`a middleware must be a name, a function or { name, config }, not ${JSON.stringify(entry)}`);
    const factory = registry.middlewares.get(name);
    if (typeof factory !== 'function') {
      const builtIn = name.startsWith('strapi::') ? ` (Strapi's built-in ${name} is not available as a route middleware in Cairn)` : '';
      throw new Error(`Middleware ${name} not found${builtIn} (known: ${[...registry.middlewares.keys()].join(', ') || 'none'})`);
    }
    let handler: unknown;
    try {
      handler = (factory as (config: unknown, app: { strapi: unknown }) => unknown)(config ?? {}, { strapi });
    } catch (error) {
      throw new Error(`Middleware "${name}": ${error instanceof Error ? error.message : String(error)}`);
    }
    if (handler === undefined || handler === null) return (_ctx, next) => next();
    if (typeof handler !== 'function') throw new Error(`Middleware "${name}": its factory must return a function (ctx, next)`);
    return handler as Middleware;
  });
}

/** koa-compose: runs the steps in order, each `next()` calling the following one (once). */
export function compose(steps: Middleware[]): (ctx: KoaContext) => Promise<unknown> {
  return (ctx) => {
    let last = -1;
    const dispatch = async (i: number): Promise<unknown> => {
      if (i <= last) throw new Error('next() called multiple times');
      last = i;
      const step = steps[i];
      return step ? step(ctx, () => dispatch(i + 1)) : undefined;
    };
    return dispatch(0);
  };
}
