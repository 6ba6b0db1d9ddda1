import type { FastifyInstance } from 'fastify';
import type { Logger } from './logger.js';

/**
 * Strapi's `strapi::logger` (config/middlewares), as Cairn's: one log line per answered request, Strapi's text
 * (`GET /api/articles?sort=title (3 ms) 200`: the method, the URL as sent, the time in whole milliseconds rounded up,
 * the status), written to Cairn's log (pino's JSON lines, level info; Strapi writes it at its `http` level, which its
 * default log level shows). Only when the list names it: an app written for Cairn logs no request.
 */
export function installRequestLog(app: FastifyInstance, log: Logger, enabled: boolean): void {
  if (!enabled) return;
  app.addHook('onResponse', (request, reply, done) => {
    log.info(`${request.method} ${request.url} (${Math.ceil(reply.elapsedTime)} ms) ${reply.statusCode}`);
    done();
  });
}
