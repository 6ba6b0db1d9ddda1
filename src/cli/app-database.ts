import { resolve } from 'node:path';
import type { Database } from '../database/types.js';
import type { AppConfig } from '../app/types.js';

/**
 * An app's config and database without starting HTTP or running the app's hooks: what the admin commands
 * (tokens, permissions) need. The schema is synced first, so they work on a fresh database too.
 */
export async function openAppDatabase(dirInput: string): Promise<{ config: AppConfig; db: Database; close(): Promise<void> }> {
  const dir = resolve(dirInput);
  const [{ loadConfig }, { loadModel }, { createDatabase, syncSchema }, { ensureAuthTables }] = await Promise.all([
    import('../app/config.js'),
    import('../model/index.js'),
    import('../database/index.js'),
    import('../auth/tables.js'),
  ]);
  const config = await loadConfig(dir);
  const model = await loadModel(dir);
  const db = await createDatabase(config.database, { baseDir: dir });
  // The start-up lock: a command run while a server starts on the same database waits for its schema sync.
  await db.exclusive('startup', async () => {
    await syncSchema(db, model, { warn: () => undefined });
    await ensureAuthTables(db);
  });
  return { config, db, close: () => db.close() };
}
