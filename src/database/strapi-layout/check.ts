import type { Model } from '../../model/types.js';
import { readLayout } from '../layout.js';
import type { Database } from '../types.js';
import { applyLayoutAdditions, hasAdditions, layoutChanges, type LayoutChanges } from './additions.js';
import { readCairnMark } from './cairn-mark.js';
import { compareLayout, type LayoutDifference } from './compare.js';
import { planStrapiLayout } from './plan.js';

export type { LayoutDifference } from './compare.js';

/**
 * How the database differs from the tables Strapi 5 makes for this model (plan.ts), as far as Cairn needs them
 * (compare.ts: what the database has beyond them is no difference). Empty when it matches. Reads the catalog only
 * (layout.ts): the database is left as it was.
 */
export async function checkStrapiLayout(db: Pick<Database, 'dialect' | 'query'>, model: Model): Promise<LayoutDifference[]> {
  const found = await readLayout((sql, params) => db.query(sql, params), db.dialect);
  return compareLayout(planStrapiLayout(model, db.dialect), found);
}

/** One line per difference: `articles.title: expected varchar(255) NULL, found missing`. */
export function formatLayoutDifferences(differences: readonly LayoutDifference[]): string {
  return differences.map((d) => `${where(d)}: expected ${d.expected}, found ${d.found}`).join('\n');
}

function where(d: LayoutDifference): string {
  if (d.column !== undefined) return `${d.table}.${d.column}`;
  if (d.index !== undefined) return `${d.table} index ${d.index}`;
  if (d.foreignKey !== undefined) return `${d.table} foreign key ${d.foreignKey}`;
  return d.table;
}

/**
 * Stops a start on a database whose tables are not what Strapi 5 makes for this model (a model changed without
 * Strapi having migrated the database, a table dropped by hand...): serving it could misread it, and altering it is
 * Strapi's job. Names every difference; nothing has been written. On a database that Cairn made (`cairnMade`), a
 * start adds what the model adds, so the differences named are the ones it does not: Cairn drops and changes nothing.
 */
export class LayoutMismatchError extends Error {
  readonly code = 'CAIRN_LAYOUT_MISMATCH';

  constructor(
    readonly differences: readonly LayoutDifference[],
    readonly cairnMade = false,
  ) {
    const count = `${differences.length} difference${differences.length === 1 ? '' : 's'}`;
    super(
      cairnMade
        ? `the database's tables are not the ones Strapi 5 makes for this model (${count} that a start does not add); ` +
            `Cairn made this database and adds the tables, columns, indexes and foreign keys a model adds, but it drops and changes nothing: ` +
            `restore the model, or change the database yourself. Nothing was written.\n${formatLayoutDifferences(differences)}`
        : `the database's tables are not the ones Strapi 5 makes for this model (${count}); ` +
            `Cairn changes nothing in a database that Strapi made: start Strapi on it once with this model to migrate it, or fix the model.\n${formatLayoutDifferences(differences)}`,
    );
    this.name = 'LayoutMismatchError';
  }
}

/**
 * What a start finds: the differences from Strapi's layout for the model and, on a database that Cairn made
 * (cairn-mark.ts), which of them a start adds (additions.ts) and which it refuses (with what the model no longer
 * has). On a database Strapi made, every difference is refused. Reads the catalog and the core store only.
 */
export async function inspectStrapiLayout(
  db: Pick<Database, 'dialect' | 'query' | 'quote'>,
  model: Model,
): Promise<{ cairnMade: boolean; differences: LayoutDifference[]; changes?: LayoutChanges }> {
  const found = await readLayout((sql, params) => db.query(sql, params), db.dialect);
  const planned = planStrapiLayout(model, db.dialect);
  const differences = compareLayout(planned, found);
  const cairnMade = found.tables.some((t) => t.name === 'strapi_core_store_settings') && (await readCairnMark(db)) !== undefined;
  if (!cairnMade) return { cairnMade, differences };
  return { cairnMade, differences, changes: layoutChanges(planned, found, db.dialect) };
}

/**
 * A start's check of the tables: a database that matches is left alone; one that Cairn made and that lacks only
 * what the model added gets it (applyLayoutAdditions), then is checked again; anything else throws
 * LayoutMismatchError before anything is written. Answers the differences it added (none when it matched).
 */
export async function ensureStrapiLayout(db: Database, model: Model): Promise<LayoutDifference[]> {
  const { cairnMade, differences, changes } = await inspectStrapiLayout(db, model);
  if (!changes) {
    if (differences.length) throw new LayoutMismatchError(differences);
    return [];
  }
  if (changes.refused.length) throw new LayoutMismatchError(changes.refused, cairnMade);
  if (!hasAdditions(changes.additions)) return [];
  await applyLayoutAdditions(db, changes.additions);
  const after = await inspectStrapiLayout(db, model);
  const left = after.changes ? [...after.changes.added, ...after.changes.refused] : after.differences;
  if (left.length) throw new LayoutMismatchError(left, cairnMade);
  return changes.added;
}
