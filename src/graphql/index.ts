import type { GraphqlHost } from './host.js';
import type { GraphqlBody, GraphqlEndpoint } from './endpoint.js';
import { GraphqlExtensionService } from './extension.js';
import { batchingEnabled, graphqlEndpoint, graphqlShape, tracingEnabled, type GraphqlConfig } from './options.js';
import { graphqlLimits } from './config.js';
import { playgroundEnabled, registerPlayground } from './playground.js';

export { GraphqlExtensionService } from './extension.js';
export { needs, type FieldAuth } from './field-auth.js';
export { graphqlEndpoint } from './options.js';

/**
 * `cairn.plugin('graphql').service('extension')`, before the app's `register()` runs (it is where apps call it).
 * A disabled plugin has no services, as in Strapi.
 */
export function registerGraphqlServices(cairn: GraphqlHost): void {
  if (cairn.config.plugins.graphql?.enabled === false) return;
  cairn.services.set('graphql', { extension: new GraphqlExtensionService() });
}

/**
 * The GraphQL endpoint, in the shape the config names (graphqlShape): Strapi 5's, flat or with v4CompatibilityMode's
 * deprecated fields, or the seed's Strapi v4 one.
 *
 * Its routes exist from the start, but graphql-js, graphql-jit and the schema (about 60% of a start's module
 * loading) are loaded and built by the first GraphQL request; concurrent first requests share that one load. An
 * app that customizes GraphQL (extensions, shadowCRUD toggles) gets its schema built at start instead, so that its
 * mistakes (an unknown policy, a resolversConfig key that is no field...) still stop start-up with their message.
 * The playground page needs no schema: a browser opening the endpoint loads nothing either.
 */
export async function registerGraphql(cairn: GraphqlHost): Promise<void> {
  const endpoint = graphqlEndpoint(cairn.config);
  if (endpoint === undefined) return;
  const config = (cairn.config.plugins.graphql?.config ?? {}) as GraphqlConfig;
  const ext = cairn.plugin('graphql').service<GraphqlExtensionService>('extension');
  // Checked at start (a bad limit stops it), though the endpoint that uses them loads with the first request.
  const limits = graphqlLimits(config);
  const shape = graphqlShape(config);
  const tracing = tracingEnabled(config, shape, (message) => cairn.log.warn(message));
  const batching = batchingEnabled(config);
  const playground = playgroundEnabled(config, cairn.config.environment) ? registerPlayground(cairn.fastify, endpoint) : undefined;

  let loading: Promise<GraphqlEndpoint> | undefined;
  const ready = () => (loading ??= import('./endpoint.js').then((m) => m.createGraphqlEndpoint(cairn, config, shape, limits, ext, tracing)));
  if (ext.isCustomized()) await ready();
  const handle: GraphqlEndpoint['handle'] = async (request, reply, body) => (await ready()).handle(request, reply, body);

  cairn.fastify.post(endpoint, async (request, reply) => {
    if (!Array.isArray(request.body)) return handle(request, reply, (request.body ?? {}) as GraphqlBody);
    // A list of operations: Apollo Server's batching, when the config allows it (as Apollo, 400 otherwise).
    // (Written out: errors.ts's badRequestBody would load graphql-js at start, which waits for the first request.)
    if (!batching) return reply.status(400).send({ errors: [{ message: 'Operation batching disabled.', extensions: { code: 'BAD_REQUEST' } }] });
    return (await ready()).handleBatch(request, reply, request.body as unknown[]);
  });
  cairn.fastify.get(endpoint, (request, reply) => {
    const url = new URL(request.raw.url ?? '', 'http://x');
    const query = url.searchParams.get('query');
    if (playground?.wants(request, query)) return playground.send(reply);
    return handle(request, reply, { query: query ?? undefined, variables: url.searchParams.get('variables') ?? undefined, operationName: url.searchParams.get('operationName') ?? undefined });
  });
}
