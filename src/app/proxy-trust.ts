import type { FastifyInstance } from 'fastify';

/** `server.proxy` of a Strapi 5 project's config/server (config-keys.ts checks it). */
export interface ServerProxyConfig {
  /** Trust the `X-Forwarded-*` headers of a proxy in front (Koa's `app.proxy`). */
  koa?: boolean;
  /** How many addresses, from the end of the forwarded chain, are the proxies' own (Koa's `maxIpsCount`; 0: all). */
  maxIpsCount?: number;
  /** The header carrying the client's address (Koa's `proxyIpHeader`; default `X-Forwarded-For`). */
  ipHeader?: string;
  [key: string]: unknown;
}

/**
 * Fastify's `trustProxy` for Strapi 5's `server.proxy`: Strapi trusts the forwarded headers only when `proxy.koa` is
 * true (a boolean `proxy`, Strapi v4's form, is ignored by Strapi 5 as here: config-keys.ts warns). Koa then takes
 * the client address from the last `maxIpsCount` addresses of the chain (all when 0), the first of them; trusting the
 * socket's peer and the n - 1 forwarded addresses after it (hops 0 to n - 1) names the same address. The client
 * address keys the login attempts' limits (auth/), and `ctx.ip`, `ctx.protocol` and secure cookies follow it.
 */
export function trustProxyOf(proxy: unknown): boolean | ((address: string, hop: number) => boolean) {
  const config = proxyConfig(proxy);
  if (config?.koa !== true) return false;
  const hops = config.maxIpsCount;
  return hops ? (_address, hop) => hop < hops : true;
}

/**
 * A client-address header other than `X-Forwarded-For` (Strapi 5.52's `proxy.ipHeader`: `CF-Connecting-IP`, say):
 * Fastify reads X-Forwarded-For only, so each request's X-Forwarded-For becomes that header's value (none when the
 * request has none: Koa then reads the socket's address, as Fastify does). Nothing is added otherwise.
 */
export function readClientAddressFrom(fastify: Pick<FastifyInstance, 'addHook'>, proxy: unknown): void {
  const config = proxyConfig(proxy);
  const header = config?.koa === true ? config.ipHeader?.toLowerCase() : undefined;
  if (!header || header === 'x-forwarded-for') return;
  fastify.addHook('onRequest', async (request) => {
    const value = request.headers[header];
    if (value === undefined) delete request.headers['x-forwarded-for'];
    else request.headers['x-forwarded-for'] = Array.isArray(value) ? value.join(', ') : value;
  });
}

function proxyConfig(proxy: unknown): ServerProxyConfig | undefined {
  return typeof proxy === 'object' && proxy !== null ? (proxy as ServerProxyConfig) : undefined;
}
