import type { FastifyInstance, FastifyRequest } from 'fastify';
import { CairnError, ValidationError } from '../errors/index.js';

/**
 * Request bodies as Strapi (Koa) reads them: an empty body is no body, whatever its Content-Type says and whatever
 * the method. `@strapi/client` sends `Content-Type: application/json` on every request, bodiless DELETEs included;
 * Fastify's own JSON parser refused those. A body that is present must be what its Content-Type says: JSON that
 * doesn't parse is a 400 `ValidationError` (Strapi answers the JavaScript exception's name, `SyntaxError`), a media
 * type Cairn has no parser for a 415. Multipart has its own parser in the upload routes' scope. A JSON body is limited
 * to `jsonLimit` bytes when config/middlewares' `strapi::body` sets it (else to the server's `bodyLimit`).
 */
export function installBodyParsers(app: FastifyInstance, options: { jsonLimit?: number } = {}): void {
  // Fastify's parser, kept for what it checks beyond JSON.parse: `__proto__` and `constructor.prototype` keys.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  // `strapi::body`'s jsonLimit (config/middlewares), over the server's bodyLimit, for JSON bodies.
  const limit = options.jsonLimit === undefined ? {} : { bodyLimit: options.jsonLimit };
  app.addContentTypeParser('application/json', { parseAs: 'string', ...limit }, (request: FastifyRequest, body: string | Buffer, done) => {
    if (body.length === 0) return done(null, undefined);
    parseJson(request, body as string, (error: Error | null, value?: unknown) =>
      error ? done(new ValidationError('Invalid JSON body'), undefined) : done(null, value),
    );
  });
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (request: FastifyRequest, body: string | Buffer, done) => {
    if (body.length === 0) return done(null, undefined);
    done(unsupportedMediaType(request), undefined);
  });
}

/** The 415 of a body whose media type the route does not read. */
export function unsupportedMediaType(request: FastifyRequest): CairnError {
  return new CairnError('UnsupportedMediaTypeError', 415, `Unsupported Media Type: ${request.headers['content-type'] ?? ''}`.trim());
}
