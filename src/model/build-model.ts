import { ModelError } from '../errors/index.js';
import type { Attribute, Component, ContentType, Model, RelationAttribute } from './types.js';
import { normalizeAttribute } from './normalize-attribute.js';
import { API_NAME, snakeCase } from './names.js';
import { BUILTIN_SCHEMAS } from './builtin.js';

export interface ModelInput {
  contentTypes: Array<{ uid?: string; api?: string; schema: object; file?: string; plugin?: string }>;
  components?: Array<{ uid: string; schema: object; file?: string }>;
}

type Raw = Record<string, any>;

/** Normalizes and cross-checks schemas (from files or objects) into the immutable Model. */
export function buildModel(input: ModelInput): Model {
  const components = new Map<string, Component>();
  for (const entry of input.components ?? []) {
    const file = entry.file ?? `components/${entry.uid.replace('.', '/')}.json`;
    components.set(entry.uid, normalizeComponent(entry.uid, entry.schema as Raw, file));
  }
  const contentTypes = new Map<string, ContentType>();
  const all = [...BUILTIN_SCHEMAS.map((b) => ({ uid: b.uid, schema: b.schema, plugin: b.plugin, file: `<builtin ${b.uid}>` })), ...input.contentTypes];
  for (const entry of all) {
    const raw = entry.schema as Raw;
    const singular = raw?.info?.singularName;
    const uid = entry.uid ?? `api::${(entry as { api?: string }).api ?? singular}.${singular}`;
    const file = entry.file ?? `api/${uid}/schema.json`;
    if (contentTypes.has(uid)) throw new ModelError(file, undefined, `content-type ${uid} is defined twice`);
    contentTypes.set(uid, normalizeContentType(uid, raw, file, entry.plugin));
  }
  checkNames(contentTypes);
  checkReferences(contentTypes, components);
  // Frozen only now: resolving inverse relations above fills in their link tables.
  for (const schema of [...contentTypes.values(), ...components.values()]) {
    for (const attribute of schema.attributes.values()) Object.freeze(attribute);
  }
  const model: Model = {
    contentTypes,
    components,
    byPluralName: new Map([...contentTypes.values()].filter((c) => !c.plugin).map((c) => [c.info.pluralName, c])),
    bySingularName: new Map([...contentTypes.values()].filter((c) => !c.plugin).map((c) => [c.info.singularName, c])),
  };
  return Object.freeze(model);
}

function normalizeContentType(uid: string, raw: Raw, file: string, plugin?: string): ContentType {
  const fail = (reason: string): never => {
    throw new ModelError(file, undefined, reason);
  };
  if (typeof raw !== 'object' || raw === null) fail('a schema must be a JSON object');
  const kind = raw.kind ?? 'collectionType';
  if (kind !== 'collectionType' && kind !== 'singleType') fail(`"kind" must be collectionType or singleType, not "${kind}"`);
  const info = raw.info ?? {};
  for (const key of ['singularName', 'pluralName'] as const) {
    if (typeof info[key] !== 'string' || !API_NAME.test(info[key])) fail(`info.${key} must be kebab-case (a-z, 0-9, -)`);
  }
  if (info.singularName === info.pluralName) fail('info.singularName and info.pluralName must differ');
  if (typeof info.displayName !== 'string' || info.displayName === '') fail('info.displayName is required');
  const table = typeof raw.collectionName === 'string' && raw.collectionName !== '' ? raw.collectionName : snakeCase(info.pluralName);
  const localized = raw.pluginOptions?.i18n?.localized === true;
  const attributes = normalizeAttributes(raw.attributes, file, table, localized, false, Boolean(plugin));
  return Object.freeze({
    modelType: 'contentType',
    uid,
    kind,
    table,
    componentsTable: `${table}_cmps`,
    info: Object.freeze({ singularName: info.singularName, pluralName: info.pluralName, displayName: info.displayName, description: info.description }),
    draftAndPublish: raw.options?.draftAndPublish === true,
    localized,
    pluginOptions: Object.freeze({ ...(raw.pluginOptions ?? {}) }),
    plugin,
    attributes,
    privateAttributes: privateNames(attributes),
    file,
  } satisfies ContentType);
}

function normalizeComponent(uid: string, raw: Raw, file: string): Component {
  if (typeof raw !== 'object' || raw === null) throw new ModelError(file, undefined, 'a component must be a JSON object');
  const [category, name] = uid.split('.');
  const table = typeof raw.collectionName === 'string' && raw.collectionName !== '' ? raw.collectionName : `components_${snakeCase(category)}_${snakeCase(name)}`;
  const attributes = normalizeAttributes(raw.attributes, file, table, false, true, false);
  return Object.freeze({
    modelType: 'component',
    uid,
    category,
    table,
    componentsTable: `${table}_cmps`,
    info: Object.freeze({ displayName: raw.info?.displayName ?? name, icon: raw.info?.icon, description: raw.info?.description }),
    attributes,
    privateAttributes: privateNames(attributes),
    file,
  } satisfies Component);
}

function normalizeAttributes(raw: unknown, file: string, table: string, localizedOwner: boolean, isComponent: boolean, plugin: boolean) {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new ModelError(file, undefined, '"attributes" must be an object');
  const attributes = new Map<string, Attribute>();
  for (const [name, value] of Object.entries(raw)) {
    attributes.set(name, normalizeAttribute(name, value, { file, table, localizedOwner, isComponent, plugin }));
  }
  return attributes as ReadonlyMap<string, Attribute>;
}

function privateNames(attributes: ReadonlyMap<string, Attribute>): ReadonlySet<string> {
  return new Set([...attributes.values()].filter((a) => a.private).map((a) => a.name));
}

function checkNames(contentTypes: Map<string, ContentType>) {
  const seen = new Map<string, string>();
  for (const ct of contentTypes.values()) {
    if (ct.plugin) continue;
    for (const name of [ct.info.singularName, ct.info.pluralName]) {
      const other = seen.get(name);
      if (other && other !== ct.uid) throw new ModelError(ct.file, undefined, `API name "${name}" is already used by ${other}`);
      seen.set(name, ct.uid);
    }
  }
}

/** Targets, components and both sides of every bidirectional relation must exist and agree. */
function checkReferences(contentTypes: Map<string, ContentType>, components: Map<string, Component>) {
  const schemas = [...contentTypes.values(), ...components.values()];
  for (const schema of schemas) {
    for (const attribute of schema.attributes.values()) {
      const fail = (reason: string): never => {
        throw new ModelError(schema.file, attribute.name, reason);
      };
      if (attribute.kind === 'component' && !components.has(attribute.component)) fail(`unknown component "${attribute.component}"`);
      if (attribute.kind === 'dynamiczone') {
        for (const uid of attribute.components) if (!components.has(uid)) fail(`unknown component "${uid}"`);
      }
      if (attribute.kind === 'scalar' && attribute.targetField !== undefined) {
        const target = schema.attributes.get(attribute.targetField);
        if (!target || target.kind !== 'scalar' || !['string', 'text'].includes(target.type)) {
          fail(`targetField "${attribute.targetField}" must name a string attribute of the same schema`);
        }
      }
      if (attribute.kind !== 'relation') continue;
      const target = contentTypes.get(attribute.target);
      if (!target) fail(`unknown relation target "${attribute.target}"`);
      if (attribute.mappedBy) {
        const owner = target!.attributes.get(attribute.mappedBy);
        if (!owner || owner.kind !== 'relation' || owner.target !== schema.uid || !owner.owner) {
          fail(`mappedBy "${attribute.mappedBy}" must name a relation of ${attribute.target} targeting ${schema.uid}`);
        }
        const ownerRelation = owner as RelationAttribute;
        if (ownerRelation.inversedBy !== undefined && ownerRelation.inversedBy !== attribute.name) {
          fail(`${attribute.target}.${attribute.mappedBy} is inversedBy "${ownerRelation.inversedBy}", not "${attribute.name}"`);
        }
        // The inverse side reads the owner's link table.
        (attribute as { linkTable: string }).linkTable = ownerRelation.linkTable;
      } else if (attribute.inversedBy) {
        const inverse = target!.attributes.get(attribute.inversedBy);
        if (!inverse || inverse.kind !== 'relation' || inverse.target !== schema.uid || inverse.mappedBy !== attribute.name) {
          fail(`inversedBy "${attribute.inversedBy}" must name a relation of ${attribute.target} with mappedBy "${attribute.name}"`);
        }
      }
    }
  }
}
