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

/** A resolver's failure as the reference answers it: a message and `extensions { code, error }`. */
export function toGraphQLError(error: GraphQLError): GraphQLError {
  const original = error.originalError;
  if (!(original instanceof CairnError)) {
    if (original) return new GraphQLError('Internal Server Error', { path: error.path, extensions: { code: 'INTERNAL_SERVER_ERROR' } });
    return error;
  }
  const message = original.name === 'ForbiddenError' ? 'Forbidden access' : original.message;
  return new GraphQLError(message, {
    path: error.path,
    extensions: { code: CODES[original.name] ?? 'INTERNAL_SERVER_ERROR', error: { name: original.name, message, details: original.details } },
  });
}
