import { resolve } from 'node:path';
import type { Cairn } from '../app/cairn.js';

/**
 * An app loaded as the server loads it (config, the app's `register()`, which may declare custom fields, the model,
 * the schema sync) without routes, features or `bootstrap()`: what the admin commands (tokens, permissions) need.
 * The schema is synced first, so they work on a fresh database too.
 */
export async function openApp(dirInput: string): Promise<{ cairn: Cairn; close(): Promise<void> }> {
  const [{ loadCairn }, { ensureAuthTables }] = await Promise.all([import('../app/cairn.js'), import('../auth/tables.js')]);
  const cairn = await loadCairn({ dir: resolve(dirInput), syncLogger: { warn: () => undefined } });
  try {
    await ensureAuthTables(cairn.db);
  } catch (error) {
    await cairn.db.close();
    throw error;
  }
  return { cairn, close: () => cairn.db.close() };
}
