import type { Database } from '../database/types.js';
import type { Model } from '../model/types.js';
import type { DocumentHooks } from './hooks.js';
import type { EntryEvents } from './entry-events.js';

/** Everything the document service needs from the running app. */
export interface DocumentsContext {
  db: Database;
  model: Model;
  rest: { defaultLimit: number; maxLimit: number; withCount: boolean };
  locales: { codes: string[]; defaultLocale: string };
  /** The app's document middlewares and lifecycle hooks (none: no app code runs around a call). */
  hooks?: DocumentHooks;
  /** `strapi.eventHub`'s entry events (none: writes emit nothing, as the media library's and users' own writes). */
  events?: EntryEvents;
}
