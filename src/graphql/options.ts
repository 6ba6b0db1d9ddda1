import { ConfigError } from '../errors/index.js';
import type { GraphqlConfig } from './config.js';

export type { GraphqlConfig } from './config.js';

/** Where GraphQL answers (`config/plugins` → `graphql.config.endpoint`, default `/graphql`); undefined when the plugin is off. */
export function graphqlEndpoint(config: { plugins: Record<string, { enabled?: boolean; config?: Record<string, unknown> } | undefined> }): string | undefined {
  const plugin = config.plugins.graphql;
  if (plugin?.enabled === false) return undefined;
  return ((plugin?.config ?? {}) as GraphqlConfig).endpoint ?? '/graphql';
}

/** Reads `apolloServer.tracing`; Apollo Server's other options configure a server Cairn doesn't run. */
export function tracingEnabled(config: { apolloServer?: unknown }): boolean {
  const apollo = config.apolloServer ?? {};
  if (typeof apollo !== 'object' || apollo === null || Array.isArray(apollo)) {
    throw new ConfigError(`config/plugins: graphql.config.apolloServer must be an object, not ${JSON.stringify(apollo)}`);
  }
  const tracing = (apollo as { tracing?: unknown }).tracing ?? false;
  if (typeof tracing !== 'boolean') {
    throw new ConfigError(`config/plugins: graphql.config.apolloServer.tracing must be true or false, not ${JSON.stringify(tracing)}`);
  }
  return tracing;
}
