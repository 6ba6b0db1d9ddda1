/** Readers for schema.json attribute options; each one fails through `fail` with a reason the user can act on. */

export type Raw = Record<string, unknown>;
export type Fail = (reason: string) => never;

/**
 * `true`/`false`, or absent (false). Anything else is an error rather than false: a hand-typed
 * `"private": "true"` must not quietly leave a field public.
 */
export function readFlag(a: Raw, key: string, fail: Fail): boolean {
  const value = a[key];
  if (value === undefined || value === null) return false;
  if (typeof value !== 'boolean') fail(`"${key}" must be true or false, not ${JSON.stringify(value)}`);
  return value as boolean;
}

/**
 * A number, or a numeric string (the content-type builder writes biginteger bounds as strings).
 * Lengths and counts must be whole and not negative.
 */
export function readNumber(a: Raw, key: string, fail: Fail, count = false): number | undefined {
  const value = a[key];
  if (value === undefined || value === null) return undefined;
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isFinite(n)) return fail(`"${key}" must be a number, not ${JSON.stringify(value)}`);
  if (count && (!Number.isInteger(n) || n < 0)) fail(`"${key}" must be a whole number >= 0, not ${JSON.stringify(value)}`);
  return n;
}

/** `min`/`max` (or `minLength`/`maxLength`) that contradict each other would make every value invalid. */
export function checkRange(low: number | undefined, high: number | undefined, lowKey: string, highKey: string, fail: Fail): void {
  if (low !== undefined && high !== undefined && low > high) fail(`"${lowKey}" (${low}) is greater than "${highKey}" (${high})`);
}

/** Reads `min`/`max` of a repeatable component or dynamic zone: counts of items. */
export function readCountRange(a: Raw, fail: Fail): { min?: number; max?: number } {
  const min = readNumber(a, 'min', fail, true);
  const max = readNumber(a, 'max', fail, true);
  checkRange(min, max, 'min', 'max', fail);
  return { min, max };
}
