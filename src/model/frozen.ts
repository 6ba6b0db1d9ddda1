/**
 * Immutability for the model. `Object.freeze` does not stop `Map#set` or `Set#add`, and the private-attribute
 * set is a security boundary (a field added there at run time would become readable), so the collections the
 * model hands out refuse writes too.
 */

const immutable = (): never => {
  throw new TypeError('The model is immutable');
};

export class FrozenMap<K, V> extends Map<K, V> {
  constructor(entries: Iterable<readonly [K, V]> = []) {
    super();
    // Our own set() throws, so fill through Map's.
    for (const [key, value] of entries) Map.prototype.set.call(this, key, value);
    Object.freeze(this);
  }

  override set(): this {
    return immutable();
  }

  override delete(): boolean {
    return immutable();
  }

  override clear(): void {
    immutable();
  }
}

export class FrozenSet<T> extends Set<T> {
  constructor(values: Iterable<T> = []) {
    super();
    for (const value of values) Set.prototype.add.call(this, value);
    Object.freeze(this);
  }

  override add(): this {
    return immutable();
  }

  override delete(): boolean {
    return immutable();
  }

  override clear(): void {
    immutable();
  }
}

/** A frozen deep copy of JSON-like data (plain objects and arrays); anything else is kept as it is. */
export function frozenCopy<T>(value: T): T {
  if (Array.isArray(value)) return Object.freeze(value.map((v: unknown) => frozenCopy(v))) as T;
  if (isPlainObject(value)) {
    const copy: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value)) copy[key] = frozenCopy(v);
    return Object.freeze(copy) as T;
  }
  return value;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
