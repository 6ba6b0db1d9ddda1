import type { Component, ComponentAttribute, ContentType, DynamicZoneAttribute, Model } from '../model/types.js';
import type { Database } from '../database/types.js';
import { sqlDialect } from '../database/sql/index.js';
import { ValidationError, type FieldError } from '../errors/index.js';
import { errorPath, missingValue, pathLabel, typeError, type BodyPath, type YupType } from './field-messages.js';

/**
 * What Strapi 5 checks when it publishes a draft and not on the draft itself: it validates the stored draft as a
 * creation (`isDraft: false`), where an absent value reads as null. The draft already passed every other check
 * (types, `maxLength`, patterns...), so only these remain: `required` values and single components, `minLength`,
 * a list's `min` (when required or not empty) and `max`, inside components too, and (Cairn's rule, as on any
 * write outside a draft) a required media attribute. Unique values are checked among the other documents'
 * published versions, as Strapi does on publish. Errors are worded and ordered as Strapi's.
 */
export async function checkPublishable(db: Database, model: Model, contentType: ContentType, draftRowId: number, locale?: string): Promise<void> {
  const errors: FieldError[] = [];
  await checkRow(db, model, contentType, draftRowId, [], errors);
  if (!errors.length) await checkPublishedUnique(db, contentType, draftRowId, locale, errors);
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

async function checkRow(db: Database, model: Model, schema: ContentType | Component, rowId: number, path: BodyPath, errors: FieldError[]) {
  if (!hasPublishRules(model, schema)) return;
  const q = sqlDialect(db.dialect).quote;
  const columns = columnsToCheck(schema);
  const row = columns.length
    ? (await db.query<Record<string, unknown>>(`SELECT ${columns.map(q).join(', ')} FROM ${q(schema.table)} WHERE id = ?`, [rowId]))[0]
    : {};
  if (!row) return;
  const fail = (at: BodyPath, message: string, ...value: unknown[]) =>
    errors.push({ path: errorPath(at), message, name: 'ValidationError', ...(value.length ? { value: value[0] } : {}) });
  let links: Array<{ cmp_id: number | string; component_type: string; field: string }> | undefined;
  const componentsOf = async (field: string) => {
    links ??= await db.query(`SELECT cmp_id, component_type, field FROM ${q(schema.componentsTable)} WHERE entity_id = ? ORDER BY ord, id`, [rowId]);
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
        const [hit] = await db.query(`SELECT 1 AS hit FROM ${q(attribute.linkTable)} WHERE entity_id = ? LIMIT 1`, [rowId]);
        if (!hit) fail(at, missingValue(at, 'mixed', null, 'create'), null);
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
          await checkItem(db, model, items[0], at, errors);
          break;
        }
        const label = pathLabel(at);
        if (attribute.min !== undefined && (attribute.required || items.length > 0) && items.length < attribute.min) {
          fail(at, `${label} field must have at least ${attribute.min} items`);
        }
        if (attribute.max !== undefined && items.length > attribute.max) {
          fail(at, `${label} field must have less than or equal to ${attribute.max} items`);
        }
        for (const [i, item] of items.entries()) await checkItem(db, model, item, [...at, i], errors);
        break;
      }
      case 'relation':
        break;
    }
  }
}

async function checkItem(db: Database, model: Model, link: { cmp_id: number | string; component_type: string }, path: BodyPath, errors: FieldError[]) {
  const component = model.components.get(link.component_type);
  if (component) await checkRow(db, model, component, Number(link.cmp_id), path, errors);
}

/** Strapi checks a unique value on publish against the published versions (same locale) of other documents. */
async function checkPublishedUnique(db: Database, ct: ContentType, draftRowId: number, locale: string | undefined, errors: FieldError[]) {
  const unique = [...ct.attributes.values()].filter((a) => a.kind === 'scalar' && a.unique);
  if (!unique.length) return;
  const q = sqlDialect(db.dialect).quote;
  for (const attribute of unique) {
    if (attribute.kind !== 'scalar') continue;
    const column = q(attribute.column);
    const localeCondition = ct.localized ? ' AND o.locale = ?' : '';
    const rows = await db.query<{ value: unknown }>(
      `SELECT d.${column} AS value FROM ${q(ct.table)} d JOIN ${q(ct.table)} o ON o.${column} = d.${column} AND o.document_id <> d.document_id ` +
        `AND o.published_at IS NOT NULL${localeCondition} WHERE d.id = ? LIMIT 1`,
      ct.localized ? [locale, draftRowId] : [draftRowId],
    );
    if (rows.length) errors.push({ path: [attribute.name], message: 'This attribute must be unique', name: 'ValidationError', value: rows[0].value });
  }
}
