/** koa2-ratelimit's time units (its Time util), in milliseconds. */
const UNIT_MS = { ms: 1, sec: 1000, min: 60_000, hour: 3_600_000, day: 86_400_000, week: 604_800_000 } as const;

export const INTERVAL_UNITS = Object.keys(UNIT_MS);

/**
 * A rate limit's `interval` as koa2-ratelimit (Strapi's users-permissions rate limiter) takes it: milliseconds, or an
 * object of whole units added up (`{ min: 5 }`, `{ min: 1, sec: 30 }`). Undefined when it is neither, or not positive.
 */
export function intervalMs(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isInteger(value) && value >= 1 ? value : undefined;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const entries = Object.entries(value);
  if (!entries.length) return undefined;
  let total = 0;
  for (const [unit, amount] of entries) {
    if (!Object.hasOwn(UNIT_MS, unit) || !Number.isInteger(amount) || (amount as number) < 0) return undefined;
    total += (amount as number) * UNIT_MS[unit as keyof typeof UNIT_MS];
  }
  return total >= 1 ? total : undefined;
}
