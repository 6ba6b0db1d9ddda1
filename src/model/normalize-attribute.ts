import { ModelError } from '../errors/index.js';
import type { Attribute, MorphAttribute, MorphKind, RelationAttribute, RelationKind, ScalarType } from './types.js';
import { readCountRange, readFlag, type Fail, type Raw } from './attribute-options.js';
import { frozenCopy, isPlainObject } from './frozen.js';
import { ATTRIBUTE_NAME, COMPONENT_UID, reservedNameReason, shortIdentifier, snakeCase } from './names.js';
import { normalizeScalar, SCALAR_TYPES } from './normalize-scalar.js';
import { declarationHint, type CustomFieldLookup } from './custom-fields.js';

const RELATIONS = new Set<RelationKind>(['oneToOne', 'oneToMany', 'manyToOne', 'manyToMany', 'oneWay', 'manyWay']);
const TO_MANY = new Set<RelationKind>(['oneToMany', 'manyToMany', 'manyWay']);
const MORPHS = new Set<MorphKind>(['morphToOne', 'morphToMany', 'morphOne', 'morphMany']);
const MEDIA_TYPES = new Set(['images', 'files', 'videos', 'audios']);

export interface AttributeContext {
  file: string;
  table: string;
  /** The owning schema is a localized content-type. */
  localizedOwner: boolean;
  isComponent: boolean;
  /** The type a custom field is stored as (Strapi's built-in ones, and those the app registered). */
  customFieldType: CustomFieldLookup;
}

/**
 * Turns one schema.json attribute into normalized metadata, or throws a ModelError naming file and attribute.
 * Checks that need other attributes or schemas (targets, inverse sides, targetField) run later, in normalize-schema
 * and resolve-references. The result is not frozen yet: resolving an inverse relation fills in its link table.
 */
export function normalizeAttribute(name: string, raw: unknown, ctx: AttributeContext): Attribute {
  const fail: Fail = (reason) => {
    throw new ModelError(ctx.file, name, reason);
  };
  const reserved = reservedNameReason(name);
  if (reserved) fail(reserved);
  if (!ATTRIBUTE_NAME.test(name)) fail('attribute names must start with a letter and use only letters, digits or _');
  if (!isPlainObject(raw)) fail('an attribute must be an object');
  let a = raw as Raw;
  if (a.type === 'customField') a = { ...a, type: customFieldType(a.customField, ctx.customFieldType, fail) };
  const type = a.type;
  if (typeof type !== 'string' || type === '') return fail('"type" is missing');
  const i18n = (a.pluginOptions as { i18n?: { localized?: unknown } } | undefined)?.i18n;
  const base = {
    name,
    required: readFlag(a, 'required', fail),
    // Passwords are never readable, whatever the schema says.
    private: readFlag(a, 'private', fail) || type === 'password',
    localized: ctx.localizedOwner && i18n?.localized !== false,
    raw: frozenCopy(a),
  };
  if (SCALAR_TYPES.has(type)) return normalizeScalar(base, type as ScalarType, a, fail);

  switch (type) {
    case 'relation':
      if (MORPHS.has(a.relation as MorphKind)) return normalizeMorph(base, a, ctx, fail);
      return normalizeRelation(base, a, ctx, fail);
    case 'media': {
      const allowed = a.allowedTypes ?? [];
      if (!Array.isArray(allowed) || !allowed.every((t) => MEDIA_TYPES.has(t as string))) {
        fail(`"allowedTypes" must list only images, files, videos or audios, not ${JSON.stringify(allowed)}`);
      }
      return {
        ...base,
        kind: 'media',
        multiple: readFlag(a, 'multiple', fail),
        allowedTypes: Object.freeze([...(allowed as string[])]),
        target: 'plugin::upload.file',
        linkTable: shortIdentifier(`${ctx.table}_${snakeCase(name)}_lnk`),
      };
    }
    case 'component':
      if (typeof a.component !== 'string' || !COMPONENT_UID.test(a.component)) {
        fail(`"component" must be a component uid like "category.name", not ${JSON.stringify(a.component)}`);
      }
      return { ...base, kind: 'component', component: a.component as string, repeatable: readFlag(a, 'repeatable', fail), ...readCountRange(a, fail) };
    case 'dynamiczone':
      if (!Array.isArray(a.components) || a.components.length === 0 || !a.components.every((c) => typeof c === 'string' && COMPONENT_UID.test(c))) {
        fail('a dynamic zone needs "components": a non-empty list of component uids like "category.name"');
      }
      return { ...base, kind: 'dynamiczone', components: Object.freeze([...(a.components as string[])]), ...readCountRange(a, fail) };
    default:
      return fail(`unknown attribute type "${type}"`);
  }
}

/**
 * A custom field is served as the type it is stored as, as Strapi does once plugins have registered their fields
 * (the attribute keeps its `customField` key and its other options: `enum`, `maxLength`...).
 */
function customFieldType(uid: unknown, lookup: CustomFieldLookup, fail: Fail): string {
  if (typeof uid !== 'string' || uid === '') return fail('a customField attribute needs "customField": the uid of a custom field, like "plugin::color-picker.color"');
  return (
    lookup(uid) ??
    fail(`custom field "${uid}" is not known to Cairn: declare the type it is stored as in register() of src/index.js, e.g. ${declarationHint(uid)}`)
  );
}

type Base = Pick<RelationAttribute, 'name' | 'required' | 'private' | 'localized' | 'raw'>;

function normalizeRelation(base: Base, a: Raw, ctx: AttributeContext, fail: Fail): RelationAttribute {
  const relation = a.relation as RelationKind;
  if (!RELATIONS.has(relation)) fail(`unknown relation "${String(a.relation)}" (expected oneToOne, oneToMany, manyToOne, manyToMany, oneWay, manyWay, morphToOne, morphToMany, morphOne or morphMany)`);
  if (typeof a.target !== 'string' || a.target === '') fail('a relation needs a "target" content-type uid');
  for (const key of ['mappedBy', 'inversedBy'] as const) {
    if (a[key] !== undefined && (typeof a[key] !== 'string' || a[key] === '')) fail(`"${key}" must name an attribute of the target`);
  }
  const { mappedBy, inversedBy } = a as { mappedBy?: string; inversedBy?: string };
  const bidirectional = mappedBy !== undefined || inversedBy !== undefined;
  if (mappedBy !== undefined && inversedBy !== undefined) fail('a relation cannot have both mappedBy and inversedBy');
  if (bidirectional && ctx.isComponent) fail('relations in components are one-way: no mappedBy/inversedBy');
  if (bidirectional && (relation === 'oneWay' || relation === 'manyWay')) fail(`a ${relation} relation is one-way: no mappedBy/inversedBy`);
  // The same two rules Strapi's database layer enforces: the "many" side owns a manyToOne/oneToMany pair.
  if (relation === 'oneToMany' && inversedBy !== undefined) fail('a bidirectional oneToMany is the inverse side: use mappedBy (its manyToOne side owns the relation)');
  if (relation === 'manyToOne' && mappedBy !== undefined) fail('a bidirectional manyToOne is the owning side: use inversedBy, not mappedBy');
  return {
    ...base,
    kind: 'relation',
    relation,
    target: a.target as string,
    toMany: TO_MANY.has(relation),
    owner: mappedBy === undefined,
    // An inverse side's link table is replaced by its owner's in resolve-references.
    linkTable: shortIdentifier(`${ctx.table}_${snakeCase(base.name)}_lnk`),
    inversedBy,
    mappedBy,
    inverseOf: inversedBy ?? mappedBy,
  };
}

/**
 * A polymorphic relation. morphToOne / morphToMany name no target (any content type); a component may hold them too
 * (its own `_mph` table, or `target_id`/`target_type` on its rows, as Strapi lays them out). morphOne / morphMany
 * name the type and its morph attribute (`morphBy`) whose links they read backwards (checked in resolve-references):
 * a content type's only, as a morph link's items are content types' rows.
 */
function normalizeMorph(base: Base, a: Raw, ctx: AttributeContext, fail: Fail): MorphAttribute {
  const relation = a.relation as MorphKind;
  const owning = relation === 'morphToOne' || relation === 'morphToMany';
  if (owning) return { ...base, kind: 'morph', relation, toMany: relation === 'morphToMany' };
  if (ctx.isComponent) fail(`a ${relation} relation in a component: a morph link's items are content types' rows, so components may hold morphToOne and morphToMany relations only`);
  if (typeof a.target !== 'string' || a.target === '') fail(`a ${relation} relation needs a "target" content-type uid`);
  if (typeof a.morphBy !== 'string' || a.morphBy === '') fail(`a ${relation} relation needs "morphBy": the morphToOne or morphToMany attribute of its target`);
  return { ...base, kind: 'morph', relation, toMany: relation === 'morphMany', target: a.target as string, morphBy: a.morphBy as string };
}
