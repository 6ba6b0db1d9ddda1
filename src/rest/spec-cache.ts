import type { ReadSpec } from '../query/types.js';

const MAX_ENTRIES = 2000;

/**
 * Parsed and validated read specs by (content-type, raw query string, caller's permission key). Specs are
 * immutable, so the document layer can also cache the SQL compiled from each one: a repeated request
 * skips qs parsing, validation and compilation. Bounded: the oldest entries go first.
 */
export class SpecCache {
  private readonly entries = new Map<string, ReadSpec>();

  get(key: string, build: () => ReadSpec): ReadSpec {
    let spec = this.entries.get(key);
    if (spec) return spec;
    spec = build();
    if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, spec);
    return spec;
  }
}
