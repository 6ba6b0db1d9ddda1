import type { ScalarAttribute, ScalarType } from './types.js';
import { checkRange, readFlag, readNumber, type Fail, type Raw } from './attribute-options.js';
import { frozenCopy } from './frozen.js';
import { snakeCase } from './names.js';

export const SCALAR_TYPES: ReadonlySet<string> = new Set<ScalarType>([
  'string', 'text', 'richtext', 'blocks', 'enumeration', 'email', 'password', 'uid', 'date', 'time',
  'datetime', 'timestamp', 'integer', 'biginteger', 'float', 'decimal', 'boolean', 'json',
]);

type Base = Pick<ScalarAttribute, 'name' | 'required' | 'private' | 'localized' | 'raw'>;

/** The scalar part of normalizeAttribute: options, enum values, regex. `targetField` is checked per schema. */
export function normalizeScalar(base: Base, type: ScalarType, a: Raw, fail: Fail): ScalarAttribute {
  const min = readNumber(a, 'min', fail);
  const max = readNumber(a, 'max', fail);
  checkRange(min, max, 'min', 'max', fail);
  const minLength = readNumber(a, 'minLength', fail, true);
  const maxLength = readNumber(a, 'maxLength', fail, true);
  checkRange(minLength, maxLength, 'minLength', 'maxLength', fail);

  let values: readonly string[] | undefined;
  if (type === 'enumeration') {
    values = readEnum(a.enum, fail);
    if (a.default !== undefined && a.default !== null && !values.includes(a.default as string)) {
      fail(`"default" ${JSON.stringify(a.default)} is not one of the enum values`);
    }
  }
  if (a.regex !== undefined && a.regex !== null && a.regex !== '') {
    if (typeof a.regex !== 'string') fail('"regex" must be a string');
    try {
      new RegExp(a.regex as string);
    } catch (error) {
      fail(`"regex" is not a valid regular expression: ${(error as Error).message}`);
    }
  }
  if (a.targetField !== undefined && (type !== 'uid' || typeof a.targetField !== 'string')) {
    fail('"targetField" is only for uid attributes and must name an attribute');
  }
  return {
    ...base,
    kind: 'scalar',
    type,
    column: snakeCase(base.name),
    // A uid identifies an entry (it is its slug): two entries may not share one.
    unique: readFlag(a, 'unique', fail) || type === 'uid',
    default: frozenCopy(a.default),
    min,
    max,
    minLength,
    maxLength,
    regex: typeof a.regex === 'string' && a.regex !== '' ? a.regex : undefined,
    enum: values,
    targetField: a.targetField as string | undefined,
  };
}

function readEnum(raw: unknown, fail: Fail): readonly string[] {
  if (!Array.isArray(raw) || raw.length === 0 || !raw.every((v) => typeof v === 'string' && v !== '')) {
    fail('an enumeration needs "enum": a non-empty list of non-empty strings');
  }
  const values = raw as string[];
  const twice = values.find((v, i) => values.indexOf(v) !== i);
  if (twice !== undefined) fail(`enum value "${twice}" is listed twice`);
  return Object.freeze([...values]);
}
