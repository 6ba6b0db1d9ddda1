import type { FastifyReply } from 'fastify';
import { NotFoundError } from '../errors/index.js';
import type { KoaContext } from './koa-context.js';

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * Sends what the app's code left in `ctx`, as Koa would: its headers and status; a string as text (HTML when it
 * starts with `<`), a Buffer as bytes, a stream piped, anything else as JSON; nothing at all (no status, no body)
 * is a 404, with Strapi's error body.
 */
export function respond(ctx: KoaContext, reply: FastifyReply): FastifyReply {
  reply.headers(ctx.headersOut);
  // Nothing answered: Strapi's NotFoundError, with the headers the middlewares set.
  if (!ctx.answered) throw new NotFoundError();
  reply.status(ctx.status);
  const text = ctx.jsonText;
  if (text !== undefined) {
    // Cairn's own answer, which no app code read: its text as it is.
    if (ctx.status === 204 || ctx.status === 304) return reply.send();
    if (!ctx.headersOut['content-type']) reply.type(JSON_TYPE);
    return reply.send(text);
  }
  const body = ctx.body;
  if (ctx.status === 204 || ctx.status === 304 || body === undefined || body === null) return reply.send();
  const type = ctx.headersOut['content-type'];
  if (typeof body === 'string') {
    if (!type) reply.type(/^\s*</.test(body) ? 'text/html; charset=utf-8' : 'text/plain; charset=utf-8');
    return reply.send(body);
  }
  if (Buffer.isBuffer(body) || typeof (body as { pipe?: unknown }).pipe === 'function') {
    if (!type) reply.type('application/octet-stream');
    return reply.send(body);
  }
  if (!type) reply.type(JSON_TYPE);
  return reply.send(JSON.stringify(body));
}
