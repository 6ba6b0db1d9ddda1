module.exports = ({ env }) => ({
  'users-permissions': {
    config: {
      jwtSecret: env('JWT_SECRET', 'example-jwt-secret-change-me'),
      // The user's extension (src/extensions/users-permissions) adds `phone`: registration may set it.
      register: { allowedFields: ['phone'] },
    },
  },
});
