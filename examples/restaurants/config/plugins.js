module.exports = ({ env }) => ({
  i18n: { config: { defaultLocale: 'en', locales: ['en', 'fr'] } },
  'users-permissions': { config: { jwtSecret: env('JWT_SECRET') } },
  // Strapi v5's GraphQL shape at /graphql (the v4 shape is not available yet).
  graphql: { config: { v4CompatibilityMode: false, depthLimit: 7, amountLimit: 100 } },
});
