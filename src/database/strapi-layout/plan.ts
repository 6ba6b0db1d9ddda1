import type { Model } from '../../model/types.js';
import type { LayoutColumn, LayoutForeignKey, LayoutIndex, LayoutTable } from '../layout.js';
import type { DialectName } from '../types.js';
import * as ids from './identifiers.js';
import { datetimeColumn, idColumn, orderColumn, rowIdColumn, scalarColumn, stringColumn } from './columns.js';
import { joinTableNames, MORPH_TO_ONE_COLUMNS, morphTableNames, strapiColumnName, strapiTableName } from './names.js';
import type { StrapiAttribute, StrapiSchema } from './schema.js';
import { strapiSchemasOf } from './strapi-schemas.js';

/**
 * The tables Strapi 5 makes for a model, in layout.ts's normalized form (what `readLayout` reads from a database
 * Strapi made): each schema's own table, its relations' `_lnk` tables, its `_cmps` table, and Strapi's own tables
 * that Cairn relies on (builtin-schemas.ts). Rules from `@strapi/database` (metadata, schema) and `@strapi/core`
 * (transform-content-types-to-models), docs/strapi-5-layout.md 2-6 and 12.
 */
export function planStrapiLayout(model: Model, dialect: DialectName): LayoutTable[] {
  return planStrapiSchemas(strapiSchemasOf(model), dialect);
}

/** The tables of these schemas (every relation target among them), sorted as `readLayout` sorts a database's. */
export function planStrapiSchemas(schemas: readonly StrapiSchema[], dialect: DialectName): LayoutTable[] {
  const byUid = new Map(schemas.map((s) => [s.uid, s]));
  const tables: LayoutTable[] = [];
  for (const schema of schemas) {
    tables.push(ownTable(schema, dialect));
    if (schema.attributes.some((a) => a.kind === 'component')) tables.push(componentLinkTable(schema));
    for (const attribute of schema.attributes) {
      // A mappedBy side reads its owner's table; every other relation kind Strapi knows has a join table.
      if (attribute.kind === 'relation' && attribute.mappedBy === undefined) {
        const target = byUid.get(attribute.target);
        if (!target) throw new Error(`${schema.uid}.${attribute.name}: unknown relation target ${attribute.target}`);
        tables.push(joinTable(schema, attribute, target));
      }
      if (attribute.kind === 'morphToMany') tables.push(morphTable(schema, attribute));
    }
  }
  return sortTables(tables);
}

/**
 * The columns of Strapi's createdBy / updatedBy on every content type's row (`addCreatorFields`, `useJoinTable: false`:
 * `getJoinColumnAttributeIdName(snakeCase(name))`), pointing at `admin_users`.
 */
export const CREATOR_COLUMNS = { createdBy: 'created_by_id', updatedBy: 'updated_by_id' } as const;

const table = (name: string, columns: LayoutColumn[], indexes: LayoutIndex[] = [], foreignKeys: LayoutForeignKey[] = []): LayoutTable => ({
  name,
  columns: [idColumn(), ...columns],
  primaryKey: ['id'],
  indexes,
  foreignKeys,
});
const index = (name: string, columns: string[], unique = false): LayoutIndex => ({ name, columns, unique });
const foreignKey = (name: string, column: string, referencedTable: string, onDelete: 'CASCADE' | 'SET NULL'): LayoutForeignKey => ({
  name,
  columns: [column],
  referencedTable,
  referencedColumns: ['id'],
  onDelete,
  onUpdate: 'NO ACTION',
});

/** A schema's own table: `id`, a column per scalar attribute and, on a content type, Strapi's document columns. */
function ownTable(schema: StrapiSchema, dialect: DialectName): LayoutTable {
  const name = strapiTableName(schema.collectionName);
  const columns = schema.attributes.flatMap((a) => (a.kind === 'scalar' ? [scalarColumn(strapiColumnName(a.name), a.type, dialect)] : []));
  // A morphToOne's columns are named after no attribute (Strapi's createMorphToOne): one pair for all of them.
  if (schema.attributes.some((a) => a.kind === 'morphToOne')) columns.push(rowIdColumn(MORPH_TO_ONE_COLUMNS.id), stringColumn(MORPH_TO_ONE_COLUMNS.type));
  const indexes = (schema.indexes ?? []).map((i) => index(i.name, [...i.columns], i.unique));
  const foreignKeys: LayoutForeignKey[] = [];
  if (schema.modelType === 'contentType') {
    columns.push(stringColumn('document_id'), datetimeColumn('created_at'), datetimeColumn('updated_at'), datetimeColumn('published_at'), stringColumn('locale'));
    indexes.push(index(ids.indexName([schema.collectionName, 'documents']), ['document_id', 'locale', 'published_at']));
    // createdBy / updatedBy: admin users, by a column on the row (not a join table), index and key of one name.
    for (const column of Object.values(CREATOR_COLUMNS)) {
      const key = ids.fkIndexName([name, column]);
      columns.push(rowIdColumn(column));
      indexes.push(index(key, [column]));
      foreignKeys.push(foreignKey(key, column, strapiTableName('admin_users'), 'SET NULL'));
    }
  }
  return table(name, columns, indexes, foreignKeys);
}

/** `<collection>_cmps`: one row per component (or dynamic-zone entry) of an owner row, for all its fields. */
function componentLinkTable(schema: StrapiSchema): LayoutTable {
  const collection = schema.collectionName;
  const { COMPONENT_ENTITY_COLUMN: entity, COMPONENT_ID_COLUMN: cmp, COMPONENT_TYPE_COLUMN: type, FIELD_COLUMN: field, ORDER_COLUMN: order } = ids;
  const key = ids.componentFkIndexName(collection);
  return table(
    ids.componentJoinTableName(collection),
    [rowIdColumn(entity), rowIdColumn(cmp), stringColumn(type), stringColumn(field), orderColumn(order)],
    [
      index(ids.indexName([collection, field]), [field]),
      index(ids.indexName([collection, type]), [type]),
      index(key, [entity]),
      index(ids.uniqueIndexName([collection]), [entity, cmp, field, type], true),
    ],
    [foreignKey(key, entity, strapiTableName(collection), 'CASCADE')],
  );
}

/** An owning relation's `_lnk` table: owner row, target row, the order columns Strapi keeps for it. */
function joinTable(owner: StrapiSchema, attribute: Extract<StrapiAttribute, { kind: 'relation' }>, target: StrapiSchema): LayoutTable {
  const join = joinTableNames(owner, { name: attribute.name, relation: attribute.relation, bidirectional: attribute.inversedBy !== undefined }, target);
  const fk = ids.fkIndexName(join.name);
  const ifk = ids.inverseFkIndexName(join.name);
  const columns = [rowIdColumn(join.ownerColumn), rowIdColumn(join.targetColumn)];
  const indexes = [index(fk, [join.ownerColumn]), index(ifk, [join.targetColumn]), index(ids.uniqueIndexName(join.name), [join.ownerColumn, join.targetColumn], true)];
  if (join.orderColumn) {
    columns.push(orderColumn(join.orderColumn));
    indexes.push(index(ids.orderFkIndexName(join.name), [join.orderColumn]));
  }
  if (join.inverseOrderColumn) {
    columns.push(orderColumn(join.inverseOrderColumn));
    indexes.push(index(ids.orderInverseFkIndexName(join.name), [join.inverseOrderColumn]));
  }
  return table(join.name, columns, indexes, [
    foreignKey(fk, join.ownerColumn, join.ownerTable, 'CASCADE'),
    foreignKey(ifk, join.targetColumn, join.targetTable, 'CASCADE'),
  ]);
}

/** A morphToMany's `_mph` table (Strapi's `files_related_mph`): owner row, related row id, type and field, order. */
function morphTable(owner: StrapiSchema, attribute: Extract<StrapiAttribute, { kind: 'morphToMany' }>): LayoutTable {
  const { name, ownerTable, ownerColumn: joinColumn, idColumn, typeColumn } = morphTableNames(owner, attribute.name);
  const fk = ids.fkIndexName(name);
  return table(
    name,
    [rowIdColumn(joinColumn), rowIdColumn(idColumn), stringColumn(typeColumn), stringColumn(ids.FIELD_COLUMN), orderColumn(ids.ORDER_COLUMN)],
    [index(fk, [joinColumn]), index(ids.orderIndexName(name), [ids.ORDER_COLUMN]), index(ids.idColumnIndexName(name), [idColumn])],
    [foreignKey(fk, joinColumn, ownerTable, 'CASCADE')],
  );
}

/** Code-point order of names, as `readLayout` sorts (the same on every machine). */
const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const byName = (a: { name: string }, b: { name: string }) => compare(a.name, b.name);

function sortTables(tables: LayoutTable[]): LayoutTable[] {
  const names = new Set<string>();
  for (const t of tables) {
    // Two schemas planning one table would be a model Strapi refuses too (its metadata keys tables by name).
    if (names.has(t.name)) throw new Error(`two tables named ${t.name} in Strapi's layout of this model`);
    names.add(t.name);
    t.columns.sort(byName);
    t.indexes.sort(byName);
    t.foreignKeys.sort((a, b) => compare(`${a.name ?? ''}\0${a.columns.join(',')}`, `${b.name ?? ''}\0${b.columns.join(',')}`));
  }
  return tables.sort(byName);
}
