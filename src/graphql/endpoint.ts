import { GraphQLError, parse, specifiedRules, validate, type DocumentNode, type ExecutionResult, type GraphQLSchema } from 'graphql';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Cairn } from '../app/cairn.js';
import { toGraphQLError } from './errors.js';
import { depthLimitRule, noIntrospectionRule } from './limits.js';
import { buildSchema } from './schema.js';
import { buildV4Schema } from './v4/schema.js';
import { compileOperation } from './compiled-path.js';
import type { GraphqlExtensionService } from './extension.js';
import { finalizeSchema } from './finalize.js';
import { Trace, instrumentSchema, withTrace } from './tracing.js';
import type { GraphqlConfig } from './options.js';

const CACHE_SIZE = 500;

/** The body of a GraphQL request, from POST's JSON or GET's query string. */
export interface GraphqlBody {
  query?: unknown;
  variables?: unknown;
  operationName?: unknown;
}

/** The endpoint's work once the schema exists: answer one request. */
export interface GraphqlEndpoint {
  handle(request: FastifyRequest, reply: FastifyReply, body: GraphqlBody): Promise<FastifyReply>;
}

/**
 * Builds the schema (the seed's v4 shape unless `v4CompatibilityMode: false`, the app's extensions merged in) and
 * the handler answering with it. Documents are parsed and validated once per query text; validation errors are
 * HTTP 400s, resolver errors HTTP 200s with `errors[].extensions.code`, as the reference.
 */
export async function createGraphqlEndpoint(cairn: Cairn, config: GraphqlConfig, ext: GraphqlExtensionService, tracing: boolean): Promise<GraphqlEndpoint> {
  const amountLimit = config.amountLimit ?? 100;
  const build = config.v4CompatibilityMode === false ? buildSchema : buildV4Schema;
  const customized = new Set<string>();
  const generated = build(cairn, { amountLimit, defaultPageSize: 10, shadowCRUD: config.shadowCRUD !== false, customized }, ext);
  const schema = await finalizeSchema(generated, ext, cairn, customized);
  const introspection = config.introspection ?? cairn.config.environment !== 'production';
  const rules = [...specifiedRules, depthLimitRule(config.depthLimit ?? 10), ...(introspection ? [] : [noIntrospectionRule])];
  if (tracing) instrumentSchema(schema);
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

  /**
   * Two compilations per cached document and operation name: the compiled path (undefined when the query needs
   * field resolvers), and graphql-jit's, whose resolvers run as with graphql-js (generated, extension and tracing
   * ones alike) without its per-field interpretation (about 3x its cost on large lists).
   */
  const compiledOperation = perOperation((document, operationName) => compileOperation(schema, document, operationName, cairn.access, customized));
  const compiled = perOperation((document, operationName) => compileQuery(schema, document, operationName) as CompiledQuery | ExecutionResult);

  const handle = async (request: FastifyRequest, reply: FastifyReply, body: GraphqlBody) => {
    if (typeof body.query !== 'string') return reply.status(400).send({ errors: [{ message: 'Must provide query string.', extensions: { code: 'BAD_REQUEST' } }] });
    const trace = tracing ? new Trace() : undefined;
    const prepared = prepare(body.query);
    if (!prepared.document) return reply.status(prepared.status!).send({ errors: prepared.errors });
    const variables = parseVariables(body.variables);
    if (variables instanceof GraphQLError) return reply.status(400).send({ errors: [{ message: variables.message, extensions: { code: 'BAD_REQUEST' } }] });
    const operationName = typeof body.operationName === 'string' ? body.operationName : undefined;
    if (!trace) {
      // The compiled path: the statement's JSON is the answer (undefined: this query needs field resolvers).
      const text = await compiledOperation(prepared.document, operationName)?.run(variables, request);
      if (text !== undefined) return reply.type('application/json; charset=utf-8').send(text);
    }
    const operation = compiled(prepared.document, operationName);
    const contextValue = trace ? withTrace({ request }, trace) : { request };
    const result: ExecutionResult = isCompiledQuery(operation) ? await operation.query(undefined, contextValue, variables) : operation;
    // Errors while resolving are answered with HTTP 200, `data` holding what could be resolved (as the reference).
    const response: Record<string, unknown> = result.errors ? { errors: result.errors.map(toGraphQLError), data: result.data ?? null } : { data: result.data };
    if (trace) response.extensions = { tracing: trace.finish() };
    return reply.send(response);
  };
  return { handle };
}

/** `variables`: an object, JSON text of one (GET), or nothing; anything else is the client's mistake (400). */
function parseVariables(raw: unknown): Record<string, unknown> | undefined | GraphQLError {
  if (raw === undefined || raw === null || raw === '') return undefined;
  let value = raw;
  if (typeof raw === 'string') {
    try {
      value = JSON.parse(raw);
    } catch {
      return new GraphQLError('Variables are invalid JSON.');
    }
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return new GraphQLError('Variables must be an object.');
  return value as Record<string, unknown>;
}

/** A compilation of each document (cached per query text, so stable) and operation name, made once. */
function perOperation<T>(compile: (document: DocumentNode, operationName: string | undefined) => T) {
  const byDocument = new WeakMap<DocumentNode, Map<string, T>>();
  return (document: DocumentNode, operationName: string | undefined): T => {
    let byName = byDocument.get(document);
    if (!byName) byDocument.set(document, (byName = new Map()));
    const key = operationName ?? '';
    if (!byName.has(key)) byName.set(key, compile(document, operationName));
    return byName.get(key) as T;
  };
}
