import type { Database, StorageLayout } from '../database/types.js';
import { tablesIn } from '../database/strapi-layout/new-database.js';

/**
 * The layout a start gives an EMPTY database: Strapi 5's by default; Cairn's former one with
 * `CAIRN_EMPTY_DATABASE_LAYOUT=cairn` (transitional, while the former layout's code is removed).
 */
export function emptyDatabaseLayout(env: NodeJS.ProcessEnv = process.env): StorageLayout {
  const value = env.CAIRN_EMPTY_DATABASE_LAYOUT;
  if (value === undefined || value === '' || value === 'strapi') return 'strapi';
  if (value === 'cairn') return 'cairn';
  throw new Error(`CAIRN_EMPTY_DATABASE_LAYOUT must be 'strapi' or 'cairn', not ${JSON.stringify(value)}`);
}

/**
 * Whether this start makes Strapi's layout in the database: it is empty (no table at all) and the switch asks for it.
 * Known right after opening, before the model is built: the model is then renamed by Strapi's rules as for a database
 * Strapi made, and the tables are created under the start-up lock (setUp), where emptiness is checked again (another
 * process may have made them meanwhile). A read-only open, or a prepared worker, never creates anything.
 */
export async function createsStrapiLayout(db: Database, options: { readOnly?: boolean; prepared?: boolean }): Promise<boolean> {
  if (options.readOnly || options.prepared || db.layout !== 'cairn' || emptyDatabaseLayout() !== 'strapi') return false;
  return (await tablesIn(db)).length === 0;
}
