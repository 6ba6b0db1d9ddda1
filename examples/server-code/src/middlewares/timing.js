'use strict';

// A global middleware: global::timing.
module.exports = () => async (ctx, next) => {
  const start = process.hrtime.bigint();
  await next();
  ctx.set('x-response-time', `${Number(process.hrtime.bigint() - start) / 1e6}ms`);
};
