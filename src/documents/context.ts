import type { Database } from '../database/types.js';
import type { Model } from '../model/types.js';

/** Everything the document service needs from the running app. */
export interface DocumentsContext {
  db: Database;
  model: Model;
  rest: { defaultLimit: number; maxLimit: number; withCount: boolean };
  locales: { codes: string[]; defaultLocale: string };
}
