import { resolve } from 'node:path';
import type { Cairn } from '../app/cairn.js';

/**
 * An app loaded as the server loads it (config, the app's `register()`, which may declare custom fields, the model)
 * without routes, features or `bootstrap()`: what the admin commands (tokens, permissions) need. An empty database
 * gets Strapi's tables first, as a start would make them, so they work on a fresh database too.
 */
export async function openApp(dirInput: string): Promise<{ cairn: Cairn; close(): Promise<void> }> {
  const { loadCairn, createStrapiLayoutIfPending } = await import('../app/cairn.js');
  const cairn = await loadCairn({ dir: resolve(dirInput) });
  try {
    // The start-up lock: a command run while a server starts on the same database waits for it to make the tables.
    await cairn.db.exclusive('startup', () => createStrapiLayoutIfPending(cairn));
  } catch (error) {
    await cairn.db.close();
    throw error;
  }
  return { cairn, close: () => cairn.db.close() };
}
