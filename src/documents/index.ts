export { Documents } from './service.js';
export type { DocumentsContext } from './context.js';
export type { JsonPage, PaginationMeta } from './read.js';
export type { DocumentService, Entry, FindParams, FindResult, WriteParams } from './types.js';
