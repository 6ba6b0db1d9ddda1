import type { Filter, PopulateNode, PopulateTree, ReadSpec } from '../../query/types.js';
import { Slot } from './slots.js';

/**
 * A read spec split into its shape and its values: `filters[name][$eq]=Ann` and `=Bob` have one shape (and
 * one compiled statement) and differ in `values`. What changes the SQL text stays in the shape: identifiers,
 * operators, the number of `$in` values, `$null`/`$notNull` and `$eq: null`, sort, fields, populate, status,
 * locale and the page window (LIMIT/OFFSET are printed, so the planner sees them).
 */
export interface ReadShape {
  /** Equal for two specs exactly when they compile to the same SQL text. */
  key: string;
  /** The spec with every filter value replaced by a `Slot` (compile this one). */
  spec: ReadSpec;
  /** The values, by slot index. */
  values: unknown[];
}

export function readShape(spec: ReadSpec): ReadShape {
  const values: unknown[] = [];
  const slot = (value: unknown) => new Slot(values.push(value) - 1);
  const shapeSpec: ReadSpec = {
    ...spec,
    filters: spec.filters && shapeFilter(spec.filters, slot),
    populate: shapePopulate(spec.populate, slot),
  };
  return { key: JSON.stringify(shapeSpec, keyReplacer), spec: shapeSpec, values };
}

type MakeSlot = (value: unknown) => Slot;

function shapeFilter(filter: Filter, slot: MakeSlot): Filter {
  switch (filter.kind) {
    case 'and':
    case 'or':
      return { kind: filter.kind, items: filter.items.map((f) => shapeFilter(f, slot)) };
    case 'not':
      return { kind: 'not', item: shapeFilter(filter.item, slot) };
    case 'relation':
    case 'component':
      return { ...filter, filter: shapeFilter(filter.filter, slot) };
    case 'publication':
      return filter;
    case 'compare': {
      const { operator, value } = filter;
      // These print `IS [NOT] NULL` (or a constant for an empty list): the value is structure, not a parameter.
      if (operator === '$null' || operator === '$notNull' || value === null) return filter;
      const shaped = Array.isArray(value) ? value.map(slot) : slot(value);
      return { ...filter, value: shaped as never };
    }
  }
}

function shapePopulate(tree: PopulateTree, slot: MakeSlot): PopulateTree {
  const shaped = new Map<string, PopulateNode>();
  for (const [name, node] of tree) shaped.set(name, shapeNode(node, slot));
  return shaped;
}

function shapeNode(node: PopulateNode, slot: MakeSlot): PopulateNode {
  return {
    ...node,
    filters: node.filters && shapeFilter(node.filters, slot),
    populate: shapePopulate(node.populate, slot),
    on: node.on && shapePopulate(node.on, slot),
  };
}

/** Maps keep their order (populate order is the JSON key order); a slot prints as `?`. */
function keyReplacer(_key: string, value: unknown): unknown {
  if (value instanceof Map) return [...value];
  if (value instanceof Slot) return '?';
  return value;
}
