import { readFile } from 'node:fs/promises';
import type { FastifyInstance } from 'fastify';
import { NotFoundError } from '../errors/index.js';
import type { FaviconConfig } from '../project/middlewares.js';

/**
 * Strapi's `strapi::favicon` (config/middlewares), as Cairn's: `/favicon.ico` (any query string) answers the icon as
 * koa-favicon does: `GET` and `HEAD` the file's bytes as `image/x-icon` (whatever the file is: Strapi's default is a
 * PNG) with `Cache-Control: public, max-age=<maxAge in seconds>`, read once on first request and kept; `OPTIONS`
 * a 200 `OK` with `Allow: GET, HEAD, OPTIONS`; another method a 405 with the same `Allow`. A CORS preflight is
 * answered by strapi::cors first, as in Strapi's list.
 *
 * With no icon in the app's folder (Strapi's template has a favicon.png; an app written for Cairn may have none) the
 * icon is a 404 NotFoundError, where Strapi fails each request with a 500. `uncompressed`: the list has `strapi::compression` after it, which Koa never runs for
 * the icon's answer.
 */
export function registerFavicon(app: FastifyInstance, config: FaviconConfig | undefined, options: { uncompressed?: boolean } = {}): void {
  if (!config) return;
  const cacheControl = `public, max-age=${Math.floor(config.maxAge / 1000)}`;
  let icon: Promise<Buffer> | undefined;
  const route = options.uncompressed ? { compress: false as const } : {};
  // GET (and Fastify's HEAD of it: the same headers, no body).
  app.get('/favicon.ico', route, async (_request, reply) => {
    if (!config.found) throw new NotFoundError();
    icon ??= readFile(config.file).catch((error: unknown) => {
      // A file removed since the start: tried again on the next request.
      icon = undefined;
      throw error;
    });
    const bytes = await icon;
    return reply.header('cache-control', cacheControl).type('image/x-icon').send(bytes);
  });
  app.route({
    ...route,
    url: '/favicon.ico',
    method: ['OPTIONS', 'POST', 'PUT', 'PATCH', 'DELETE'],
    handler: (request, reply) => {
      reply.header('allow', 'GET, HEAD, OPTIONS').type('text/plain; charset=utf-8');
      return request.method === 'OPTIONS' ? reply.code(200).send('OK') : reply.code(405).send('Method Not Allowed');
    },
  });
}
