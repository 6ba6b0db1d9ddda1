import type { Database } from './types.js';

/**
 * What a write must lock besides its own document (documents/write-locks.ts) is found with these reads, made
 * before the locks are taken. A row's document never changes; who links to a document may, and is read again
 * once the locks are held.
 */

/** The document ids of rows given by their ids (relation items that name a row id instead of a documentId). */
export async function documentIdsOfRows(db: Database, table: string, ids: readonly number[]): Promise<string[]> {
  if (!ids.length) return [];
  const rows = await db.query<{ document_id: string }>(
    `SELECT DISTINCT document_id FROM ${db.quote(table)} WHERE id IN (${ids.map(() => '?').join(', ')})`,
    ids,
  );
  return rows.map((r) => r.document_id);
}

/** The documents of `ownerTable` whose rows link to `documentId` through `linkTable` (owner side to target). */
export async function documentsLinkingTo(db: Database, ownerTable: string, linkTable: string, documentId: string): Promise<string[]> {
  const rows = await db.query<{ document_id: string }>(
    `SELECT DISTINCT o.document_id FROM ${db.quote(linkTable)} l JOIN ${db.quote(ownerTable)} o ON o.id = l.entity_id WHERE l.target_document_id = ?`,
    [documentId],
  );
  return rows.map((r) => r.document_id);
}
