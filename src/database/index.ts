export { createDatabase, type CreateDatabaseOptions } from './connection.js';
export { dialectOf, isDatabaseClient, defaultDatabaseConnection } from './clients.js';
export { toPostgresPlaceholders } from './placeholders.js';
export { ping } from './ping.js';
export type { Database, DatabaseConfig, DialectName, ExecuteResult } from './types.js';
export type { LockOptions } from './process-lock.js';
