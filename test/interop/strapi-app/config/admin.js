// Fixed test secrets: this app only ever runs on throw-away databases. The harness passes the same
// API_TOKEN_SALT to Cairn, which must accept the token this app's bootstrap issues (src/index.js).
module.exports = ({ env }) => ({
  serveAdminPanel: false,
  auth: {
    secret: env('ADMIN_JWT_SECRET', 'interop-admin-jwt-secret'),
  },
  apiToken: {
    salt: env('API_TOKEN_SALT', 'interop-api-token-salt'),
  },
  transfer: {
    token: {
      salt: env('TRANSFER_TOKEN_SALT', 'interop-transfer-token-salt'),
    },
  },
  secrets: {
    encryptionKey: env('ENCRYPTION_KEY', 'interop-encryption-key-0123456789abcdef'),
  },
  flags: {
    nps: false,
    promoteEE: false,
  },
});
