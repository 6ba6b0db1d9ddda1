import { ModelError } from '../errors/index.js';
import type { Attribute, Component, ContentType, Model } from './types.js';
import { BUILTIN_SCHEMAS } from './builtin.js';
import { checkApiNames, checkTables } from './check-model.js';
import { FrozenMap, FrozenSet } from './frozen.js';
import { normalizeComponent, normalizeContentType, type DraftComponent, type DraftContentType } from './normalize-schema.js';
import { resolveReferences } from './resolve-references.js';
import { builtinLookup, type CustomFieldLookup } from './custom-fields.js';
import { MAX_IDENTIFIER } from './names.js';
import { extendedSchema, extensionTarget, type SchemaExtension } from './extensions.js';

export interface ModelInput {
  /**
   * `uid` defaults to `api::<api ?? singularName>.<singularName>`; `plugin` marks a plugin content-type (not
   * routed under /api/:pluralName), and is read from a `plugin::` uid when omitted.
   */
  contentTypes: Array<{ uid?: string; api?: string; schema: object; file?: string; plugin?: string }>;
  components?: Array<{ uid: string; schema: object; file?: string }>;
  /**
   * The app's extensions of plugin content types (`src/extensions/<plugin>/content-types/<name>/schema.json`, or
   * what its `strapi-server` left): each replaces the built-in schema as Strapi's `{ ...plugin's, ...extension's }`.
   */
  extensions?: SchemaExtension[];
}

export interface BuildOptions {
  /** The types custom fields are stored as: Strapi's built-in ones by default; an app's registry adds its own. */
  customFields?: CustomFieldLookup;
  /**
   * The model is served in Strapi 5's table layout (database/strapi-layout), whose identifier rules shorten every
   * name to 55 characters: a collectionName may then be longer than 63 characters (without it, the limit the databases' identifiers have).
   */
  strapiLayout?: boolean;
}

/**
 * Normalizes and cross-checks schemas (from files or objects) into the immutable Model. The first problem
 * throws a ModelError naming the file, the attribute and the reason. The built-in plugin content-types
 * (upload files, users & permissions) are always part of it.
 */
export function buildModel(input: ModelInput, options: BuildOptions = {}): Model {
  const customFields = options.customFields ?? builtinLookup;
  const tableLimit = options.strapiLayout ? Infinity : MAX_IDENTIFIER;
  const components = new Map<string, DraftComponent>();
  for (const entry of input.components ?? []) {
    const file = entry.file ?? `src/components/${String(entry.uid).replace('.', '/')}.json`;
    if (components.has(entry.uid)) throw new ModelError(file, undefined, `component ${entry.uid} is defined twice`);
    components.set(entry.uid, normalizeComponent(entry.uid, entry.schema, file, customFields, tableLimit));
  }
  const contentTypes = new Map<string, DraftContentType>();
  const extended = new Map<string, { schema: object; file: string }>();
  for (const extension of input.extensions ?? []) {
    const uid = extensionTarget(extension.plugin, extension.name, extension.file);
    if (extended.has(uid)) throw new ModelError(extension.file, undefined, `${uid} is also extended by ${extended.get(uid)!.file}`);
    const builtin = BUILTIN_SCHEMAS.find((b) => b.uid === uid)!;
    extended.set(uid, { schema: extendedSchema(builtin, extension.schema, extension.file), file: extension.file });
  }
  const builtins = BUILTIN_SCHEMAS.map((b) => ({
    uid: b.uid,
    api: undefined,
    schema: extended.get(b.uid)?.schema ?? b.schema,
    plugin: b.plugin,
    file: extended.get(b.uid)?.file ?? `<built-in ${b.uid}>`,
  }));
  for (const entry of [...builtins, ...input.contentTypes]) {
    const singular = (entry.schema as { info?: { singularName?: unknown } } | null)?.info?.singularName;
    const uid = entry.uid ?? `api::${entry.api ?? String(singular)}.${String(singular)}`;
    const file = entry.file ?? `src/api/${entry.api ?? String(singular)}/content-types/${String(singular)}/schema.json`;
    if (contentTypes.has(uid)) throw new ModelError(file, undefined, `content-type ${uid} is defined twice`);
    contentTypes.set(uid, normalizeContentType(uid, entry.schema, file, entry.plugin, customFields, tableLimit));
  }
  checkApiNames(contentTypes);
  resolveReferences(contentTypes, components);
  checkTables(contentTypes, components);
  return freezeModel(contentTypes, components);
}

/** Frozen only now: resolving inverse relations fills in their link tables. */
function freezeModel(contentTypes: Map<string, DraftContentType>, components: Map<string, DraftComponent>): Model {
  const cts = new FrozenMap([...contentTypes].map(([uid, ct]) => [uid, freezeSchema(ct)] as const));
  const exposed = [...cts.values()].filter((ct) => ct.plugin === undefined);
  return Object.freeze({
    contentTypes: cts,
    components: new FrozenMap([...components].map(([uid, c]) => [uid, freezeSchema(c)] as const)),
    byPluralName: new FrozenMap(exposed.map((ct) => [ct.info.pluralName, ct] as const)),
    bySingularName: new FrozenMap(exposed.map((ct) => [ct.info.singularName, ct] as const)),
  });
}

function freezeSchema<T extends DraftContentType | DraftComponent>(schema: T): T extends DraftContentType ? ContentType : Component {
  const attributes = new FrozenMap<string, Attribute>([...schema.attributes].map(([name, a]) => [name, Object.freeze(a)] as const));
  return Object.freeze({ ...schema, attributes, privateAttributes: new FrozenSet(schema.privateAttributes) }) as never;
}
