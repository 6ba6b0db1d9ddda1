import type { Attribute, Component, ContentType, Model, ScalarAttribute } from './types.js';
import { buildModel, type BuildOptions } from './build-model.js';
import { readModelFiles } from './load-files.js';

export * from './types.js';
export { buildModel, type BuildOptions, type ModelInput } from './build-model.js';
export { readModelFiles } from './load-files.js';
export { CustomFields, CUSTOM_FIELD_TYPES, BUILTIN_CUSTOM_FIELDS, type CustomFieldOptions, type CustomFieldLookup } from './custom-fields.js';
export { snakeCase } from './names.js';
export { BUILTIN_SCHEMAS, type BuiltinSchema } from './builtin.js';
export { checkExtensionPlugin, extendedSchema, extensionTarget, EXTENSIBLE_CONTENT_TYPES, STRAPI_PLUGIN_CONTENT_TYPES, type SchemaExtension } from './extensions.js';

/**
 * Loads and validates every schema of an app folder (`src/api/<api>/content-types/<name>/schema.json`,
 * `src/components/<category>/<name>.json`); a bad one throws a ModelError naming file, attribute and reason.
 */
export async function loadModel(appDir: string, options: BuildOptions = {}): Promise<Model> {
  return buildModel(await readModelFiles(appDir), options);
}

export function getContentType(model: Model, uid: string): ContentType {
  const ct = model.contentTypes.get(uid);
  if (!ct) throw new Error(`Unknown content-type ${uid}`);
  return ct;
}

export function getComponent(model: Model, uid: string): Component {
  const c = model.components.get(uid);
  if (!c) throw new Error(`Unknown component ${uid}`);
  return c;
}

/** A scalar that may be read, filtered and sorted on: never a private one (password, `private: true`). */
export function isSelectableScalar(attribute: Attribute): attribute is ScalarAttribute {
  return attribute.kind === 'scalar' && !attribute.private;
}

/** Non-private scalar attributes in schema order: what an entry shows by default. */
export function scalarAttributes(schema: ContentType | Component): ScalarAttribute[] {
  return [...schema.attributes.values()].filter(isSelectableScalar);
}
