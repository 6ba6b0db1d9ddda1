/**
 * A cache of at most about `capacity` entries that keeps the recently used ones: a two-generation LRU. Entries
 * live in `recent` until it is full; then `recent` becomes `older` (the previous `older` is dropped) and a new
 * `recent` starts. A hit in `older` moves the entry back to `recent`.
 *
 * Why not a strict LRU (a Map re-inserted on every hit): hot read paths look their statement up once per
 * request, and a hit here is one Map lookup with no writes, where re-insertion costs a delete and a set on
 * every request. What it gives up: an entry may outlive a strict LRU's by up to one generation, and up to
 * `capacity` entries (two half generations plus the one being added) are held.
 */
export class BoundedCache<V> {
  private recent = new Map<string, V>();
  private older = new Map<string, V>();
  private readonly generation: number;
  private droppedGenerations = 0;

  constructor(capacity: number) {
    this.generation = Math.max(1, Math.floor(capacity / 2));
  }

  get(key: string): V | undefined {
    const value = this.recent.get(key);
    if (value !== undefined) return value;
    const old = this.older.get(key);
    if (old !== undefined) {
      this.older.delete(key);
      this.set(key, old);
    }
    return old;
  }

  set(key: string, value: V): void {
    if (this.recent.size >= this.generation) {
      if (this.older.size) this.droppedGenerations++;
      this.older = this.recent;
      this.recent = new Map();
    }
    this.recent.set(key, value);
  }

  /** The entry held for `key`, without counting as a use (it is not moved to the recent generation). */
  peek(key: string): V | undefined {
    return this.recent.get(key) ?? this.older.get(key);
  }

  /** How many times entries were dropped so far: what a holder of values taken from here checks before its own tidying. */
  get drops(): number {
    return this.droppedGenerations;
  }

  /** Entries held now (both generations). */
  get size(): number {
    return this.recent.size + this.older.size;
  }
}
