import type { Component, ContentType, Model, ScalarAttribute } from '../model/types.js';
import type { RowStore } from '../database/store/index.js';
import type { ColumnType } from '../query/types.js';
import { fromColumn } from './column-values.js';
import { checksUnique, holdsUnique, listHoldsUnique, type UniqueTree, type UniqueValue } from './unique-rule.js';
import type { RowPlan } from './write-plan.js';

/** Strapi checks dates as sent (`yup.mixed()`); other types as cast, which is what a plan holds. */
const AS_SENT = new Set(['date', 'time', 'datetime', 'timestamp']);

/**
 * The unique values a write gives (its plan): what Strapi validates on a write is the body, so an update checks only
 * what it sends. The database is asked for the value as the plan stores it.
 */
export function bodyTree(model: Model, schema: ContentType | Component, plan: RowPlan): UniqueTree {
  const values = new Map<string, UniqueValue>();
  const components = new Map<string, UniqueTree[]>();
  for (const attribute of schema.attributes.values()) {
    if (checksUnique(attribute)) {
      if (!Object.prototype.hasOwnProperty.call(plan.columns, attribute.column)) continue;
      const stored = plan.columns[attribute.column];
      // A value the schema's default gave was not sent: Strapi compares list items by what was sent (undefined).
      const given = plan.source[attribute.name];
      const value = AS_SENT.has(attribute.type) && given !== undefined ? given : stored;
      values.set(attribute.name, { value, given, sought: { value: stored } });
    } else if (listHoldsUnique(model, attribute)) {
      const given = plan.components.find((c) => c.attribute === attribute.name);
      if (given) components.set(attribute.name, given.items.map((item) => bodyTree(model, item.component, item.row)));
    }
  }
  return { schema, values, components };
}

/**
 * The unique values of a stored row and its components, read as Strapi reads the draft it publishes (every
 * attribute; a list's items in order). Only the components that hold a checked value are read (a zone's other
 * items stay in the list, empty: their place is their index).
 */
export async function storedTree(store: RowStore, schema: ContentType | Component, rowId: number): Promise<UniqueTree> {
  const model = store.model;
  const values = new Map<string, UniqueValue>();
  const components = new Map<string, UniqueTree[]>();
  const tree = { schema, values, components };
  if (!holdsUnique(model, schema)) return tree;
  const checked = [...schema.attributes.values()].filter(checksUnique);
  const row = checked.length ? await store.columnValues(schema, rowId, checked.map((a) => a.column)) : {};
  for (const attribute of checked) {
    const read = fromColumn(row?.[attribute.column], columnType(attribute));
    values.set(attribute.name, { value: read, given: read, sought: { rowId } });
  }
  const lists = [...schema.attributes.values()].filter((a) => listHoldsUnique(model, a));
  if (!lists.length) return tree;
  const links = await store.componentLinks(schema, rowId);
  for (const attribute of lists) {
    const items: UniqueTree[] = [];
    for (const link of links.filter((l) => l.field === attribute.name)) {
      const component = model.components.get(link.component_type);
      if (component) items.push(await storedTree(store, component, Number(link.cmp_id)));
    }
    components.set(attribute.name, items);
  }
  return tree;
}

function columnType(attribute: ScalarAttribute): ColumnType {
  return attribute.type === 'password' ? 'string' : attribute.type;
}
