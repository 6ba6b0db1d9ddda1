import type { Database } from '../types.js';
import { MEDIA_MORPH_TABLE } from '../strapi-layout/names.js';

/**
 * The media library's files (`files`) and the links from entries' media attributes to them. A media attribute's
 * link table is a link table like a relation's (links.ts), written only whole or appended to: files carry no
 * order of their own on the other side (`inv_ord`, never read for media).
 */

/** The documentIds of files given by their ids, in the order given (files that do not exist are left out). */
export async function fileDocumentIds(db: Database, fileIds: readonly number[]): Promise<string[]> {
  if (!fileIds.length) return [];
  const rows = await db.query<{ id: number | string; document_id: string }>(
    `SELECT id, document_id FROM ${db.quote('files')} WHERE id IN (${fileIds.map(() => '?').join(', ')})`,
    fileIds,
  );
  const byId = new Map(rows.map((row) => [Number(row.id), row.document_id]));
  return fileIds.flatMap((id) => (byId.has(id) ? [byId.get(id)!] : []));
}

/** The name and mime type of files given by their documentIds. */
export async function fileMimeTypes(db: Database, documentIds: readonly string[]): Promise<Array<{ name: string; mime: string }>> {
  return db.query<{ mime: string; name: string }>(
    `SELECT mime, name FROM ${db.quote('files')} WHERE document_id IN (${documentIds.map(() => '?').join(', ')})`,
    documentIds,
  );
}

/*
 * Strapi's layout keeps every media field of every type in one table, `files_related_mph` (strapi-layout/names.ts
 * MEDIA_MORPH_TABLE): `(file_id, related_id, related_type, field, order)`, `related_id` the version row's (or the
 * component row's) id and `related_type` its schema's uid. No foreign key holds `related_id`: the rows go only when
 * written away (docs/strapi-5-writes.md, 7 and 9).
 */

/**
 * Links files (documentIds, in order, each once) to row `rowId` of `relatedType` through media field `field`, as
 * Strapi writes `files_related_mph`: `order` 1..n in place of the field's rows (`replace`), or after the field's last
 * one (`append`: MAX(order) + 1...). Files that do not exist are left out (their neighbours close up). Returns the
 * number of rows written.
 */
export async function linkFileRows(
  db: Database,
  relatedType: string,
  rowId: number,
  field: string,
  fileDocumentIds: readonly string[],
  mode: 'append' | 'replace',
): Promise<number> {
  const table = db.quote(MEDIA_MORPH_TABLE);
  const order = db.quote('order');
  const wanted = [...new Set(fileDocumentIds)];
  const found = wanted.length
    ? await db.query<{ id: number | string; document_id: string }>(`SELECT id, document_id FROM ${db.quote('files')} WHERE document_id IN (${wanted.map(() => '?').join(', ')})`, wanted)
    : [];
  const fileIds = new Map(found.map((row) => [row.document_id, Number(row.id)]));
  const files = wanted.filter((documentId) => fileIds.has(documentId)).map((documentId) => fileIds.get(documentId)!);
  const where = `related_id = ? AND related_type = ? AND field = ?`;
  let last = 0;
  if (mode === 'replace') {
    await db.execute(`DELETE FROM ${table} WHERE ${where}`, [rowId, relatedType, field]);
  } else {
    const [max] = await db.query<{ m: number | string | null }>(`SELECT MAX(${order}) AS m FROM ${table} WHERE ${where}`, [rowId, relatedType, field]);
    last = Number(max?.m ?? 0);
  }
  if (!files.length) return 0;
  const result = await db.execute(
    `INSERT INTO ${table} (file_id, related_id, related_type, field, ${order}) VALUES ${files.map(() => '(?, ?, ?, ?, ?)').join(', ')}`,
    files.flatMap((fileId, i) => [fileId, rowId, relatedType, field, last + i + 1]),
  );
  return result.affectedRows;
}

/** Whether row `rowId` of `relatedType` has a file in media field `field`. */
export async function hasFileRows(db: Database, relatedType: string, rowId: number, field: string): Promise<boolean> {
  const [hit] = await db.query(`SELECT 1 AS hit FROM ${db.quote(MEDIA_MORPH_TABLE)} WHERE related_id = ? AND related_type = ? AND field = ? LIMIT 1`, [
    rowId,
    relatedType,
    field,
  ]);
  return hit !== undefined;
}

/** Deletes the media rows of rows of `relatedType` (every field). */
export async function deleteFileRows(db: Database, relatedType: string, rowIds: readonly number[]): Promise<void> {
  if (!rowIds.length) return;
  await db.execute(`DELETE FROM ${db.quote(MEDIA_MORPH_TABLE)} WHERE related_type = ? AND related_id IN (${rowIds.map(() => '?').join(', ')})`, [
    relatedType,
    ...rowIds,
  ]);
}

/**
 * Gives row `toId` of `relatedType` the media rows `fromId` has (files, fields and orders; in `field` only, when
 * given), in place of its own: one DELETE and one `INSERT ... SELECT`, whatever the number of files. The ids are
 * checked integers, written as literals (a parameter in a SELECT list has no type PostgreSQL can infer).
 */
export async function copyFileRows(db: Database, relatedType: string, fromId: number, toId: number, field?: string): Promise<void> {
  for (const id of [fromId, toId]) if (!Number.isSafeInteger(id) || id <= 0) throw new Error(`${MEDIA_MORPH_TABLE}: ${String(id)} is not a row id`);
  const table = db.quote(MEDIA_MORPH_TABLE);
  const order = db.quote('order');
  const inField = field === undefined ? '' : ' AND field = ?';
  const onlyField = field === undefined ? [] : [field];
  await db.execute(`DELETE FROM ${table} WHERE related_id = ? AND related_type = ?${inField}`, [toId, relatedType, ...onlyField]);
  await db.execute(
    `INSERT INTO ${table} (file_id, related_id, related_type, field, ${order}) SELECT file_id, ${toId}, related_type, field, ${order} FROM ${table} WHERE related_id = ? AND related_type = ?${inField} ORDER BY id`,
    [fromId, relatedType, ...onlyField],
  );
}

/** The documentIds of the files a row holds in a media field, in the field's order. */
export async function rowFileDocumentIds(db: Database, where: { relatedType: string; field: string }, rowId: number): Promise<string[]> {
  const rows = await db.query<{ d: string }>(
    `SELECT f.document_id AS d FROM ${db.quote(MEDIA_MORPH_TABLE)} m JOIN ${db.quote('files')} f ON f.id = m.file_id ` +
      `WHERE m.related_id = ? AND m.related_type = ? AND m.field = ? ORDER BY m.${db.quote('order')}, m.id`,
    [rowId, where.relatedType, where.field],
  );
  return rows.map((row) => row.d);
}
