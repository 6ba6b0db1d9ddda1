module.exports = ({ env }) => ({ 'users-permissions': { config: { jwtSecret: env('JWT_SECRET', 'example-jwt-secret-change-me') } } });
