import { NotProvidedError } from '../../errors/index.js';
import type { Attribute, Component, ContentType, Model } from '../../model/types.js';
import type { LayoutTable } from '../layout.js';
import type { DialectName } from '../types.js';
import { newDocumentId } from '../document-id.js';
import { BUILTIN_STRAPI_SCHEMAS } from './builtin-schemas.js';
import * as ids from './identifiers.js';
import { joinTableNames, MORPH_TO_ONE_COLUMNS, morphTableNames, morphTableOf, relationJoin, strapiColumnName, strapiRelationKind, strapiTableName, type JoinTable, type MorphTable } from './names.js';
import { CREATOR_COLUMNS, planStrapiLayout } from './plan.js';
import type { StrapiAttribute, StrapiRelationKind, StrapiSchema } from './schema.js';
import { strapiSchemasOf } from './strapi-schemas.js';

/**
 * `strapi.db.metadata` as Strapi 5.54 builds it (`@strapi/database` `metadata/metadata.js` and `relations.js` over the
 * models of `@strapi/core`'s `transform-content-types-to-models`, with the attributes Strapi's content-type registry
 * and i18n add): a Map of each model's `{ uid, singularName, tableName, attributes, indexes, foreignKeys, lifecycles,
 * columnToAttribute }`, the link tables (`_lnk`, `_cmps`, `_mph`) being models of their own, keyed by table name.
 *
 * Every name is Cairn's own: the table and column names its compiler and writers use (names.ts: `relationJoin`,
 * `morphTableOf`; the model's `table`, `componentsTable` and `column`), indexes and foreign keys from its table plan
 * (plan.ts), and each table named here is checked to be one of the plan's. Read-only: the objects are frozen, and
 * `set`, `add`, `delete`, `clear` and `loadModels` throw (Cairn's tables follow from the schema files, not from this).
 *
 * One difference, of Cairn's layout rather than of this map: a relation the app declares with `useJoinTable: false`
 * is kept in a `_lnk` table by Cairn (plan.ts plans one for every owning relation), where Strapi keeps a column of
 * the row: its metadata has that `joinTable`, and reading its `joinColumn` throws, naming both. createdBy /
 * updatedBy, which are columns in both, have their `joinColumn`.
 */

/** One model's metadata, in Strapi's shape. */
export interface StrapiModelMetadata {
  readonly uid: string;
  readonly singularName: string;
  readonly tableName: string;
  readonly attributes: Readonly<Record<string, StrapiAttributeMetadata>>;
  readonly indexes: readonly StrapiIndexMetadata[];
  readonly foreignKeys: readonly StrapiForeignKeyMetadata[];
  readonly lifecycles: Readonly<Record<string, unknown>>;
  readonly columnToAttribute: Readonly<Record<string, string>>;
}
export type StrapiAttributeMetadata = Readonly<Record<string, unknown>>;
export interface StrapiIndexMetadata {
  readonly name: string;
  readonly columns: readonly string[];
  readonly type?: 'unique';
}
export interface StrapiForeignKeyMetadata {
  readonly name: string;
  readonly columns: readonly string[];
  readonly referencedColumns: readonly string[];
  readonly referencedTable: string;
  readonly onDelete: string;
}

type Meta = { uid: string; singularName: string; tableName: string; attributes: Record<string, Record<string, unknown>>; indexes: StrapiIndexMetadata[]; foreignKeys: StrapiForeignKeyMetadata[] };

/** Strapi's identifiers (`metadata.identifiers`): its constants and the name rules Cairn's tables are named by. */
const IDENTIFIERS = Object.freeze({
  ID_COLUMN: ids.ID_COLUMN,
  ORDER_COLUMN: ids.ORDER_COLUMN,
  FIELD_COLUMN: ids.FIELD_COLUMN,
  HASH_LENGTH: 5,
  HASH_SEPARATOR: '',
  IDENTIFIER_SEPARATOR: '_',
  MIN_TOKEN_LENGTH: 3,
  ...ids.STRAPI_NAME_RULES,
});

const readOnly = (what: string) =>
  new TypeError(`strapi.db.metadata.${what}: the metadata is read-only in Cairn (its tables follow from the schema files; change those and restart)`);

/** Strapi's `Metadata` (a Map by uid whose `get` throws for an unknown uid), read-only. */
export class StrapiMetadata extends Map<string, StrapiModelMetadata> {
  #sealed = false;
  constructor(metas: Iterable<StrapiModelMetadata>) {
    super();
    for (const meta of metas) super.set(meta.uid, meta);
    this.#sealed = true;
    Object.freeze(this);
  }
  get identifiers(): typeof IDENTIFIERS {
    return IDENTIFIERS;
  }
  override get(uid: string): StrapiModelMetadata {
    if (!super.has(uid)) throw new Error(`Metadata for "${uid}" not found`);
    return super.get(uid)!;
  }
  override set(uid: string, meta: StrapiModelMetadata): this {
    if (this.#sealed) throw readOnly(`set('${uid}')`);
    return super.set(uid, meta);
  }
  add(meta: StrapiModelMetadata): this {
    return this.set(meta.uid, meta);
  }
  override delete(uid: string): boolean {
    throw readOnly(`delete('${uid}')`);
  }
  override clear(): void {
    throw readOnly('clear()');
  }
  loadModels(): void {
    throw readOnly('loadModels()');
  }
  /** Strapi's check that no two models share a table (Cairn's plan refuses such a model before this). */
  validate(): void {
    const seen = new Set<string>();
    for (const meta of this.values()) {
      if (seen.has(meta.tableName)) throw new Error(`DB table "${meta.tableName}" already exists. Change the collectionName of the related content type.`);
      seen.add(meta.tableName);
    }
  }
}

/** @strapi/database's own tables (made with knex, not models): not in Strapi's metadata. */
const NOT_MODELS = new Set(['strapi::database-schema', 'strapi::migrations', 'strapi::migrations-internal']);
const BUILTIN = new Map(BUILTIN_STRAPI_SCHEMAS.map((s) => [s.uid, s]));
const FILE_UID = 'plugin::upload.file';
const ID = ids.ID_COLUMN;
const ID_ATTRIBUTE = { type: 'increments' };
const unsignedInteger = (columnName: string) => ({ type: 'integer', column: { unsigned: true }, columnName });
const orderAttribute = (columnName: string, defaultTo = true) => ({ type: 'float', column: defaultTo ? { unsigned: true, defaultTo: null } : { unsigned: true }, columnName });

/** The metadata of the model's tables, in Strapi 5.54's shape, with the names of Cairn's plan. */
export function strapiMetadata(model: Model, dialect: DialectName): StrapiMetadata {
  const tables = new Map(planStrapiLayout(model, dialect).map((t) => [t.name, t]));
  const schemas = strapiSchemasOf(model).filter((s) => !NOT_MODELS.has(s.uid));
  const byUid = new Map(schemas.map((s) => [s.uid, s]));
  const metas = new Map<string, Meta>();
  const planned = (name: string): LayoutTable => {
    const table = tables.get(name);
    if (!table) throw new Error(`strapi.db.metadata: table ${name} is not one of Cairn's plan for this model`);
    return table;
  };
  const linkMeta = (name: string, attributes: Meta['attributes']) => {
    if (metas.has(name)) return;
    const table = planned(name);
    metas.set(name, { uid: name, singularName: name, tableName: name, attributes: { id: { ...ID_ATTRIBUTE, columnName: ID }, ...attributes }, indexes: table.indexes.map(indexOf), foreignKeys: table.foreignKeys.map(foreignKeyOf) });
  };

  // A relation's join table, from its owner's side (Strapi's createJoinTable) or its inverse's.
  const joinTableMeta = (join: JoinTable) =>
    linkMeta(join.name, {
      [join.ownerColumn]: unsignedInteger(join.ownerColumn),
      [join.targetColumn]: unsignedInteger(join.targetColumn),
      ...(join.orderColumn ? { [join.orderColumn]: orderAttribute(join.orderColumn) } : {}),
      ...(join.inverseOrderColumn ? { [join.inverseOrderColumn]: orderAttribute(join.inverseOrderColumn) } : {}),
    });
  const ownerJoinTable = (join: JoinTable) => {
    joinTableMeta(join);
    return {
      __internal__: true,
      name: join.name,
      joinColumn: { name: join.ownerColumn, referencedColumn: ID, referencedTable: join.ownerTable },
      inverseJoinColumn: { name: join.targetColumn, referencedColumn: ID, referencedTable: join.targetTable },
      pivotColumns: [join.ownerColumn, join.targetColumn],
      ...(join.orderColumn ? { orderColumnName: join.orderColumn, orderBy: { [join.orderColumn]: 'asc' } } : {}),
      ...(join.inverseOrderColumn ? { inverseOrderColumnName: join.inverseOrderColumn } : {}),
    };
  };
  const inverseJoinTable = (join: JoinTable) => {
    const owner = ownerJoinTable(join);
    return {
      __internal__: true,
      name: join.name,
      joinColumn: owner.inverseJoinColumn,
      inverseJoinColumn: owner.joinColumn,
      pivotColumns: owner.pivotColumns,
      ...(join.inverseOrderColumn ? { orderColumnName: join.inverseOrderColumn, orderBy: { [join.inverseOrderColumn]: 'asc' } } : {}),
      ...(join.orderColumn ? { inverseOrderColumnName: join.orderColumn } : {}),
    };
  };
  // A morphToMany's `_mph` table (Strapi's createMorphToMany).
  const morphJoinTable = (morph: MorphTable) => {
    linkMeta(morph.name, {
      [morph.ownerColumn]: unsignedInteger(morph.ownerColumn),
      [morph.idColumn]: unsignedInteger(morph.idColumn),
      [morph.typeColumn]: { type: 'string', columnName: morph.typeColumn },
      [ids.FIELD_COLUMN]: { type: 'string', columnName: ids.FIELD_COLUMN },
      [ids.ORDER_COLUMN]: orderAttribute(ids.ORDER_COLUMN, false),
    });
    return {
      __internal__: true,
      name: morph.name,
      joinColumn: { name: morph.ownerColumn, referencedColumn: ID },
      morphColumn: { typeColumn: { name: morph.typeColumn }, idColumn: { name: morph.idColumn, referencedColumn: ID } },
      orderBy: { order: 'asc' },
      pivotColumns: [morph.ownerColumn, morph.typeColumn, morph.idColumn],
    };
  };
  // A component or dynamic-zone field's `_cmps` table (core's transformAttribute and createCompoLinkModel).
  const { COMPONENT_ENTITY_COLUMN: entity, COMPONENT_ID_COLUMN: cmp, COMPONENT_TYPE_COLUMN: type, FIELD_COLUMN: field, ORDER_COLUMN: order } = ids;
  const componentJoinTable = (name: string, fieldName: string, zone: boolean) => {
    linkMeta(name, {
      [entity]: unsignedInteger(entity),
      [cmp]: unsignedInteger(cmp),
      [type]: { type: 'string', columnName: type },
      [field]: { type: 'string', columnName: field },
      [order]: orderAttribute(order),
    });
    const joinColumn = { name: entity, referencedColumn: ID };
    const pivotColumns = [entity, cmp, field, type];
    return zone
      ? { name, joinColumn, morphColumn: { idColumn: { name: cmp, referencedColumn: ID }, typeColumn: { name: type }, typeField: '__component' }, on: { field: fieldName }, orderBy: { order: 'asc' }, pivotColumns }
      : { name, joinColumn, inverseJoinColumn: { name: cmp, referencedColumn: ID }, on: { field: fieldName }, orderColumnName: order, orderBy: { order: 'asc' }, pivotColumns };
  };

  /** An attribute of the app's model (its schema.json object as Strapi's metadata extends it). */
  const fromModel = (schema: ContentType | Component, attribute: Attribute): Record<string, unknown> => {
    const raw = structuredClone(attribute.raw) as Record<string, unknown>;
    switch (attribute.kind) {
      case 'scalar':
        return { ...raw, type: attribute.type, columnName: attribute.column };
      case 'media':
        return { type: 'relation', relation: attribute.multiple ? 'morphMany' : 'morphOne', target: FILE_UID, morphBy: 'related' };
      case 'component':
        return { type: 'relation', relation: attribute.repeatable ? 'oneToMany' : 'oneToOne', target: attribute.component, joinTable: componentJoinTable(schema.componentsTable, attribute.name, false) };
      case 'dynamiczone':
        return { type: 'relation', relation: 'morphToMany', joinTable: componentJoinTable(schema.componentsTable, attribute.name, true) };
      case 'relation': {
        const relation = { ...raw, relation: strapiRelationKind(attribute.relation) ?? attribute.relation };
        if (attribute.owner) {
          const joinTable = ownerJoinTable(relationJoin(model, schema, attribute).table);
          const owning = { ...relation, joinTable };
          if (raw.useJoinTable === false) {
            // Strapi keeps such a link in a column of the row (its `joinColumn`); Cairn keeps it in the link table: reading
            // `joinColumn` says so instead of answering a column the table does not have (nor undefined).
            const column = ids.joinColumnAttributeIdName(ids.strapiSnakeCase(attribute.name));
            Object.defineProperty(owning, 'joinColumn', {
              enumerable: false,
              get: () => {
                throw new NotProvidedError(
                  `strapi.db.metadata: ${schema.uid}.${attribute.name} (useJoinTable: false) has no joinColumn in Cairn, which is not provided by Cairn: Strapi 5.54 keeps that link in a column ${column} of ${schema.table}, Cairn in the link table ${joinTable.name} (its joinTable)`,
                );
              },
            });
          }
          return owning;
        }
        // Strapi gives an inverse side its owner's table only when the owner names it (`inversedBy`).
        const owner = model.contentTypes.get(attribute.target);
        const owning = attribute.mappedBy === undefined ? undefined : owner?.attributes.get(attribute.mappedBy);
        if (owning?.kind === 'relation' && owning.inversedBy === attribute.name) return { ...relation, joinTable: inverseJoinTable(relationJoin(model, schema, attribute).table) };
        return relation;
      }
      case 'morph':
        if (attribute.relation === 'morphToOne') {
          return { ...raw, owner: true, morphColumn: { typeColumn: { name: MORPH_TO_ONE_COLUMNS.type }, idColumn: { name: MORPH_TO_ONE_COLUMNS.id, referencedColumn: ID } } };
        }
        if (attribute.relation === 'morphToMany') return { ...raw, joinTable: morphJoinTable(morphTableOf(schema, attribute.name)) };
        return raw;
    }
  };

  /** An attribute of Strapi's own schemas (builtin-schemas.ts): files, folders, users, roles, tokens... */
  const fromBuiltin = (schema: StrapiSchema, attribute: StrapiAttribute): Record<string, unknown> => {
    switch (attribute.kind) {
      case 'scalar':
        return { type: attribute.type, columnName: strapiColumnName(attribute.name) };
      case 'morphToMany':
        return { type: 'relation', relation: 'morphToMany', joinTable: morphJoinTable(morphTableNames(schema, attribute.name)) };
      case 'relation': {
        const { relation, target, inversedBy, mappedBy } = attribute;
        const base = { type: 'relation', relation, target, ...(inversedBy === undefined ? {} : { inversedBy }), ...(mappedBy === undefined ? {} : { mappedBy }) };
        const join = (owner: StrapiSchema, name: string, kind: StrapiRelationKind, bidirectional: boolean, to: StrapiSchema) =>
          joinTableNames(owner, { name, relation: kind, bidirectional }, to);
        const other = byUid.get(target);
        if (!other) return base;
        if (mappedBy === undefined) return { ...base, joinTable: ownerJoinTable(join(schema, attribute.name, relation, inversedBy !== undefined, other)) };
        const owning = other.attributes.find((a) => a.name === mappedBy);
        if (owning?.kind !== 'relation' || owning.inversedBy !== attribute.name) return base;
        return { ...base, joinTable: inverseJoinTable(join(other, owning.name, owning.relation, true, schema)) };
      }
      default:
        throw new Error(`strapi.db.metadata: ${schema.uid}.${attribute.name}: a ${attribute.kind} attribute in Strapi's own schemas`);
    }
  };

  for (const schema of schemas) {
    const own = model.contentTypes.get(schema.uid) ?? model.components.get(schema.uid);
    const builtin = BUILTIN.get(schema.uid);
    const tableName = own && !builtin ? own.table : strapiTableName(schema.collectionName);
    const table = planned(tableName);
    const attributes: Meta['attributes'] = { id: { ...ID_ATTRIBUTE, columnName: ID } };
    if (schema.modelType === 'contentType') attributes.documentId = { type: 'string', default: newDocumentId, columnName: 'document_id' };
    for (const attribute of builtin?.attributes ?? []) attributes[attribute.name] = fromBuiltin(schema, attribute);
    // The app's attributes (a plugin type the app extends: the ones it adds).
    for (const attribute of own?.attributes.values() ?? []) if (!(attribute.name in attributes)) attributes[attribute.name] = fromModel(own!, attribute);
    if (schema.modelType === 'contentType') Object.assign(attributes, systemAttributes(schema.uid, tableName, own));
    // The row's own indexes as Strapi's model declares them; createdBy/updatedBy's key and index are the schema
    // builder's, from their joinColumn.
    const foreignKeyNames = new Set(table.foreignKeys.map((k) => k.name));
    const meta: Meta = { uid: schema.uid, singularName: schema.singularName, tableName, attributes, indexes: table.indexes.filter((i) => !foreignKeyNames.has(i.name)).map(indexOf), foreignKeys: [] };
    metas.set(schema.uid, meta);
  }
  return new StrapiMetadata([...metas.values()].map((meta) => deepFreeze({ ...meta, lifecycles: {}, columnToAttribute: columnToAttribute(meta.attributes) })));
}

/** What Strapi's registry (timestamps, publishedAt, createdBy/updatedBy) and i18n (locale, localizations) add to every content type. */
function systemAttributes(uid: string, tableName: string, schema: ContentType | Component | undefined): Record<string, Record<string, unknown>> {
  const localized = schema?.modelType === 'contentType' && schema.localized;
  const creator = (name: keyof typeof CREATOR_COLUMNS) => ({
    type: 'relation',
    relation: 'oneToOne',
    target: 'admin::user',
    configurable: false,
    writable: false,
    visible: false,
    useJoinTable: false,
    // Strapi's default (`options.populateCreatorFields` unset), which Cairn's model does not read.
    private: true,
    owner: true,
    joinColumn: { name: CREATOR_COLUMNS[name], referencedColumn: ID, referencedTable: strapiTableName('admin_users') },
  });
  return {
    createdAt: { type: 'datetime', columnName: 'created_at' },
    updatedAt: { type: 'datetime', columnName: 'updated_at' },
    publishedAt: { type: 'datetime', configurable: false, writable: true, visible: true, default: () => new Date(), columnName: 'published_at' },
    createdBy: creator('createdBy'),
    updatedBy: creator('updatedBy'),
    locale: { writable: true, private: !localized, configurable: false, visible: false, type: 'string', columnName: 'locale' },
    localizations: {
      type: 'relation',
      relation: 'oneToMany',
      target: uid,
      writable: false,
      private: !localized,
      configurable: false,
      visible: false,
      unstable_virtual: true,
      joinColumn: {
        name: 'document_id',
        referencedColumn: 'document_id',
        referencedTable: tableName,
        on: ({ results }: { results: { id: number }[] }) => ({ id: { $notIn: results.map((r) => r.id) } }),
      },
    },
  };
}

const indexOf = (index: { name: string; columns: readonly string[]; unique: boolean }): StrapiIndexMetadata => ({
  name: index.name,
  columns: [...index.columns],
  ...(index.unique ? { type: 'unique' as const } : {}),
});
const foreignKeyOf = (key: LayoutTable['foreignKeys'][number]): StrapiForeignKeyMetadata => ({
  name: key.name ?? '',
  columns: [...key.columns],
  referencedColumns: [...key.referencedColumns],
  referencedTable: key.referencedTable,
  onDelete: key.onDelete,
});

/** Strapi's `columnToAttribute`: a column attribute by its column, any other by its own name. */
function columnToAttribute(attributes: Meta['attributes']): Record<string, string> {
  return Object.fromEntries(Object.entries(attributes).map(([name, a]) => ['columnName' in a ? ((a.columnName as string) || name) : name, name]));
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
