import type { FastifyInstance } from 'fastify';
import type { Database } from '../database/types.js';
import { ping } from '../database/ping.js';
import { ServiceUnavailableError } from '../errors/index.js';

/** A database that takes longer than this to answer a ping counts as down. */
const HEALTH_TIMEOUT_MS = 2000;

/**
 * `/_health` (any method, as Strapi's): 204 when the database answers, a 503 ServiceUnavailableError when it does
 * not, so a load balancer takes the process out of rotation during an outage and back when it ends. Strapi's
 * answers 204 without asking the database. No credentials needed.
 */
export function registerHealth(app: FastifyInstance, db: Database): void {
  app.all('/_health', async (_request, reply) => {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => reject(new ServiceUnavailableError(`The database did not answer within ${HEALTH_TIMEOUT_MS} ms`)), HEALTH_TIMEOUT_MS);
    });
    try {
      await Promise.race([ping(db), timeout]);
    } finally {
      clearTimeout(timer);
    }
    return reply.status(204).send();
  });
}
