// As test/fixtures/conformance/app/config/plugins.js, which Cairn reads beside this app: the same users-permissions
// secret (so either side can verify the other's JWTs) and the same GraphQL limits.
module.exports = ({ env }) => ({
  'users-permissions': {
    config: {
      jwtSecret: env('JWT_SECRET', 'interop-users-permissions-jwt-secret'),
      // Strapi's default mode unless the interop test of sessions asks for its "refresh" mode.
      jwtManagement: env('UP_JWT_MANAGEMENT', 'legacy-support'),
    },
  },
  i18n: {
    config: {
      defaultLocale: 'en',
      locales: ['en', 'fr'],
    },
  },
  graphql: {
    config: {
      endpoint: '/graphql',
      shadowCRUD: true,
      playgroundAlways: false,
      depthLimit: 7,
      amountLimit: 100,
      v4CompatibilityMode: env.bool('GRAPHQL_V4_COMPAT', false),
    },
  },
});
