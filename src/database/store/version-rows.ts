import type { ContentType } from '../../model/types.js';
import type { Database } from '../types.js';
import { sqlDialect } from '../sql/index.js';

/**
 * A content type's rows by document: a document has one row per locale, or under Draft & Publish up to two, its
 * draft (`published_at` NULL) and its published version.
 */

/** The rows of one document in one locale (or every locale): its draft and/or published version. */
export interface VersionRow {
  id: number;
  locale: string | null;
  published: boolean;
  /**
   * Read when asked (versionRows' `stamps`): every version of the row's locale has the same `updated_at`. With a
   * draft and a published row, the published row is still the copy of the draft that the last publish made (a
   * publish gives the published row the draft's, a draft edit moves the draft's; Strapi's admin tells "modified"
   * from "published" the same way).
   */
  sameStamp?: boolean;
}

/** A row as the driver reads `id, published_at[, locale][, same_stamp]`. */
function versionRow(r: { id: number; locale?: string; published_at: unknown; same_stamp?: unknown }): VersionRow {
  const row: VersionRow = { id: Number(r.id), locale: r.locale ?? null, published: r.published_at !== null };
  if (r.same_stamp !== undefined) row.sameStamp = r.same_stamp === true || Number(r.same_stamp) === 1;
  return row;
}

/**
 * A document's rows in `locale`; every locale's for '*' or undefined (and for types without locales). `stamps`
 * reads each row's `sameStamp` in the same statement (a window over the locale's versions), which a publishing
 * update asks to know whether its published row is the draft's copy.
 */
export async function versionRows(db: Database, contentType: ContentType, documentId: string, locale: string | undefined, options: { stamps?: boolean } = {}): Promise<VersionRow[]> {
  const q = sqlDialect(db.dialect).quote;
  const byLocale = contentType.localized && locale !== undefined && locale !== '*';
  const versions = `OVER (${contentType.localized ? 'PARTITION BY locale' : ''})`;
  const stamps = options.stamps ? `, CASE WHEN MIN(updated_at) ${versions} = MAX(updated_at) ${versions} THEN 1 ELSE 0 END AS same_stamp` : '';
  const rows = await db.query<{ id: number; locale?: string; published_at: unknown; same_stamp?: unknown }>(
    `SELECT id, published_at${contentType.localized ? ', locale' : ''}${stamps} FROM ${q(contentType.table)} WHERE document_id = ?${byLocale ? ' AND locale = ?' : ''} ORDER BY id`,
    byLocale ? [documentId, locale] : [documentId],
  );
  return rows.map(versionRow);
}

/** Every row of these documents, in every locale and version, by documentId (each document's in id order): one statement. */
export async function documentsRows(db: Database, contentType: ContentType, documentIds: readonly string[]): Promise<Map<string, VersionRow[]>> {
  const byDocument = new Map<string, VersionRow[]>();
  if (!documentIds.length) return byDocument;
  const rows = await db.query<{ id: number; document_id: string; locale?: string; published_at: unknown }>(
    `SELECT id, document_id, published_at${contentType.localized ? ', locale' : ''} FROM ${sqlDialect(db.dialect).quote(contentType.table)} WHERE document_id IN (${documentIds.map(() => '?').join(', ')}) ORDER BY id`,
    documentIds,
  );
  for (const r of rows) {
    const list = byDocument.get(r.document_id) ?? [];
    list.push(versionRow(r));
    byDocument.set(r.document_id, list);
  }
  return byDocument;
}

/**
 * The documentId of a content type's first row (the lowest id), whatever its locale and version: a single type's one
 * document, as Strapi's core service and GraphQL mutations find it (`strapi.db.query(uid).findOne()`, no condition).
 */
export async function firstDocumentId(db: Database, contentType: ContentType): Promise<string | undefined> {
  const rows = await db.query<{ document_id: string }>(`SELECT document_id FROM ${sqlDialect(db.dialect).quote(contentType.table)} ORDER BY id LIMIT 1`, []);
  return rows[0]?.document_id ?? undefined;
}

/** Row id -> its documentId, for the rows of these ids that exist. */
export async function documentIdsByRowId(db: Database, contentType: ContentType, rowIds: readonly number[]): Promise<Map<number, string>> {
  const rows = await db.query<{ id: number; document_id: string }>(
    `SELECT id, document_id FROM ${sqlDialect(db.dialect).quote(contentType.table)} WHERE id IN (${rowIds.map(() => '?').join(', ')})`,
    rowIds,
  );
  const byId = new Map<number, string>();
  for (const row of rows) byId.set(Number(row.id), row.document_id);
  return byId;
}

/**
 * The rows of the document row `rowId` belongs to, in every locale and version (itself included): what Strapi calls
 * a row's siblings, whose links to a one-owner target are not "stolen" by the row's own writes.
 */
export async function siblingRowIds(db: Database, contentType: ContentType, rowId: number): Promise<number[]> {
  const t = sqlDialect(db.dialect).quote(contentType.table);
  const rows = await db.query<{ id: number }>(`SELECT id FROM ${t} WHERE document_id = (SELECT document_id FROM ${t} WHERE id = ?) ORDER BY id`, [rowId]);
  return rows.map((r) => Number(r.id));
}

/**
 * After a draft edit: moves the draft's `updated_at` 1 ms past the published row's when the edit landed in the very
 * millisecond of the last publish, so that a row's `sameStamp` never takes an edited draft for the published copy.
 */
export async function separateDraftStamp(db: Database, contentType: ContentType, draftId: number, publishedId: number): Promise<void> {
  const t = sqlDialect(db.dialect).quote(contentType.table);
  const later = { sqlite: 'updated_at + 1', postgres: "updated_at + INTERVAL '1 millisecond'", mysql: 'DATE_ADD(updated_at, INTERVAL 1000 MICROSECOND)' }[db.dialect];
  // The published row's value read through a derived table: MySQL refuses a subquery on the table an UPDATE writes.
  await db.execute(`UPDATE ${t} SET updated_at = ${later} WHERE id = ? AND updated_at = (SELECT v FROM (SELECT updated_at AS v FROM ${t} WHERE id = ?) p)`, [
    draftId,
    publishedId,
  ]);
}
