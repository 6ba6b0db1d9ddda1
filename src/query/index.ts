export * from './types.js';
export { parseQueryString, parseReadParams, parseDocumentParams, type ReadOptions } from './parse-query.js';
export { parseFilters } from './parse-filters.js';
export { parseFields } from './parse-fields.js';
export { parseSort } from './parse-sort.js';
export { parsePagination } from './parse-pagination.js';
export { parsePopulate } from './parse-populate.js';
export { fieldRef } from './fields-of.js';
