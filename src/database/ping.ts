import type { Database } from './types.js';

/** Asks the database the cheapest question there is: resolves when it answers (health checks). */
export async function ping(db: Database): Promise<void> {
  await db.query('SELECT 1');
}
