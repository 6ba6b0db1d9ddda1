import { ConfigError } from '../errors/index.js';
import type { GraphqlConfig } from './config.js';

export type { GraphqlConfig } from './config.js';

/** Where GraphQL answers (`config/plugins` → `graphql.config.endpoint`, default `/graphql`); undefined when the plugin is off. */
export function graphqlEndpoint(config: { plugins: Record<string, { enabled?: boolean; config?: Record<string, unknown> } | undefined> }): string | undefined {
  const plugin = config.plugins.graphql;
  if (plugin?.enabled === false) return undefined;
  return ((plugin?.config ?? {}) as GraphqlConfig).endpoint ?? '/graphql';
}

/**
 * The schema served:
 * - `v5`: Strapi 5's (`v4CompatibilityMode` absent or false), entries flat;
 * - `v5-compat`: Strapi 5's with `v4CompatibilityMode: true`, its operations unchanged and deprecated v4-style
 *   fields added (`data`, `attributes`, `meta`, `id`), as a Strapi 5 project with that flag expects;
 * - `v4`: Cairn's `shape: 'v4'`, the seed's Strapi v4 schema (`data { id attributes }`, `id` the documentId), for
 *   clients written against Strapi v4.
 */
export type GraphqlShape = 'v4' | 'v5' | 'v5-compat';

export function graphqlShape(config: GraphqlConfig): GraphqlShape {
  const { shape, v4CompatibilityMode } = config as { shape?: unknown; v4CompatibilityMode?: unknown };
  if (shape !== undefined && shape !== 'v4') throw new ConfigError(`config/plugins: graphql.config.shape must be "v4" or absent, not ${JSON.stringify(shape)}`);
  if (shape === 'v4') return 'v4';
  return v4CompatibilityMode === true ? 'v5-compat' : 'v5';
}

/**
 * Reads `apolloServer.tracing`; Apollo Server's other options configure a server Cairn doesn't run. Tracing is the
 * seed's (Strapi v4 ran Apollo Server 3, which had it): Strapi 5's Apollo Server 4 adds no `extensions.tracing`,
 * so with Strapi 5's schemas the setting is checked and has no effect (`ignored` says so).
 */
export function tracingEnabled(config: { apolloServer?: unknown }, shape: GraphqlShape = 'v4', ignored?: (message: string) => void): boolean {
  const apollo = config.apolloServer ?? {};
  if (typeof apollo !== 'object' || apollo === null || Array.isArray(apollo)) {
    throw new ConfigError(`config/plugins: graphql.config.apolloServer must be an object, not ${JSON.stringify(apollo)}`);
  }
  const tracing = (apollo as { tracing?: unknown }).tracing ?? false;
  if (typeof tracing !== 'boolean') {
    throw new ConfigError(`config/plugins: graphql.config.apolloServer.tracing must be true or false, not ${JSON.stringify(tracing)}`);
  }
  if (tracing && shape !== 'v4') {
    ignored?.("graphql.config.apolloServer.tracing is ignored: Strapi 5 adds no extensions.tracing; it applies to the seed's shape (shape: 'v4') only");
    return false;
  }
  return tracing;
}

/**
 * `apolloServer.allowBatchedHttpRequests`, Apollo Server 4's switch for a POST whose body is a list of operations
 * (answered with the list of their answers); off by default, as there.
 */
export function batchingEnabled(config: { apolloServer?: unknown }): boolean {
  const allowed = (config.apolloServer as { allowBatchedHttpRequests?: unknown } | undefined)?.allowBatchedHttpRequests ?? false;
  if (typeof allowed !== 'boolean') {
    throw new ConfigError(`config/plugins: graphql.config.apolloServer.allowBatchedHttpRequests must be true or false, not ${JSON.stringify(allowed)}`);
  }
  return allowed;
}
