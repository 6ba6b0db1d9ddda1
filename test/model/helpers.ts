import { expect } from 'vitest';
import { ModelError } from '../../src/errors/index.js';
import { buildModel, type ModelInput } from '../../src/model/index.js';

export const FILE = 'src/api/thing/content-types/thing/schema.json';

/** A minimal valid collection type `api::thing.thing` with the given attributes. */
export function thing(attributes: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  return {
    kind: 'collectionType',
    collectionName: 'things',
    info: { singularName: 'thing', pluralName: 'things', displayName: 'Thing' },
    attributes,
    ...extra,
  };
}

/** A second type for relations: `api::other.other`. */
export function other(attributes: Record<string, unknown> = {}) {
  return { kind: 'collectionType', collectionName: 'others', info: { singularName: 'other', pluralName: 'others', displayName: 'Other' }, attributes };
}

export const OTHER_FILE = 'src/api/other/content-types/other/schema.json';

export function modelError(fn: () => unknown): ModelError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ModelError);
    return error as ModelError;
  }
  throw new Error('expected a ModelError');
}

/** The ModelError of building `input`, checked to name `file` and `attribute` in both its fields and message. */
export function expectModelError(input: ModelInput, file: string, attribute: string | undefined, reason: RegExp): ModelError {
  const error = modelError(() => buildModel(input));
  expect(error.file).toBe(file);
  expect(error.attribute).toBe(attribute);
  expect(error.reason).toMatch(reason);
  expect(error.message).toContain(file);
  if (attribute) expect(error.message).toContain(`"${attribute}"`);
  expect(error.message).toContain(error.reason);
  return error;
}
