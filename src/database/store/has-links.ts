import type { Component, ContentType, MediaAttribute, Model, RelationAttribute } from '../../model/types.js';
import type { Database } from '../types.js';
import { relationJoin } from '../strapi-layout/names.js';
import { listSide } from '../strapi-store/list-side.js';
import { hasFileRows } from './media-links.js';

/**
 * Whether row `rowId` of `schema` has anything in a relation or media attribute (a required one's check before
 * publishing): the relation's join table from this attribute's side (an inverse attribute reads the owner's table
 * backwards), or `files_related_mph` for media.
 */
export async function hasLinks(
  db: Database,
  model: Model,
  schema: ContentType | Component,
  attribute: RelationAttribute | MediaAttribute,
  rowId: number,
): Promise<boolean> {
  if (attribute.kind === 'media') return hasFileRows(db, schema.uid, rowId, attribute.name);
  const side = listSide(relationJoin(model, schema, attribute));
  const [hit] = await db.query(`SELECT 1 AS hit FROM ${db.quote(side.table)} WHERE ${db.quote(side.key)} = ? LIMIT 1`, [rowId]);
  return hit !== undefined;
}
