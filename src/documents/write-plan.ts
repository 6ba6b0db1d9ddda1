import type {
  Component,
  ComponentAttribute,
  ContentType,
  MediaAttribute,
  Model,
  RelationAttribute,
} from '../model/types.js';
import { ValidationError, type FieldError } from '../errors/index.js';
import { castDateTime, checkScalar } from './scalar-values.js';
import { parseRelationValue, type RelationOps } from './relation-ops.js';

/** A validated body for one row: its columns, and what hangs off it (components, relations). */
export interface RowPlan {
  /** Column name -> value as stored (before dialect binding). */
  columns: Record<string, unknown>;
  /** Attributes whose value is shared by every locale (`pluginOptions.i18n.localized: false`). */
  sharedColumns: Set<string>;
  components: ComponentPlan[];
  relations: RelationPlan[];
}

/** A component or dynamic-zone attribute is replaced whole: `items` is the new content (empty to clear). */
export interface ComponentPlan {
  attribute: string;
  items: Array<{ component: Component; row: RowPlan }>;
}

export interface RelationPlan {
  attribute: RelationAttribute | MediaAttribute;
  ops: RelationOps;
}

const SYSTEM_KEYS = new Set(['id', 'documentId', 'createdAt', 'updatedAt', 'publishedAt', 'createdBy', 'updatedBy']);

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Checks a request body's `data` against a content-type (or component) and turns it into a RowPlan.
 * `create` applies defaults and `required`; an update only checks what it is given. Every problem is
 * collected, then thrown as one ValidationError with `details.errors[]`.
 */
export function planRow(
  model: Model,
  schema: ContentType | Component,
  data: unknown,
  mode: 'create' | 'update',
  path: (string | number)[] = [],
): RowPlan {
  const errors: FieldError[] = [];
  const plan = collect(model, schema, data, mode, path, errors);
  if (errors.length) throw ValidationError.fromFieldErrors(errors);
  return plan;
}

function collect(
  model: Model,
  schema: ContentType | Component,
  data: unknown,
  mode: 'create' | 'update',
  path: (string | number)[],
  errors: FieldError[],
): RowPlan {
  const plan: RowPlan = { columns: {}, sharedColumns: new Set(), components: [], relations: [] };
  if (!isObject(data)) {
    errors.push({ path, message: `${path.join('.') || 'data'} must be an object`, name: 'ValidationError', value: data });
    return plan;
  }
  const isComponent = schema.modelType === 'component';
  for (const key of Object.keys(data)) {
    if (isComponent && (key === 'id' || key === '__component')) continue;
    if (!isComponent && key === 'locale') continue;
    if (!isComponent && key === 'publishedAt') {
      // Accepted and ignored, as Strapi 5 does (clients send back what they read): the query's `status` decides.
      // It must still be what a read gives, a date-time or null.
      const value = data[key];
      if (value !== null && (typeof value !== 'string' || !castDateTime(key, value).ok)) {
        errors.push({ path: [...path, key], message: `${key} must be a valid datetime or null`, name: 'ValidationError', value });
      }
      continue;
    }
    const attribute = schema.attributes.get(key);
    if (!attribute || SYSTEM_KEYS.has(key)) {
      throw new ValidationError(`Invalid key ${key}`, { key, path: path.length ? path.join('.') : null, source: 'body' });
    }
  }
  const fieldError = (name: string, message: string, value: unknown) =>
    errors.push({ path: [...path, name], message, name: 'ValidationError', value });

  for (const attribute of schema.attributes.values()) {
    const present = Object.prototype.hasOwnProperty.call(data, attribute.name);
    let value = data[attribute.name];
    if (attribute.kind === 'scalar') {
      if (!present && mode === 'create' && attribute.default !== undefined) value = attribute.default;
      if (!present && mode === 'update') continue;
      if (value === undefined || value === null) {
        if (attribute.required) {
          fieldError(attribute.name, `${attribute.name} must be a \`${typeName(attribute.type)}\` type, but the final value was: \`null\`.`, null);
        } else if (present) plan.columns[attribute.column] = null;
        continue;
      }
      const check = checkScalar(attribute, value);
      if (!check.ok) fieldError(attribute.name, check.message, value);
      else {
        plan.columns[attribute.column] = check.value;
        if (!attribute.localized && schema.modelType === 'contentType' && schema.localized) {
          plan.sharedColumns.add(attribute.column);
        }
      }
      continue;
    }
    if (!present) {
      if (mode === 'create' && attribute.required && attribute.kind !== 'relation') {
        fieldError(attribute.name, `${attribute.name} is a required field`, null);
      }
      continue;
    }
    switch (attribute.kind) {
      case 'component':
        plan.components.push(componentPlan(model, attribute, value, [...path, attribute.name], errors));
        break;
      case 'dynamiczone':
        plan.components.push(dynamicZonePlan(model, attribute.name, attribute.components, value, [...path, attribute.name], errors));
        break;
      case 'relation':
      case 'media':
        try {
          plan.relations.push({ attribute, ops: parseRelationValue(attribute, value, [...path, attribute.name]) });
        } catch (error) {
          if (!(error instanceof ValidationError)) throw error;
          fieldError(attribute.name, error.message, value);
        }
        break;
    }
  }
  return plan;
}

function typeName(type: string): string {
  if (['integer', 'float', 'decimal'].includes(type)) return 'number';
  if (type === 'boolean') return 'boolean';
  return 'string';
}

function componentPlan(
  model: Model,
  attribute: ComponentAttribute,
  value: unknown,
  path: (string | number)[],
  errors: FieldError[],
): ComponentPlan {
  const component = model.components.get(attribute.component)!;
  const plan: ComponentPlan = { attribute: attribute.name, items: [] };
  if (value === null) {
    if (attribute.required) errors.push({ path, message: `${attribute.name} is a required field`, name: 'ValidationError', value });
    return plan;
  }
  if (attribute.repeatable) {
    if (!Array.isArray(value)) {
      errors.push({ path, message: `${attribute.name} must be an array`, name: 'ValidationError', value });
      return plan;
    }
    if (attribute.min !== undefined && value.length < attribute.min) {
      errors.push({ path, message: `${attribute.name} must have at least ${attribute.min} items`, name: 'ValidationError', value });
    }
    if (attribute.max !== undefined && value.length > attribute.max) {
      errors.push({ path, message: `${attribute.name} must have at most ${attribute.max} items`, name: 'ValidationError', value });
    }
    value.forEach((item, i) => plan.items.push({ component, row: collect(model, component, item, 'create', [...path, i], errors) }));
    return plan;
  }
  plan.items.push({ component, row: collect(model, component, value, 'create', path, errors) });
  return plan;
}

function dynamicZonePlan(
  model: Model,
  name: string,
  allowed: readonly string[],
  value: unknown,
  path: (string | number)[],
  errors: FieldError[],
): ComponentPlan {
  const plan: ComponentPlan = { attribute: name, items: [] };
  if (value === null) return plan;
  if (!Array.isArray(value)) {
    errors.push({ path, message: `${name} must be an array`, name: 'ValidationError', value });
    return plan;
  }
  value.forEach((item, i) => {
    const uid = isObject(item) ? item.__component : undefined;
    if (typeof uid !== 'string' || !allowed.includes(uid)) {
      errors.push({
        path: [...path, String(i), '__component'],
        message: `${name}[${i}].__component must be one of the following values: ${allowed.join(', ')}`,
        name: 'ValidationError',
        value: uid,
      });
      return;
    }
    const component = model.components.get(uid)!;
    plan.items.push({ component, row: collect(model, component, item, 'create', [...path, i], errors) });
  });
  return plan;
}
