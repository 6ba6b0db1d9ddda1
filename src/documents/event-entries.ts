import type { Component, ContentType, Model } from '../model/types.js';
import type { ReadSpec } from '../query/types.js';
import type { EventModel } from './entry-events.js';

type Params = Record<string, unknown>;

/**
 * The populate of Strapi's `getDeepPopulate(uid)` (document-service/utils/populate.js), which its events read an
 * entry with: every relation (polymorphic ones too) and media one level, components and dynamic zones all the way
 * down. Private attributes are left out: `defaultSanitizeOutput` removes them from the payload anyway.
 */
function deepPopulate(model: Model, schema: ContentType | Component): Params {
  const populate: Params = {};
  const nested = (uid: string) => {
    const inner = deepPopulate(model, model.components.get(uid)!);
    return Object.keys(inner).length ? { populate: inner } : true;
  };
  for (const attribute of schema.attributes.values()) {
    if (attribute.private || schema.privateAttributes.has(attribute.name)) continue;
    if (attribute.kind === 'relation' || attribute.kind === 'media' || attribute.kind === 'morph') populate[attribute.name] = true;
    else if (attribute.kind === 'component') populate[attribute.name] = nested(attribute.component);
    else if (attribute.kind === 'dynamiczone') populate[attribute.name] = { on: Object.fromEntries(attribute.components.map((uid) => [uid, nested(uid)])) };
  }
  return populate;
}

const specs = new WeakMap<ContentType, { deep?: ReadSpec; row?: ReadSpec }>();

/**
 * The read of an event's entry, without private attributes and passwords (REST's rules, Strapi's
 * `defaultSanitizeOutput`): `deep` populated (created, updated, published, discarded versions) or the `row` alone
 * (deleted and unpublished versions, which Strapi emits as the rows it found). `parse` is the type's param parser;
 * the spec is made once per type.
 */
export function eventReadSpec(model: Model, ct: ContentType, kind: 'deep' | 'row', parse: (params: Params) => ReadSpec): ReadSpec {
  let cached = specs.get(ct);
  if (!cached) specs.set(ct, (cached = {}));
  return (cached[kind] ??= parse(kind === 'deep' ? { populate: deepPopulate(model, ct) } : {}));
}

/** How an event's payload names the content type: `{ model: modelName, uid }`. */
export function eventModel(ct: ContentType): EventModel {
  return { uid: ct.uid, modelName: ct.info.singularName };
}
