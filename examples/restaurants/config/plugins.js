module.exports = ({ env }) => ({
  i18n: { config: { defaultLocale: 'en', locales: ['en', 'fr'] } },
  'users-permissions': { config: { jwtSecret: env('JWT_SECRET') } },
  // GraphQL at /graphql in the seed's shape (Strapi v4's: data { id attributes }, id the documentId), Cairn's
  // `shape: 'v4'`; without it Strapi 5's schema (v4CompatibilityMode: true for Strapi 5's compatibility mode).
  graphql: { config: { depthLimit: 7, amountLimit: 100, shape: 'v4' } },
});
