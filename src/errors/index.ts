/**
 * Every error the API answers with, in one registry: Strapi's error names and statuses, so clients written for
 * Strapi v5 read them unchanged. Responses use `{ data: null, error: { status, name, message, details } }`.
 */

export type ErrorDetails = Record<string, unknown>;

export class CairnError extends Error {
  readonly status: number;
  readonly details: ErrorDetails;

  constructor(name: string, status: number, message: string, details: ErrorDetails = {}) {
    super(message);
    this.name = name;
    this.status = status;
    this.details = details;
  }

  toResponse(): { data: null; error: { status: number; name: string; message: string; details: ErrorDetails } } {
    return { data: null, error: { status: this.status, name: this.name, message: this.message, details: this.details } };
  }
}

/** One failed check of a request body: `path` is the attribute path, e.g. `['address', 'city']`. */
export interface FieldError {
  path: (string | number)[];
  message: string;
  name: 'ValidationError';
  value?: unknown;
}

/** 400: bad query parameter or body. Query errors carry `{ key, path, source: 'query', param }`. */
export class ValidationError extends CairnError {
  constructor(message: string, details: ErrorDetails = {}) {
    super('ValidationError', 400, message, details);
  }

  /** A body that failed validation: the message is the first error's, as the reference answers. */
  static fromFieldErrors(errors: FieldError[]): ValidationError {
    const message = errors.length === 1 ? errors[0].message : `${errors.length} errors occurred`;
    return new ValidationError(message, { errors });
  }

  /** `Invalid key <key>` for a query parameter, with the reference's details. */
  static invalidKey(param: string, key: string, path?: string): ValidationError {
    const at = path ? ` at ${path}` : '';
    return new ValidationError(`Invalid key ${key}${at}`, { key, path: path ?? key, source: 'query', param });
  }
}

export class PaginationError extends CairnError {
  constructor(message: string, details: ErrorDetails = {}) {
    super('PaginationError', 400, message, details);
  }
}

export class ApplicationError extends CairnError {
  constructor(message: string, details: ErrorDetails = {}) {
    super('ApplicationError', 400, message, details);
  }
}

/**
 * A request asked for more than can be built into one answer: a value past the database's limits
 * (database/answer-limits.ts), or a page whose entries together pass the longest string JavaScript holds
 * (rest/responses.ts). Typically a populate that fans out (each chef's restaurants' chefs' restaurants...).
 */
export function answerTooLargeError(): ApplicationError {
  return new ApplicationError('The answer is too large to build: populate fewer relations or levels, or ask for a smaller page');
}

/** Strapi's `ctx.badRequest(message)`: a 400 named BadRequestError (its http-errors name), as its controllers answer. */
export class BadRequestError extends CairnError {
  constructor(message = 'Bad Request', details: ErrorDetails = {}) {
    super('BadRequestError', 400, message, details);
  }
}

export class UnauthorizedError extends CairnError {
  constructor(message = 'Missing or invalid credentials', details: ErrorDetails = {}) {
    super('UnauthorizedError', 401, message, details);
  }
}

export class ForbiddenError extends CairnError {
  constructor(message = 'Forbidden', details: ErrorDetails = {}) {
    super('ForbiddenError', 403, message, details);
  }
}

/** 403 from a policy that refused (a GraphQL resolver's `policies`): Strapi's `PolicyError`, "Policy Failed". */
export class PolicyError extends CairnError {
  constructor(message = 'Policy Failed', details: ErrorDetails = {}) {
    super('PolicyError', 403, message, details);
  }
}

export class NotFoundError extends CairnError {
  constructor(message = 'Not Found', details: ErrorDetails = {}) {
    super('NotFoundError', 404, message, details);
  }
}

/** 501: what Strapi defines and Cairn does not do yet (Strapi's `NotImplementedError`). */
export class NotImplementedError extends CairnError {
  constructor(message = 'This feature is not implemented yet', details: ErrorDetails = {}) {
    super('NotImplementedError', 501, message, details);
  }
}

export class PayloadTooLargeError extends CairnError {
  constructor(message = 'Payload too large', details: ErrorDetails = {}) {
    super('PayloadTooLargeError', 413, message, details);
  }
}

export class RateLimitError extends CairnError {
  constructor(message = 'Too many requests, please try again later.', details: ErrorDetails = {}) {
    super('RateLimitError', 429, message, details);
  }
}

/**
 * 503: the database could not be reached, dropped the connection (a restart, a failover, an administrator's kill)
 * or gave up on a lock; the same request may well succeed shortly. Answered with `Retry-After: retryAfter`
 * (seconds). Strapi has no such error (a database fault is its 500 `InternalServerError`); the name is the one
 * Strapi's HTTP errors give status 503. `cause` is the driver's error: logged, never answered.
 */
export class ServiceUnavailableError extends CairnError {
  readonly retryAfter: number;

  constructor(message = 'The database is unavailable, try again shortly', options: { cause?: unknown; retryAfter?: number } = {}) {
    super('ServiceUnavailableError', 503, message);
    this.retryAfter = options.retryAfter ?? 1;
    if (options.cause !== undefined) this.cause = options.cause;
  }
}

/** A model (schema.json) that cannot load: names the file and the attribute. Stops start-up. */
export class ModelError extends Error {
  constructor(
    readonly file: string,
    readonly attribute: string | undefined,
    readonly reason: string,
  ) {
    super(`${file}${attribute ? ` (attribute "${attribute}")` : ''}: ${reason}`);
    this.name = 'ModelError';
  }
}

/** A configuration file that cannot load or holds an invalid value. Stops start-up. */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

/**
 * App code used an API of Strapi's that Cairn does not provide (`strapi.admin`, an unknown member). Where the start
 * runs that code (register, bootstrap, factories), it stops the start naming the app's file and line.
 */
export class NotProvidedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NotProvidedError';
  }
}

/**
 * `members` as a plugin's service for app code (`strapi.plugin(plugin).service(service)`): reading any other member
 * throws a NotProvidedError naming it and what is provided, never an undefined that fails later, elsewhere.
 */
export function providedMembers<T extends object>(plugin: string, service: string, members: T): T {
  return loudMembers(`strapi.plugin('${plugin}').service('${service}')`, members);
}

/** `members` as the object of Strapi's at `path` (`strapi.contentAPI`): any other member read throws, naming it. */
export function loudMembers<T extends object>(path: string, members: T): T {
  return new Proxy(members, {
    get(target, key) {
      if (typeof key === 'symbol' || key in target) return Reflect.get(target, key);
      // Probes of promises and JSON, not Strapi's API.
      if (key === 'then' || key === 'toJSON') return undefined;
      throw new NotProvidedError(`${path}.${key} is not provided by Cairn (it provides ${Object.keys(members).join(', ')}: see README's list of the Strapi APIs Cairn runs)`);
    },
  });
}
