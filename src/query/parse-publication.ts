import type { ContentType, Model } from '../model/types.js';
import { queryError } from './errors.js';
import { PUBLICATION_FILTER_MODES, type Filter, type PopulateNode, type PopulateTree, type PublicationFilterMode } from './types.js';

/**
 * Strapi 5's `publicationFilter` (one of its cohorts) and the older `hasPublishedVersion` (`true`: the document has
 * a published version in some locale, `false`: it has none), as a filter; undefined when neither is given. The
 * first wins when both are. Refused, in Strapi's words, when the value is none of those.
 */
export function parsePublication(params: Record<string, unknown>): Filter | undefined {
  const mode = params.publicationFilter;
  if (mode !== undefined && mode !== null) {
    if (typeof mode !== 'string' || !(PUBLICATION_FILTER_MODES as readonly string[]).includes(mode)) {
      throw queryError('publicationFilter', `Invalid value for 'publicationFilter'. Expected one of: ${PUBLICATION_FILTER_MODES.join(', ')}.`, 'publicationFilter', null);
    }
    return { kind: 'publication', mode: mode as PublicationFilterMode };
  }
  const legacy = params.hasPublishedVersion;
  if (legacy === undefined || legacy === null) return undefined;
  if (legacy !== true && legacy !== false && legacy !== 'true' && legacy !== 'false') {
    throw queryError('hasPublishedVersion', "Invalid value for 'hasPublishedVersion'. Expected boolean or 'true'/'false' string.", 'hasPublishedVersion', null);
  }
  return { kind: 'publication', mode: legacy === true || legacy === 'true' ? 'has-published-version-document' : 'never-published-document' };
}

const and = (a: Filter | undefined, b: Filter): Filter => (a ? { kind: 'and', items: [a, b] } : b);

/**
 * The populate tree with the publication filter on every populated relation to a Draft & Publish type, at every
 * depth (components and dynamic zones included), as Strapi applies it to each of its sub-queries; `localizations`
 * excepted (other locales of the same entries).
 */
export function cascadePublication(model: Model, schema: { attributes: ContentType['attributes'] }, tree: PopulateTree, filter: Filter): PopulateTree {
  const result = new Map<string, PopulateNode>();
  for (const [key, node] of tree) {
    const attribute = schema.attributes.get(node.attribute ?? key);
    let target: { attributes: ContentType['attributes'] } | undefined;
    let filters = node.filters;
    if (attribute?.kind === 'relation') {
      const ct = model.contentTypes.get(attribute.target);
      target = ct;
      if (ct?.draftAndPublish) filters = and(filters, filter);
    } else if (attribute?.kind === 'component') {
      target = model.components.get(attribute.component);
    }
    const on = node.on && new Map([...node.on].map(([uid, sub]) => [uid, { ...sub, populate: cascadeInto(model, uid, sub.populate, filter) }]));
    result.set(key, {
      ...node,
      ...(filters ? { filters } : {}),
      populate: target ? cascadePublication(model, target, node.populate, filter) : node.populate,
      ...(on ? { on } : {}),
    });
  }
  return result;
}

function cascadeInto(model: Model, uid: string, tree: PopulateTree, filter: Filter): PopulateTree {
  const schema = model.components.get(uid) ?? model.contentTypes.get(uid);
  return schema ? cascadePublication(model, schema, tree, filter) : tree;
}
