export { createDatabase, dialectOf, toPostgresPlaceholders } from './connection.js';
export { syncSchema, type SyncReport } from './schema-sync.js';
export { columnType } from './column-types.js';
export type { Database, DatabaseConfig, DialectName, ExecuteResult } from './types.js';
