import type { FastifyInstance } from 'fastify';
import { ForbiddenError } from '../errors/index.js';

/**
 * Strapi's `strapi::ip` (koa-ip) as Cairn's: a client whose address no whitelist pattern matches, or a blacklist one
 * does, gets 403 Forbidden on every request, before anything else runs. The address is the request's as Cairn reads
 * it (behind a proxy, the forwarded one when `server.proxy` trusts it, as Koa's `ctx.ip`); each pattern is a regular
 * expression tested against it, unanchored, as koa-ip tests it.
 */
export function installIpFilter(app: FastifyInstance, filter: { whitelist?: RegExp[]; blacklist?: RegExp[] } | undefined): void {
  if (!filter) return;
  const { whitelist, blacklist } = filter;
  app.addHook('onRequest', (request, _reply, done) => {
    const ip = request.ip;
    const passes = (!whitelist || whitelist.some((pattern) => pattern.test(ip))) && !blacklist?.some((pattern) => pattern.test(ip));
    done(passes ? undefined : new ForbiddenError());
  });
}
