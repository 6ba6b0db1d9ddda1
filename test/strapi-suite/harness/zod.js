'use strict';

/**
 * `zod` where it is not installed: Strapi's own dependency, which its test files use only to build route schemas
 * for Strapi's in-process validation (`strapi.contentAPI.validate.query(query, ct, { route })`). A file may require
 * it while its tests are collected; a test that uses it is out of scope.
 */
const { outOfScopeObject } = require('./out-of-scope');

module.exports = outOfScopeObject('zod', "builds a route schema for Strapi's in-process validation");
