import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ConfigError } from '../errors/index.js';

/**
 * The GraphiQL playground, served entirely from installed packages: the page, React and GraphiQL's prebuilt UMD
 * bundle come from Cairn's own routes, so it works offline and loads nothing from a CDN.
 */

/** Strapi's rule: on everywhere but production, where `playgroundAlways: true` turns it on. */
export function playgroundEnabled(config: { playgroundAlways?: unknown }, environment: string): boolean {
  const always = config.playgroundAlways ?? false;
  if (typeof always !== 'boolean') {
    throw new ConfigError(`config/plugins: graphql.config.playgroundAlways must be true or false, not ${JSON.stringify(always)}`);
  }
  return always || environment !== 'production';
}

/** Asset from an installed file, or Cairn's own source. */
type Asset = { type: string } & ({ file: string } | { source: string });

/** Mounts GraphiQL on the page; the endpoint comes from the page, so this script is the same for every app. */
const START = `(function () {
  var root = document.getElementById('graphiql');
  var fetcher = GraphiQL.createFetcher({ url: root.getAttribute('data-endpoint') });
  ReactDOM.createRoot(root).render(React.createElement(GraphiQL, { fetcher: fetcher }));
})();
`;

const require = createRequire(import.meta.url);
const packageDir = (name: string) => dirname(require.resolve(`${name}/package.json`));

/** Asset name (as served under `<endpoint>/playground/`) -> installed file. */
const ASSETS: Record<string, Asset> = {
  'react.production.min.js': { file: join(packageDir('react'), 'umd', 'react.production.min.js'), type: 'text/javascript; charset=utf-8' },
  'react-dom.production.min.js': { file: join(packageDir('react-dom'), 'umd', 'react-dom.production.min.js'), type: 'text/javascript; charset=utf-8' },
  'graphiql.min.js': { file: join(packageDir('graphiql'), 'graphiql.min.js'), type: 'text/javascript; charset=utf-8' },
  'graphiql.min.css': { file: join(packageDir('graphiql'), 'graphiql.min.css'), type: 'text/css; charset=utf-8' },
  'start.js': { source: START, type: 'text/javascript; charset=utf-8' },
};

/** Assets are read on first use (about 1.5 MB in all), then answered from memory with an ETag of their content. */
const loaded = new Map<string, { body: Buffer; etag: string }>();
function load(name: string): { body: Buffer; etag: string } {
  let asset = loaded.get(name);
  if (!asset) {
    const source = ASSETS[name];
    const body = 'file' in source ? readFileSync(source.file) : Buffer.from(source.source);
    asset = { body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` };
    loaded.set(name, asset);
  }
  return asset;
}

/**
 * The page's own policy: everything from this server (fonts and icons are data: URLs inside GraphiQL's CSS), and
 * `connect-src 'self'` so the page can only talk to the endpoint that served it.
 */
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
].join('; ');

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function page(endpoint: string): string {
  const asset = (name: string) => escapeHtml(`${endpoint}/playground/${name}`);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>GraphiQL · Cairn</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${asset('graphiql.min.css')}">
<style>html, body, #graphiql { height: 100%; margin: 0; }</style>
</head>
<body>
<div id="graphiql" data-endpoint="${escapeHtml(endpoint)}">Loading GraphiQL…</div>
<script src="${asset('react.production.min.js')}"></script>
<script src="${asset('react-dom.production.min.js')}"></script>
<script src="${asset('graphiql.min.js')}"></script>
<script src="${asset('start.js')}"></script>
</body>
</html>
`;
}

export interface Playground {
  /** A browser asking for the endpoint itself: a GET with no query that accepts HTML. */
  wants(request: FastifyRequest, query: string | null): boolean;
  send(reply: FastifyReply): FastifyReply;
}

/** Registers the asset routes under `<endpoint>/playground/` and returns what the endpoint's GET needs. */
export function registerPlayground(fastify: FastifyInstance, endpoint: string): Playground {
  const html = page(endpoint);
  fastify.get<{ Params: { asset: string } }>(`${endpoint}/playground/:asset`, (request, reply) => {
    const name = request.params.asset;
    if (!Object.hasOwn(ASSETS, name)) return reply.callNotFound();
    const { body, etag } = load(name);
    // A day, then a cheap revalidation: the URLs carry no version, so an upgrade must not be hidden for long.
    reply.header('cache-control', 'public, max-age=86400').header('etag', etag);
    if (request.headers['if-none-match'] === etag) return reply.status(304).send();
    return reply.type(ASSETS[name].type).send(body);
  });
  return {
    wants: (request, query) => query === null && (request.headers.accept ?? '').includes('text/html'),
    send: (reply) =>
      reply
        .header('content-security-policy', CONTENT_SECURITY_POLICY)
        .header('cache-control', 'no-cache')
        .type('text/html; charset=utf-8')
        .send(html),
  };
}
