import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { AccessControl } from '../auth/access-control.js';
import type { Documents } from '../documents/index.js';
import type { Model } from '../model/types.js';
import type { ReadSettings } from '../query/index.js';
import type { AppConfig } from '../project/types.js';

/**
 * What the GraphQL feature uses of the app that hosts it: the composition root hands it an object with these
 * members (the app object satisfies this as it is). Policies, middlewares and extension functions the app writes
 * receive this same object as their `strapi`.
 */
export interface GraphqlHost {
  readonly config: AppConfig;
  readonly model: Model;
  /** The app's read settings (`api.rest` limits, locales): GraphQL's reads start from them. */
  readonly readSettings: ReadSettings;
  readonly access: AccessControl;
  readonly fastify: FastifyInstance;
  readonly log: Pick<Logger, 'warn' | 'error'>;
  /** Where the feature registers its own services (`plugin('graphql').service('extension')`); `plugin` finds the others' (users & permissions' auth). */
  readonly services: Map<string, Record<string, unknown>>;
  documents(uid: string): Documents;
  plugin(name: string): { service<T = unknown>(service: string): T };
}
