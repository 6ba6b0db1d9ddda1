module.exports = ({ env }) => ({
  i18n: { config: { defaultLocale: 'en', locales: ['en', 'fr'] } },
  'users-permissions': { config: { jwtSecret: env('JWT_SECRET') } },
});
