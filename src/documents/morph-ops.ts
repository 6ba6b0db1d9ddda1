import type { Model, MorphAttribute } from '../model/types.js';
import { ValidationError } from '../errors/index.js';

/**
 * The values Strapi's document service takes for a polymorphic relation (morph-writes.ts writes them): every item
 * names its type (`__type`, a content-type uid) and the entry: `documentId`, which Strapi's document service maps to
 * the version row (`transform/relations/transform/data-ids.ts`), or `id`, which it hands to its Query Engine as it
 * is, to be written as the linked row's id: an integer, or a string of its digits (every database casts '12' to 12).
 * Any other string in `id` is read as a documentId: Strapi would write it as a row id (SQLite keeps a link to no row,
 * PostgreSQL and MariaDB fail), a difference the README lists; an item with neither is a 400 (Strapi: a 500).
 * `connect`, `disconnect`, `set`, `options.strict` and connect positions as for other relations.
 */

export interface MorphTarget {
  type: string;
  ref: string | number;
  position?: MorphPosition;
}

export type MorphPosition = { before: { type: string; ref: string } } | { after: { type: string; ref: string } } | { start: true } | { end: true };

export type MorphOps = { kind: 'set'; targets: MorphTarget[] } | { kind: 'change'; connect: MorphTarget[]; disconnect: MorphTarget[] };

export interface MorphPlan {
  attribute: MorphAttribute;
  ops: MorphOps;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const OPERATIONS = ['connect', 'disconnect', 'set'];

/** A morph attribute's value in a body: null, an item, a list of items (set), or `{ connect, disconnect, set, options }`. */
export function parseMorphValue(model: Model, attribute: MorphAttribute, value: unknown, path: (string | number)[]): MorphOps {
  const label = path.join('.');
  if (value === null) return { kind: 'set', targets: [] };
  const keepLast = (targets: MorphTarget[]) => (attribute.toMany ? targets : targets.slice(-1));
  if (Array.isArray(value)) return { kind: 'set', targets: keepLast(items(model, attribute, value, label, false)) };
  if (!isObject(value)) throw new ValidationError(`${label} must be an object like { __type, documentId }, a list of them, or { connect, disconnect, set }`);
  const operations = Object.keys(value).filter((k) => OPERATIONS.includes(k));
  if (!operations.length) return { kind: 'set', targets: [item(model, attribute, value, label, false)] };
  const unknown = Object.keys(value).filter((k) => !OPERATIONS.includes(k) && k !== 'options');
  if (unknown.length) throw new ValidationError(`Invalid key ${unknown[0]} in ${label}`);
  if (value.options !== undefined) {
    const options = value.options;
    const bad = isObject(options) ? Object.keys(options).find((k) => k !== 'strict') : 'options';
    if (bad !== undefined || (isObject(options) && options.strict !== undefined && typeof options.strict !== 'boolean')) {
      throw new ValidationError(`Invalid key ${bad ?? 'strict'} in ${label}.options`);
    }
  }
  if (value.set !== undefined) {
    if (value.connect !== undefined || value.disconnect !== undefined) throw new ValidationError(`${label}: "set" cannot be combined with "connect" or "disconnect"`);
    return { kind: 'set', targets: keepLast(items(model, attribute, value.set, `${label}.set`, false)) };
  }
  const connect = items(model, attribute, value.connect ?? [], `${label}.connect`, attribute.toMany);
  const seen = new Set<string>();
  for (const t of connect) {
    const key = `${t.type}|${t.ref}`;
    if (seen.has(key)) throw new ValidationError(`${label}: "${t.ref}" is connected more than once`);
    seen.add(key);
  }
  return { kind: 'change', connect: keepLast(connect), disconnect: items(model, attribute, value.disconnect ?? [], `${label}.disconnect`, false) };
}

function items(model: Model, attribute: MorphAttribute, value: unknown, label: string, positions: boolean): MorphTarget[] {
  const list = isObject(value) ? [value] : value;
  if (!Array.isArray(list)) throw new ValidationError(`${label} must be an array`);
  return list.map((entry, i) => item(model, attribute, entry, `${label}.${i}`, positions));
}

function item(model: Model, attribute: MorphAttribute, value: unknown, label: string, positions: boolean): MorphTarget {
  if (!isObject(value)) throw new ValidationError(`${label} must be an object like { __type, documentId }`);
  const type = value.__type;
  if (typeof type !== 'string' || !model.contentTypes.has(type)) throw new ValidationError(`${label}.__type must be the uid of a content type, not ${JSON.stringify(type) ?? 'undefined'}`);
  // morphOne / morphMany link rows of their target only.
  if (attribute.target !== undefined && type !== attribute.target) throw new ValidationError(`${label}.__type must be ${attribute.target}`);
  const ref = value.documentId ?? entryId(value.id);
  if (!((typeof ref === 'string' && ref !== '') || (typeof ref === 'number' && Number.isInteger(ref)))) throw new ValidationError(`${label} needs a documentId`);
  const target: MorphTarget = { type, ref };
  if (value.position !== undefined) {
    if (!positions) throw new ValidationError(`${label}.position is only allowed in connect`);
    target.position = position(value.position, type, `${label}.position`);
  }
  return target;
}

/** An item's `id`: a row id when it is an integer or a string of one's digits, otherwise (a documentId) as given. */
function entryId(id: unknown): unknown {
  if (typeof id === 'string' && /^[0-9]+$/.test(id) && Number.isSafeInteger(Number(id))) return Number(id);
  return id;
}

function position(value: unknown, type: string, label: string): MorphPosition {
  if (!isObject(value)) throw new ValidationError(`${label} must be an object`);
  const keys = Object.keys(value).filter((k) => k !== '__type' && k !== 'locale' && k !== 'status');
  if (keys.length !== 1) throw new ValidationError(`${label} needs exactly one of before, after, start, end`);
  const [key] = keys;
  const v = value[key];
  const anchorType = typeof value.__type === 'string' ? value.__type : type;
  if ((key === 'before' || key === 'after') && typeof v === 'string' && v !== '') {
    return key === 'before' ? { before: { type: anchorType, ref: v } } : { after: { type: anchorType, ref: v } };
  }
  if ((key === 'start' || key === 'end') && v === true) return key === 'start' ? { start: true } : { end: true };
  throw new ValidationError(`${label}: invalid position ${JSON.stringify(value)}`);
}
