import type { Model } from '../../model/types.js';
import { readLayout } from '../layout.js';
import type { Database } from '../types.js';
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
 * Strapi's job. Names every difference; nothing has been written.
 */
export class LayoutMismatchError extends Error {
  readonly code = 'CAIRN_LAYOUT_MISMATCH';

  constructor(readonly differences: readonly LayoutDifference[]) {
    super(
      `the database's tables are not the ones Strapi 5 makes for this model (${differences.length} difference${differences.length === 1 ? '' : 's'}); ` +
        `Cairn changes nothing in a database that Strapi made: start Strapi on it once with this model to migrate it, or fix the model.\n${formatLayoutDifferences(differences)}`,
    );
    this.name = 'LayoutMismatchError';
  }
}

/** Throws LayoutMismatchError when the database differs from Strapi's layout for the model. */
export async function assertStrapiLayout(db: Pick<Database, 'dialect' | 'query'>, model: Model): Promise<void> {
  const differences = await checkStrapiLayout(db, model);
  if (differences.length) throw new LayoutMismatchError(differences);
}
