import type { Stats } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ConfigError } from '../errors/index.js';
import type { PublicFilesConfig } from '../project/middlewares.js';
import type { AppConfig } from '../project/types.js';

/**
 * The app's `public/` folder over HTTP (@fastify/static). `/uploads/...` (the media library's files) is served the
 * same way in any case: for a day, revalidated by ETag, byte ranges allowed.
 *
 * Without `strapi::public` in config/middlewares (an app written for Cairn), all of `public/` is served that way.
 *
 * With it, the rest is served as Strapi's (koa-static over koa-send, probed on Strapi 5.54): `GET`/`HEAD` of a file,
 * `Cache-Control: max-age=<maxAge in seconds>` (a minute by default) and `Last-Modified`, no ETag, no ranges or
 * conditional answers; a folder (with or without its trailing slash) is its `index.html`; a name starting with a
 * dot, anywhere in the path, is not served; `<file>.br` or `<file>.gz` is sent for `<file>` to a client that accepts
 * that encoding; a missing file is a 404 NotFoundError. `GET /` redirects (302) to the admin panel's URL
 * (`admin.url`, `/admin` by default, under `server.url`'s path), as Strapi's does even without its admin panel.
 */
export async function registerPublicFiles(app: FastifyInstance, appConfig: Pick<AppConfig, 'dir' | 'server' | 'admin'>, config: PublicFilesConfig | undefined): Promise<void> {
  const root = join(appConfig.dir, 'public');
  const staticFiles = (await import('@fastify/static')).default;
  // Uploads have content-hashed names: clients may cache them for a long time.
  const uploads = { maxAge: '1d', cacheControl: true } as const;
  if (!config) {
    await app.register(staticFiles, { root, prefix: '/', wildcard: true, ...uploads });
    return;
  }
  await app.register(staticFiles, { root: join(root, 'uploads'), prefix: '/uploads/', wildcard: true, ...uploads });
  const maxAge = `max-age=${Math.floor(config.maxAge / 1000)}`;
  await app.register(staticFiles, {
    root,
    prefix: '/',
    wildcard: true,
    decorateReply: false,
    index: ['index.html'],
    redirect: false,
    dotfiles: 'ignore',
    preCompressed: true,
    etag: false,
    acceptRanges: false,
    // koa-send's headers, written here: @fastify/send's would make it answer conditional requests (304).
    cacheControl: false,
    lastModified: false,
    setHeaders: (res: { setHeader(name: string, value: string): unknown }, _path: string, stat: Stats) => {
      res.setHeader('cache-control', maxAge);
      res.setHeader('last-modified', stat.mtime.toUTCString());
    },
  });
  const location = encodeUrl(adminUrl(appConfig));
  app.get('/', (request, reply) => {
    const html = acceptsHtml(request);
    const shown = html ? escapeHtml(location) : location;
    return reply
      .code(302)
      .header('location', location)
      .type(html ? 'text/html; charset=utf-8' : 'text/plain; charset=utf-8')
      .send(`Redirecting to ${shown}.`);
  });
}

/**
 * The admin panel's URL as Strapi computes it (configuration/urls.ts): `admin.url` (default `/admin`) trimmed of
 * slashes; an absolute one as it is, a relative one under `server.url`.
 */
export function adminUrl(config: Pick<AppConfig, 'server' | 'admin'>): string {
  const trim = (text: string) => text.replace(/^[/ ]+|[/ ]+$/g, '');
  const absolute = (text: string) => {
    try {
      return trim(new URL(text).toString());
    } catch {
      // Strapi stops its start on it too ("Invalid admin url config").
      throw new ConfigError(`config: ${JSON.stringify(text)} (server.url or admin.url) is not a valid URL: strapi::public redirects / to the admin panel's URL`);
    }
  };
  let server = trim(typeof config.server.url === 'string' ? config.server.url : '');
  if (server.startsWith('http')) server = absolute(server);
  else if (server !== '') server = `/${server}`;
  const admin = trim(typeof config.admin.url === 'string' ? config.admin.url : '/admin');
  return admin.startsWith('http') ? absolute(admin) : `${server}/${admin}`;
}

/** Koa's `ctx.accepts('html')`: no Accept header, or its most specific range for text/html has a weight above 0. */
function acceptsHtml(request: FastifyRequest): boolean {
  const header = request.headers.accept;
  if (!header) return true;
  let best: { specificity: number; q: number } | undefined;
  for (const part of header.split(',')) {
    const [range, ...params] = part.trim().toLowerCase().split(';');
    const specificity = range === 'text/html' ? 2 : range === 'text/*' ? 1 : range === '*/*' ? 0 : -1;
    if (specificity < 0) continue;
    const q = params.map((p) => /^\s*q\s*=\s*([\d.]+)\s*$/.exec(p)).find(Boolean);
    const weight = q ? Number(q[1]) : 1;
    if (!best || specificity > best.specificity) best = { specificity, q: weight };
  }
  return best !== undefined && best.q > 0;
}

/** The `encodeurl` package's rule (Koa's Location): characters a URL may not hold are percent-encoded, `%XX` kept. */
function encodeUrl(url: string): string {
  return url.replace(/(?:[^\x21\x23-\x3B\x3D\x3F-\x5F\x61-\x7A\x7C\x7E]|%(?:[^0-9A-Fa-f]|[0-9A-Fa-f][^0-9A-Fa-f]|$))+/g, (chars) => encodeURI(chars));
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}
