import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { AccessControl } from '../auth/access-control.js';
import type { Database } from '../database/types.js';
import type { Documents } from '../documents/index.js';
import type { EntryEvents } from '../documents/entry-events.js';
import type { Model } from '../model/types.js';
import type { AppConfig } from '../project/types.js';
import type { QueryStringParser, ReadSettings } from '../query/index.js';

/**
 * What the media library uses of the app it is part of (the composition root's object satisfies it as it is).
 * `access` is read on each request: the auth feature replaces it after the routes are registered.
 */
export interface UploadHost {
  readonly config: {
    readonly dir: AppConfig['dir'];
    readonly plugins: AppConfig['plugins'];
  };
  readonly db: Database;
  readonly model: Model;
  /** The app's read settings (`api.rest` limits, locales), for the files' list queries. */
  readonly readSettings: ReadSettings;
  /** The app's query-string parser (qs with its limits), for every upload route's query string. */
  readonly queryString: QueryStringParser;
  readonly access: AccessControl;
  readonly fastify: FastifyInstance;
  readonly log: Pick<Logger, 'error'>;
  documents(uid: string): Documents;
  /** The plugins' services by plugin name (`strapi.plugin('upload').service('upload')`). */
  readonly services: Map<string, Record<string, unknown>>;
  /** `strapi.eventHub` as writes emit on it: the media library's media.create, media.update, media.delete. */
  readonly entryEvents: Pick<EntryEvents, 'listens' | 'emit'>;
}
