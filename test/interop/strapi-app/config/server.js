module.exports = ({ env }) => ({
  host: env('HOST', '127.0.0.1'),
  port: env.int('PORT', 1401),
  app: {
    keys: env.array('APP_KEYS', ['interopAppKey1', 'interopAppKey2', 'interopAppKey3', 'interopAppKey4']),
  },
});
