import { defaultFieldResolver, type GraphQLFieldResolver, type GraphQLResolveInfo } from 'graphql';
import type { FastifyRequest } from 'fastify';
import type { GraphqlHost } from './host.js';
import type { Caller } from '../auth/access-control.js';
import { ConfigError, ForbiddenError, PolicyError } from '../errors/index.js';
import type { PolicyContext, PolicyFunction, ResolverConfig, ResolverMiddleware } from './extension.js';
import { allows, type FieldAuth } from './field-auth.js';
import { authService } from './users-permissions.js';

type Resolver = GraphQLFieldResolver<unknown, ResolverContext>;
type Named = Map<string, (...args: never[]) => unknown>;

/** The context every resolver gets: the HTTP request, and `state { user, auth }` once a chain needed it. */
export interface ResolverContext {
  request: FastifyRequest;
  state?: PolicyContext['state'];
}

/** Who may run a field: no check, or a caller passing `scope` (none = authenticated, see `allows`). */
export type AuthRule = { check: false } | { check: true; scope?: string[] };

/**
 * The rule of one field: `resolversConfig.auth` if given (`false`, or `{ scope }`), else what the builder declared
 * (a root field's action, a relation field's target `find`), else, for a root field an extension added, an
 * authenticated caller, as Strapi does. Other nested fields are not checked.
 */
export function authRule(root: boolean, config: ResolverConfig | undefined, declared: FieldAuth | undefined): AuthRule {
  if (config?.auth === false) return { check: false };
  if (config?.auth) {
    const scope = config.auth.scope;
    return { check: true, scope: scope === undefined ? undefined : Array.isArray(scope) ? scope : [scope] };
  }
  if (!root) return declared && 'action' in declared ? { check: true, scope: [declared.action] } : { check: false };
  if (declared && 'public' in declared) return { check: false };
  if (declared && 'action' in declared) return { check: true, scope: [declared.action] };
  return { check: true };
}

/** A resolved policy or middleware: the function and what it is called with. */
interface Policy {
  run: PolicyFunction;
  config: unknown;
}

/**
 * Turns a field's `policies` and `middlewares` into functions: registered names (`global::is-owner`, `is-owner`)
 * looked up in the app's src/policies and src/middlewares, `{ name, config }` / `{ name, options }`, or functions.
 * An unknown name, or an entry of another shape, stops start-up naming the field.
 */
export function resolveChain(key: string, config: ResolverConfig, cairn: GraphqlHost, named: { policies: Named; middlewares: Named }): { policies: Policy[]; middlewares: ResolverMiddleware[] } {
  const fail = (what: string) => new ConfigError(`graphql resolversConfig['${key}']: ${what}`);
  if (config.policies !== undefined && !Array.isArray(config.policies)) throw fail('policies must be an array');
  if (config.middlewares !== undefined && !Array.isArray(config.middlewares)) throw fail('middlewares must be an array');
  const policies = (config.policies ?? []).map((entry): Policy => {
    if (typeof entry === 'function') return { run: entry, config: {} };
    const { name, config: policyConfig } = typeof entry === 'string' ? { name: entry, config: {} } : (entry ?? ({} as { name?: unknown; config?: unknown }));
    if (typeof name !== 'string') throw fail('a policy is a name, { name, config } or a function');
    const run = named.policies.get(name);
    if (!run) throw fail(`unknown policy '${name}' (none in src/policies)`);
    return { run: run as PolicyFunction, config: policyConfig ?? {} };
  });
  const middlewares = (config.middlewares ?? []).map((entry): ResolverMiddleware => {
    if (typeof entry === 'function') return entry;
    const { name, options } = typeof entry === 'string' ? { name: entry, options: {} } : (entry ?? ({} as { name?: unknown; options?: unknown }));
    if (typeof name !== 'string') throw fail('a middleware is a name, { name, options } or a function');
    const factory = named.middlewares.get(name);
    if (!factory) throw fail(`unknown middleware '${name}' (none in src/middlewares)`);
    // A named middleware file exports a factory, as in Strapi: (options, { strapi }) => (next, parent, args, context, info) => ...
    const middleware = (factory as (options: unknown, app: object) => unknown)(options ?? {}, { strapi: cairn, cairn });
    if (typeof middleware !== 'function') throw fail(`middleware '${name}' must return a function (next, parent, args, context, info)`);
    return middleware as ResolverMiddleware;
  });
  return { policies, middlewares };
}

/**
 * The resolver that runs in the final schema: auth, then each policy (a falsy answer is a FORBIDDEN "Policy
 * Failed"), then the middlewares (the first listed outermost) around the field's own resolver.
 */
export function wrapResolver(
  cairn: GraphqlHost,
  resolve: Resolver | undefined,
  rule: AuthRule,
  chain: { policies: Policy[]; middlewares: ResolverMiddleware[] },
  custom: boolean,
): Resolver {
  const inner = (resolve ?? defaultFieldResolver) as Resolver;
  const run = chain.middlewares.reduceRight<(...args: unknown[]) => unknown>(
    (next, middleware) => (parent, args, context, info) => middleware(next, parent, args as Record<string, unknown>, context, info as GraphQLResolveInfo),
    inner as (...args: unknown[]) => unknown,
  );
  // Custom resolvers, policies and middlewares may read `context.state.user`: only they pay for loading it.
  const wantsState = custom || chain.policies.length > 0 || chain.middlewares.length > 0;
  if (!rule.check && !wantsState) return inner;
  return async (parent, args, context, info) => {
    const request = context.request;
    if (rule.check) {
      const caller = await cairn.access.caller(request);
      if (!allows(caller, rule.scope)) throw new ForbiddenError();
    }
    if (wantsState) context.state ??= await requestState(cairn, request);
    for (const policy of chain.policies) {
      const policyContext: PolicyContext = { parent, args, context, info, state: context.state!, http: request, type: 'graphql', is: (type) => type === 'graphql' };
      if (!(await policy.run(policyContext, policy.config, { strapi: cairn, cairn }))) throw new PolicyError();
    }
    return run(parent, args, context, info);
  };
}

const states = new WeakMap<FastifyRequest, Promise<PolicyContext['state']>>();

/** `{ user, auth }` of a request, once: the user's row (without secrets) and its role for a logged-in caller. */
function requestState(cairn: GraphqlHost, request: FastifyRequest): Promise<PolicyContext['state']> {
  let state = states.get(request);
  if (!state) {
    state = (async () => {
      const caller: Caller = await cairn.access.caller(request);
      const auth = { kind: caller.kind };
      if (caller.kind !== 'user') return { user: null, auth };
      return { user: await authService(cairn).me(caller.userId!), auth };
    })();
    states.set(request, state);
  }
  return state;
}
