/**
 * Normalized, immutable model metadata. Built once by the model loader from Strapi `schema.json` files;
 * every other layer reads it and nobody re-parses schemas.
 *
 * Storage layout (see docs in database/README.md):
 * - content-type table `collectionName`: id, document_id, one column per scalar attribute (snake_case),
 *   created_at, updated_at, published_at, and locale when localized;
 * - every owning relation (and media attribute) has a link table `linkTable` (entity_id -> source row,
 *   target_document_id, target_locale, ord, inv_ord); the inverse (mappedBy) side reads the owner's table;
 * - components live in their own tables and are attached through `<ownerTable>_cmps`
 *   (entity_id, cmp_id, component_type, field, ord).
 */

export type ScalarType =
  | 'string'
  | 'text'
  | 'richtext'
  | 'blocks'
  | 'enumeration'
  | 'email'
  | 'password'
  | 'uid'
  | 'date'
  | 'time'
  | 'datetime'
  | 'timestamp'
  | 'integer'
  | 'biginteger'
  | 'float'
  | 'decimal'
  | 'boolean'
  | 'json';

export type RelationKind =
  | 'oneToOne'
  | 'oneToMany'
  | 'manyToOne'
  | 'manyToMany'
  | 'oneWay'
  | 'manyWay';

/** Strapi's polymorphic relations: links to rows of any content type, each link carrying its type's uid. */
export type MorphKind = 'morphToOne' | 'morphToMany' | 'morphOne' | 'morphMany';

interface AttributeBase {
  /** Attribute name as in schema.json (camelCase usually). */
  name: string;
  required: boolean;
  private: boolean;
  /** `pluginOptions.i18n.localized`; false means the value is shared by every locale of a document. */
  localized: boolean;
  /** The raw schema.json object, for plugins that read options Cairn does not interpret. */
  raw: Readonly<Record<string, unknown>>;
}

export interface ScalarAttribute extends AttributeBase {
  kind: 'scalar';
  type: ScalarType;
  /** Column name in the owner's table (snake_case of `name`). */
  column: string;
  unique: boolean;
  default?: unknown;
  min?: number;
  max?: number;
  minLength?: number;
  maxLength?: number;
  regex?: string;
  /** Values allowed for `enumeration`. */
  enum?: readonly string[];
  /** For `uid`: the attribute its value is derived from. */
  targetField?: string;
}

export interface RelationAttribute extends AttributeBase {
  kind: 'relation';
  relation: RelationKind;
  /** Target content-type uid, e.g. `api::chef.chef`. */
  target: string;
  /** True for oneToMany, manyToMany, manyWay. */
  toMany: boolean;
  /** True on the owning side: this attribute has its own link table. */
  owner: boolean;
  /** Owning side: its link table. Inverse side: the owner's link table. */
  linkTable: string;
  /** The other side's attribute name, when bidirectional. */
  inverseOf?: string;
  /** inversedBy (owner side) or mappedBy (inverse side) as written in the schema. */
  inversedBy?: string;
  mappedBy?: string;
}

/**
 * A polymorphic relation (Strapi 5's layout, docs/strapi-5-layout.md): `morphToMany` owns a `<table>_<name>_mph`
 * table `(<singular>_id, <name>_id, <name>_type, field, order)`, `morphToOne` the owner row's `target_id` and
 * `target_type` columns; `morphOne`/`morphMany` (`morphBy`) read and write `target`'s morph attribute backwards.
 */
export interface MorphAttribute extends AttributeBase {
  kind: 'morph';
  relation: MorphKind;
  /** morphToMany, morphMany. */
  toMany: boolean;
  /** morphOne / morphMany: the content type holding the links. */
  target?: string;
  /** morphOne / morphMany: its morphToOne / morphToMany attribute. */
  morphBy?: string;
}

export interface MediaAttribute extends AttributeBase {
  kind: 'media';
  multiple: boolean;
  /** `images`, `files`, `videos`, `audios`; empty means any. */
  allowedTypes: readonly string[];
  /** Target is always `plugin::upload.file`; stored like an owning relation. */
  target: 'plugin::upload.file';
  linkTable: string;
}

export interface ComponentAttribute extends AttributeBase {
  kind: 'component';
  /** Component uid, e.g. `location.address`. */
  component: string;
  repeatable: boolean;
  min?: number;
  max?: number;
}

export interface DynamicZoneAttribute extends AttributeBase {
  kind: 'dynamiczone';
  components: readonly string[];
  min?: number;
  max?: number;
}

export type Attribute =
  | ScalarAttribute
  | RelationAttribute
  | MorphAttribute
  | MediaAttribute
  | ComponentAttribute
  | DynamicZoneAttribute;

/** What content-types and components have in common: a table and attributes. */
interface Schema {
  uid: string;
  /** Table name (`collectionName`, or the name Strapi derives from it: see `collectionName`). */
  table: string;
  /**
   * `collectionName` as written, when `table` is a name derived from it (a database that Strapi made: its identifier
   * rules shorten long names; database/strapi-layout/named-model.ts). Absent when `table` is `collectionName`.
   */
  collectionName?: string;
  /** Table attaching this schema's components: `<table>_cmps`. */
  componentsTable: string;
  /** Attributes in schema order, without the system fields. */
  attributes: ReadonlyMap<string, Attribute>;
  /** Names of private attributes (type password, `private: true`): never readable, filterable, sortable. */
  privateAttributes: ReadonlySet<string>;
  /** File the schema came from, for error messages. */
  file: string;
}

export interface ContentType extends Schema {
  modelType: 'contentType';
  kind: 'collectionType' | 'singleType';
  /** `api::<api>.<singularName>` or `plugin::<plugin>.<name>`. */
  info: {
    singularName: string;
    pluralName: string;
    displayName: string;
    description?: string;
  };
  draftAndPublish: boolean;
  localized: boolean;
  pluginOptions: Readonly<Record<string, unknown>>;
  /** Plugin content-types (users, files) are not exposed under /api/:pluralName. */
  plugin?: string;
}

export interface Component extends Schema {
  modelType: 'component';
  /** `<category>.<name>`. */
  category: string;
  info: { displayName: string; icon?: string; description?: string };
}

export interface Model {
  contentTypes: ReadonlyMap<string, ContentType>;
  components: ReadonlyMap<string, Component>;
  /** Lookups for the REST router. */
  byPluralName: ReadonlyMap<string, ContentType>;
  bySingularName: ReadonlyMap<string, ContentType>;
}

/** System fields every entry carries (not attributes in schema.json). */
export const SYSTEM_FIELDS = ['id', 'documentId', 'createdAt', 'updatedAt', 'publishedAt', 'locale'] as const;
export type SystemField = (typeof SYSTEM_FIELDS)[number];
