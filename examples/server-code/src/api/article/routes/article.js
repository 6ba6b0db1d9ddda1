'use strict';

const { factories } = require('@strapi/strapi');

// find: a named middleware with its config, and a global one; update: an API policy with config; delete: an
// inline policy. findOne and create have no code of the app's: Cairn's compiled routes serve them as they are.
module.exports = factories.createCoreRouter('api::article.article', {
  config: {
    find: { middlewares: [{ name: 'api::article.stamp', config: { header: 'x-stamp' } }, 'global::timing'] },
    update: { policies: [{ name: 'not-locked', config: { field: 'locked' } }] },
    delete: { policies: [(policyContext) => policyContext.request.header['x-confirm'] === 'yes'] },
  },
});
