import type { DatabaseLayout, LayoutColumn, LayoutForeignKey, LayoutIndex, LayoutTable } from '../layout.js';
import type { Database, DialectName } from '../types.js';
import { STRAPI_ADMIN_TABLES } from './admin-tables.js';
import { BUILTIN_STRAPI_SCHEMAS } from './builtin-schemas.js';
import { compareLayout, describeColumn, type LayoutDifference } from './compare.js';
import { addColumnStatement, addForeignKeysStatement, addIndexStatement, strapiTableStatements } from './create.js';
import { planStrapiSchemas } from './plan.js';

/**
 * What a start adds to a database that Cairn made (cairn-mark.ts) when the model grew: the planned tables, columns,
 * indexes and foreign keys it lacks, made as createStrapiDatabase makes them (create.ts), as Strapi's own schema
 * sync would at its start. Only additions: a difference of any other kind (a column of another type or
 * nullability, a primary key, a column or table the model no longer has, a foreign key SQLite cannot add to a table)
 * is refused, and then nothing at all is written.
 */
export interface LayoutAdditions {
  tables: LayoutTable[];
  /** `table` is the planned table (its foreign keys decide MariaDB's `unsigned`). */
  columns: Array<{ table: LayoutTable; column: LayoutColumn }>;
  indexes: Array<{ table: string; index: LayoutIndex }>;
  foreignKeys: Array<{ table: string; foreignKey: LayoutForeignKey }>;
}

export interface LayoutChanges {
  /** The differences a start adds, as compareLayout names them. */
  added: LayoutDifference[];
  /** The differences a start refuses: compareLayout's that are no addition, and what the model no longer has. */
  refused: LayoutDifference[];
  additions: LayoutAdditions;
}

/** A table or column that the model no longer has: Strapi's develop would drop it; Cairn drops nothing. */
export const NOT_IN_MODEL = 'none (not in the model; Cairn drops nothing: drop it yourself, or restore the model)';

/** Splits the differences between `planned` (plan.ts) and `found` into what a start adds and what it refuses. */
export function layoutChanges(planned: readonly LayoutTable[], found: DatabaseLayout, dialect: DialectName): LayoutChanges {
  const plannedByName = new Map(planned.map((t) => [t.name, t]));
  const changes: LayoutChanges = { added: [], refused: [], additions: { tables: [], columns: [], indexes: [], foreignKeys: [] } };
  const { additions } = changes;
  for (const d of compareLayout(planned, found)) {
    const added = d.found === 'missing' && addition(d, plannedByName.get(d.table)!, dialect, additions);
    (added ? changes.added : changes.refused).push(d);
  }
  changes.refused.push(...leftovers(planned, found));
  changes.refused.sort((a, b) => (a.table < b.table ? -1 : a.table > b.table ? 1 : 0));
  return changes;
}

/** Notes in `additions` what makes the missing thing `d` names, when a start may add it; false when it may not. */
function addition(d: LayoutDifference, table: LayoutTable, dialect: DialectName, additions: LayoutAdditions): boolean {
  if (d.column !== undefined) {
    const column = table.columns.find((c) => c.name === d.column)!;
    // A NOT NULL column has no value for the rows already there (Strapi plans none but `id`).
    if (!column.nullable || column.autoIncrement) return false;
    additions.columns.push({ table, column });
  } else if (d.index !== undefined) {
    additions.indexes.push({ table: d.table, index: table.indexes.find((i) => i.name === d.index)! });
  } else if (d.foreignKey !== undefined) {
    // SQLite declares keys in CREATE TABLE only; rebuilding a table is not an addition.
    if (dialect === 'sqlite') return false;
    additions.foreignKeys.push({ table: d.table, foreignKey: table.foreignKeys.find((k) => (k.name ?? '') === d.foreignKey)! });
  } else if (d.expected === 'table') {
    additions.tables.push(table);
  } else {
    return false; // a missing primary key: the table would have to be made again
  }
  return true;
}

/**
 * What the database has of the app's own that the model no longer has: columns of the app's tables (its content
 * types', components' and their links') that the plan lacks, and tables that are neither planned nor Strapi's own
 * (its built-in schemas', its admin's, any `strapi_*` or `admin_*` table a later Strapi adds). Strapi's own tables
 * are left out: a later Strapi may add columns and tables of its features to them.
 */
function leftovers(planned: readonly LayoutTable[], found: DatabaseLayout): LayoutDifference[] {
  const strapiOwn = new Set([...planStrapiSchemas(BUILTIN_STRAPI_SCHEMAS, found.client).map((t) => t.name), ...STRAPI_ADMIN_TABLES.map((t) => t.name)]);
  const plannedByName = new Map(planned.map((t) => [t.name, t]));
  const differences: LayoutDifference[] = [];
  for (const table of found.tables) {
    const plan = plannedByName.get(table.name);
    if (!plan) {
      if (!strapiOwn.has(table.name) && !/^(strapi|admin)_/.test(table.name)) differences.push({ table: table.name, expected: NOT_IN_MODEL, found: 'table' });
      continue;
    }
    if (strapiOwn.has(table.name)) continue;
    const columns = new Set(plan.columns.map((c) => c.name));
    for (const column of table.columns) {
      if (!columns.has(column.name)) differences.push({ table: table.name, column: column.name, expected: NOT_IN_MODEL, found: describeColumn(column) });
    }
  }
  return differences;
}

/** Whether there is anything to add. */
export const hasAdditions = (a: LayoutAdditions): boolean => a.tables.length + a.columns.length + a.indexes.length + a.foreignKeys.length > 0;

/**
 * The statements, in order: columns, then indexes on the tables that exist, then the new tables (each with its
 * indexes, their foreign keys after all of them, as createStrapiTables), then the foreign keys of existing tables
 * (which may refer to a new table). Each statement adds one planned thing, so whatever prefix of them ran, the
 * database still differs from the plan by additions only: the next start adds the rest.
 */
export function additionStatements(dialect: DialectName, additions: LayoutAdditions): string[] {
  const keys = new Map<string, LayoutForeignKey[]>();
  for (const { table, foreignKey } of additions.foreignKeys) keys.set(table, [...(keys.get(table) ?? []), foreignKey]);
  return [
    ...additions.columns.map(({ table, column }) => addColumnStatement(dialect, table, column)),
    ...additions.indexes.map(({ table, index }) => addIndexStatement(dialect, table, index)),
    ...(additions.tables.length ? strapiTableStatements(dialect, additions.tables) : []),
    ...[...keys].map(([table, list]) => addForeignKeysStatement(dialect, table, list)),
  ];
}

/**
 * Runs additionStatements: in one transaction on SQLite and PostgreSQL (all or nothing). MariaDB commits each DDL
 * statement; their order leaves a database that differs by additions only if one fails.
 */
export async function applyLayoutAdditions(db: Database, additions: LayoutAdditions): Promise<void> {
  const statements = additionStatements(db.dialect, additions);
  if (db.dialect === 'mysql') {
    for (const sql of statements) await db.execute(sql);
    return;
  }
  await db.transaction(async (trx) => {
    for (const sql of statements) await trx.execute(sql);
  });
}
