import cors from '@fastify/cors';
import type { FastifyInstance } from 'fastify';
import type { CorsConfig } from '../project/middlewares.js';

/**
 * Strapi's `strapi::cors` (config/middlewares), as Cairn's: @fastify/cors with Strapi's options and its origin rule
 * (middlewares/cors.ts matchOrigin): `*` in the list allows any origin, answered back as the request's (credentials
 * are allowed by default, which a literal `*` would forbid); otherwise only the origins listed. A request from
 * another origin gets no CORS headers (the browser then refuses the answer), every answer `Vary: Origin`, a
 * preflight (`OPTIONS` with `Access-Control-Request-Method`) a 204 with the allowed methods and headers.
 */
export async function installCors(app: FastifyInstance, config: CorsConfig | undefined): Promise<void> {
  if (!config) return;
  const any = config.origins.includes('*');
  const allowed = new Set(config.origins);
  await app.register(cors, {
    origin: (origin, callback) => callback(null, origin !== undefined && origin !== '' && (any || allowed.has(origin)) ? origin : false),
    credentials: config.credentials,
    // @koa/cors joins lists with ',' (@fastify/cors with ', '): given as Strapi sends them.
    methods: config.methods.join(','),
    allowedHeaders: config.headers.join(','),
    ...(config.expose ? { exposedHeaders: config.expose.join(',') } : {}),
    maxAge: config.maxAge,
    strictPreflight: false,
  });
}
