import type { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';

type Limiters = typeof import('rate-limiter-flexible');

/** One counted attempt: what a client is told about its limit. */
export interface Attempt {
  limit: number;
  /** Attempts left in the current window. */
  remaining: number;
  /** Seconds until the window ends. */
  resetSeconds: number;
  /** Past the limit: refuse it (429). */
  exceeded: boolean;
}

/**
 * The attempts at one action (login, register...) per bucket (attemptKey: the client's address, and for some actions
 * the account's email), counted in fixed windows of `windowMs`: at
 * most `max` per window (rate-limiter-flexible's in-memory limiter, per process as Strapi's). REST routes and
 * GraphQL mutations of the action count in the same limit, so switching transports gains no attempts.
 */
export class AttemptLimit {
  /**
   * Loaded with the first attempt, not at start: the package's entry loads every store it has (Redis, Mongo,
   * SQL...), about 40 ms that a start would otherwise pay for a login that may never come.
   */
  private limiter: Promise<{ limiter: RateLimiterMemory; Refusal: Limiters['RateLimiterRes'] }> | undefined;

  constructor(
    readonly max: number,
    private readonly windowMs: number,
  ) {}

  /** Counts an attempt in the bucket `key` (attemptKey). */
  async count(key: string): Promise<Attempt> {
    // No limit (users-permissions' ratelimit.enabled: false): nothing to count.
    if (this.max === Infinity) return { limit: this.max, remaining: this.max, resetSeconds: 0, exceeded: false };
    this.limiter ??= import('rate-limiter-flexible').then((m) => ({
      limiter: new m.RateLimiterMemory({ points: this.max, duration: this.windowMs / 1000 }),
      Refusal: m.RateLimiterRes,
    }));
    const { limiter, Refusal } = await this.limiter;
    try {
      return this.attempt(await limiter.consume(key), false);
    } catch (refusal) {
      // The limiter rejects with its own result when no attempt is left; anything else is a real error.
      if (refusal instanceof Refusal) return this.attempt(refusal, true);
      throw refusal;
    }
  }

  private attempt(result: RateLimiterRes, exceeded: boolean): Attempt {
    return { limit: this.max, remaining: result.remainingPoints, resetSeconds: Math.ceil(result.msBeforeNext / 1000), exceeded };
  }
}

/** The actions whose body does not name the account by `email` (Strapi's ROUTES_WITHOUT_IDENTIFIER): counted per address only. */
const COUNTED_PER_ADDRESS = new Set<string>(['login', 'resetPassword', 'changePassword']);

/**
 * The bucket an attempt counts in, as Strapi 5.54's rate-limit middleware keys it: per client address, and on the
 * actions whose body names the account by `email` (register, forgot-password, send-email-confirmation, an app's
 * route) per lower-cased email too, so one address asking for several accounts is not refused for the others.
 * Login, reset-password and change-password ignore any `email` in the body: varying it must not open new buckets
 * (Strapi's GHSA-7mqx-wwh4-f9fw).
 */
export function attemptKey(action: string, address: string, body: unknown): string {
  if (COUNTED_PER_ADDRESS.has(action)) return `noIdentifier:${address}`;
  const email = typeof body === 'object' && body !== null ? (body as { email?: unknown }).email : undefined;
  return `${typeof email === 'string' && email !== '' ? email.toLowerCase() : 'unknownIdentifier'}:${address}`;
}
