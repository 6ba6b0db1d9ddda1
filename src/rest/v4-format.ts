import type { FastifyRequest } from 'fastify';
import type { Component, ContentType, Model } from '../model/types.js';

type Schema = ContentType | Component;
type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const isObject = (v: unknown): v is Record<string, Json> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * `Strapi-Response-Format: v4`: Strapi 5 answers its Content API (entries of content-types, read or written) in
 * v4's shape when a client sends this header, to ease a migration; the value must be exactly `v4`. Errors, media
 * library, users and locales routes keep their form, as in Strapi.
 */
export function wantsV4(req: FastifyRequest): boolean {
  return req.headers['strapi-response-format'] === 'v4';
}

/**
 * An entry's JSON text in v4's shape, as Strapi 5 reshapes it: `{ id, documentId, attributes: {...} }`; a populated
 * relation, media or `localizations` becomes `{ data: <entry, list or null> }` (a `count` too: `{ data: {
 * attributes: { count } } }`); components and dynamic-zone items stay flat (`{ id, ...fields }`) with their own
 * relations reshaped. Only when the header asks: the usual answer is spliced from the database's JSON untouched.
 */
export function toV4Text(model: Model, contentType: ContentType, row: string): string {
  return JSON.stringify(entry(model, contentType, JSON.parse(row) as Json));
}

function entry(model: Model, schema: Schema | undefined, value: Json): Json {
  if (value === null) return null;
  if (Array.isArray(value)) return value.map((item) => entry(model, schema, item));
  if (!isObject(value)) return value;
  const { id, documentId, ...properties } = value;
  const attributes: Record<string, Json> = {};
  for (const [key, property] of Object.entries(properties)) attributes[key] = attributeValue(model, schema, key, property);
  const out: Record<string, Json> = {};
  if (id !== undefined) out.id = id;
  if (documentId !== undefined) out.documentId = documentId;
  out.attributes = attributes;
  return out;
}

function attributeValue(model: Model, schema: Schema | undefined, key: string, property: Json): Json {
  const isEntry = property === null || typeof property === 'object';
  if (!schema || !isEntry) return property;
  if (key === 'localizations' && schema.modelType === 'contentType' && schema.localized && !schema.attributes.has(key)) {
    return { data: entry(model, schema, property) };
  }
  const attribute = schema.attributes.get(key);
  switch (attribute?.kind) {
    case 'relation':
    case 'media':
      return { data: entry(model, model.contentTypes.get(attribute.target), property) };
    case 'component':
      return component(model, model.components.get(attribute.component), property);
    case 'dynamiczone':
      if (!Array.isArray(property)) return property;
      return property.map((item) => component(model, isObject(item) ? model.components.get(String(item.__component)) : undefined, item));
    default:
      return property;
  }
}

/** A component keeps v5's flat form: `{ id, ...fields }`, its relations and media reshaped. */
function component(model: Model, schema: Component | undefined, value: Json): Json {
  if (Array.isArray(value)) return value.map((item) => component(model, schema, item));
  const shaped = entry(model, schema, value);
  if (!isObject(shaped)) return shaped;
  const { id, attributes } = shaped;
  return { ...(id !== undefined ? { id } : {}), ...(attributes as Record<string, Json>) };
}
