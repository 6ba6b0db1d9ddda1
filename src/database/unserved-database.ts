import type { Database } from './types.js';
import { tablesIn } from './strapi-layout/new-database.js';
import { holdsStrapiLayout } from './storage-layout.js';

/** Cairn's former layout kept its permissions and API tokens in tables of its own, under this prefix. */
const FORMER_TABLE_PREFIX = 'cairn_';

/** How a refusal names the tables it found: all of them up to ten, then a count. */
function listed(tables: readonly string[]): string {
  return tables.slice(0, 10).join(', ') + (tables.length > 10 ? `, and ${tables.length - 10} more` : '');
}

const WHAT_TO_DO =
  "point the app at an empty database (a start creates Strapi 5's tables in it) or at one Strapi 5 made, or create Strapi 5's tables in an empty one with `cairn db create`; nothing was changed";

/**
 * The database holds tables but not Strapi 5's: Cairn serves Strapi 5's layout only. Either Cairn's former layout
 * (its `cairn_*` tables: never released, so nothing migrates it) or tables of something else, which a start does not
 * build on (as `cairn db create` refuses them).
 */
export class UnservedDatabaseError extends Error {
  readonly code = 'CAIRN_UNSERVED_DATABASE';

  constructor(
    readonly tables: readonly string[],
    readonly formerTables: readonly string[],
  ) {
    const count = `${tables.length} table${tables.length === 1 ? '' : 's'}`;
    super(
      formerTables.length
        ? `the database is in Cairn's former table layout (${formerTables.join(', ')}; ${count} in all: ${listed(tables)}): ` +
            `that layout is no longer served, and no release of Cairn used it, so there is nothing to migrate: ${WHAT_TO_DO}`
        : `the database holds tables, but not Strapi 5's (${count}: ${listed(tables)}): Cairn serves Strapi 5's table layout only: ${WHAT_TO_DO}`,
    );
    this.name = 'UnservedDatabaseError';
  }
}

/**
 * Refuses a database that Cairn would not serve, before anything is written to it: one without Strapi's tables
 * that is not empty either. An empty one is served: a start creates Strapi's tables. Says whether it holds Strapi's.
 */
export async function refuseUnservedDatabase(db: Pick<Database, 'dialect' | 'query'>): Promise<boolean> {
  if (await holdsStrapiLayout(db)) return true;
  const tables = await tablesIn(db);
  if (tables.length) throw new UnservedDatabaseError(tables, tables.filter((t) => t.startsWith(FORMER_TABLE_PREFIX)));
  return false;
}
