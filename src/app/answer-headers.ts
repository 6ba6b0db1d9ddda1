import type { FastifyInstance } from 'fastify';

/**
 * Strapi's `strapi::poweredBy` and `strapi::responseTime` (config/middlewares), as Cairn's: headers on every answer,
 * set as it leaves (as Strapi's set them after `await next()`). `X-Powered-By` is the config's `poweredBy` (Strapi's
 * default: `Strapi <strapi.io>`); `X-Response-Time` is the whole request's time in whole milliseconds, rounded up
 * (`12ms`). Neither builds anything per request: one hook, only when the list names them.
 */
export function installAnswerHeaders(app: FastifyInstance, headers: { poweredBy?: string; responseTime: boolean }): void {
  const { poweredBy, responseTime } = headers;
  if (poweredBy === undefined && !responseTime) return;
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (poweredBy !== undefined) reply.header('x-powered-by', poweredBy);
    if (responseTime) reply.header('x-response-time', `${Math.ceil(reply.elapsedTime)}ms`);
    done(null, payload);
  });
}
