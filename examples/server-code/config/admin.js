module.exports = ({ env }) => ({ apiToken: { salt: env('API_TOKEN_SALT', 'example-api-token-salt-change-me') } });
