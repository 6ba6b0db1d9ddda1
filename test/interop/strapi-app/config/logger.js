// STRAPI_LOG_LEVEL (the harness sets warn) drops the per-request http lines; errors always show (no levelFilter:
// @strapi/logger's levelFilter passes the named level only, which would hide them).
const { winston, formats: { prettyPrint } } = require('@strapi/logger');

module.exports = {
  transports: [
    new winston.transports.Console({
      level: process.env.STRAPI_LOG_LEVEL || 'http',
      format: prettyPrint({ timestamps: 'YYYY-MM-DD hh:mm:ss.SSS' }),
    }),
  ],
};
