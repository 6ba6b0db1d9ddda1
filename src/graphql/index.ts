import { GraphQLError, execute, parse, specifiedRules, validate, type DocumentNode, type GraphQLSchema } from 'graphql';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Cairn } from '../app/cairn.js';
import { toGraphQLError } from './errors.js';
import { depthLimitRule, noIntrospectionRule } from './limits.js';
import { playgroundEnabled, registerPlayground } from './playground.js';
import { buildSchema } from './schema.js';
import { Trace, instrumentSchema, tracingEnabled, withTrace } from './tracing.js';

interface GraphqlConfig {
  endpoint?: string;
  shadowCRUD?: boolean;
  depthLimit?: number;
  amountLimit?: number;
  introspection?: boolean;
  v4CompatibilityMode?: boolean;
  playgroundAlways?: boolean;
  apolloServer?: { tracing?: boolean };
}

const CACHE_SIZE = 500;

/**
 * The GraphQL endpoint (Strapi v5's flat shape). Documents are parsed and validated once per query text;
 * validation errors are HTTP 400s, resolver errors HTTP 200s with `errors[].extensions.code`, as the reference.
 */
export async function registerGraphql(cairn: Cairn): Promise<void> {
  const config = (cairn.config.plugins.graphql?.config ?? {}) as GraphqlConfig;
  if (cairn.config.plugins.graphql?.enabled === false) return;
  if (config.v4CompatibilityMode !== false) {
    // The seed's v4 shape (the default) is not built yet: serving another shape under it would mislead clients.
    // Apps that configure GraphQL are told; apps that don't simply have no endpoint.
    if (cairn.config.plugins.graphql) {
      process.emitWarning('graphql: only v4CompatibilityMode: false (Strapi v5 shape) is available; the endpoint is off');
    }
    return;
  }
  const endpoint = config.endpoint ?? '/graphql';
  const amountLimit = config.amountLimit ?? 100;
  const schema = buildSchema(cairn, { amountLimit, defaultPageSize: 10 });
  const introspection = config.introspection ?? cairn.config.environment !== 'production';
  const rules = [...specifiedRules, depthLimitRule(config.depthLimit ?? 10), ...(introspection ? [] : [noIntrospectionRule])];
  const tracing = tracingEnabled(config);
  if (tracing) instrumentSchema(schema);
  const playground = playgroundEnabled(config, cairn.config.environment) ? registerPlayground(cairn.fastify, endpoint) : undefined;
  const documents = new Map<string, DocumentNode | readonly GraphQLError[]>();

  const prepare = (source: string): { document?: DocumentNode; status?: number; errors?: unknown[] } => {
    let cached = documents.get(source);
    if (!cached) {
      try {
        const document = parse(source);
        const errors = validate(schema as GraphQLSchema, document, rules);
        cached = errors.length ? errors : document;
      } catch (error) {
        return { status: 400, errors: [{ ...(error as GraphQLError).toJSON(), extensions: { code: 'GRAPHQL_PARSE_FAILED' } }] };
      }
      if (documents.size >= CACHE_SIZE) documents.delete(documents.keys().next().value!);
      documents.set(source, cached);
    }
    if (Array.isArray(cached)) {
      return { status: 400, errors: cached.map((e: GraphQLError) => ({ ...e.toJSON(), extensions: { ...e.extensions, code: 'GRAPHQL_VALIDATION_FAILED' } })) };
    }
    return { document: cached as DocumentNode };
  };

  const handle = async (request: FastifyRequest, reply: FastifyReply, body: { query?: unknown; variables?: unknown; operationName?: unknown }) => {
    if (typeof body.query !== 'string') return reply.status(400).send({ errors: [{ message: 'Must provide query string.', extensions: { code: 'BAD_REQUEST' } }] });
    const trace = tracing ? new Trace() : undefined;
    const prepared = prepare(body.query);
    if (!prepared.document) return reply.status(prepared.status!).send({ errors: prepared.errors });
    const variables = typeof body.variables === 'string' ? JSON.parse(body.variables) : body.variables;
    const result = await execute({
      schema,
      document: prepared.document,
      variableValues: variables as Record<string, unknown> | undefined,
      operationName: typeof body.operationName === 'string' ? body.operationName : undefined,
      contextValue: trace ? withTrace({ request }, trace) : { request },
    });
    // Errors while resolving are answered with HTTP 200, `data` holding what could be resolved (as the reference).
    const response: Record<string, unknown> = result.errors ? { errors: result.errors.map(toGraphQLError), data: result.data ?? null } : { data: result.data };
    if (trace) response.extensions = { tracing: trace.finish() };
    return reply.send(response);
  };

  cairn.fastify.post(endpoint, (request, reply) => handle(request, reply, (request.body ?? {}) as Record<string, unknown>));
  cairn.fastify.get(endpoint, (request, reply) => {
    const url = new URL(request.raw.url ?? '', 'http://x');
    const query = url.searchParams.get('query');
    if (playground?.wants(request, query)) return playground.send(reply);
    // GET is for queries only: a mutation over GET could be triggered by a link.
    if (query && /^\s*mutation\b/.test(query)) return reply.status(405).send({ errors: [{ message: 'Mutations need POST', extensions: { code: 'BAD_REQUEST' } }] });
    return handle(request, reply, { query: query ?? undefined, variables: url.searchParams.get('variables') ?? undefined, operationName: url.searchParams.get('operationName') ?? undefined });
  });
}
