import {
  GraphQLError,
  astFromValue,
  getOperationAST,
  getVariableValues,
  isInputObjectType,
  isListType,
  isNonNullType,
  parse,
  specifiedRules,
  typeFromAST,
  validate,
  valueFromASTUntyped,
  type DocumentNode,
  type ExecutionResult,
  type GraphQLInputType,
  type GraphQLSchema,
  type VariableDefinitionNode,
} from 'graphql';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { GraphqlHost } from './host.js';
import { badRequestBody, internalError, toGraphQLError } from './errors.js';
import { depthLimitRule, noIntrospectionRule, noSubscriptionsRule } from './limits.js';
import { operationCostRule } from './operation-cost.js';
import { DocumentCache } from './document-cache.js';
import { buildSchema } from './schema.js';
import { compileOperation } from './compiled-path.js';
import type { GraphqlExtensionService } from './extension.js';
import { finalizeSchema } from './finalize.js';
import { Trace, instrumentSchema, withTrace } from './tracing.js';
import { pageSizes, STRAPI_DEFAULT_PAGE_SIZE, type GraphqlConfig, type GraphqlLimits } from './config.js';
import type { GraphqlShape } from './options.js';

// Parsed documents kept: 500 at most, 1 MB of query text in all, none longer than 16 KB (see DocumentCache).
const CACHE_ENTRIES = 500;
const CACHE_CHARS = 1024 * 1024;
const CACHE_ENTRY_CHARS = 16 * 1024;

/** The body of a GraphQL request, from POST's JSON or GET's query string. */
export interface GraphqlBody {
  query?: unknown;
  variables?: unknown;
  operationName?: unknown;
}

/** The endpoint's work once the schema exists: answer one request, or a batch of operations. */
export interface GraphqlEndpoint {
  handle(request: FastifyRequest, reply: FastifyReply, body: GraphqlBody): Promise<FastifyReply>;
  handleBatch(request: FastifyRequest, reply: FastifyReply, bodies: unknown[]): Promise<FastifyReply>;
}

/** An operation's answer: a status (and headers), with a body to serialize or JSON text as it is. */
type Answer = { status: number; headers?: Record<string, string> } & ({ body: unknown } | { text: string });

/**
 * Builds the schema (in `shape`, see graphqlShape; the app's extensions merged in) and the handler answering with it. Documents are parsed and validated once per query text; validation errors are
 * HTTP 400s, resolver errors HTTP 200s with `errors[].extensions.code`, as the reference.
 */
export async function createGraphqlEndpoint(
  cairn: GraphqlHost,
  config: GraphqlConfig,
  shape: GraphqlShape,
  limits: GraphqlLimits,
  ext: GraphqlExtensionService,
  tracing: boolean,
): Promise<GraphqlEndpoint> {
  const customized = new Set<string>();
  // Read from the app's config at each request, as Strapi reads them: a strapi.config.set applies to the next one.
  const sizes = () => pageSizes(cairn.config.plugins.graphql?.config as GraphqlConfig | undefined);
  const options = { amountLimit: limits.amountLimit, pageSizes: sizes, shadowCRUD: config.shadowCRUD !== false, customized };
  const generated = buildSchema(cairn, options, ext, shape);
  const schema = await finalizeSchema(generated, ext, cairn, customized);
  const introspection = config.introspection ?? cairn.config.environment !== 'production';
  // The cost rule runs alone, first: it measures each fragment once, so an oversized operation is refused with its
  // count before the specified rules (whose field merging spends up to 500,000 comparisons, then only says
  // "Validation aborted.") and the depth rule (which follows every spread) go through it.
  const costRules = [
    operationCostRule({
      ...limits,
      get defaultPageSize() {
        return sizes().default;
      },
    }),
  ];
  const rules = [...specifiedRules, noSubscriptionsRule, depthLimitRule(limits.depthLimit), ...(introspection ? [] : [noIntrospectionRule])];
  if (tracing) instrumentSchema(schema);
  const documents = new DocumentCache<DocumentNode | readonly GraphQLError[]>(CACHE_ENTRIES, CACHE_CHARS, CACHE_ENTRY_CHARS);

  const prepare = (source: string): { document?: DocumentNode; status?: number; errors?: unknown[] } => {
    // A verdict counted unsized lists at the default page size of its time: another default asks again.
    const pageDefault = sizes().default;
    const key = pageDefault === STRAPI_DEFAULT_PAGE_SIZE ? source : `${pageDefault}\u0000${source}`;
    let cached = documents.get(key);
    if (!cached) {
      let document: DocumentNode;
      try {
        document = parse(source, { maxTokens: limits.maxTokens });
      } catch (error) {
        // Only a syntax error is the client's: anything else is a bug, for the error handler to log.
        if (!(error instanceof GraphQLError)) throw error;
        const parseError = error.toJSON();
        // graphql-js words it "Document contains more that N tokens": say which setting it is.
        const message = /contains more tha[nt] \d+ tokens/.test(parseError.message) ? `The query has more tokens than graphql.config.maxTokens allows (${limits.maxTokens})` : parseError.message;
        return { status: 400, errors: [{ ...parseError, message, extensions: { code: 'GRAPHQL_PARSE_FAILED' } }] };
      }
      const over = validate(schema as GraphQLSchema, document, costRules);
      const errors = over.length ? over : validate(schema as GraphQLSchema, document, rules);
      cached = errors.length ? errors : document;
      documents.set(key, cached);
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

  /** A failure the client did not cause, logged with its cause (the answer says only INTERNAL_SERVER_ERROR). */
  const report = (request: FastifyRequest, cause: unknown) =>
    cairn.log.error({ err: cause, reqId: request.id, req: { method: request.method, url: request.url } }, `GraphQL: ${cause instanceof Error ? cause.message : String(cause)}`);
  const badRequest = (message: string, status = 400, headers?: Record<string, string>): Answer => ({ status, headers, body: badRequestBody(message) });

  /** One operation's answer: its status and body (the compiled path's JSON text as it is). */
  const answer = async (request: FastifyRequest, reply: FastifyReply, body: GraphqlBody): Promise<Answer> => {
    if (typeof body.query !== 'string') return badRequest('Must provide query string.');
    // Credentials are checked before the operation, as Strapi's content API does: a bad token or JWT is the request's
    // 401 UnauthorizedError, not an error inside `data` (the caller is resolved once per request: no extra lookup).
    if (request.headers.authorization) await cairn.access.caller(request);
    const trace = tracing ? new Trace() : undefined;
    const prepared = prepare(body.query);
    if (!prepared.document) return { status: prepared.status!, body: { errors: prepared.errors } };
    const given = parseVariables(body.variables);
    if (given instanceof GraphQLError) return badRequest(given.message);
    const operationName = typeof body.operationName === 'string' ? body.operationName : undefined;
    const selected = getOperationAST(prepared.document, operationName);
    if (!selected) {
      return badRequest(operationName === undefined ? 'Must provide operation name if query contains multiple operations.' : `Unknown operation named "${operationName}".`);
    }
    const variables = withInputDefaults(schema, selected.variableDefinitions ?? [], given);
    // GET is for queries only: a mutation over GET could be triggered by a link.
    if (request.method !== 'POST' && selected.operation === 'mutation') return badRequest('Mutations need POST', 405, { allow: 'POST' });
    if (!trace) {
      // The compiled path: the statement's JSON is the answer (undefined: this query needs field resolvers).
      let text: string | undefined;
      try {
        text = await compiledOperation(prepared.document, operationName)?.run(variables, request);
      } catch (error) {
        report(request, error);
        return { status: 200, body: { errors: [internalError()], data: null } };
      }
      if (text !== undefined) return { status: 200, text };
    }
    // Variables that do not fit their types (a date-time for a Date, `{}` for a DateTime, a field the input type has
    // not): a 400 BAD_USER_INPUT, as Apollo Server answers (the compiled path leaves them to this one).
    const coercion = getVariableValues(schema, selected.variableDefinitions ?? [], variables ?? {});
    if (coercion.errors) return { status: 400, body: { errors: coercion.errors.map((e) => ({ ...e.toJSON(), extensions: { code: 'BAD_USER_INPUT' } })) } };
    const operation = compiled(prepared.document, operationName);
    // The reply is there for what a resolver adds to the answer's headers (users-permissions' refresh cookie).
    const contextValue = trace ? withTrace({ request, reply }, trace) : { request, reply };
    const result: ExecutionResult = isCompiledQuery(operation) ? await operation.query(undefined, contextValue, variables) : operation;
    // Errors while resolving are answered with HTTP 200, `data` holding what could be resolved (as the reference).
    const response: Record<string, unknown> = result.errors ? { errors: result.errors.map((e) => toGraphQLError(e, (cause) => report(request, cause))), data: result.data ?? null } : { data: result.data };
    if (trace) response.extensions = { tracing: trace.finish() };
    return { status: 200, body: response };
  };

  const handle = async (request: FastifyRequest, reply: FastifyReply, body: GraphqlBody) => {
    const one = await answer(request, reply, body);
    for (const [name, value] of Object.entries(one.headers ?? {})) reply.header(name, value);
    if ('text' in one) return reply.status(one.status).type('application/json; charset=utf-8').send(one.text);
    return reply.status(one.status).send(one.body);
  };

  /**
   * A batch (Apollo Server's `allowBatchedHttpRequests`): each operation answered in turn, as Apollo runs them, the
   * list of their answers with HTTP 200 (an operation's own 400 is in its answer's errors).
   */
  const handleBatch = async (request: FastifyRequest, reply: FastifyReply, bodies: unknown[]) => {
    if (bodies.length === 0) return reply.status(400).send(badRequestBody('No operations found in request.'));
    const parts: string[] = [];
    for (const body of bodies) {
      const one = await answer(request, reply, typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as GraphqlBody) : {});
      parts.push('text' in one ? one.text : JSON.stringify(one.body));
    }
    return reply.status(200).type('application/json; charset=utf-8').send(`[${parts.join(',')}]`);
  };
  return { handle, handleBatch };
}

/**
 * The variables with the input object fields they leave out that have a default filled in with it, as graphql-js
 * coerces them: graphql-jit (0.8) reports such a field as missing when it is non-null
 * (`UsersPermissionsLoginInput.provider: String! = "local"`, in Strapi's schema). Values given are left as they are
 * (graphql-js checks them before the operation runs).
 */
function withInputDefaults(schema: GraphQLSchema, definitions: readonly VariableDefinitionNode[], variables: Record<string, unknown> | undefined) {
  if (!variables) return variables;
  let out = variables;
  for (const definition of definitions) {
    const name = definition.variable.name.value;
    const type = typeFromAST(schema, definition.type) as GraphQLInputType | undefined;
    if (!type || !Object.hasOwn(out, name)) continue;
    const filled = fillDefaults(type, out[name]);
    if (filled !== out[name]) out = { ...out, [name]: filled };
  }
  return out;
}

function fillDefaults(type: GraphQLInputType, value: unknown): unknown {
  if (value === null || value === undefined) return value;
  if (isNonNullType(type)) return fillDefaults(type.ofType, value);
  if (isListType(type)) {
    if (!Array.isArray(value)) return fillDefaults(type.ofType, value);
    const items = value.map((item) => fillDefaults(type.ofType, item));
    return items.some((item, i) => item !== value[i]) ? items : value;
  }
  if (!isInputObjectType(type) || typeof value !== 'object' || Array.isArray(value)) return value;
  const object = value as Record<string, unknown>;
  let out = object;
  for (const field of Object.values(type.getFields())) {
    let next: unknown;
    if (Object.hasOwn(object, field.name)) next = fillDefaults(field.type, object[field.name]);
    else if (field.defaultValue !== undefined) {
      const literal = astFromValue(field.defaultValue, field.type);
      next = literal ? valueFromASTUntyped(literal) : undefined;
    } else continue;
    if (next === object[field.name] && Object.hasOwn(object, field.name)) continue;
    if (out === object) out = { ...object };
    out[field.name] = next;
  }
  return out;
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
