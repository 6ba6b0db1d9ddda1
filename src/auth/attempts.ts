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
 * most `max` per window. REST routes and GraphQL mutations of the action count in the same limit, so switching
 * transports gains no attempts. As @fastify/rate-limit's in-memory store: the `capacity` most recently seen
 * addresses are remembered (an address forgotten starts a new window).
 */
export class AttemptLimit {
  private readonly windows = new Map<string, { count: number; startedAt: number }>();

  constructor(
    readonly max: number,
    readonly windowMs: number,
    private readonly capacity = 5000,
  ) {}

  /** Counts an attempt from `address`. */
  count(address: string, now = Date.now()): Attempt {
    let window = this.windows.get(address);
    if (window === undefined || window.startedAt + this.windowMs <= now) window = { count: 0, startedAt: now };
    window.count++;
    // Re-inserted: the Map's order is the order of last use, oldest first.
    this.windows.delete(address);
    this.windows.set(address, window);
    if (this.windows.size > this.capacity) this.windows.delete(this.windows.keys().next().value!);
    const ttl = this.windowMs - (now - window.startedAt);
    return { limit: this.max, remaining: Math.max(0, this.max - window.count), resetSeconds: Math.ceil(ttl / 1000), exceeded: window.count > this.max };
  }
}
