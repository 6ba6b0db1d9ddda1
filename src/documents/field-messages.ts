/**
 * The wording of body validation errors, as Strapi 5 words them (its checks are yup schemas): a message names the
 * field by its full path (`compo[0].description must be at least 3 characters`) and `details.errors[].path` lists
 * the same path's parts as strings (`['compo', '0', 'description']`), so clients that show or match them read the
 * same text from Cairn.
 */

/** A path inside the body's `data`: attribute names, and numbers for positions in repeatable components / zones. */
export type BodyPath = readonly (string | number)[];

/** `['dz', 0, 'name']` -> `dz[0].name` (yup's path notation, the one Strapi's messages start with). */
export function pathLabel(path: BodyPath): string {
  let label = '';
  for (const part of path) {
    if (typeof part === 'number') label += `[${part}]`;
    else label += label === '' ? part : `.${part}`;
  }
  return label;
}

/** `details.errors[].path`: every part as a string (Strapi splits yup's path with lodash's toPath). */
export const errorPath = (path: BodyPath): string[] => path.map(String);

/** yup's printValue: how a refused value is shown in a message (strings quoted, objects as indented JSON). */
export function printValue(value: unknown): string {
  const simple = printSimple(value);
  if (simple !== null) return simple;
  return JSON.stringify(
    value,
    function (this: Record<string, unknown>, key: string, inner: unknown) {
      return printSimple(this[key]) ?? inner;
    },
    2,
  );
}

function printSimple(value: unknown): string | null {
  if (value === null || value === undefined || value === true || value === false) return String(value);
  if (typeof value === 'number') return Object.is(value, -0) ? '-0' : String(value);
  if (typeof value === 'string') return `"${value}"`;
  return null;
}

/** The schema types yup names in a type error; `mixed` accepts any value, so null on it fails `required` instead. */
export type YupType = 'string' | 'number' | 'boolean' | 'object' | 'array' | 'mixed';

/** `name must be a \`string\` type, but the final value was: \`null\`.` */
export function typeError(path: BodyPath, type: YupType, value: unknown): string {
  return `${pathLabel(path)} must be a \`${type}\` type, but the final value was: \`${printValue(value)}\`.`;
}

/**
 * A required value that is absent or null. Strapi checks a creation with `notNil` ("must be defined.") and an update
 * with `notNull` ("cannot be null."); a null given to a typed schema fails its type check first. Publishing a Draft &
 * Publish document checks the stored draft, where an absent value reads as null.
 */
export function missingValue(path: BodyPath, type: YupType, value: undefined | null, check: 'create' | 'update'): string {
  if (value === null && type !== 'mixed') return typeError(path, type, null);
  return check === 'create' ? `${pathLabel(path)} must be defined.` : `${pathLabel(path)} cannot be null.`;
}
