import { GraphQLError } from 'graphql';
import { CairnError } from '../errors/index.js';

const CODES: Record<string, string> = {
  ForbiddenError: 'FORBIDDEN',
  PolicyError: 'FORBIDDEN',
  UnauthorizedError: 'UNAUTHENTICATED',
  ValidationError: 'BAD_USER_INPUT',
  PaginationError: 'STRAPI_PAGINATION_ERROR',
  NotFoundError: 'NOT_FOUND',
  ApplicationError: 'STRAPI_APPLICATION_ERROR',
  RateLimitError: 'RATE_LIMITED',
  PayloadTooLargeError: 'BAD_USER_INPUT',
  ServiceUnavailableError: 'SERVICE_UNAVAILABLE',
};

/** The answer to a failure the client did not cause: it reveals nothing (the cause goes to the log). */
export function internalError(path?: GraphQLError['path']): GraphQLError {
  return new GraphQLError('Internal Server Error', { path, extensions: { code: 'INTERNAL_SERVER_ERROR' } });
}

/**
 * A resolver's failure as the reference answers it: a message and `extensions { code, error }`. A failure that is
 * no Cairn error of the client's (a bug, a database fault) is handed to `report` with its cause, and answered
 * INTERNAL_SERVER_ERROR.
 */
export function toGraphQLError(error: GraphQLError, report: (cause: unknown) => void): GraphQLError {
  const original = error.originalError;
  if (!(original instanceof CairnError)) {
    if (original) {
      report(original);
      return internalError(error.path);
    }
    return error;
  }
  if (original.status >= 500) report(original);
  const message = original.name === 'ForbiddenError' ? 'Forbidden access' : original.message;
  return new GraphQLError(message, {
    path: error.path,
    extensions: { code: CODES[original.name] ?? 'INTERNAL_SERVER_ERROR', error: { name: original.name, message, details: original.details } },
  });
}

/** The body of a request refused before any operation runs (no query, an empty batch...): Apollo's `BAD_REQUEST`. */
export function badRequestBody(message: string): { errors: Array<{ message: string; extensions: { code: 'BAD_REQUEST' } }> } {
  return { errors: [{ message, extensions: { code: 'BAD_REQUEST' } }] };
}
