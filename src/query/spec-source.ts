import type { ReadSpec } from './types.js';

/**
 * Where a ReadSpec came from: the Strapi-shaped params it was parsed from, and how to parse changed ones with the
 * same options (the caller's permissions, limits...). App code around the Document Service (document middlewares,
 * read lifecycles) receives the params and may change them; the read then runs on `reparse(params)`.
 */
export interface SpecSource {
  readonly params: Readonly<Record<string, unknown>>;
  reparse(params: Record<string, unknown>): ReadSpec;
}

// Kept beside the spec, not in it: a spec's fields make its statement's cache key (database/sql/read-shape.ts).
const sources = new WeakMap<ReadSpec, SpecSource>();

/** Records where `spec` came from; returns the spec. */
export function withSource(spec: ReadSpec, source: SpecSource): ReadSpec {
  sources.set(spec, source);
  return spec;
}

/** The params `spec` was parsed from, if recorded (a spec copied with `{ ...spec }` has none). */
export function specSource(spec: ReadSpec): SpecSource | undefined {
  return sources.get(spec);
}
