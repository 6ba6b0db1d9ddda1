import type { Attribute, Component, ContentType, Model } from '../model/types.js';
import { encodeBlocks } from './source-map-blocks.js';
import { stegaCombine } from './stega.js';

type Schema = ContentType | Component;
type Entry = Record<string, unknown>;
type Headers = Record<string, string | string[] | undefined>;

/**
 * Content source maps (Strapi's `content-source-maps` service, applied by its core controllers' `transformResponse`):
 * with the header `strapi-encode-source-maps: true` (exactly), every string value of an encodable field in the answer
 * carries, hidden after it (stega.ts), where it comes from: `documentId`, attribute `type`, `path`, `model`, `kind`,
 * `locale` (URL-encoded). A preview front end (LaunchPad's Next.js app in draft mode) reads them to link what it shows
 * to the field in the admin panel. Without the header, or with `strapi-response-format: v4` (whose entries hold only
 * `id`, `documentId` and `attributes` at the top, none of which Strapi encodes), the answer is left as it is.
 */
export function wantsSourceMaps(headers: Headers): boolean {
  return headers['strapi-encode-source-maps'] === 'true';
}

// Strapi's lists: the attribute types whose string values are encoded, and keys never encoded (their snake_case
// timestamps are no keys of an answer, so `createdAt` and `updatedAt` are encoded: they are datetime attributes).
const ENCODABLE = new Set(['string', 'text', 'richtext', 'biginteger', 'date', 'time', 'datetime', 'timestamp', 'boolean', 'enumeration', 'json', 'media', 'email', 'password']);
const EXCLUDED = new Set(['id', 'documentId', 'locale', 'localizations', 'created_by', 'updated_by', 'created_at', 'updated_at', 'publishedAt']);

/** An entry or list of entries of `contentType` with its source maps; each entry's markers name that entry's document. */
export function encodeSourceMaps(model: Model, contentType: ContentType, data: unknown): unknown {
  if (Array.isArray(data)) return data.map((item) => encodeSourceMaps(model, contentType, item));
  if (!isObject(data)) return data;
  try {
    return walk(new Encoder(model, data), contentType, data, null, undefined);
  } catch {
    // Strapi logs the error and answers that entry without markers (a malformed blocks list, say).
    return data;
  }
}

/** What Strapi's attribute of a key is, as its traversal sees it (the system fields are attributes of its models). */
interface Field {
  type: string;
  attribute?: Attribute;
  /** The schema its value's entries are read with: relation and media targets, components. */
  nested?: (value: Entry) => Schema | undefined;
  /** A dynamic zone: only an array is traversed. */
  zone?: boolean;
  /** A media field holding a list: its items' fields are encoded under the field's path, without the index. */
  multipleMedia?: boolean;
}

/** The last relational field traversed at a level (Strapi's `parent`): the media rule reads it. */
interface Parent {
  field: Field;
  path: string;
}

class Encoder {
  constructor(
    readonly model: Model,
    readonly root: Entry,
  ) {}

  fieldOf(schema: Schema, key: string): Field | undefined {
    const attribute = schema.attributes.get(key);
    if (!attribute) {
      if (schema.modelType !== 'contentType') return undefined;
      if (key === 'createdAt' || key === 'updatedAt' || key === 'publishedAt') return { type: 'datetime' };
      // i18n's relation of a localized type to its own other locales: not encoded itself, traversed like any relation.
      if (key === 'localizations' && schema.localized) return { type: 'relation', nested: () => schema };
      return undefined;
    }
    switch (attribute.kind) {
      case 'scalar':
        return { type: attribute.type, attribute };
      case 'relation':
        return { type: 'relation', attribute, nested: () => this.model.contentTypes.get(attribute.target) };
      case 'morph':
        // A morph link names its type in `__type` (Strapi reads the model from it; none: left as it is).
        return { type: 'relation', attribute, nested: (value) => this.modelOf(value.__type) };
      case 'media':
        return { type: 'media', attribute, multipleMedia: attribute.multiple, nested: () => this.model.contentTypes.get(attribute.target) };
      case 'component':
        return { type: 'component', attribute, nested: () => this.model.components.get(attribute.component) };
      case 'dynamiczone':
        return { type: 'dynamiczone', attribute, zone: true, nested: (value) => this.modelOf(value.__component) };
    }
  }

  modelOf(uid: unknown): Schema | undefined {
    if (typeof uid !== 'string') return undefined;
    return this.model.contentTypes.get(uid) ?? this.model.components.get(uid);
  }

  /** `text` with its marker (Strapi's `encodeField`: these parameters, in this order, the empty ones left out). */
  encode(text: string, schema: Schema, type: string, path: string, fieldPath?: string): string {
    const source = new URLSearchParams();
    source.set('documentId', String(this.root.documentId));
    source.set('type', type);
    source.set('path', path);
    source.set('model', schema.uid);
    if (schema.modelType === 'contentType') source.set('kind', schema.kind);
    if (this.root.locale) source.set('locale', String(this.root.locale));
    if (fieldPath) source.set('fieldPath', fieldPath);
    return stegaCombine(text, { strapiSource: source.toString() });
  }
}

/**
 * One entry, component or media file (Strapi's `traverseEntity` with its visitor): keys in the answer's order, the
 * encodable strings marked, relations, media, components and dynamic-zone items walked with their own model and
 * `path` (`dynamic_zone.0.products.1.name`). `parent` is the last relational field walked at this level (inherited from
 * the level above at first), as Strapi's traversal keeps it: a string right after a list of media is marked under that
 * field's path too.
 */
function walk(encoder: Encoder, schema: Schema, entry: Entry, path: string | null, inherited: Parent | undefined): Entry {
  const copy: Entry = { ...entry };
  let parent = inherited;
  for (const key of Object.keys(copy)) {
    const field = encoder.fieldOf(schema, key);
    if (!field) continue;
    const here = path === null ? key : `${path}.${key}`;
    if (!EXCLUDED.has(key)) copy[key] = visit(encoder, schema, field, key, copy[key], here, parent);
    const value = copy[key];
    if (value === null || value === undefined || !field.nested || (field.zone && !Array.isArray(value))) continue;
    const at: Parent = { field, path: here };
    parent = at;
    const into = (item: unknown, itemPath: string) => {
      const target = isObject(item) ? field.nested!(item) : undefined;
      return target ? walk(encoder, target, item as Entry, itemPath, at) : item;
    };
    copy[key] = Array.isArray(value) ? value.map((item, i) => into(item, `${here}.${i}`)) : into(value, here);
  }
  return copy;
}

function visit(encoder: Encoder, schema: Schema, field: Field, key: string, value: unknown, path: string, parent: Parent | undefined): unknown {
  if (field.type === 'blocks' && Array.isArray(value)) {
    return encodeBlocks(value, (text) => encoder.encode(text, schema, 'blocks', path, path));
  }
  if (!ENCODABLE.has(field.type) || typeof value !== 'string') return value;
  // The fields of a multiple media field's files share the field's path (no index): the preview opens the field.
  return encoder.encode(value, schema, field.type, parent?.field.multipleMedia ? `${parent.path}.${key}` : path);
}

function isObject(value: unknown): value is Entry {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
