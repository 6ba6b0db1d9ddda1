import type { Model } from '../model/types.js';
import type { Database } from './types.js';
import { planTables, type TablePlan } from './table-plan.js';
import { readSchema, type SchemaSnapshot } from './schema-read.js';
import { sqlDialect } from './sql/dialect.js';

export interface SyncReport {
  createdTables: string[];
  addedColumns: string[];
  warnings: string[];
}

export interface SyncLogger {
  info?(message: string): void;
  warn(message: string): void;
}

/**
 * Creates and alters tables to match the model: missing tables, columns and indexes are added; tables and
 * columns the model no longer has are left in place with a warning (they may hold data). Idempotent, and
 * serialized across processes with a database lock so several Cairn processes may start together.
 *
 * Most starts find the database as the model wants it: one read of the schema says so, and then nothing is
 * locked or written (no transaction, no lock, no `CREATE INDEX IF NOT EXISTS` per index).
 */
export async function syncSchema(db: Database, model: Model, logger?: SyncLogger): Promise<SyncReport> {
  const report: SyncReport = { createdTables: [], addedColumns: [], warnings: [] };
  const plans = planTables(model, db.dialect);
  const current = await readSchema(db);
  if (isUpToDate(plans, current)) {
    report.warnings.push(...leftInPlace(plans, current.columns));
  } else {
    await db.transaction(async (trx) => {
      await lock(trx);
      try {
        await applyPlans(trx, plans, report);
      } finally {
        await unlock(trx);
      }
    });
  }
  for (const warning of report.warnings) logger?.warn(warning);
  return report;
}

/** Every planned table, column and index is there, and no retired index is left. */
function isUpToDate(plans: TablePlan[], current: SchemaSnapshot): boolean {
  return plans.every((plan) => {
    const columns = current.columns.get(plan.name);
    const indexes = current.indexes.get(plan.name) ?? new Set<string>();
    return (
      columns !== undefined &&
      plan.columns.every((c) => columns.has(c.name)) &&
      plan.indexes.every((i) => indexes.has(i.name)) &&
      !(plan.retiredIndexes ?? []).some((name) => indexes.has(name))
    );
  });
}

/** Warnings for the tables and columns the database has and the model doesn't (they may hold data). */
function leftInPlace(plans: TablePlan[], existing: Map<string, Set<string>>): string[] {
  const warnings: string[] = [];
  for (const plan of plans) {
    const planned = new Set(plan.columns.map((c) => c.name));
    for (const column of existing.get(plan.name) ?? []) {
      if (!planned.has(column)) warnings.push(`column ${plan.name}.${column} is not in the model: left in place`);
    }
  }
  const plannedTables = new Set(plans.map((p) => p.name));
  for (const table of existing.keys()) {
    if (!plannedTables.has(table) && !table.startsWith('cairn_') && !table.startsWith('up_') && !table.startsWith('sqlite_')) {
      warnings.push(`table ${table} is not in the model: left in place`);
    }
  }
  return warnings;
}

async function applyPlans(trx: Database, plans: TablePlan[], report: SyncReport): Promise<void> {
  const existing = (await readSchema(trx)).columns;
  for (const plan of plans) {
    const columns = existing.get(plan.name);
    if (!columns) {
      await trx.execute(createTable(trx, plan));
      report.createdTables.push(plan.name);
    } else {
      for (const column of plan.columns) {
        if (columns.has(column.name)) continue;
        const definition = column.definition.replace(/ NOT NULL( DEFAULT '')?/, (m, def) => (def ? m : ''));
        await trx.execute(`ALTER TABLE ${trx.quote(plan.name)} ADD COLUMN ${trx.quote(column.name)} ${definition}`);
        report.addedColumns.push(`${plan.name}.${column.name}`);
      }
    }
    await createIndexes(trx, plan);
    if (columns) await dropRetiredIndexes(trx, plan);
  }
  report.warnings.push(...leftInPlace(plans, existing));
}

async function lock(db: Database): Promise<void> {
  if (db.dialect === 'postgres') await db.query('SELECT pg_advisory_xact_lock(72616953)');
  if (db.dialect === 'mysql') await db.query(`SELECT GET_LOCK(CONCAT('cairn_schema_sync_', DATABASE()), 60) AS l`);
}

/** MySQL's named locks belong to the session, not the transaction: a pooled connection would keep it. */
async function unlock(db: Database): Promise<void> {
  if (db.dialect === 'mysql') await db.query(`SELECT RELEASE_LOCK(CONCAT('cairn_schema_sync_', DATABASE())) AS l`);
}

function createTable(db: Database, plan: TablePlan): string {
  const parts = plan.columns.map((c) => `${db.quote(c.name)} ${c.definition}`);
  for (const fk of plan.foreignKeys) {
    parts.push(`FOREIGN KEY (${db.quote(fk.column)}) REFERENCES ${db.quote(fk.references)} (${db.quote('id')}) ON DELETE CASCADE`);
  }
  return `CREATE TABLE ${db.quote(plan.name)} (${parts.join(', ')})${sqlDialect(db.dialect).tableOptions}`;
}

/** MySQL has no `IF [NOT] EXISTS` for indexes: the names it has, to check first. */
async function mysqlIndexNames(db: Database, table: string): Promise<Set<string>> {
  if (db.dialect !== 'mysql') return new Set();
  const rows = await db.query<{ name: string }>(
    'SELECT DISTINCT INDEX_NAME AS name FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ?',
    [table],
  );
  return new Set(rows.map((r) => r.name));
}

async function createIndexes(db: Database, plan: TablePlan): Promise<void> {
  const existing = await mysqlIndexNames(db, plan.name);
  for (const index of plan.indexes) {
    if (existing.has(index.name)) continue;
    const ifNotExists = db.dialect === 'mysql' ? '' : 'IF NOT EXISTS ';
    await db.execute(
      `CREATE ${index.unique ? 'UNIQUE ' : ''}INDEX ${ifNotExists}${db.quote(index.name)} ON ${db.quote(plan.name)} (${index.columns.map((c) => db.quote(c)).join(', ')})`,
    );
  }
}

/** Drops indexes a replacement made obsolete (after creating the replacement, which MySQL's foreign keys may need). */
async function dropRetiredIndexes(db: Database, plan: TablePlan): Promise<void> {
  if (!plan.retiredIndexes?.length) return;
  if (db.dialect === 'mysql') {
    const existing = await mysqlIndexNames(db, plan.name);
    for (const name of plan.retiredIndexes) {
      if (existing.has(name)) await db.execute(`DROP INDEX ${db.quote(name)} ON ${db.quote(plan.name)}`);
    }
    return;
  }
  for (const name of plan.retiredIndexes) await db.execute(`DROP INDEX IF EXISTS ${db.quote(name)}`);
}
