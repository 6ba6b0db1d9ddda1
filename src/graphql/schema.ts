import { GraphQLObjectType, GraphQLSchema, type GraphQLFieldConfigMap } from 'graphql';
import type { GraphqlHost } from './host.js';
import type { GraphqlExtensionService } from './extension.js';
import type { GraphqlShape } from './options.js';
import type { GraphqlContext, GraphqlOptions } from './schema-options.js';
import { addShadowCrud } from './shadow-crud.js';
import { addUsersPermissions } from './users-permissions.js';
import { v5CrudShape } from './v5/shape.js';
import { v4CrudShape } from './v4/shape.js';

/**
 * The schema generated for the app in `shape` (see graphqlShape): the shadow CRUD root fields of its models, one
 * walk for every shape (shadow-crud.ts) asking the shape's strategy (v5/shape.ts: Strapi 5's, flat or with
 * v4CompatibilityMode's fields; v4/shape.ts: the seed's Strapi v4 one), then register, login and me.
 */
export function buildSchema(host: GraphqlHost, options: GraphqlOptions, ext: GraphqlExtensionService, shape: GraphqlShape): GraphQLSchema {
  const query: GraphQLFieldConfigMap<unknown, GraphqlContext> = {};
  const mutation: GraphQLFieldConfigMap<unknown, GraphqlContext> = {};
  addShadowCrud(host, options, ext, shape === 'v4' ? v4CrudShape(host.model, ext) : v5CrudShape(host.model, ext, shape === 'v5-compat'), query, mutation);
  addUsersPermissions(host, query, mutation);
  return new GraphQLSchema({
    query: new GraphQLObjectType({ name: 'Query', fields: query }),
    mutation: new GraphQLObjectType({ name: 'Mutation', fields: mutation }),
  });
}
