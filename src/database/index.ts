export { createDatabase, type CreateDatabaseOptions } from './connection.js';
export { dialectOf, isDatabaseClient, defaultDatabaseConnection } from './clients.js';
export { toPostgresPlaceholders } from './placeholders.js';
export { syncSchema, type SyncLogger, type SyncReport } from './schema-sync.js';
export { readSchema, type SchemaSnapshot } from './schema-read.js';
export { columnType } from './column-types.js';
export { ping } from './ping.js';
export type { Database, DatabaseConfig, DialectName, ExecuteResult, StorageLayout } from './types.js';
export type { LockOptions } from './process-lock.js';
