import type { MediaAttribute, RelationAttribute } from '../model/types.js';
import { ValidationError } from '../errors/index.js';

export type LinkStatus = 'draft' | 'published';

/** The entry a `before`/`after` position is relative to; `locale` and `status` narrow it when a document has several links. */
export interface Anchor {
  documentId: string;
  locale?: string;
  status?: LinkStatus;
}

export type Position = { before: Anchor } | { after: Anchor } | { start: true } | { end: true };

export interface RelationTarget {
  /** documentId for relations; for media, a file id (number) or documentId. */
  ref: string | number;
  position?: Position;
  /** Target locale (a localized target from a non-localized source). */
  locale?: string;
  /** Target version (a Draft & Publish target from a source without it). */
  status?: LinkStatus;
}

/** `set` replaces the list; otherwise `disconnect` then `connect` change it. */
export type RelationOps =
  | { kind: 'set'; targets: RelationTarget[] }
  | { kind: 'change'; connect: RelationTarget[]; disconnect: RelationTarget[] };

const OPERATION_KEYS = ['connect', 'disconnect', 'set'];
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Reads every syntax Strapi v5 accepts for a relation value: a documentId, null, an array (set), or
 * `{ connect, disconnect, set }` with shorthand strings or longhand `{ documentId, position, locale }` items.
 */
export function parseRelationValue(
  attribute: RelationAttribute | MediaAttribute,
  value: unknown,
  path: (string | number)[],
): RelationOps {
  const toMany = attribute.kind === 'media' ? attribute.multiple : attribute.toMany;
  const keepLast = (targets: RelationTarget[]) => (toMany ? targets : targets.slice(-1));
  if (value === null) return { kind: 'set', targets: [] };
  if (typeof value === 'string' || typeof value === 'number') return { kind: 'set', targets: [target(value, path, false)] };
  if (Array.isArray(value)) return { kind: 'set', targets: keepLast(list(value, path, false)) };
  if (!isObject(value)) throw new ValidationError(`${path.join('.')} must be a documentId, an array or an object`);

  const operations = Object.keys(value).filter((k) => OPERATION_KEYS.includes(k));
  if (operations.length === 0) return { kind: 'set', targets: [target(value, path, false)] };
  const unknown = Object.keys(value).filter((k) => !OPERATION_KEYS.includes(k) && k !== 'options');
  if (unknown.length) throw new ValidationError(`Invalid key ${unknown[0]} in ${path.join('.')}`);
  if (value.set !== undefined) {
    if (value.connect !== undefined || value.disconnect !== undefined) {
      throw new ValidationError(`${path.join('.')}: "set" cannot be combined with "connect" or "disconnect"`);
    }
    return { kind: 'set', targets: keepLast(list(value.set, [...path, 'set'], false)) };
  }
  // Files carry no order of their own to place relative to: a media connect appends.
  const connect = list(value.connect ?? [], [...path, 'connect'], attribute.kind === 'media' ? 'media' : true);
  // The same document may be connected twice in other locales or versions; the same link twice is a mistake.
  const seen = new Set<string>();
  for (const t of connect) {
    const key = `${t.ref}|${t.locale ?? ''}|${t.status ?? ''}`;
    if (seen.has(key)) throw new ValidationError(`${path.join('.')}: "${t.ref}" is connected more than once`);
    seen.add(key);
  }
  return {
    kind: 'change',
    connect: keepLast(connect),
    disconnect: list(value.disconnect ?? [], [...path, 'disconnect'], false),
  };
}

/** Whether items may carry a position: yes (a relation's connect), no, or 'media' (a file list: refused, said so). */
type Positions = boolean | 'media';

function list(value: unknown, path: (string | number)[], positions: Positions): RelationTarget[] {
  const items = typeof value === 'string' || typeof value === 'number' || isObject(value) ? [value] : value;
  if (!Array.isArray(items)) throw new ValidationError(`${path.join('.')} must be an array`);
  return items.map((item, i) => target(item, [...path, i], positions));
}

function target(item: unknown, path: (string | number)[], positions: Positions): RelationTarget {
  if (typeof item === 'string' && item !== '') return { ref: item };
  if (typeof item === 'number' && Number.isInteger(item)) return { ref: item };
  if (!isObject(item)) throw new ValidationError(`${path.join('.')} must be a documentId or { documentId }`);
  const ref = item.documentId ?? item.id;
  if (!((typeof ref === 'string' && ref !== '') || (typeof ref === 'number' && Number.isInteger(ref)))) {
    throw new ValidationError(`${path.join('.')} needs a documentId`);
  }
  const result: RelationTarget = { ref };
  // `locale: null` names a target without locales (what clients and Strapi's own tests send): no locale.
  if (item.locale !== undefined && item.locale !== null) {
    if (typeof item.locale !== 'string') throw new ValidationError(`${path.join('.')}.locale must be a string`);
    result.locale = item.locale;
  }
  if (item.status !== undefined) result.status = linkStatus(item.status, [...path, 'status']);
  if (item.position !== undefined) {
    if (positions === 'media') throw new ValidationError(`${path.join('.')}.position: files of a media attribute take no position (a connect appends)`);
    if (!positions) throw new ValidationError(`${path.join('.')}.position is only allowed in connect`);
    result.position = position(item.position, [...path, 'position']);
  }
  return result;
}

function linkStatus(value: unknown, path: (string | number)[]): LinkStatus {
  if (value === 'draft' || value === 'published') return value;
  throw new ValidationError(`${path.join('.')} must be one of draft, published`);
}

function position(value: unknown, path: (string | number)[]): Position {
  if (!isObject(value)) throw new ValidationError(`${path.join('.')} must be an object`);
  const keys = Object.keys(value).filter((k) => k !== 'locale' && k !== 'status');
  if (keys.length !== 1) {
    throw new ValidationError(`${path.join('.')} needs exactly one of before, after, start, end`);
  }
  const [key] = keys;
  const v = value[key];
  if ((key === 'before' || key === 'after') && typeof v === 'string' && v !== '') {
    const anchor: Anchor = { documentId: v };
    // Clients send `locale: null` for targets without locales.
    if (value.locale !== undefined && value.locale !== null) {
      if (typeof value.locale !== 'string') throw new ValidationError(`${path.join('.')}.locale must be a string`);
      anchor.locale = value.locale;
    }
    if (value.status !== undefined) anchor.status = linkStatus(value.status, [...path, 'status']);
    return key === 'before' ? { before: anchor } : { after: anchor };
  }
  if ((key === 'start' || key === 'end') && v === true) return key === 'start' ? { start: true } : { end: true };
  throw new ValidationError(`${path.join('.')}: invalid position ${JSON.stringify(value)}`);
}
