import { STATUS_CODES } from 'node:http';
import type { FastifyError, FastifyInstance, RouteHandlerMethod } from 'fastify';
import type { Logger } from 'pino';
import { CairnError, NotFoundError, PayloadTooLargeError, ServiceUnavailableError, ValidationError } from '../errors/index.js';

/**
 * Every failure leaves as `{ data: null, error: { status, name, message, details } }`. Errors Fastify raises
 * itself (bad JSON, body too large, wrong content type) are mapped to Strapi's names, never a JavaScript
 * exception's (`SyntaxError`, `TypeError`); anything unexpected is logged with its stack and answered with a 500
 * that reveals nothing. Every 5xx is logged with its cause: a 503 (the database is unavailable) with the driver's
 * error, and tells the client when to try again (Retry-After).
 */
export function installErrorHandling(app: FastifyInstance, log: Pick<Logger, 'error'>, options: { aroundNotFound?: (handler: RouteHandlerMethod) => RouteHandlerMethod } = {}): void {
  app.setErrorHandler((error: FastifyError | CairnError | Error, request, reply) => {
    const answer = errorAnswer(error, request, log);
    if (answer.retryAfter !== undefined) reply.header('retry-after', String(answer.retryAfter));
    return reply.status(answer.status).send(answer.body);
  });
  const notFound: RouteHandlerMethod = (_request, reply) => reply.status(404).send(new NotFoundError().toResponse());
  // The app's application middlewares run on requests no route takes too (server-code/app-middlewares.ts).
  app.setNotFoundHandler(options.aroundNotFound ? options.aroundNotFound(notFound) : notFound);
}

/** What an error is answered with (Strapi's status and body; a 503's Retry-After), logged when it is a 5xx. */
export interface ErrorAnswer {
  status: number;
  body: { data: null; error: { status: number; name: string; message: string; details?: unknown } };
  retryAfter?: number;
}

/**
 * The answer to an error, as Strapi's `strapi::errors` middleware makes it: the error handler's, and the one the
 * app's middlewares listed before `strapi::errors` see in `ctx.body` (server-code/app-middlewares.ts).
 */
export function errorAnswer(error: unknown, request: { id: string; method: string; url: string }, log: Pick<Logger, 'error'>): ErrorAnswer {
  const thrown = error instanceof Error ? error : new Error(String(error));
  const response = toCairnError(thrown);
  const status = response?.status ?? 500;
  if (status >= 500) {
    // A 503 says only that the database is unavailable: its log line carries the driver's error, the cause.
    const cause = response instanceof ServiceUnavailableError && response.cause !== undefined ? response.cause : thrown;
    log.error({ err: cause, reqId: request.id, req: { method: request.method, url: request.url }, statusCode: status }, `${request.method} ${request.url} failed: ${thrown.message}`);
  }
  if (!response) return { status: 500, body: { data: null, error: { status: 500, name: 'InternalServerError', message: 'Internal Server Error', details: {} } } };
  return { status: response.status, body: response.toResponse(), retryAfter: response instanceof ServiceUnavailableError ? response.retryAfter : undefined };
}

function toCairnError(error: FastifyError | CairnError | Error): CairnError | null {
  if (error instanceof CairnError) return error;
  const fastifyError = error as FastifyError;
  switch (fastifyError.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new ValidationError('Invalid JSON body');
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new PayloadTooLargeError('Request body is too large');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new CairnError('UnsupportedMediaTypeError', 415, error.message);
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new ValidationError('Invalid Content-Length');
  }
  // Only the body parser's syntax errors are the client's (see body-parsers.ts): a SyntaxError from Cairn's own code
  // (a JSON text a database cut short) is a bug to log, not a 400.
  const status = fastifyError.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) return new CairnError(clientErrorName(status), status, error.message);
  return null;
}

/** Strapi's class for the statuses it has one for, else the name Koa's `ctx.throw(status)` gives (http-errors'). */
function clientErrorName(status: number): string {
  const named: Record<number, string> = { 400: 'BadRequestError', 401: 'UnauthorizedError', 403: 'ForbiddenError', 404: 'NotFoundError', 413: 'PayloadTooLargeError', 429: 'RateLimitError' };
  return named[status] ?? `${(STATUS_CODES[status] ?? 'Bad Request').replace(/[^A-Za-z0-9]+/g, ' ').replace(/ (\w)/g, (_, c: string) => c.toUpperCase()).replace(/ /g, '')}Error`;
}
