/**
 * Values left out of a compiled statement. A request's *shape* (its structure and identifiers) decides the SQL
 * text; its values only fill the bound parameters. The compiler is run once per shape on a spec whose values are
 * `Slot`s; wherever it would bind a value it binds a `SlotParam` instead, remembering how the value is turned into
 * a parameter (a LIKE pattern, a UTC wall time...). `fillSlots` then makes the parameters of each request.
 */

/** Stands for the n-th value of a request in a shape spec. */
export class Slot {
  constructor(readonly index: number) {}
}

/** A parameter computed from a slot's value when the statement runs. */
class SlotParam {
  constructor(
    readonly index: number,
    readonly convert: (value: unknown) => unknown,
  ) {}
}

/**
 * The parameter for `value` converted by `convert`: the converted value itself, or, when `value` is a slot,
 * a parameter that converts the request's value later. The compiler binds every request value through this.
 */
export function bindParam<T>(value: T | Slot, convert: (value: T) => unknown): unknown {
  return value instanceof Slot ? new SlotParam(value.index, convert as (value: unknown) => unknown) : convert(value);
}

/** A compiled statement's parameters for one request's values. */
export function fillSlots(params: readonly unknown[], values: readonly unknown[]): unknown[] {
  return params.map((p) => (p instanceof SlotParam ? p.convert(values[p.index]) : p));
}
