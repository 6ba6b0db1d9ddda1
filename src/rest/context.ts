import type { Model } from '../model/types.js';
import type { Documents } from '../documents/index.js';
import type { QueryStringParser, ReadSettings } from '../query/index.js';
import type { AccessControl } from '../auth/access-control.js';
import type { LocaleInfo } from '../project/locales.js';

/** What the REST adapter needs from the app. */
export interface RestContext {
  model: Model;
  documents(uid: string): Documents;
  readSettings: ReadSettings;
  /** The app's query-string parser (qs with its limits: `config/middlewares`' `strapi::query`). */
  queryString: QueryStringParser;
  locales: LocaleInfo[];
  /** Moves whenever the locales change (they are read again while the app runs): parsed queries depend on them. */
  localesVersion?(): number;
  /** The current access control (read per request: the auth feature may replace it). */
  access(): AccessControl;
  /** `api.documents.strictParams` as set now (app code may set it while the app runs). */
  strictParams?(): unknown;
}
