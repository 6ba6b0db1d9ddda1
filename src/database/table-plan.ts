import { createHash } from 'node:crypto';
import type { Component, ContentType, Model } from '../model/types.js';
import type { DialectName } from './types.js';
import { columnType, doubleColumn, idColumn, refColumn } from './column-types.js';

export interface ColumnPlan {
  name: string;
  definition: string;
}

export interface IndexPlan {
  name: string;
  columns: string[];
  unique?: boolean;
}

/** A table the model needs: its columns (with SQL definitions), indexes and foreign keys. */
export interface TablePlan {
  name: string;
  columns: ColumnPlan[];
  indexes: IndexPlan[];
  /** Indexes earlier versions created that this one replaces: dropped when present. */
  retiredIndexes?: string[];
  foreignKeys: Array<{ column: string; references: string }>;
}

const MAX_IDENTIFIER = 60;

/** Index names longer than PostgreSQL (63) and MySQL (64) allow are shortened with a stable hash. */
export function indexName(table: string, suffix: string): string {
  const name = `${table}_${suffix}`;
  if (name.length <= MAX_IDENTIFIER) return name;
  const hash = createHash('sha1').update(name).digest('hex').slice(0, 8);
  return `${name.slice(0, MAX_IDENTIFIER - 9)}_${hash}`;
}

/** Every table the model needs, in an order where referenced tables come first. */
export function planTables(model: Model, dialect: DialectName): TablePlan[] {
  const owners: Array<ContentType | Component> = [...model.contentTypes.values(), ...model.components.values()];
  const tables: TablePlan[] = owners.map((schema) => rowTable(schema, dialect));
  for (const schema of owners) {
    const attributes = [...schema.attributes.values()];
    if (attributes.some((a) => a.kind === 'component' || a.kind === 'dynamiczone')) tables.push(componentsTable(schema, dialect));
    for (const attribute of attributes) {
      if ((attribute.kind === 'relation' && attribute.owner) || attribute.kind === 'media') {
        tables.push(linkTable(attribute.linkTable, schema.table, dialect));
      }
    }
  }
  return tables;
}

function rowTable(schema: ContentType | Component, dialect: DialectName): TablePlan {
  const columns: ColumnPlan[] = [{ name: 'id', definition: idColumn(dialect) }];
  const indexes: IndexPlan[] = [];
  const datetime = columnType(dialect, 'datetime');
  if (schema.modelType === 'contentType') {
    columns.push({ name: 'document_id', definition: `${dialect === 'sqlite' ? 'TEXT' : 'VARCHAR(24)'} NOT NULL` });
  }
  for (const attribute of schema.attributes.values()) {
    if (attribute.kind === 'scalar') columns.push({ name: attribute.column, definition: columnType(dialect, attribute.type) });
  }
  if (schema.modelType === 'contentType') {
    columns.push({ name: 'created_at', definition: datetime }, { name: 'updated_at', definition: datetime }, { name: 'published_at', definition: datetime });
    if (schema.localized) columns.push({ name: 'locale', definition: dialect === 'sqlite' ? 'TEXT' : 'VARCHAR(10)' });
    const version = schema.localized ? ['document_id', 'locale', 'published_at'] : ['document_id', 'published_at'];
    indexes.push({ name: indexName(schema.table, 'documents_idx'), columns: version });
    indexes.push({ name: indexName(schema.table, 'published_idx'), columns: ['published_at'] });
  }
  return { name: schema.table, columns, indexes, foreignKeys: [] };
}

function componentsTable(owner: ContentType | Component, dialect: DialectName): TablePlan {
  const text = dialect === 'sqlite' ? 'TEXT' : 'VARCHAR(255)';
  return {
    name: owner.componentsTable,
    columns: [
      { name: 'id', definition: idColumn(dialect) },
      { name: 'entity_id', definition: `${refColumn(dialect)} NOT NULL` },
      { name: 'cmp_id', definition: `${refColumn(dialect)} NOT NULL` },
      { name: 'component_type', definition: `${text} NOT NULL` },
      { name: 'field', definition: `${text} NOT NULL` },
      { name: 'ord', definition: `${doubleColumn(dialect)} NOT NULL` },
    ],
    indexes: [
      { name: indexName(owner.componentsTable, 'entity_idx'), columns: ['entity_id', 'field', 'ord'] },
      { name: indexName(owner.componentsTable, 'cmp_idx'), columns: ['component_type', 'cmp_id'] },
    ],
    foreignKeys: [{ column: 'entity_id', references: owner.table }],
  };
}

function linkTable(name: string, ownerTable: string, dialect: DialectName): TablePlan {
  return {
    name,
    columns: [
      { name: 'id', definition: idColumn(dialect) },
      { name: 'entity_id', definition: `${refColumn(dialect)} NOT NULL` },
      { name: 'target_document_id', definition: `${dialect === 'sqlite' ? 'TEXT' : 'VARCHAR(24)'} NOT NULL` },
      // '' (not NULL) for non-localized targets, so the unique index below really dedupes.
      { name: 'target_locale', definition: `${dialect === 'sqlite' ? 'TEXT' : 'VARCHAR(10)'} NOT NULL DEFAULT ''` },
      // The target version a link names ('draft', 'published'), or '' for the document: same reason as above.
      { name: 'target_status', definition: `${dialect === 'sqlite' ? 'TEXT' : 'VARCHAR(10)'} NOT NULL DEFAULT ''` },
      { name: 'ord', definition: `${doubleColumn(dialect)} NOT NULL` },
      { name: 'inv_ord', definition: `${doubleColumn(dialect)} NOT NULL` },
    ],
    indexes: [
      { name: indexName(name, 'link_unique'), columns: ['entity_id', 'target_document_id', 'target_locale', 'target_status'], unique: true },
      { name: indexName(name, 'ord_idx'), columns: ['entity_id', 'ord'] },
      { name: indexName(name, 'inv_idx'), columns: ['target_document_id', 'inv_ord'] },
    ],
    // Before per-link status, a document could be linked once per locale only.
    retiredIndexes: [indexName(name, 'unique')],
    foreignKeys: [{ column: 'entity_id', references: ownerTable }],
  };
}
