import { isObjectType, type GraphQLFieldResolver, type GraphQLSchema } from 'graphql';
import type { GraphqlHost } from './host.js';
import { loadAppFunctions } from '../project/app-functions.js';
import { ConfigError } from '../errors/index.js';
import type { GraphqlExtension, GraphqlExtensionService, ResolverConfig } from './extension.js';
import { declaredAuth } from './field-auth.js';
import { authRule, resolveChain, wrapResolver, type ResolverContext } from './resolver-chain.js';

const ROOTS = new Set(['Query', 'Mutation', 'Subscription']);

/**
 * The schema served, from the one a builder generated (v5's flat shape or v4's): the app's extensions merged in
 * (nexus `types`, `typeDefs`, `resolvers`), then every root field, every relation field (its target's `find`) and
 * every field with a `resolversConfig`, wrapped in one chain: auth, policies, middlewares, resolver. Errors in the app's configuration stop start-up.
 */
export async function finalizeSchema(
  generated: GraphQLSchema,
  ext: GraphqlExtensionService,
  cairn: GraphqlHost,
  /** Filled with the `Type.field` keys the app customizes (a config, its own resolver): the compiled path avoids them. */
  customized: Set<string> = new Set(),
): Promise<GraphQLSchema> {
  for (const uid of ext.configuredUids()) {
    if (!cairn.model.contentTypes.has(uid) && !cairn.model.components.has(uid)) throw new ConfigError(`graphql shadowCRUD('${uid}'): no such content-type or component`);
  }
  const generatedResolvers = resolversOf(generated);
  const extensions = await resolveExtensions(ext, cairn);
  const schema = await mergeExtensions(generated, extensions);
  const configs = mergedConfigs(extensions);
  const named = Object.values(configs).some((c) => c.policies?.length || c.middlewares?.length)
    ? { policies: await loadAppFunctions(cairn.config.dir, 'policies'), middlewares: await loadAppFunctions(cairn.config.dir, 'middlewares') }
    : { policies: new Map(), middlewares: new Map() };

  for (const key of Object.keys(configs)) {
    const [typeName, fieldName, extra] = key.split('.');
    const type = schema.getType(typeName ?? '');
    // A config for a field that doesn't exist would silently not protect anything: refuse it.
    if (extra !== undefined || !fieldName || !isObjectType(type) || !type.getFields()[fieldName]) throw new ConfigError(`graphql resolversConfig['${key}']: no such field in the schema`);
  }
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith('__')) continue;
    const root = ROOTS.has(type.name);
    for (const field of Object.values(type.getFields())) {
      const key = `${type.name}.${field.name}`;
      const config = configs[key];
      const custom = field.resolve !== undefined && field.resolve !== generatedResolvers.get(key);
      if (config || custom) customized.add(key);
      const declared = declaredAuth(field.extensions);
      if (!root && !config && !declared) continue;
      const rule = authRule(root, config, declared);
      const chain = config ? resolveChain(key, config, cairn, named) : { policies: [], middlewares: [] };
      // The schema was built for this app alone and is not shared: wrapping in place spares a copy of every type.
      field.resolve = wrapResolver(cairn, field.resolve as GraphQLFieldResolver<unknown, ResolverContext> | undefined, rule, chain, custom) as typeof field.resolve;
    }
  }
  return schema;
}

/** The resolvers the builder made, so resolvers an extension set (new or replacing one) can be told apart. */
function resolversOf(schema: GraphQLSchema): Map<string, unknown> {
  const found = new Map<string, unknown>();
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type)) continue;
    for (const field of Object.values(type.getFields())) if (field.resolve) found.set(`${type.name}.${field.name}`, field.resolve);
  }
  return found;
}

async function resolveExtensions(ext: GraphqlExtensionService, cairn: GraphqlHost): Promise<GraphqlExtension[]> {
  if (!ext.hasExtensions()) return [];
  // nexus is loaded only for apps with extensions (it costs start-up time), and handed to extension functions.
  const nexus = (await import('nexus')).default;
  return ext.resolve({ nexus, cairn, strapi: cairn });
}

/** The generated schema with the extensions' nexus types, then their typeDefs and resolvers, merged in. */
async function mergeExtensions(generated: GraphQLSchema, extensions: GraphqlExtension[]): Promise<GraphQLSchema> {
  let schema = generated;
  const types = extensions.flatMap((e) => toArray(e.types, 'types'));
  const plugins = extensions.flatMap((e) => toArray(e.plugins, 'plugins'));
  if (types.length || plugins.length) {
    const nexus = (await import('nexus')).default;
    // mergeSchema lets nexus types extend and reference the generated ones (`extendType({ type: 'Query' })`).
    schema = nexus.makeSchema({ types, plugins: plugins as never, mergeSchema: { schema }, shouldGenerateArtifacts: false, outputs: false }) as unknown as GraphQLSchema;
  }
  const typeDefs = extensions.map((e) => e.typeDefs).filter((t): t is string => t !== undefined);
  for (const t of typeDefs) if (typeof t !== 'string') throw new ConfigError('graphql extension typeDefs must be a string of SDL');
  const resolvers = extensions.map((e) => e.resolvers).filter((r) => r !== undefined);
  if (typeDefs.length || resolvers.length) {
    const { mergeSchemas } = await import('@graphql-tools/schema');
    try {
      schema = mergeSchemas({ schemas: [schema], typeDefs, resolvers: resolvers as never });
    } catch (error) {
      throw new ConfigError(`graphql extension: ${(error as Error).message}`);
    }
  }
  return schema;
}

function toArray(value: unknown, what: string): unknown[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) {
    if (value && typeof value === 'object') return [value];
    throw new ConfigError(`graphql extension ${what} must be an array`);
  }
  return value;
}

/** Every extension's `resolversConfig`, later extensions overriding the keys they repeat. */
function mergedConfigs(extensions: GraphqlExtension[]): Record<string, ResolverConfig> {
  const configs: Record<string, ResolverConfig> = {};
  for (const extension of extensions) {
    const given = extension.resolversConfig ?? {};
    if (typeof given !== 'object') throw new ConfigError('graphql extension resolversConfig must be an object');
    for (const [key, config] of Object.entries(given)) {
      if (!config || typeof config !== 'object') throw new ConfigError(`graphql resolversConfig['${key}'] must be an object`);
      const auth = (config as ResolverConfig).auth;
      if (auth !== undefined && auth !== false && (typeof auth !== 'object' || auth === null)) throw new ConfigError(`graphql resolversConfig['${key}'].auth must be false or { scope }`);
      configs[key] = { ...configs[key], ...(config as ResolverConfig) };
    }
  }
  return configs;
}
