export { compileRead, singleSpec, type CompiledRead } from './compile-read.js';
export { sqlDialect, StoredJson, type SqlDialect } from './dialect.js';
export type { Frag } from './frag.js';
export { readStatements, ReadStatements, RememberedTotals, type BoundRead, type BoundStatement, type TotalRow } from './read-statements.js';
export { layoutBindValue } from './context.js';
