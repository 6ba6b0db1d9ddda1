import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { Database } from '../database/types.js';
import type { Documents } from '../documents/index.js';
import type { Model } from '../model/types.js';
import type { AppConfig } from '../project/types.js';
import type { AccessControl } from './access-control.js';
import type { QueryStringParser, ReadSettings } from '../query/index.js';

/**
 * What users & permissions needs of the app it joins: the composition root (`Cairn`) satisfies it as it is. Auth
 * replaces `access` and adds its services, routes and start-up work; it reads nothing else.
 */
export interface AuthHost {
  readonly config: Pick<AppConfig, 'dir' | 'environment' | 'api' | 'plugins' | 'admin' | 'permissions' | 'server'>;
  readonly db: Database;
  readonly model: Model;
  /** The app's read settings (`api.rest` limits, locales), for the users' list query. */
  readonly readSettings: ReadSettings;
  /** The app's query-string parser (qs with its limits), for every auth route's query string. */
  readonly queryString: QueryStringParser;
  readonly fastify: FastifyInstance;
  /** Where auth reports what failed outside a request's answer (an email its provider could not send). */
  readonly log: Pick<Logger, 'error'>;
  /** Who is calling: auth puts its own in place of the open default. */
  access: AccessControl;
  /** Services of features, by plugin name: auth adds `users-permissions`. */
  readonly services: Map<string, Record<string, unknown>>;
  /** One-time database work of a start (auth's tables and roles). */
  readonly setup: Array<() => Promise<void>>;
  documents(uid: string): Documents;
  /**
   * The users-permissions routes (`<METHOD> <path>`, as in USERS_PERMISSIONS_ROUTES) that the app's `strapi-server`
   * extension changed or removed: the app's server code serves (or drops) them, auth registers the others.
   */
  readonly usersPermissionsRoutesByApp?: ReadonlySet<string>;
}

/** What the admin commands on roles need (an app loaded without its server). */
export type RoleHost = Pick<AuthHost, 'config' | 'db' | 'model' | 'documents'>;
