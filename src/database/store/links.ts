import type { Component, ContentType, MediaAttribute, Model, RelationAttribute } from '../../model/types.js';
import type { Database } from '../types.js';
import { sqlDialect } from '../sql/index.js';
import { relationJoin } from '../strapi-layout/names.js';
import { listSide } from '../strapi-store/list-side.js';
import { hasFileRows } from './media-links.js';

/**
 * Link tables (`<owner>_<attribute>_lnk`): one row per link from an owner row (`entity_id`) to a target document
 * (`target_document_id`, `target_locale`, `target_status`), ordered by `ord` on the owner's side and `inv_ord` on
 * the target's. Ordered edits of one list are link-list.ts.
 */

/** Copies a row's outgoing links to another row (publishing a draft). */
export async function copyLinks(db: Database, schema: ContentType | Component, fromId: number, toId: number): Promise<void> {
  const q = sqlDialect(db.dialect).quote;
  for (const attribute of schema.attributes.values()) {
    if (!((attribute.kind === 'relation' && attribute.owner) || attribute.kind === 'media')) continue;
    await db.execute(
      `INSERT INTO ${q(attribute.linkTable)} (entity_id, target_document_id, target_locale, target_status, ord, inv_ord) SELECT ?, target_document_id, target_locale, target_status, ord, inv_ord FROM ${q(attribute.linkTable)} WHERE entity_id = ?`,
      [toId, fromId],
    );
  }
}

/** Removes the links of `linkTable` to a document: to all of it, or (`locale` given) to its version in that locale. */
export async function deleteLinksTo(db: Database, linkTable: string, documentId: string, locale?: string): Promise<void> {
  const q = sqlDialect(db.dialect).quote;
  if (locale === undefined) await db.execute(`DELETE FROM ${q(linkTable)} WHERE target_document_id = ?`, [documentId]);
  else await db.execute(`DELETE FROM ${q(linkTable)} WHERE target_document_id = ? AND target_locale = ?`, [documentId, locale]);
}

/**
 * Whether row `rowId` of `schema` has anything in a relation or media attribute (a required one's check before
 * publishing). Cairn's former layout reads the attribute's link table; Strapi's the relation's join table from this
 * attribute's side (an inverse attribute reads the owner's table backwards), or `files_related_mph` for media.
 */
export async function hasLinks(
  db: Database,
  model: Model,
  schema: ContentType | Component,
  attribute: RelationAttribute | MediaAttribute,
  rowId: number,
): Promise<boolean> {
  if (db.layout === 'strapi') {
    if (attribute.kind === 'media') return hasFileRows(db, schema.uid, rowId, attribute.name);
    const side = listSide(relationJoin(model, schema, attribute));
    const [hit] = await db.query(`SELECT 1 AS hit FROM ${db.quote(side.table)} WHERE ${db.quote(side.key)} = ? LIMIT 1`, [rowId]);
    return hit !== undefined;
  }
  const [hit] = await db.query(`SELECT 1 AS hit FROM ${sqlDialect(db.dialect).quote(attribute.linkTable)} WHERE entity_id = ? LIMIT 1`, [rowId]);
  return hit !== undefined;
}
