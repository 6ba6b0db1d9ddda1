import type { Component, ComponentAttribute, ContentType, DynamicZoneAttribute, Model } from '../model/types.js';
import { hasLinks, uniqueValueTaken, type ComponentLink, type RowStore } from '../database/store/index.js';
import { ValidationError, type FieldError } from '../errors/index.js';
import { errorPath, missingValue, pathLabel, typeError, type BodyPath, type YupType } from './field-messages.js';
import { holdsUnique, uniqueErrors, type TakenLookup } from './unique-rule.js';
import { storedTree } from './unique-tree.js';

/**
 * What Strapi 5 checks when it publishes a draft and not on the draft itself: it validates the stored draft as a
 * creation (`isDraft: false`), where an absent value reads as null. The draft already passed every other check
 * (types, `maxLength`, patterns...), so only these remain: `required` values and single components, `minLength`,
 * a list's `min` (when required or not empty) and `max`, inside components too, and (Cairn's rule, as on any
 * write outside a draft) a required media attribute. Unique values (of the entry and of its components) are checked
 * among the other documents' published versions, as Strapi does on publish. Errors are worded and ordered as Strapi's.
 */
export async function checkPublishable(store: RowStore, contentType: ContentType, documentId: string, draftRowId: number, locale?: string): Promise<void> {
  const errors: FieldError[] = [];
  await checkRow(store, contentType, draftRowId, [], errors);
  if (!errors.length) await checkPublishedUnique(store, contentType, documentId, draftRowId, locale, errors);
  if (errors.length) throw ValidationError.fromFieldErrors(errors);
}

const STRING_TYPES = new Set(['string', 'text', 'richtext', 'email', 'uid', 'enumeration']);

function yupType(type: string): YupType {
  if (['integer', 'float', 'decimal'].includes(type)) return 'number';
  if (type === 'boolean') return 'boolean';
  if (type === 'blocks') return 'array';
  if (STRING_TYPES.has(type) || type === 'password') return 'string';
  return 'mixed';
}

const checkedColumns = new WeakMap<object, string[]>();
const needsCheck = new WeakMap<object, boolean>();

/** The columns a publish checks in a schema's rows: those of required values and of values with a `minLength`. */
function columnsToCheck(schema: ContentType | Component): string[] {
  let columns = checkedColumns.get(schema);
  if (!columns) {
    columns = [];
    for (const a of schema.attributes.values()) {
      if (a.kind === 'scalar' && (a.required || (a.minLength !== undefined && STRING_TYPES.has(a.type)))) columns.push(a.column);
    }
    checkedColumns.set(schema, columns);
  }
  return columns;
}

/** Whether anything in a schema's rows, or in the components under them, waits for publish to be checked. */
function hasPublishRules(model: Model, schema: ContentType | Component, seen = new Set<object>()): boolean {
  const known = needsCheck.get(schema);
  if (known !== undefined) return known;
  if (seen.has(schema)) return false;
  seen.add(schema);
  let needs = columnsToCheck(schema).length > 0;
  for (const a of schema.attributes.values()) {
    if (needs) break;
    if (a.kind === 'media') needs = a.required;
    else if (a.kind === 'component' || a.kind === 'dynamiczone') needs = attributeHasRules(model, a, seen);
  }
  needsCheck.set(schema, needs);
  return needs;
}

/** A component or zone attribute's own rules (required, min, max), or those of the components it holds. */
function attributeHasRules(model: Model, a: ComponentAttribute | DynamicZoneAttribute, seen = new Set<object>()): boolean {
  const list = a.kind === 'dynamiczone' || a.repeatable;
  if (list ? a.min !== undefined || a.max !== undefined : a.required) return true;
  const uids = a.kind === 'dynamiczone' ? a.components : [a.component];
  return uids.some((uid) => {
    const component = model.components.get(uid);
    return component !== undefined && hasPublishRules(model, component, seen);
  });
}

async function checkRow(store: RowStore, schema: ContentType | Component, rowId: number, path: BodyPath, errors: FieldError[]) {
  const model = store.model;
  if (!hasPublishRules(model, schema)) return;
  const columns = columnsToCheck(schema);
  const row = columns.length ? await store.columnValues(schema, rowId, columns) : {};
  if (!row) return;
  const fail = (at: BodyPath, message: string, ...value: unknown[]) =>
    errors.push({ path: errorPath(at), message, name: 'ValidationError', ...(value.length ? { value: value[0] } : {}) });
  let links: ComponentLink[] | undefined;
  const componentsOf = async (field: string) => {
    links ??= await store.componentLinks(schema, rowId);
    return links.filter((link) => link.field === field);
  };
  for (const attribute of schema.attributes.values()) {
    const at = [...path, attribute.name];
    switch (attribute.kind) {
      case 'scalar': {
        const value = row[attribute.column];
        if (value === null || value === undefined) {
          if (attribute.required) fail(at, missingValue(at, yupType(attribute.type), null, 'create'), null);
        } else if (
          attribute.minLength !== undefined &&
          STRING_TYPES.has(attribute.type) &&
          typeof value === 'string' &&
          value.length < attribute.minLength
        ) {
          // Passwords are stored hashed: their length is checked on the write, whatever the draft's status.
          fail(at, `${pathLabel(at)} must be at least ${attribute.minLength} characters`, value);
        }
        break;
      }
      case 'media': {
        if (!attribute.required) break;
        if (!(await hasLinks(store.db, model, schema, attribute, rowId))) fail(at, missingValue(at, 'mixed', null, 'create'), null);
        break;
      }
      case 'component':
      case 'dynamiczone': {
        if (!attributeHasRules(model, attribute)) break;
        const items = await componentsOf(attribute.name);
        const list = attribute.kind === 'dynamiczone' || attribute.repeatable;
        if (!list) {
          if (!items.length) {
            if (attribute.required) fail(at, typeError(at, 'object', null), null);
            break;
          }
          await checkItem(store, items[0], at, errors);
          break;
        }
        const label = pathLabel(at);
        if (attribute.min !== undefined && (attribute.required || items.length > 0) && items.length < attribute.min) {
          fail(at, `${label} field must have at least ${attribute.min} items`);
        }
        if (attribute.max !== undefined && items.length > attribute.max) {
          fail(at, `${label} field must have less than or equal to ${attribute.max} items`);
        }
        for (const [i, item] of items.entries()) await checkItem(store, item, [...at, i], errors);
        break;
      }
      case 'relation':
        break;
    }
  }
}

async function checkItem(store: RowStore, link: ComponentLink, path: BodyPath, errors: FieldError[]) {
  const component = store.model.components.get(link.component_type);
  if (component) await checkRow(store, component, Number(link.cmp_id), path, errors);
}

/**
 * Strapi checks the unique values of the draft it publishes (the entry's and its components', as stored) against the
 * published versions (same locale) of other documents (unique-rule.ts).
 */
async function checkPublishedUnique(store: RowStore, ct: ContentType, documentId: string, draftRowId: number, locale: string | undefined, errors: FieldError[]) {
  if (!holdsUnique(store.model, ct)) return;
  const taken: TakenLookup = (steps, attribute, sought) => uniqueValueTaken(store.db, ct, steps, attribute, sought, documentId, locale);
  errors.push(...(await uniqueErrors(store.model, ct, await storedTree(store, ct, draftRowId), taken)));
}
