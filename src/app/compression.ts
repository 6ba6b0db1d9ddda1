import zlib from 'node:zlib';
import compress from '@fastify/compress';
import compressible from 'compressible';
import type { FastifyInstance, FastifyReply, FastifyRequest, onSendHookHandler } from 'fastify';
import type { CompressionConfig, CompressionEncoding } from '../project/compression-options.js';

/** Statuses that have no body: never compressed (koa-compress' list). */
const EMPTY_STATUSES = new Set([204, 205, 304]);
/** A `Cache-Control: no-transform` answer is sent as it is (RFC 7234 5.2.2.4; koa-compress' test). */
const NO_TRANSFORM = /(?:^|,)\s*?no-transform\s*?(?:,|$)/;
/** koa-compress' Accept-Encoding directive: an encoding it knows, with its weight. */
const DIRECTIVE = /^\s*(gzip|compress|deflate|br|identity|\*)\s*(?:;\s*q\s*=\s*(\d(?:\.\d)?))?\s*$/;
/** What `*` stands for (koa-compress: not br). */
const WILDCARD: CompressionEncoding[] = ['gzip', 'deflate'];

/** The mark of a route registered with `compress: false`. */
const UNCOMPRESSED = Symbol('cairn.uncompressed');

/** What koa-compress answers a request whose Accept-Encoding refuses every encoding, `identity` included (406). */
const NOT_ACCEPTABLE = JSON.stringify({ data: null, error: { status: 406, name: 'NotAcceptableError', message: 'Please accept br, gzip, deflate, or identity.' } });

/**
 * Strapi's `strapi::compression` (config/middlewares), as Cairn's: answers compressed as koa-compress compresses
 * them (Strapi 5.54 passes its config to koa-compress 5), the compressing itself done by @fastify/compress.
 *
 * koa-compress' rules decide (a gate before @fastify/compress' own hook on each route): every answer varies by
 * `Accept-Encoding`; one is compressed unless it is a HEAD's, has no body (or a 204, 205, 304), is encoded already,
 * its type is not compressible (the `compressible` package, or the config's `filter`), it says `no-transform`, or it
 * is smaller than `threshold` (1 KB; a file by its Content-Length). The encoding is the request's most wanted of
 * those offered, br before gzip before deflate at equal weight (`*` is gzip or deflate; no Accept-Encoding is
 * `defaultEncoding`, identity); a request that accepts none of them and refuses identity is answered 406.
 *
 * Installed only when the list names it: without it no answer pays anything for it. Routes registered before it
 * (none of the API's: it is installed before them) are not compressed; nor are requests no route takes.
 */
export async function installCompression(app: FastifyInstance, config: CompressionConfig | undefined): Promise<void> {
  if (!config) return;
  app.addHook('onRequest', (request, reply, done) => {
    // A route compression never runs for (strapi::favicon listed before it) does not vary by it either.
    if (!(request.routeOptions.config as { [UNCOMPRESSED]?: boolean } | undefined)?.[UNCOMPRESSED]) addVary(reply, 'Accept-Encoding');
    done();
  });
  await app.register(compress, {
    global: true,
    // koa-compress compresses answers only: request bodies are read as they are today.
    globalDecompression: false,
    // The gate below decides (koa-compress' threshold and types); the plugin compresses what it lets through.
    threshold: 0,
    customTypes: () => true,
    encodings: [...config.encodings, 'identity'],
    zlib: zlibWith(config.zlib),
  });
  app.addHook('onRoute', (route) => {
    if ((route as { compress?: unknown }).compress === false) {
      route.config = { ...route.config, [UNCOMPRESSED]: true } as typeof route.config;
      return;
    }
    const hooks = Array.isArray(route.onSend) ? [...route.onSend] : route.onSend ? [route.onSend] : [];
    // @fastify/compress' own onRoute hook (registered just before this one) appended its onSend last.
    const plugin = hooks.at(-1);
    if (typeof plugin !== 'function' || plugin.name !== 'onSend') throw new Error(`@fastify/compress left no onSend hook on ${route.method} ${route.url}: its version is not the one Cairn was written for`);
    hooks[hooks.length - 1] = gate(plugin as onSendHookHandler, config);
    route.onSend = hooks;
  });
}

/** koa-compress' decision before the plugin's hook: the answer as it is, or compressed in koa-compress' encoding. */
function gate(plugin: onSendHookHandler, config: CompressionConfig): onSendHookHandler {
  const filter = config.filter ?? ((type: string) => compressible(type));
  return function (this: FastifyInstance, request: FastifyRequest, reply: FastifyReply, payload: unknown, done: (error?: Error | null, payload?: unknown) => void) {
    if (
      payload === null ||
      payload === undefined ||
      payload === '' ||
      request.method === 'HEAD' ||
      EMPTY_STATUSES.has(reply.statusCode) ||
      reply.getHeader('content-encoding') ||
      !filter(String(reply.getHeader('content-type') ?? '').split(';', 1)[0].trim()) ||
      NO_TRANSFORM.test(String(reply.getHeader('cache-control') ?? ''))
    ) {
      return done(null, payload);
    }
    const length = sizeOf(payload, reply);
    if (config.threshold && length !== undefined && length < config.threshold) return done(null, payload);
    const encoding = preferredEncoding(request.headers['accept-encoding'] || config.defaultEncoding, config.encodings);
    if (encoding === 'identity') return done(null, payload);
    if (encoding === undefined) {
      reply.code(406).header('content-type', 'application/json; charset=utf-8').removeHeader('content-length');
      return done(null, NOT_ACCEPTABLE);
    }
    // The plugin reads the encoding from the request (negotiating it its own way, and never compressing for a
    // request with X-No-Compression): it is given koa-compress' choice, and the request gets its own back at once.
    const headers = request.headers;
    const { 'accept-encoding': accepted, 'x-no-compression': noCompression } = headers;
    headers['accept-encoding'] = encoding;
    delete headers['x-no-compression'];
    try {
      // The plugin appends `accept-encoding` to Vary, which says Accept-Encoding already: one is kept.
      return plugin.call(this, request, reply, payload, (error?: Error | null, value?: unknown) => {
        dedupeVary(reply);
        done(error, value);
      });
    } finally {
      if (accepted === undefined) delete headers['accept-encoding'];
      else headers['accept-encoding'] = accepted;
      if (noCompression !== undefined) headers['x-no-compression'] = noCompression;
    }
  } as onSendHookHandler;
}

/** The answer's size in bytes as koa-compress reads it (a stream: its Content-Length, if it has one). */
function sizeOf(payload: unknown, reply: FastifyReply): number | undefined {
  if (typeof payload === 'string') return Buffer.byteLength(payload);
  if (Buffer.isBuffer(payload)) return payload.length;
  const declared = Number(reply.getHeader('content-length'));
  return Number.isFinite(declared) && reply.hasHeader('content-length') ? declared : undefined;
}

/**
 * koa-compress' negotiation (lib/encodings.js): each directive's weight; the heaviest encodings first, among equals
 * the offered ones in its order (br, gzip, deflate); `identity` when none is wanted, undefined (a 406) when nothing
 * is and identity is refused (`identity;q=0`).
 */
export function preferredEncoding(header: string, offered: readonly CompressionEncoding[]): CompressionEncoding | 'identity' | undefined {
  const weights = new Map<string, number>();
  for (const directive of header.split(',')) {
    const match = DIRECTIVE.exec(directive);
    if (!match) continue;
    const weight = Math.min(Math.max(match[2] && !Number.isNaN(Number(match[2])) ? Number.parseFloat(match[2]) : 1, 0), 1);
    if (match[1] === '*') {
      for (const encoding of WILDCARD) if (!weights.has(encoding)) weights.set(encoding, weight);
    } else weights.set(match[1], weight);
  }
  // koa-compress skips no weight, 0 included: an encoding offered at q=0 still wins over nothing.
  const known = [...weights.keys()].filter((encoding) => encoding === 'identity' || encoding === 'br' || encoding === 'gzip' || encoding === 'deflate');
  const classes = [...new Set(known.map((encoding) => weights.get(encoding)!))].sort((a, b) => b - a);
  for (const weight of classes) {
    const found = offered.find((encoding) => weights.get(encoding) === weight);
    if (found) return found;
  }
  return weights.get('identity') === 0 ? undefined : 'identity';
}

/** Adds a field to Vary unless it is there (any case), as Koa's ctx.vary does. */
function addVary(reply: FastifyReply, field: string): void {
  const current = reply.getHeader('vary');
  if (current === undefined || current === '') return void reply.header('vary', field);
  const fields = String(current).split(',').map((f) => f.trim());
  if (fields.includes('*') || fields.some((f) => f.toLowerCase() === field.toLowerCase())) return;
  reply.header('vary', `${String(current)}, ${field}`);
}

/** Vary without the same field twice (the first spelling kept). */
function dedupeVary(reply: FastifyReply): void {
  const current = reply.getHeader('vary');
  if (current === undefined) return;
  const seen = new Set<string>();
  const fields = (Array.isArray(current) ? current.join(',') : String(current))
    .split(',')
    .map((f) => f.trim())
    .filter((f) => f !== '' && !seen.has(f.toLowerCase()) && seen.add(f.toLowerCase()));
  reply.header('vary', fields.join(', '));
}

/**
 * The zlib @fastify/compress uses: each encoding's streams and one-shot functions with that encoding's options (the
 * plugin would give gzip and deflate the same ones; koa-compress gives each its own).
 */
function zlibWith(options: CompressionConfig['zlib']) {
  return {
    createBrotliCompress: () => zlib.createBrotliCompress(options.br),
    createGzip: () => zlib.createGzip(options.gzip),
    createDeflate: () => zlib.createDeflate(options.deflate),
    brotliCompressSync: (payload: zlib.InputType) => zlib.brotliCompressSync(payload, options.br),
    gzipSync: (payload: zlib.InputType) => zlib.gzipSync(payload, options.gzip),
    deflateSync: (payload: zlib.InputType) => zlib.deflateSync(payload, options.deflate),
  };
}
