import { resolve } from 'node:path';
import type { Cairn } from '../app/cairn.js';

/**
 * An app loaded as the server loads it (config, the app's `register()`, which may declare custom fields, the model,
 * the schema sync) without routes, features or `bootstrap()`: what the admin commands (tokens, permissions) need.
 * The schema is synced first, so they work on a fresh database too (never on a database Strapi made).
 */
export async function openApp(dirInput: string): Promise<{ cairn: Cairn; close(): Promise<void> }> {
  const [{ loadCairn, createStrapiLayoutIfPending }, { syncSchema }, { ensureAuthTables }] = await Promise.all([
    import('../app/cairn.js'),
    import('../database/index.js'),
    import('../database/auth-tables.js'),
  ]);
  const cairn = await loadCairn({ dir: resolve(dirInput) });
  try {
    // The start-up lock: a command run while a server starts on the same database waits for its schema sync.
    await cairn.db.exclusive('startup', async () => {
      // An empty database becomes Strapi's as a start would make it (the default).
      await createStrapiLayoutIfPending(cairn);
      // A database that Strapi made is never altered: its tables are Strapi's (auth's included).
      if (cairn.db.layout === 'strapi') return;
      await syncSchema(cairn.db, cairn.model, { warn: () => undefined });
      await ensureAuthTables(cairn.db);
    });
  } catch (error) {
    await cairn.db.close();
    throw error;
  }
  return { cairn, close: () => cairn.db.close() };
}
