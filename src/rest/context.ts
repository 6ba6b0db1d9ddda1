import type { Model } from '../model/types.js';
import type { Documents } from '../documents/index.js';
import type { ReadSettings } from '../query/index.js';
import type { AccessControl } from '../auth/access-control.js';
import type { LocaleInfo } from '../project/locales.js';

/** What the REST adapter needs from the app. */
export interface RestContext {
  model: Model;
  documents(uid: string): Documents;
  readSettings: ReadSettings;
  locales: LocaleInfo[];
  /** The current access control (read per request: the auth feature may replace it). */
  access(): AccessControl;
}
