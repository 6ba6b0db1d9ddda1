'use strict';

// A route middleware factory: (config, { strapi }) => (ctx, next).
module.exports = (config) => async (ctx, next) => {
  await next();
  ctx.set(config.header, 'stamped');
  if (ctx.body && ctx.body.meta) ctx.body.meta.stamped = true;
};
