import {
  defaultFieldResolver,
  isObjectType,
  responsePathAsArray,
  type GraphQLFieldResolver,
  type GraphQLResolveInfo,
  type GraphQLSchema,
} from 'graphql';

/**
 * `apolloServer: { tracing: true }`: per-field timings in `extensions.tracing`, in the Apollo tracing format
 * (version 1; times in nanoseconds, offsets from the start of the request).
 */

export interface ResolverTiming {
  path: Array<string | number>;
  parentType: string;
  fieldName: string;
  returnType: string;
  startOffset: number;
  duration: number;
}

export interface ApolloTracing {
  version: 1;
  startTime: string;
  endTime: string;
  duration: number;
  execution: { resolvers: ResolverTiming[] };
}

/** The timings of one request. */
export class Trace {
  private readonly startTime = new Date();
  private readonly start = process.hrtime.bigint();
  private readonly resolvers: ResolverTiming[] = [];

  private offset(): number {
    return Number(process.hrtime.bigint() - this.start);
  }

  begin(info: GraphQLResolveInfo): ResolverTiming {
    const timing: ResolverTiming = {
      path: responsePathAsArray(info.path),
      parentType: info.parentType.name,
      fieldName: info.fieldName,
      returnType: String(info.returnType),
      startOffset: this.offset(),
      duration: 0,
    };
    this.resolvers.push(timing);
    return timing;
  }

  end(timing: ResolverTiming): void {
    timing.duration = this.offset() - timing.startOffset;
  }

  finish(): ApolloTracing {
    const duration = this.offset();
    return {
      version: 1,
      startTime: this.startTime.toISOString(),
      endTime: new Date(this.startTime.getTime() + Math.floor(duration / 1e6)).toISOString(),
      duration,
      execution: { resolvers: this.resolvers },
    };
  }
}

/** Where a traced request's context carries its Trace (a symbol: no clash with what resolvers put there). */
const TRACE = Symbol('cairn.graphql.trace');
export type TracedContext = { [TRACE]?: Trace };

/** The execution context of a traced request. */
export function withTrace<T extends object>(context: T, trace: Trace): T & TracedContext {
  return Object.assign(context, { [TRACE]: trace });
}

const instrumented = new WeakSet<GraphQLSchema>();

/**
 * Wraps the resolver of every field (the default resolver where a field has none) so it records its timing when
 * the request carries a Trace. The schema's fields are wrapped in place, once: the generated resolvers close over
 * their schema's type objects, which a copied schema would not share. Only called when tracing is on, so a
 * schema without tracing runs its resolvers untouched.
 */
export function instrumentSchema(schema: GraphQLSchema): void {
  if (instrumented.has(schema)) return;
  instrumented.add(schema);
  for (const type of Object.values(schema.getTypeMap())) {
    // Introspection types are graphql-js singletons shared by every schema in the process: left alone.
    if (!isObjectType(type) || type.name.startsWith('__')) continue;
    for (const field of Object.values(type.getFields())) field.resolve = timed(field.resolve ?? defaultFieldResolver);
  }
}

function timed(resolve: GraphQLFieldResolver<unknown, unknown>): GraphQLFieldResolver<unknown, unknown> {
  return (source, args, context, info) => {
    const trace = (context as TracedContext | undefined)?.[TRACE];
    if (!trace) return resolve(source, args, context, info);
    const timing = trace.begin(info);
    let result: unknown;
    try {
      result = resolve(source, args, context, info);
    } catch (error) {
      trace.end(timing);
      throw error;
    }
    // An async resolver's time runs until its promise settles, as Apollo measured it.
    if (isThenable(result)) return Promise.resolve(result).finally(() => trace.end(timing));
    trace.end(timing);
    return result;
  };
}

const isThenable = (value: unknown): value is PromiseLike<unknown> =>
  typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';
