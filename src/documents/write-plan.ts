import type {
  Component,
  ComponentAttribute,
  ContentType,
  DynamicZoneAttribute,
  MediaAttribute,
  Model,
  RelationAttribute,
  ScalarType,
} from '../model/types.js';
import { ValidationError, type FieldError } from '../errors/index.js';
import { errorPath, missingValue, pathLabel, typeError, type BodyPath, type YupType } from './field-messages.js';
import { castDateTime, checkScalar } from './scalar-values.js';
import { parseRelationValue, type RelationOps } from './relation-ops.js';
import { parseMorphValue, type MorphPlan } from './morph-ops.js';

/** A validated body for one row: its columns, and what hangs off it (components, relations). */
export interface RowPlan {
  /** Column name -> value as stored (before dialect binding). */
  columns: Record<string, unknown>;
  components: ComponentPlan[];
  relations: RelationPlan[];
  /** Polymorphic relations (morph-writes.ts). */
  morphs: MorphPlan[];
  /**
   * The body the plan was made from, as sent: Strapi compares a unique value with the other items of a list as it
   * was sent, and reports a date as sent (unique-tree.ts).
   */
  source: Readonly<Record<string, unknown>>;
}

/**
 * A component or dynamic-zone attribute's new list: `items` in order (empty to clear). An item's `id` is the one the
 * client sent with it on an update: it must name one of the entry's own components (the store checks it), which the
 * item's `row` patches, as in Strapi; an item without one is a new component.
 */
export interface ComponentPlan {
  attribute: string;
  items: Array<{ component: Component; row: RowPlan; id?: unknown }>;
}

export interface RelationPlan {
  attribute: RelationAttribute | MediaAttribute;
  ops: RelationOps;
}

export interface PlanOptions {
  /**
   * The body is a Draft & Publish document's draft (every write to one writes its draft first). As in Strapi 5, a
   * draft may be incomplete: `required` (of values and single components), `minLength`, and a list's `min`/`max`
   * are not checked; they are when the draft is published (see publish-check.ts). A list stays never null.
   */
  draft?: boolean;
}

const SYSTEM_KEYS = new Set(['id', 'documentId', 'createdAt', 'updatedAt', 'publishedAt', 'createdBy', 'updatedBy']);

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** What one body check collects: field errors, Strapi's own relations error, and refusals of its database layer. */
interface Collect {
  model: Model;
  draft: boolean;
  errors: FieldError[];
  /** Strapi's relations check fails on a dynamic-zone item without a known `__component` (one error, at the end). */
  relationsError?: string;
  /** Values Strapi's validation lets through and its database layer refuses (impossible dates). */
  late: FieldError[];
}

/**
 * Checks a request body's `data` against a content-type (or component) and turns it into a RowPlan.
 * `create` applies defaults and `required`; an update only checks what it is given (a component it is given without
 * its `id` is checked whole: it replaces the previous one). Every problem is collected, then thrown as one
 * ValidationError with `details.errors[]`, worded and ordered as Strapi 5 does.
 */
export function planRow(
  model: Model,
  schema: ContentType | Component,
  data: unknown,
  mode: 'create' | 'update',
  options: PlanOptions = {},
): RowPlan {
  const ctx: Collect = { model, draft: options.draft ?? false, errors: [], late: [] };
  const plan = collect(ctx, schema, data, mode, [], mode === 'update');
  if (ctx.relationsError) ctx.errors.push({ path: [], message: ctx.relationsError, name: 'ValidationError' });
  if (ctx.errors.length) throw ValidationError.fromFieldErrors(ctx.errors);
  // Strapi answers these with the database layer's message alone; the errors list adds where, as for the others.
  if (ctx.late.length) throw new ValidationError(ctx.late[0].message, { errors: ctx.late });
  return plan;
}

function collect(
  ctx: Collect,
  schema: ContentType | Component,
  data: unknown,
  mode: 'create' | 'update',
  path: BodyPath,
  keepIds: boolean,
): RowPlan {
  const plan: RowPlan = { columns: {}, components: [], relations: [], morphs: [], source: isObject(data) ? data : {} };
  if (!isObject(data)) {
    ctx.errors.push({ path: errorPath(path), message: `${pathLabel(path) || 'data'} must be an object`, name: 'ValidationError', value: data });
    return plan;
  }
  const isComponent = schema.modelType === 'component';
  for (const key of Object.keys(data)) {
    if (isComponent && (key === 'id' || key === '__component')) continue;
    if (!isComponent && key === 'locale') continue;
    if (!isComponent && key === 'publishedAt') {
      // Accepted and ignored, as Strapi 5 does (clients send back what they read): the query's `status` decides.
      // It must still be what a read gives, a date-time or null (app code: a valid Date too).
      const value = data[key];
      const valid = value === null || (value instanceof Date ? !Number.isNaN(value.getTime()) : typeof value === 'string' && castDateTime(value).ok);
      if (!valid) {
        ctx.errors.push({ path: errorPath([...path, key]), message: `${key} must be a valid datetime or null`, name: 'ValidationError', value });
      }
      continue;
    }
    const attribute = schema.attributes.get(key);
    if (!attribute || SYSTEM_KEYS.has(key)) {
      throw new ValidationError(`Invalid key ${key}`, { key, path: path.length ? pathLabel(path) : null, source: 'body' });
    }
  }
  const fieldError = (at: BodyPath, message: string, value: unknown) =>
    ctx.errors.push({ path: errorPath(at), message, name: 'ValidationError', value });

  for (const attribute of schema.attributes.values()) {
    const present = Object.prototype.hasOwnProperty.call(data, attribute.name);
    const at = [...path, attribute.name];
    let value = data[attribute.name];
    if (attribute.kind === 'scalar') {
      if (!present && mode === 'create' && attribute.default !== undefined) value = attribute.default;
      if (!present && mode === 'update') continue;
      if (value === undefined || value === null) {
        if (attribute.required && !ctx.draft) {
          const given = value === null ? null : undefined;
          fieldError(at, missingValue(at, yupType(attribute.type), given, mode), given);
        } else if (present) plan.columns[attribute.column] = null;
        continue;
      }
      const result = checkScalar(attribute, value, pathLabel(at), { draft: ctx.draft });
      if (!result.ok) {
        (result.late ? ctx.late : ctx.errors).push({ path: errorPath(at), message: result.message, name: 'ValidationError', value });
      } else plan.columns[attribute.column] = result.value;
      continue;
    }
    if (!present) {
      // A required list (repeatable, zone) must be given even in a draft (Strapi's check of a list is \`notNil\`);
      // a single component or a media attribute only outside drafts.
      const single = attribute.kind === 'component' && !attribute.repeatable;
      const list = attribute.kind === 'dynamiczone' || (attribute.kind === 'component' && attribute.repeatable);
      if (mode === 'create' && attribute.required && attribute.kind !== 'relation' && attribute.kind !== 'morph' && (list || !ctx.draft)) {
        fieldError(at, missingValue(at, single ? 'object' : 'mixed', undefined, 'create'), undefined);
      }
      continue;
    }
    switch (attribute.kind) {
      case 'component':
        plan.components.push(componentPlan(ctx, attribute, value, at, keepIds));
        break;
      case 'dynamiczone':
        plan.components.push(dynamicZonePlan(ctx, attribute, value, at, keepIds));
        break;
      case 'relation':
      case 'media':
        try {
          plan.relations.push({ attribute, ops: parseRelationValue(attribute, value, at) });
        } catch (error) {
          if (!(error instanceof ValidationError)) throw error;
          fieldError(at, error.message, value);
        }
        break;
      case 'morph':
        try {
          plan.morphs.push({ attribute, ops: parseMorphValue(ctx.model, attribute, value, at) });
        } catch (error) {
          if (!(error instanceof ValidationError)) throw error;
          fieldError(at, error.message, value);
        }
        break;
    }
  }
  if (!isComponent && !(schema as ContentType).localized && Object.prototype.hasOwnProperty.call(data, 'locale')) {
    const problem = unlocalizedLocaleProblem(data.locale, [...path, 'locale']);
    if (problem) fieldError([...path, 'locale'], problem, data.locale);
  }
  return plan;
}

/**
 * Strapi 5's i18n plugin gives every content type a `locale` string attribute (writable; private when the type is not
 * localized), so a non-localized type's body may carry `locale`: Strapi checks it as a string of at most 255
 * characters (its default for strings), listed after the schema's attributes, then keeps it in a column no answer,
 * filter or sort can reach. Cairn checks it the same way and keeps nothing: its own layout has no such column.
 */
function unlocalizedLocaleProblem(value: unknown, at: BodyPath): string | undefined {
  if (value === null) return undefined;
  if (typeof value !== 'string') return typeError(at, 'string', value);
  if (value.length > 255) return `${pathLabel(at)} must be at most 255 characters`;
  return undefined;
}

/** The yup schema Strapi checks a scalar type with (dates, big integers and JSON are `mixed`: any value). */
function yupType(type: ScalarType): YupType {
  if (['integer', 'float', 'decimal'].includes(type)) return 'number';
  if (type === 'boolean') return 'boolean';
  if (type === 'blocks') return 'array';
  if (['biginteger', 'date', 'time', 'datetime', 'timestamp', 'json'].includes(type)) return 'mixed';
  return 'string';
}

/**
 * A repeatable component or a dynamic zone is a list: never null (Strapi's check is \`notNil\` even when not
 * required). `min` applies when the attribute is required or the list is not empty, `max` always.
 */
function checkList(ctx: Collect, attribute: ComponentAttribute | DynamicZoneAttribute, value: unknown, path: BodyPath): value is unknown[] {
  if (!Array.isArray(value)) {
    ctx.errors.push({ path: errorPath(path), message: typeError(path, 'array', value), name: 'ValidationError', value });
    return false;
  }
  if (ctx.draft) return true;
  const label = pathLabel(path);
  if (attribute.min !== undefined && (attribute.required || value.length > 0) && value.length < attribute.min) {
    ctx.errors.push({ path: errorPath(path), message: `${label} field must have at least ${attribute.min} items`, name: 'ValidationError', value });
  }
  if (attribute.max !== undefined && value.length > attribute.max) {
    ctx.errors.push({ path: errorPath(path), message: `${label} field must have less than or equal to ${attribute.max} items`, name: 'ValidationError', value });
  }
  return true;
}

/**
 * A component item's plan. On an update, an item given with its `id` (as read) patches that component (the store
 * checks it is the entry's own): only what it gives is checked and written, and ids inside it name its own
 * components. Any other item is a new component, checked whole, ids inside it ignored (Strapi's createComponent).
 */
function itemPlan(ctx: Collect, component: Component, item: Record<string, unknown>, path: BodyPath, keepIds: boolean): ComponentPlan['items'][number] {
  if (keepIds && item.id !== undefined) return { component, row: collect(ctx, component, item, 'update', path, true), id: item.id };
  return { component, row: collect(ctx, component, item, 'create', path, false) };
}

function componentPlan(ctx: Collect, attribute: ComponentAttribute, value: unknown, path: BodyPath, keepIds: boolean): ComponentPlan {
  const component = ctx.model.components.get(attribute.component)!;
  const plan: ComponentPlan = { attribute: attribute.name, items: [] };
  if (attribute.repeatable) {
    if (!checkList(ctx, attribute, value, path)) return plan;
    value.forEach((item, i) => {
      const at = [...path, i];
      if (!isObject(item)) {
        ctx.errors.push({ path: errorPath(at), message: typeError(at, 'object', item), name: 'ValidationError', value: item });
        return;
      }
      plan.items.push(itemPlan(ctx, component, item, at, keepIds));
    });
    return plan;
  }
  if (value === null) {
    if (attribute.required && !ctx.draft) ctx.errors.push({ path: errorPath(path), message: typeError(path, 'object', null), name: 'ValidationError', value });
    return plan;
  }
  if (!isObject(value)) {
    ctx.errors.push({ path: errorPath(path), message: typeError(path, 'object', value), name: 'ValidationError', value });
    return plan;
  }
  plan.items.push(itemPlan(ctx, component, value, path, keepIds));
  return plan;
}

function dynamicZonePlan(ctx: Collect, attribute: DynamicZoneAttribute, value: unknown, path: BodyPath, keepIds: boolean): ComponentPlan {
  const plan: ComponentPlan = { attribute: attribute.name, items: [] };
  if (!checkList(ctx, attribute, value, path)) return plan;
  const allowed = attribute.components;
  value.forEach((item, i) => {
    const at = [...path, i];
    if (!isObject(item)) {
      ctx.errors.push({ path: errorPath(at), message: typeError(at, 'object', item), name: 'ValidationError', value: item });
      return;
    }
    const uid = item.__component;
    const uidPath = [...at, '__component'];
    const refuse = (message: string, relations?: string) => {
      ctx.errors.push({ path: errorPath(uidPath), message, name: 'ValidationError', value: uid });
      // Strapi's relations check cannot read such an item either, and says so once, after the field errors.
      if (relations) ctx.relationsError ??= relations;
    };
    if (uid === undefined || uid === '') {
      refuse(`${pathLabel(uidPath)} is a required field`, 'Cannot build relations store from dynamiczone, component identifier is undefined');
    } else if (typeof uid !== 'string') {
      refuse(typeError(uidPath, 'string', uid), uid === null ? 'Cannot build relations store from dynamiczone, component identifier is undefined' : 'Invalid relations');
    } else if (!allowed.includes(uid)) {
      // An unknown component is refused by Strapi too; one this zone does not list, by Cairn only.
      refuse(`${pathLabel(uidPath)} must be one of the following values: ${allowed.join(', ')}`, ctx.model.components.has(uid) ? undefined : 'Invalid relations');
    } else {
      plan.items.push(itemPlan(ctx, ctx.model.components.get(uid)!, item, at, keepIds));
    }
  });
  return plan;
}
