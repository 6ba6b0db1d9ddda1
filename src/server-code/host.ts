import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { AccessControl } from '../auth/access-control.js';
import type { Documents } from '../documents/index.js';
import type { EventHub } from '../documents/event-hub.js';
import type { Model } from '../model/types.js';
import type { QueryStringParser, ReadSettings } from '../query/index.js';
import type { AppConfig } from '../project/types.js';
import type { LocaleInfo } from '../project/locales.js';
import type { PluginExtensions } from './plugin-extensions.js';
import type { ContentApiParams } from './route-params.js';

/**
 * What running an app's server code (src/api/*: routes, controllers, services, policies, middlewares) needs of
 * the app: the composition root (`Cairn`) satisfies it as it is. The `strapi` object the app's code receives is a
 * face over these members, never a second app.
 */
export interface ServerCodeHost {
  readonly config: AppConfig;
  readonly model: Model;
  readonly readSettings: ReadSettings;
  /** The app's query-string parser (qs with its limits): `ctx.query` of the app's routes. */
  readonly queryString: QueryStringParser;
  readonly locales: LocaleInfo[];
  /** Who is calling (read per request: auth replaces the open default). */
  readonly access: AccessControl;
  readonly fastify: FastifyInstance;
  readonly log: Pick<Logger, 'info' | 'warn' | 'error' | 'debug'>;
  readonly onClose: Array<() => Promise<void> | void>;
  documents(uid: string): Documents;
  /**
   * The app's `strapi` face (app/strapi-face.ts): Strapi's Document Service (`documents`, with `use`), `db` (with
   * `lifecycles`), `config` (Strapi's config provider, project/strapi-config.ts) and `store` (Strapi's core store).
   */
  readonly strapi: { readonly documents: unknown; readonly db: unknown; readonly config: unknown; readonly store: unknown };
  /** `strapi.eventHub`: Strapi 5's event hub, on which the Document Service's writes emit their events. */
  readonly eventHub: EventHub;
  plugin(name: string): { service<T = unknown>(service: string): T; config(path?: string | string[], fallback?: unknown): unknown };
  /** The routes' extra parameters the app's `register()` added (`strapi.contentAPI.addQueryParams`...). */
  readonly contentApiParams: ContentApiParams;
  /** `strapi.contentAPI` as app code gets it (its parameters and sanitizers). */
  readonly contentAPI: object;
  /** What the app's `src/extensions` changed of Strapi's plugins (plugin-extensions.ts), loaded with the model. */
  readonly pluginExtensions?: PluginExtensions;
}
