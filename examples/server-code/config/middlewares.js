'use strict';

// Strapi's template list: Cairn maps Strapi's own (strapi::query's qs limits, strapi::poweredBy's X-Powered-By...).
// The app's own would run around every request of the API, e.g. src/middlewares/timing.js, here a route middleware
// of the article's find (routes/article.js), as an application middleware:
//   'global::timing',
// With one, every request builds a Koa ctx; without, routes with no code of the app's keep Cairn's compiled handler.
module.exports = [
  'strapi::logger',
  'strapi::errors',
  'strapi::security',
  'strapi::cors',
  'strapi::poweredBy',
  'strapi::query',
  'strapi::body',
  'strapi::session',
  'strapi::favicon',
  'strapi::public',
];
