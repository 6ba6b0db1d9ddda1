'use strict';

const { z } = require('@strapi/utils');

module.exports = {
  routes: [
    // Granted to the public role in config/permissions.json (api::article.article.summary).
    { method: 'GET', path: '/articles/:id/summary', handler: 'article.summary' },
    // Open to anyone: no permission is checked.
    { method: 'GET', path: '/article-stats', handler: 'api::article.article.stats', config: { auth: false } },
    {
      method: 'POST',
      path: '/articles/:id/view',
      handler: 'article.view',
      config: {
        policies: ['global::has-header'],
        middlewares: [
          async (ctx, next) => {
            await next();
            ctx.set('x-inline', 'yes');
          },
        ],
      },
    },
    { method: 'GET', path: '/article-errors/:kind', handler: 'article.fail', config: { auth: false } },
    // A cover image sent as multipart/form-data (ctx.request.files), stored through the upload service.
    { method: 'POST', path: '/articles/:id/cover', handler: 'article.cover' },
    // A route's own function (no controller): it names no permission, so any logged-in user or full-access token may
    // call it, as in Strapi.
    {
      method: 'GET',
      path: '/whoami',
      handler: async (ctx) => ({ user: ctx.state.user ? ctx.state.user.username : null, strategy: ctx.state.auth.strategy.name }),
    },
    // Functions in a row, Koa middlewares: the first one's return value is the answer.
    {
      method: 'GET',
      path: '/article-count',
      handler: [
        async (ctx, next) => ({ count: await next(), counted: 'by the second function' }),
        async () => strapi.documents('api::article.article').count({}),
      ],
      config: { auth: false },
    },
    // Remembers in a signed cookie which articles this browser read (ctx.cookies, Koa's).
    { method: 'POST', path: '/articles/:id/read', handler: 'article.read', config: { auth: false } },
    // A query parameter of the route's own, declared with Zod as Strapi 5 declares them: checked before the action runs.
    {
      method: 'GET',
      path: '/articles-by-word',
      handler: 'article.byWord',
      config: { auth: false },
      request: { query: { word: z.string().min(2).max(20) } },
    },
    // The (extended) core find again, its populate set by a middleware; guarded by api::article.article.find.
    { method: 'GET', path: '/articles-with-tags', handler: 'article.find', config: { middlewares: ['api::article.with-tags'] } },
  ],
};
