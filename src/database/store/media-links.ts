import type { Database } from '../types.js';

/**
 * The media library's files (`files`) and the links from entries' media attributes to them. A media attribute's
 * link table is a link table like a relation's (links.ts), written only whole or appended to: files carry no
 * order of their own on the other side (`inv_ord`, never read for media).
 */

/** The documentIds of files given by their ids, in the order of their ids (files that do not exist are left out). */
export async function fileDocumentIds(db: Database, fileIds: readonly number[]): Promise<string[]> {
  const rows = await db.query<{ document_id: string }>(
    `SELECT document_id FROM ${db.quote('files')} WHERE id IN (${fileIds.map(() => '?').join(', ')}) ORDER BY id`,
    fileIds,
  );
  return rows.map((row) => row.document_id);
}

/** The name and mime type of files given by their documentIds. */
export async function fileMimeTypes(db: Database, documentIds: readonly string[]): Promise<Array<{ name: string; mime: string }>> {
  return db.query<{ mime: string; name: string }>(
    `SELECT mime, name FROM ${db.quote('files')} WHERE document_id IN (${documentIds.map(() => '?').join(', ')})`,
    documentIds,
  );
}

/**
 * Links files (documentIds, in order, each once) to row `rowId` through a media attribute's link table: after the
 * files it has (`append`), or in their place (`replace`).
 */
export async function linkFiles(db: Database, linkTable: string, rowId: number, fileDocumentIds: readonly string[], mode: 'append' | 'replace'): Promise<void> {
  const table = db.quote(linkTable);
  let ord = 0;
  if (mode === 'replace') {
    await db.execute(`DELETE FROM ${table} WHERE entity_id = ?`, [rowId]);
  } else {
    const [max] = await db.query<{ m: number | null }>(`SELECT MAX(ord) AS m FROM ${table} WHERE entity_id = ?`, [rowId]);
    ord = Number(max?.m ?? 0);
  }
  for (const documentId of fileDocumentIds) {
    await db.execute(`INSERT INTO ${table} (entity_id, target_document_id, target_locale, ord, inv_ord) VALUES (?, ?, '', ?, ?)`, [rowId, documentId, ++ord, 1]);
  }
}
