import { STATUS_CODES } from 'node:http';
import * as cairn from '../errors/index.js';
import { CairnError, type ErrorDetails } from '../errors/index.js';

/**
 * `errors` of `@strapi/utils` as an app throws them: Strapi's classes, hierarchy (`PolicyError` is a
 * `ForbiddenError`, every one an `ApplicationError`), names, default messages and statuses (Strapi's error
 * middleware maps a class to its status; an `ApplicationError` of no mapped class is a 400). They are Cairn's
 * errors too (`CairnError`), so a thrown one answers `{ data: null, error: { status, name, message, details } }`.
 */
export class ApplicationError extends CairnError {
  constructor(message = 'An application error occurred', details: ErrorDetails = {}, name = 'ApplicationError', status = 400) {
    super(name, status, message, details ?? {});
  }
}

export class ValidationError extends ApplicationError {
  constructor(message?: string, details?: ErrorDetails) {
    super(message, details, 'ValidationError', 400);
  }
}

export class PaginationError extends ApplicationError {
  constructor(message = 'Invalid pagination', details?: ErrorDetails) {
    super(message, details, 'PaginationError', 400);
  }
}

export class NotFoundError extends ApplicationError {
  constructor(message = 'Entity not found', details?: ErrorDetails) {
    super(message, details, 'NotFoundError', 404);
  }
}

export class ForbiddenError extends ApplicationError {
  constructor(message = 'Forbidden access', details?: ErrorDetails, name = 'ForbiddenError') {
    super(message, details, name, 403);
  }
}

export class PolicyError extends ForbiddenError {
  constructor(message = 'Policy Failed', details?: ErrorDetails) {
    super(message, details, 'PolicyError');
  }
}

export class UnauthorizedError extends ApplicationError {
  constructor(message = 'Unauthorized', details?: ErrorDetails) {
    super(message, details, 'UnauthorizedError', 401);
  }
}

export class RateLimitError extends ApplicationError {
  constructor(message = 'Too many requests, please try again later.', details?: ErrorDetails) {
    super(message, details, 'RateLimitError', 429);
  }
}

export class PayloadTooLargeError extends ApplicationError {
  constructor(message = 'Entity too large', details?: ErrorDetails) {
    super(message, details, 'PayloadTooLargeError', 413);
  }
}

export class NotImplementedError extends ApplicationError {
  constructor(message = 'This feature is not implemented yet', details?: ErrorDetails) {
    super(message, details, 'NotImplementedError', 501);
  }
}

/** Koa's `ctx.throw(status, message)` (http-errors): the status's name as the error's, no details. */
export class HttpError extends CairnError {
  constructor(status: number, message?: string, details?: ErrorDetails) {
    super(httpErrorName(status), status, message ?? statusText(status));
    // http-errors carry no details unless given: Strapi's body then has none.
    (this as { details: ErrorDetails | undefined }).details = details;
  }
}

/**
 * Errors Cairn itself throws (its Document Service's `ValidationError`, its `NotFoundError`...) are of its own
 * classes (errors/index.ts): app code's `error instanceof errors.ValidationError` is true for them too, with Strapi's
 * hierarchy (every one an `ApplicationError`, a `PolicyError` a `ForbiddenError`).
 */
function alsoMatches(cls: abstract new (...args: never[]) => unknown, ...internal: Array<abstract new (...args: never[]) => unknown>): void {
  Object.defineProperty(cls, Symbol.hasInstance, {
    value: (value: unknown) => Function.prototype[Symbol.hasInstance].call(cls, value) || internal.some((c) => value instanceof c),
  });
}
alsoMatches(ValidationError, cairn.ValidationError);
alsoMatches(PaginationError, cairn.PaginationError);
alsoMatches(NotFoundError, cairn.NotFoundError);
alsoMatches(ForbiddenError, cairn.ForbiddenError, cairn.PolicyError);
alsoMatches(PolicyError, cairn.PolicyError);
alsoMatches(UnauthorizedError, cairn.UnauthorizedError);
alsoMatches(RateLimitError, cairn.RateLimitError);
alsoMatches(PayloadTooLargeError, cairn.PayloadTooLargeError);
alsoMatches(NotImplementedError, cairn.NotImplementedError);
alsoMatches(
  ApplicationError,
  cairn.ApplicationError,
  cairn.ValidationError,
  cairn.PaginationError,
  cairn.NotFoundError,
  cairn.ForbiddenError,
  cairn.PolicyError,
  cairn.UnauthorizedError,
  cairn.RateLimitError,
  cairn.PayloadTooLargeError,
  cairn.NotImplementedError,
);

export const errors = {
  ApplicationError,
  ValidationError,
  PaginationError,
  NotFoundError,
  ForbiddenError,
  PolicyError,
  UnauthorizedError,
  RateLimitError,
  PayloadTooLargeError,
  NotImplementedError,
  HttpError,
};


export function statusText(status: number): string {
  return STATUS_CODES[status] ?? String(status);
}

/** http-errors' name of a status: its words capitalized and joined, with `Error` appended (`BadRequestError`). */
export function httpErrorName(status: number): string {
  const words = statusText(status)
    .split(' ')
    .map((word) => word.slice(0, 1).toUpperCase() + word.slice(1))
    .join('')
    .replace(/[^ _0-9a-z]/gi, '');
  return words.endsWith('Error') ? words : `${words}Error`;
}
