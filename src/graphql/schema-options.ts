import type { FastifyRequest } from 'fastify';
import type { PageSizes } from './config.js';

/** The context every generated resolver gets. */
export interface GraphqlContext {
  request: FastifyRequest;
}

/** What a schema build needs of the GraphQL config. */
export interface GraphqlOptions {
  amountLimit: number;
  /** `defaultLimit` and `maxLimit`, read at each request (graphql/config.ts). */
  pageSizes(): PageSizes;
  /** `shadowCRUD: false`: nothing is generated from the models (register, login and me stay, as in Strapi). */
  shadowCRUD: boolean;
  /** `Type.field` keys the app's extensions customize (their own resolvers, resolversConfig): never compiled. */
  customized: ReadonlySet<string>;
}
