'use strict';

/**
 * users-permissions as the app extends it, run as Strapi 5 runs it: GET /api/users/me answers the user's article
 * count too (the plugin's own `me`, wrapped), a new route lists the logged-in user's articles, and registration
 * refuses usernames starting with "admin" (the auth controller is a factory in Strapi 5: replace the factory).
 */
module.exports = (plugin) => {
  const me = plugin.controllers.user.me;
  plugin.controllers.user.me = async (ctx) => {
    await me(ctx);
    ctx.body.articleCount = await strapi.documents('api::article.article').count({ filters: { author: { id: ctx.state.user.id } } });
  };

  plugin.controllers.user.myArticles = async (ctx) => {
    const articles = await strapi.documents('api::article.article').findMany({
      filters: { author: { documentId: ctx.state.user.documentId } },
      fields: ['title'],
      sort: 'title',
    });
    ctx.body = { titles: articles.map((article) => article.title), phone: ctx.state.user.phone };
  };
  plugin.routes['content-api'].routes.push({ method: 'GET', path: '/users/me/articles', handler: 'user.myArticles', config: { prefix: '' } });

  const auth = plugin.controllers.auth;
  plugin.controllers.auth = ({ strapi }) => {
    const actions = auth({ strapi });
    return {
      ...actions,
      async register(ctx) {
        if (String(ctx.request.body?.username ?? '').startsWith('admin')) return ctx.badRequest('This username is reserved');
        return actions.register(ctx);
      },
    };
  };

  return plugin;
};
