import type { DatabaseConfig, DialectName } from './types.js';

/** Strapi's client names, and the driver names knex also takes for them, with the dialect each one means. */
const CLIENT_DIALECTS: Readonly<Record<string, DialectName>> = {
  sqlite: 'sqlite',
  'better-sqlite3': 'sqlite',
  postgres: 'postgres',
  pg: 'postgres',
  mysql: 'mysql',
  mysql2: 'mysql',
};

/** Whether config/database may name this client. */
export function isDatabaseClient(client: unknown): client is string {
  return typeof client === 'string' && Object.hasOwn(CLIENT_DIALECTS, client);
}

/** `sqlite` | `postgres` | `mysql`, from Strapi's client names. */
export function dialectOf(config: DatabaseConfig): DialectName {
  const client = config.connection.client;
  if (isDatabaseClient(client)) return CLIENT_DIALECTS[client];
  throw new Error(`config/database: unknown client "${String(client)}" (use sqlite, postgres or mysql)`);
}

/** Strapi's template default: SQLite in `.tmp/data.db`, relative to the app folder (resolved against it at connect). */
export function defaultDatabaseConnection(): DatabaseConfig['connection'] {
  return { client: 'sqlite', connection: { filename: '.tmp/data.db' } };
}
