import merge from 'lodash/merge.js';
import cloneDeep from 'lodash/cloneDeep.js';
import type { Attribute, Component, ContentType, Model } from '../model/types.js';
import { ValidationError } from '../errors/index.js';

type Params = Record<string, unknown>;

/**
 * What a clone writes over the copy of its source (service.ts `cloneDocument`), worked out as Strapi 5.54's clone
 * works out what it creates (document-service/repository.js `clone`, utils/clone-relations.js `prepareCloneData`):
 * `lodash.merge(source, data)`, a deep merge, then the relation operations of `data` put back.
 *
 * - A value in `data` replaces the source's; `undefined` keeps it. JSON and blocks values merge deeply (objects key
 *   by key, arrays index by index), as lodash merges them.
 * - A component given keeps the source component's fields it does not name, nested components too; a repeatable
 *   component, a dynamic zone, a list of relations or of files merges index by index: item i of `data` over item i of
 *   the source, the source's items after the last given kept.
 * - `{ connect, disconnect, set }` with something to do replaces the source's links (as on a new entry: a
 *   `disconnect` alone leaves none); with nothing to do (`connect: []`, `disconnect: []`) the source's are kept.
 *   A relation whose owner keeps the link in a column (`useJoinTable: false`) and a morphToOne take them on top of
 *   the source's link, as Strapi's tests show (a `disconnect` of another target keeps it).
 *
 * Where Strapi's merge drops what `data` says without a word, the clone is refused instead (`ValidationError`): an
 * object (no list) for a list of relations or files, `connect`/`disconnect`/`set` for media that has files, a dynamic
 * zone block of another component than the source's at its index, a morphToOne by documentId over a link.
 *
 * `source` is the source version as read with every attribute populated all the way down (`clonePopulate`).
 * Answers the values to write, by attribute (only those `data` names; others are the copy's), and the relations
 * whose links are not to be copied (`fresh`: written afresh from `written`).
 */
export function cloneData(model: Model, contentType: ContentType, source: Params, data: Params): { written: Params; fresh: Set<string> } {
  const written: Params = {};
  const fresh = new Set<string>();
  for (const [key, value] of Object.entries(data)) {
    const attribute = contentType.attributes.get(key);
    // Not an attribute (`locale`, a key the write refuses): as given.
    if (!attribute) {
      written[key] = value;
      continue;
    }
    if (value === undefined) continue;
    const path = [key];
    if ((attribute.kind === 'relation' || attribute.kind === 'morph') && isOperations(value) && meaningful(value)) {
      if (replacesLinks(attribute)) fresh.add(key);
      // On top of the source's links (copied), or afresh: the write applies the operations either way.
      written[key] = value;
      continue;
    }
    const merged = mergeValue(model, attribute, source[key], value, path, true);
    if (merged !== KEEP) written[key] = merged;
  }
  return { written, fresh };
}

/** The populate a clone reads its source with: every attribute, components all the way down, private ones too. */
export function clonePopulate(model: Model, schema: ContentType | Component): Params {
  const populate: Params = {};
  const nested = (uid: string) => {
    const inner = clonePopulate(model, model.components.get(uid)!);
    return Object.keys(inner).length ? { populate: inner } : true;
  };
  for (const attribute of schema.attributes.values()) {
    if (attribute.kind === 'relation' || attribute.kind === 'media' || attribute.kind === 'morph') populate[attribute.name] = true;
    else if (attribute.kind === 'component') populate[attribute.name] = nested(attribute.component);
    else if (attribute.kind === 'dynamiczone') populate[attribute.name] = { on: Object.fromEntries(attribute.components.map((uid) => [uid, nested(uid)])) };
  }
  return populate;
}

/** The source's value kept (nothing to write over the copy). */
const KEEP = Symbol('keep');

const OPERATIONS = ['connect', 'disconnect', 'set'];
const isObject = (v: unknown): v is Params => typeof v === 'object' && v !== null && !Array.isArray(v);
const isOperations = (v: unknown): v is Params => isObject(v) && OPERATIONS.some((k) => Object.prototype.hasOwnProperty.call(v, k));
const label = (path: Array<string | number>) => path.join('.');

/** Strapi's `hasMeaningfulRelationOperations`: a `set` (any), or a `connect`/`disconnect` that is not empty. */
function meaningful(value: Params): boolean {
  if (Object.prototype.hasOwnProperty.call(value, 'set')) return true;
  return ['connect', 'disconnect'].some((k) => (Array.isArray(value[k]) ? (value[k] as unknown[]).length > 0 : value[k] !== undefined && value[k] !== null));
}

/**
 * Whether operations replace the source's links (Strapi's clone puts them back over the merge), or apply over them:
 * a relation stored in a column (`useJoinTable: false`) and a morphToOne, which Strapi's relation traversal skips.
 */
function replacesLinks(attribute: Attribute): boolean {
  if (attribute.kind === 'morph') return attribute.relation === 'morphToMany';
  return attribute.kind === 'relation' && attribute.raw.useJoinTable !== false;
}

/**
 * `data`'s value over the source's (`source`, as read), as lodash merges it and Strapi's clone then reads it, in the
 * form a write takes. `top`: an attribute of the content type (the copy holds the source's links and files: KEEP
 * leaves them); inside a component, the component is written whole, so a kept value is the source's, as a write takes it.
 */
function mergeValue(model: Model, attribute: Attribute, source: unknown, value: unknown, path: Array<string | number>, top: boolean): unknown {
  const kept = () => (top ? KEEP : sourceInput(model, attribute, source));
  if (value === undefined) return kept();
  switch (attribute.kind) {
    case 'scalar':
      if ((attribute.type === 'json' || attribute.type === 'blocks') && typeof value === 'object' && value !== null) {
        return (merge({ v: cloneDeep(source) }, { v: value }) as { v: unknown }).v;
      }
      return value;
    case 'relation':
    case 'morph': {
      if (attribute.kind === 'morph' && (attribute.relation === 'morphOne' || attribute.relation === 'morphMany')) return value;
      if (isOperations(value)) {
        if (!meaningful(value)) return kept();
        if (replacesLinks(attribute) || top) return value;
        return operationsOverLink(attribute, source, value, () => sourceInput(model, attribute, source));
      }
      if (attribute.toMany) {
        if (isObject(value)) {
          throw new ValidationError(
            `${label(path)}: a clone merges a list of relations with the source's index by index (Strapi 5.54's clone keeps the source's list and drops an object given for it): give a list, or { set } to replace it`,
          );
        }
        return Array.isArray(value) ? mergeList(value, sourceInput(model, attribute, source), (_s, v) => v) : value;
      }
      if (attribute.kind === 'morph' && isObject(value) && !('id' in value) && isObject(source)) {
        throw new ValidationError(
          `${label(path)}: a clone merges a morphToOne with the source's link, and Strapi 5.54's keeps the source's row id under the type given: give { __type, id } (the row's id), or { connect } to link another entry`,
        );
      }
      return value;
    }
    case 'media': {
      if (isOperations(value)) {
        if (attribute.multiple || (source !== null && source !== undefined)) {
          throw new ValidationError(
            `${label(path)}: a clone takes files as a list or a file id over the source's (Strapi 5.54's clone keeps the source's files and drops connect, disconnect and set here)`,
          );
        }
        return value;
      }
      if (attribute.multiple) {
        if (isObject(value)) {
          throw new ValidationError(`${label(path)}: a clone merges a list of files with the source's index by index (Strapi 5.54's clone keeps the source's list and drops an object given for it): give a list`);
        }
        return Array.isArray(value) ? mergeList(value, sourceInput(model, attribute, source), (_s, v) => v) : value;
      }
      return value;
    }
    case 'component': {
      const component = model.components.get(attribute.component)!;
      if (attribute.repeatable) {
        if (!Array.isArray(value) || !Array.isArray(source)) return value;
        return mergeList(value, source, (s, v, i) => mergeItem(model, component, s, v, [...path, i]), (s) => componentInput(model, component, s));
      }
      if (!isObject(value) || !isObject(source)) return value;
      return mergeRow(model, component, source, value, path);
    }
    case 'dynamiczone': {
      if (!Array.isArray(value) || !Array.isArray(source)) return value;
      const blockInput = (s: unknown) => {
        const uid = isObject(s) ? (s.__component as string) : undefined;
        const component = uid ? model.components.get(uid) : undefined;
        return component ? { __component: uid, ...(componentInput(model, component, s) as Params) } : s;
      };
      return mergeList(
        value,
        source,
        (s, v, i) => {
          if (!isObject(s) || !isObject(v)) return v;
          const uid = (v.__component ?? s.__component) as unknown;
          if (v.__component !== undefined && v.__component !== s.__component) {
            throw new ValidationError(
              `${label([...path, i, '__component'])}: a clone merges a dynamic zone with the source's block by block, and block ${i} of the source is a ${String(s.__component)}, not a ${String(v.__component)} (Strapi 5.54's clone would mix the two components' fields): give the blocks in the source's order, or update the clone's zone after cloning`,
            );
          }
          const component = typeof uid === 'string' ? model.components.get(uid) : undefined;
          return component ? { ...mergeRow(model, component, s, v, [...path, i]), __component: uid } : v;
        },
        blockInput,
      );
    }
  }
}

/**
 * lodash's merge of two lists: item i of `given` over item i of `source` (`over`), an `undefined` item keeping the
 * source's, and the source's items after the last given kept (`keep` turns them into what a write takes).
 */
function mergeList(given: unknown[], source: unknown, over: (s: unknown, v: unknown, i: number) => unknown, keep: (s: unknown) => unknown = (s) => s): unknown[] {
  const from = Array.isArray(source) ? source : [];
  const merged = given.map((v, i) => (i >= from.length ? v : v === undefined ? keep(from[i]) : over(from[i], v, i)));
  return [...merged, ...from.slice(given.length).map(keep)];
}

function mergeItem(model: Model, component: Component, source: unknown, value: unknown, path: Array<string | number>): unknown {
  return isObject(source) && isObject(value) ? mergeRow(model, component, source, value, path) : value;
}

/** A component's fields: `data`'s over the source's, every attribute as a write takes it (the component is rewritten). */
function mergeRow(model: Model, component: Component, source: Params, value: Params, path: Array<string | number>): Params {
  const row: Params = {};
  for (const attribute of component.attributes.values()) {
    const merged = Object.prototype.hasOwnProperty.call(value, attribute.name)
      ? mergeValue(model, attribute, source[attribute.name], value[attribute.name], [...path, attribute.name], false)
      : sourceInput(model, attribute, source[attribute.name]);
    if (merged !== undefined && merged !== KEEP) row[attribute.name] = merged;
  }
  // What is no attribute (a component's `id`, `__component`, a key the write refuses) is as given; the source
  // component's `id` is not the clone's.
  for (const [key, v] of Object.entries(value)) if (!component.attributes.has(key) && key !== 'id') row[key] = v;
  return row;
}

/** A component of the source, as a write takes it (a new component of the same values and links). */
function componentInput(model: Model, component: Component, source: unknown): unknown {
  return isObject(source) ? mergeRow(model, component, source, {}, []) : source;
}

/** The source's value of an attribute (as read, populated) as a write takes it. */
function sourceInput(model: Model, attribute: Attribute, source: unknown): unknown {
  if (source === undefined) return undefined;
  switch (attribute.kind) {
    case 'scalar':
      return source;
    case 'relation':
      return Array.isArray(source) ? source.map(relationRef) : isObject(source) ? relationRef(source) : null;
    case 'media':
      return Array.isArray(source) ? source.map((f) => (isObject(f) ? f.id : f)) : isObject(source) ? source.id : null;
    case 'morph':
      if (attribute.relation === 'morphOne' || attribute.relation === 'morphMany') return undefined;
      return Array.isArray(source) ? source.map(morphRef) : isObject(source) ? morphRef(source) : null;
    case 'component': {
      const component = model.components.get(attribute.component)!;
      return Array.isArray(source) ? source.map((s) => componentInput(model, component, s)) : componentInput(model, component, source);
    }
    case 'dynamiczone':
      return Array.isArray(source)
        ? source.map((s) => {
            const component = isObject(s) && typeof s.__component === 'string' ? model.components.get(s.__component) : undefined;
            return component ? { __component: s.__component, ...(componentInput(model, component, s) as Params) } : s;
          })
        : source;
  }
}

/** A linked entry as read, as a relation's item: its documentId, in its locale. */
function relationRef(entry: unknown): unknown {
  if (!isObject(entry)) return entry;
  return { documentId: entry.documentId, ...(typeof entry.locale === 'string' ? { locale: entry.locale } : {}) };
}

/** A polymorphic link as read, as a morph item: its type and row. */
function morphRef(entry: unknown): unknown {
  if (!isObject(entry)) return entry;
  return { __type: entry.__type, id: entry.id };
}

/**
 * Operations over a to-one link kept in a column or a morphToOne, inside a component written whole: as they apply to
 * the source's link. `set` and a `connect` decide alone; a `disconnect` alone unlinks the source's target if it names
 * it, and keeps it otherwise.
 */
function operationsOverLink(attribute: Attribute, source: unknown, value: Params, kept: () => unknown): unknown {
  const connect = value.connect;
  if (value.set !== undefined || (Array.isArray(connect) ? connect.length > 0 : connect !== undefined && connect !== null)) return value;
  const items = Array.isArray(value.disconnect) ? value.disconnect : [value.disconnect];
  return isObject(source) && items.some((item) => names(attribute, item, source)) ? null : kept();
}

/** Whether a relation item (documentId, row id, `{ documentId }`, `{ id }`, `{ __type, id }`) names a linked entry. */
function names(attribute: Attribute, item: unknown, linked: Params): boolean {
  if (typeof item === 'string') return item === linked.documentId;
  if (typeof item === 'number') return item === linked.id;
  if (!isObject(item)) return false;
  if (attribute.kind === 'morph' && item.__type !== linked.__type) return false;
  if (item.documentId !== undefined) return item.documentId === linked.documentId;
  return item.id !== undefined && Number(item.id) === linked.id;
}
