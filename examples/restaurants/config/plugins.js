module.exports = ({ env }) => ({
  i18n: { config: { defaultLocale: 'en', locales: ['en', 'fr'] } },
  'users-permissions': { config: { jwtSecret: env('JWT_SECRET') } },
  // GraphQL at /graphql in the seed's shape (data { id attributes }); v4CompatibilityMode: false for Strapi v5's.
  graphql: { config: { depthLimit: 7, amountLimit: 100 } },
});
