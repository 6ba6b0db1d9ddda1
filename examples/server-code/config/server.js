module.exports = ({ env }) => ({
  host: env('HOST', '127.0.0.1'),
  port: env.int('PORT', 1337),
  // Koa's app.keys, as in every Strapi project: they sign ctx.cookies (the article's "recently read" cookie).
  app: { keys: env.array('APP_KEYS', ['example-key-1', 'example-key-2']) },
});
