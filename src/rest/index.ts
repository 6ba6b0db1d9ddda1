export { registerContentApi } from './content-api.js';
export { installErrorHandling } from './errors.js';
export { installBodyParsers } from './body-parsers.js';
export type { RestContext } from './context.js';
