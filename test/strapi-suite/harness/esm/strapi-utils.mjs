// `@strapi/utils` for Strapi's test files (`import { errors } from '@strapi/utils'`): Cairn's own error classes, as
// an app's code gets them under Cairn (src/server-code/strapi-errors.ts), from the repository's dist/.
export { errors } from '../../../../dist/server-code/strapi-errors.js';
