import type { Attribute, Component, ContentType, Model, ScalarAttribute } from '../model/types.js';
import type { ComponentStep, SoughtValue } from '../database/store/index.js';
import type { FieldError } from '../errors/index.js';
import { errorPath, type BodyPath } from './field-messages.js';

/**
 * Strapi 5.54's unique rule, as its entity validator applies it (node_modules/@strapi/core/dist/services/
 * entity-validator/validators.js, addUniqueValidator; index.js builds the component context it reads):
 *
 * - Checked: attributes with `unique: true` and every `uid`, of the types whose validator adds the test (strings,
 *   texts, email, password, uid, numbers, dates): not enumerations, booleans, JSON or blocks. Null and '' never clash.
 * - Drafts are never checked (`isDraft`); a write outside a draft (a type without Draft & Publish, or publishing,
 *   which validates the stored draft whole as a creation) is checked against the published versions
 *   (`publishedAt $notNull`) of the type's other entries, in the same locale when the write has one. Publishing
 *   deletes the document's former published version first, so a document never clashes with itself.
 * - In a component: the entries compared are those holding the same value at the same place, the path of component
 *   attributes from the entry down (`where: { part: { inner: { code } } }`), whether single or repeatable at each step;
 *   the same component elsewhere (another attribute, another type) is not compared.
 * - Within the entry, the items of a repeatable component at the top of the entry are compared with each other first
 *   (the value as sent, at the same path below the item, read through single components only): a value two items
 *   share fails in both, without a query. Lists inside a list are not compared this way.
 * - In a dynamic zone (at the top of the entry): the zone's items of the type that holds the attribute are compared
 *   with each other, then with the items of that type directly in the zone of the other entries. A unique value in a
 *   component nested in a zone item is thus compared with direct items of its own type only (usually none).
 * - The error: `This attribute must be unique` at the value's path (list indexes included), with the value; several
 *   make `<n> errors occurred`. Strapi orders them by attribute order (items in order here).
 *
 * Where Strapi fails otherwise Cairn does not follow it: its comparison inside a repeatable reads a key of a missing
 * single component and stops the process (TypeError); Cairn reads no value there. A zone nested in a component (which
 * Strapi's Content-Type Builder does not make) is not checked.
 */

const CHECKED_TYPES = new Set(['string', 'text', 'richtext', 'password', 'email', 'uid', 'integer', 'biginteger', 'float', 'decimal', 'date', 'time', 'datetime', 'timestamp']);

const UNIQUE_MESSAGE = 'This attribute must be unique';

/** Whether Strapi checks an attribute's values for uniqueness. */
export function checksUnique(attribute: Attribute): attribute is ScalarAttribute {
  return attribute.kind === 'scalar' && attribute.unique && CHECKED_TYPES.has(attribute.type);
}

const holders = new WeakMap<object, boolean>();

/** Whether a schema, or a component under it, has a value Strapi checks for uniqueness. */
export function holdsUnique(model: Model, schema: ContentType | Component, seen = new Set<object>()): boolean {
  const known = holders.get(schema);
  if (known !== undefined) return known;
  if (seen.has(schema)) return false;
  seen.add(schema);
  const holds = [...schema.attributes.values()].some((a) => checksUnique(a) || listHoldsUnique(model, a, seen));
  holders.set(schema, holds);
  return holds;
}

/** Whether a component or zone attribute may hold a value Strapi checks for uniqueness (false for other kinds). */
export function listHoldsUnique(model: Model, attribute: Attribute, seen = new Set<object>()): boolean {
  if (attribute.kind !== 'component' && attribute.kind !== 'dynamiczone') return false;
  const uids = attribute.kind === 'dynamiczone' ? attribute.components : [attribute.component];
  return uids.some((uid) => {
    const component = model.components.get(uid);
    return component !== undefined && holdsUnique(model, component, seen);
  });
}

/** A unique value of an entry or of one of its components, as the check knows it. */
export interface UniqueValue {
  /** The value Strapi's test gets and reports (numbers cast); null or '' is not checked. */
  value: unknown;
  /** The value as sent (or read from the draft): what the items of a list are compared by. */
  given: unknown;
  /** How the database finds it in other entries. */
  sought: SoughtValue;
}

/** An entry, or one of its components, reduced to what the unique check reads. */
export interface UniqueTree {
  schema: ContentType | Component;
  /** Checked attributes with a value (by name); an attribute not given is absent. */
  values: ReadonlyMap<string, UniqueValue>;
  /** Component and zone attributes given (by name): their items in order (a single component: none or one). */
  components: ReadonlyMap<string, readonly UniqueTree[]>;
}

/** Whether another entry's published version holds a value (unique-values.ts in the store). */
export type TakenLookup = (steps: readonly ComponentStep[], attribute: ScalarAttribute, sought: SoughtValue) => Promise<boolean>;

/** Strapi's component context (index.js): where a component is in the entry, and the lists it is compared within. */
interface Context {
  /** `pathToComponent`: the component and zone attributes from the entry down to this component. */
  names: string[];
  /** The same path as the database follows it. */
  steps: ComponentStep[];
  /** `repeatableData`: the items of the repeatable component at the top of the entry this component is in. */
  repeatable: readonly UniqueTree[];
  /** `fullDynamicZoneContent`: the items of the zone this component is in. */
  zone?: readonly UniqueTree[];
}

/** The unique errors of an entry (Strapi's rule, above), in attribute order. */
export async function uniqueErrors(model: Model, contentType: ContentType, tree: UniqueTree, taken: TakenLookup): Promise<FieldError[]> {
  const errors: FieldError[] = [];
  await visit({ model, contentType, taken, errors }, tree, [], { names: [], steps: [], repeatable: [] });
  return errors;
}

interface Walk {
  model: Model;
  contentType: ContentType;
  taken: TakenLookup;
  errors: FieldError[];
}

async function visit(walk: Walk, tree: UniqueTree, path: BodyPath, ctx: Context): Promise<void> {
  for (const attribute of tree.schema.attributes.values()) {
    const name = attribute.name;
    if (checksUnique(attribute)) {
      const unique = tree.values.get(name);
      if (!unique || unique.value === null || unique.value === undefined || unique.value === '') continue;
      if (await clashes(walk, tree, attribute, unique, ctx)) {
        walk.errors.push({ path: errorPath([...path, name]), message: UNIQUE_MESSAGE, name: 'ValidationError', value: unique.value });
      }
      continue;
    }
    const items = tree.components.get(name);
    if (!items) continue;
    if (attribute.kind === 'dynamiczone') {
      if (ctx.names.length) continue;
      const inner: Context = { names: [name], steps: [], repeatable: ctx.repeatable, zone: items };
      for (const [i, item] of items.entries()) await visit(walk, item, [...path, name, i], inner);
    } else if (attribute.kind === 'component') {
      const component = walk.model.components.get(attribute.component);
      if (!component) continue;
      const names = [...ctx.names, name];
      const inner: Context = {
        names,
        steps: [...ctx.steps, { owner: tree.schema, field: name, component, zone: false }],
        repeatable: attribute.repeatable && names.length === 1 ? items : ctx.repeatable,
        zone: ctx.zone,
      };
      for (const [i, item] of items.entries()) await visit(walk, item, attribute.repeatable ? [...path, name, i] : [...path, name], inner);
    }
  }
}

async function clashes(walk: Walk, tree: UniqueTree, attribute: ScalarAttribute, unique: UniqueValue, ctx: Context): Promise<boolean> {
  if (!ctx.names.length) return walk.taken([], attribute, unique.sought);
  const top = walk.contentType.attributes.get(ctx.names[0]);
  if (top?.kind === 'dynamiczone') {
    // The zone's items of this component's type; then the other entries' items of that type directly in the zone.
    const same = (ctx.zone ?? []).filter((item) => item.schema.uid === tree.schema.uid && item.values.get(attribute.name)?.given === unique.given);
    if (same.length > 1) return true;
    const step: ComponentStep = { owner: walk.contentType, field: ctx.names[0], component: tree.schema as Component, zone: true };
    return walk.taken([step], attribute, unique.sought);
  }
  if (ctx.repeatable.length) {
    const below = [...ctx.names.slice(1), attribute.name];
    if (ctx.repeatable.filter((item) => givenAt(item, below) === unique.given).length > 1) return true;
  }
  return walk.taken(ctx.steps, attribute, unique.sought);
}

/** An item's value at a path of single components then a checked attribute (Strapi reads `item.a.b`); else undefined. */
function givenAt(item: UniqueTree, names: readonly string[]): unknown {
  let at: UniqueTree | undefined = item;
  for (const name of names.slice(0, -1)) {
    const attribute = at.schema.attributes.get(name);
    // A key read of a list gives undefined in Strapi too.
    if (attribute?.kind !== 'component' || attribute.repeatable) return undefined;
    at = at.components.get(name)?.[0];
    if (!at) return undefined;
  }
  return at.values.get(names[names.length - 1])?.given;
}
