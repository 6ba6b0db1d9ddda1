export { compileRead, singleSpec, type CompiledRead } from './compile-read.js';
export { sqlDialect, StoredJson, type SqlDialect } from './dialect.js';
export type { Frag } from './frag.js';
export { readStatements, ReadStatements, type BoundRead, type BoundStatement } from './read-statements.js';
export { layoutBindValue } from './context.js';
