import type { Database } from '../database/types.js';
import { tablesIn } from '../database/strapi-layout/new-database.js';

/**
 * Whether this start makes Strapi's layout in the database: it holds no table at all (one holding tables but not
 * Strapi's was refused already: refuseUnservedDatabase). Known right after opening; the tables are created under the
 * start-up lock (setUp), where emptiness is checked again (another process may have made them meanwhile). A read-only
 * open, or a prepared worker, never creates anything.
 */
export async function createsStrapiLayout(db: Database, holdsStrapi: boolean, options: { readOnly?: boolean; prepared?: boolean }): Promise<boolean> {
  if (options.readOnly || options.prepared || holdsStrapi) return false;
  return (await tablesIn(db)).length === 0;
}
