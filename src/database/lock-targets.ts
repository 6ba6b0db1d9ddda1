import type { Component, ContentType, Model, RelationAttribute } from '../model/types.js';
import { joinTableOf } from './strapi-layout/names.js';
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

/**
 * The documents of `owner` whose rows link to `documentId` through the owning relation `attribute`: links join
 * version rows (`*_lnk`), so the target's rows are matched by their document.
 */
export async function documentsLinkingTo(db: Database, model: Model, owner: ContentType | Component, attribute: RelationAttribute, documentId: string): Promise<string[]> {
  const q = (name: string) => db.quote(name);
  const join = joinTableOf(model, owner, attribute);
  const rows = await db.query<{ document_id: string }>(
    `SELECT DISTINCT o.document_id FROM ${q(join.name)} l JOIN ${q(join.ownerTable)} o ON o.id = l.${q(join.ownerColumn)} ` +
      `JOIN ${q(join.targetTable)} t ON t.id = l.${q(join.targetColumn)} WHERE t.document_id = ?`,
    [documentId],
  );
  return rows.map((r) => r.document_id);
}
