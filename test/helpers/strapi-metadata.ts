import { expect } from 'vitest';
import type { LayoutTable } from '../../src/database/layout.js';
import type { StrapiMetadata } from '../../src/database/strapi-layout/metadata.js';

/** What the checks read of an attribute's metadata. */
export type MetaAttribute = { columnName?: unknown; morphColumn?: { idColumn: { name: string }; typeColumn: { name: string } }; joinTable?: Join } & Record<string, unknown>;
export type Join = { name: string; joinColumn: { name: string }; inverseJoinColumn?: { name: string }; orderColumnName?: string; inverseOrderColumnName?: string; morphColumn?: { idColumn: { name: string }; typeColumn: { name: string } } };

/**
 * Every table, column and index name `metadata` holds is one of `layout`'s: a database's tables as read back. Returns
 * the tables named.
 */
export function expectNamesIn(metadata: StrapiMetadata, layout: { tables: LayoutTable[] }): Set<string> {
  const tables = new Map(layout.tables.map((t) => [t.name, t]));
  const named = new Set<string>();
  const column = (table: string, name: string, where: string) => {
    expect(tables.has(table), `${where}: table ${table}`).toBe(true);
    expect(tables.get(table)!.columns.map((c) => c.name), `${where}: ${table}.${name}`).toContain(name);
    named.add(table);
  };
  for (const meta of metadata.values()) {
    const table = tables.get(meta.tableName);
    expect(table, `${meta.uid}: table ${meta.tableName}`).toBeDefined();
    named.add(meta.tableName);
    expect(table!.indexes.map((i) => i.name), meta.uid).toEqual(expect.arrayContaining(meta.indexes.map((i) => i.name)));
    for (const [name, attribute] of Object.entries(meta.attributes) as [string, MetaAttribute][]) {
      const where = `${meta.uid}.${name}`;
      if (typeof attribute.columnName === 'string') column(meta.tableName, attribute.columnName, where);
      // (read as a value: a useJoinTable: false relation of the app's has a throwing joinColumn, Cairn keeping it in a link table)
      const joinColumn = Object.getOwnPropertyDescriptor(attribute, 'joinColumn')?.value as { name: string; referencedTable?: string } | undefined;
      if (joinColumn?.referencedTable) column(meta.tableName, joinColumn.name, where);
      if (attribute.morphColumn) for (const c of [attribute.morphColumn.idColumn, attribute.morphColumn.typeColumn]) column(meta.tableName, c.name, where);
      const join = attribute.joinTable as Join | undefined;
      if (!join) continue;
      for (const name of [join.joinColumn.name, join.inverseJoinColumn?.name, join.orderColumnName, join.inverseOrderColumnName, join.morphColumn?.idColumn.name, join.morphColumn?.typeColumn.name]) {
        if (name) column(join.name, name, where);
      }
      expect(metadata.get(join.name).tableName, where).toBe(join.name);
    }
  }
  return named;
}


/**
 * The tables of a Strapi database that `metadata` names no model of: Strapi's admin panel and feature tables (models
 * Cairn does not plan: admin roles, permissions, workflows, releases...) and @strapi/database's own (no models in Strapi either).
 */
export const unnamedTables = (layout: { tables: LayoutTable[] }, named: Set<string>): string[] =>
  layout.tables.map((t) => t.name).filter((n) => !named.has(n) && !/^(admin_(permissions|roles)|admin_users_roles|strapi_(ai|history|release|sessions|transfer|webhooks|workflows))/.test(n));
