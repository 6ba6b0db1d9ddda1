import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';

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
 * The attempts at one action (login, register...) per client address, counted in fixed windows of `windowMs`: at
 * most `max` per window (rate-limiter-flexible's in-memory limiter, per process as Strapi's). REST routes and
 * GraphQL mutations of the action count in the same limit, so switching transports gains no attempts.
 */
export class AttemptLimit {
  private readonly limiter: RateLimiterMemory;

  constructor(
    readonly max: number,
    windowMs: number,
  ) {
    this.limiter = new RateLimiterMemory({ points: max, duration: windowMs / 1000 });
  }

  /** Counts an attempt from `address`. */
  async count(address: string): Promise<Attempt> {
    try {
      return this.attempt(await this.limiter.consume(address), false);
    } catch (refusal) {
      // The limiter rejects with its own result when no attempt is left; anything else is a real error.
      if (refusal instanceof RateLimiterRes) return this.attempt(refusal, true);
      throw refusal;
    }
  }

  private attempt(result: RateLimiterRes, exceeded: boolean): Attempt {
    return { limit: this.max, remaining: result.remainingPoints, resetSeconds: Math.ceil(result.msBeforeNext / 1000), exceeded };
  }
}
