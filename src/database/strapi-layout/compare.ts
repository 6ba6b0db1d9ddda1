import type { DatabaseLayout, LayoutColumn, LayoutForeignKey, LayoutIndex, LayoutTable } from '../layout.js';

/**
 * One way a database differs from the tables Cairn needs: `table` alone for a whole table, or with the `column`,
 * `index` or `foreignKey` (by name) that differs; `expected` and `found` describe each side (`found` is `missing`
 * when the database has none).
 */
export interface LayoutDifference {
  table: string;
  column?: string;
  index?: string;
  foreignKey?: string;
  expected: string;
  found: string;
}

const MISSING = 'missing';

/**
 * Columns Strapi added to its own tables in a 5.x release after others that projects still run: planned (a database
 * Cairn creates has them, as Strapi 5.54 makes it), but one that lacks them is no difference, as Cairn never reads
 * them. `admin_users.reset_password_token_expires_at`: not in Strapi 5.47.1's admin user (LaunchPad's version).
 */
const LATER_STRAPI_COLUMNS = new Set(['admin_users.reset_password_token_expires_at']);

/**
 * What the database lacks or has otherwise than `planned`: tables, columns (type, nullability, auto-increment),
 * primary keys, indexes and foreign keys, matched by name. What it has beyond them is no difference: tables and
 * columns of Strapi's admin panel and features, or of fields added since, are Strapi's business and Cairn reads
 * around them (Strapi's own schema sync leaves them alone too). Column defaults are not compared: Strapi writes
 * every value itself, and so does Cairn.
 */
export function compareLayout(planned: readonly LayoutTable[], found: DatabaseLayout): LayoutDifference[] {
  const tables = new Map(found.tables.map((t) => [t.name, t]));
  const differences: LayoutDifference[] = [];
  for (const expected of planned) {
    const table = tables.get(expected.name);
    if (!table) {
      differences.push({ table: expected.name, expected: 'table', found: MISSING });
      continue;
    }
    differences.push(...compareTable(expected, table));
  }
  return differences;
}

function compareTable(expected: LayoutTable, found: LayoutTable): LayoutDifference[] {
  const differences: LayoutDifference[] = [];
  const table = expected.name;
  const differ = (item: object, wanted: string, got: string | undefined) => {
    if (wanted !== got) differences.push({ table, ...item, expected: wanted, found: got ?? MISSING });
  };
  const columns = new Map(found.columns.map((c) => [c.name, c]));
  for (const column of expected.columns) {
    if (!columns.has(column.name) && LATER_STRAPI_COLUMNS.has(`${table}.${column.name}`)) continue;
    differ({ column: column.name }, describeColumn(column), mapGet(columns, column.name, describeColumn));
  }
  differ({}, describeKey(expected.primaryKey), describeKey(found.primaryKey));
  const indexes = new Map(found.indexes.map((i) => [i.name, i]));
  for (const index of expected.indexes) differ({ index: index.name }, describeIndex(index), mapGet(indexes, index.name, describeIndex));
  const keys = new Map(found.foreignKeys.map((k) => [k.name ?? '', k]));
  for (const key of expected.foreignKeys) differ({ foreignKey: key.name ?? '' }, describeForeignKey(key), mapGet(keys, key.name ?? '', describeForeignKey));
  return differences;
}

const mapGet = <T>(map: Map<string, T>, key: string, describe: (value: T) => string): string | undefined => {
  const value = map.get(key);
  return value === undefined ? undefined : describe(value);
};

/** `varchar(255) NULL`, `integer NOT NULL AUTO_INCREMENT`. */
export const describeColumn = (c: LayoutColumn): string => `${c.type} ${c.nullable ? 'NULL' : 'NOT NULL'}${c.autoIncrement ? ' AUTO_INCREMENT' : ''}`;
const describeKey = (columns: readonly string[]): string => (columns.length ? `primary key (${columns.join(', ')})` : 'no primary key');
const describeIndex = (i: LayoutIndex): string => `${i.unique ? 'unique index' : 'index'} (${i.columns.join(', ')})`;
const describeForeignKey = (k: LayoutForeignKey): string =>
  `(${k.columns.join(', ')}) references ${k.referencedTable} (${k.referencedColumns.join(', ')}) ON DELETE ${k.onDelete} ON UPDATE ${k.onUpdate}`;
