'use strict';

// LaunchPad's pattern: a route middleware that sets the populate the front end relies on, before the core find.
module.exports = () => async (ctx, next) => {
  ctx.query = { ...ctx.query, populate: { tags: { fields: ['name'] } } };
  await next();
};
