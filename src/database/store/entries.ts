import type { ContentType, Model } from '../../model/types.js';
import type { ReadSpec } from '../../query/types.js';
import type { Database } from '../types.js';
import { readStatements, RememberedTotals, type BoundRead, type TotalRow } from '../sql/index.js';
import { answerTooLargeError } from '../answer-limits.js';

/**
 * Runs a list read: one statement, whose rows carry the total when one is asked for (on SQLite, remembered
 * while the database is unchanged: SqlDialect.rememberedTotal). A page without rows (past
 * the end, or nothing matches) has none to carry it: only then does the COUNT run on its own. Entries come back as
 * their JSON texts, straight from the database.
 */
export async function readEntries(db: Database, model: Model, contentType: ContentType, spec: ReadSpec): Promise<{ docs: string[]; total?: number }> {
  const compiled = readStatements(model, db.dialect).list(contentType, spec, db.inTransaction ? undefined : totalsOf(db));
  const rows = await db.query<{ doc: unknown } & TotalRow>(compiled.data.sql, compiled.data.params);
  let total: number | undefined;
  if (compiled.count) {
    total = rows.length ? totalOf(compiled, rows[0]) : Number((await db.query<{ total: number | string }>(compiled.count.sql, compiled.count.params))[0].total);
  }
  const docs = new Array<string>(rows.length);
  for (let i = 0; i < rows.length; i++) docs[i] = docText(rows[i].doc);
  return { docs, total };
}

/** A list row's total: as its column says it, kept for the next request where the total was remembered. */
function totalOf(compiled: BoundRead, row: TotalRow): number {
  if (!compiled.unpackTotal) return Number(row.total);
  const remembered = compiled.unpackTotal(row.total);
  compiled.remember?.(remembered);
  return remembered.total;
}

/** The totals a connection remembers between list reads (SqlDialect.rememberedTotal), by its root Database. */
const totals = new WeakMap<Database, RememberedTotals>();

function totalsOf(db: Database): RememberedTotals {
  let remembered = totals.get(db);
  if (!remembered) totals.set(db, (remembered = new RememberedTotals()));
  return remembered;
}

/** Reads one document's entry (in the spec's status and locale) as JSON text, or null. */
export async function readEntry(db: Database, model: Model, contentType: ContentType, spec: ReadSpec, documentId: string | undefined): Promise<string | null> {
  const statement = readStatements(model, db.dialect).one(contentType, spec, documentId);
  const rows = await db.query<{ doc: string }>(statement.sql, statement.params);
  return rows.length ? docText(rows[0].doc) : null;
}

/**
 * Drivers may hand back JSON already parsed (MySQL's JSON type); the API wants text. An entry's JSON is never NULL
 * unless the database gave up building it (MariaDB, past max_allowed_packet): that is no entry to answer with.
 */
function docText(doc: unknown): string {
  if (doc === null || doc === undefined) throw answerTooLargeError();
  return typeof doc === 'string' ? doc : JSON.stringify(doc);
}
