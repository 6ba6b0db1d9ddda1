/** The values Strapi's parseType reads as a boolean (its TRUTHY_INPUTS and FALSY_INPUTS, strings and numbers). */
const TRUE_INPUTS: ReadonlySet<unknown> = new Set([true, 'true', 't', '1', 1]);
const FALSE_INPUTS: ReadonlySet<unknown> = new Set([false, 'false', 'f', '0', 0]);

/** `value` as Strapi's parseType reads a boolean: true, false, or undefined for anything else. */
export function booleanLike(value: unknown): boolean | undefined {
  return TRUE_INPUTS.has(value) ? true : FALSE_INPUTS.has(value) ? false : undefined;
}
