'use strict';

module.exports = {
  register({ strapi }) {
    // `?ref=...` on the article list: checked against its schema, seen by the app's code, never read as a filter.
    strapi.contentAPI.addQueryParams({
      ref: { schema: (z) => z.string().max(12).optional(), matchRoute: (route) => route.method === 'GET' && route.path === '/articles' },
    });
    // `data.clientMutationId` on an article's update: checked, then left out of what is stored.
    strapi.contentAPI.addInputParams({
      clientMutationId: { schema: (z) => z.string().uuid(), matchRoute: (route) => route.method === 'PUT' && route.path === '/articles/:id' },
    });
  },
};
