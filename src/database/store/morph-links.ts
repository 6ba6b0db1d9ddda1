import type { Component, ContentType, Model, MorphAttribute } from '../../model/types.js';
import type { Database } from '../types.js';
import { MORPH_TO_ONE_COLUMNS, morphTableOf, type MorphTable } from '../strapi-layout/names.js';

/*
 * Strapi 5's polymorphic relations (docs/strapi-5-layout.md; `@strapi/database` metadata/relations.js and
 * entity-manager): a morphToMany owns a table `<owner table>_<attribute>_mph` of rows `(<owner singular>_id,
 * <attribute>_id, <attribute>_type, field, order)`: the owner row, the linked row's id and its type's uid, and
 * `field`, the name of the inverse attribute (morphMany / morphOne) a link was written from (NULL, or the owner
 * attribute's name, when written from the owner side, as Strapi's create and update write it). A morphToOne keeps
 * its link on the owner row itself: `target_id`, `target_type`. The owner is a content type's row or a component's
 * (`components_..._<attribute>_mph`, `<component file name>_id`). No foreign key holds the linked row: links go only
 * when written away or when a row of either side is deleted (deleteMorphRows).
 */

/** One link of a morph list: the linked row and its type, and the inverse attribute it was written from. */
export interface MorphLink {
  relatedId: number;
  type: string;
  field: string | null;
}

const marks = (values: readonly unknown[]) => values.map(() => '?').join(', ');

/** The links of owner row `ownerId` in a morphToMany table, in list order (`order`, then link id). */
export async function readMorphList(db: Database, t: MorphTable, ownerId: number): Promise<MorphLink[]> {
  const q = (name: string) => db.quote(name);
  const rows = await db.query<{ r: number | string; ty: string; f: string | null }>(
    `SELECT ${q(t.idColumn)} AS r, ${q(t.typeColumn)} AS ty, ${q('field')} AS f FROM ${q(t.name)} WHERE ${q(t.ownerColumn)} = ? ORDER BY ${q('order')}, id`,
    [ownerId],
  );
  return rows.map((row) => ({ relatedId: Number(row.r), type: row.ty, field: row.f }));
}

/** Owner row `ownerId`'s list is now `links`, in this order (`order` 1..n): one DELETE and one INSERT. */
export async function replaceMorphList(db: Database, t: MorphTable, ownerId: number, links: readonly MorphLink[]): Promise<void> {
  const q = (name: string) => db.quote(name);
  await db.execute(`DELETE FROM ${q(t.name)} WHERE ${q(t.ownerColumn)} = ?`, [ownerId]);
  if (!links.length) return;
  await db.execute(
    `INSERT INTO ${q(t.name)} (${q(t.ownerColumn)}, ${q(t.idColumn)}, ${q(t.typeColumn)}, ${q('field')}, ${q('order')}) VALUES ${links.map(() => '(?, ?, ?, ?, ?)').join(', ')}`,
    links.flatMap((link, i) => [ownerId, link.relatedId, link.type, link.field, i + 1]),
  );
}

/** The owner rows whose list links row `relatedId` of `type` through inverse attribute `field`, in its order. */
export async function readMorphOwners(db: Database, t: MorphTable, relatedId: number, type: string, field: string): Promise<number[]> {
  const q = (name: string) => db.quote(name);
  const rows = await db.query<{ o: number | string }>(
    `SELECT ${q(t.ownerColumn)} AS o FROM ${q(t.name)} WHERE ${q(t.idColumn)} = ? AND ${q(t.typeColumn)} = ? AND ${q('field')} = ? ORDER BY ${q('order')}, id`,
    [relatedId, type, field],
  );
  return rows.map((row) => Number(row.o));
}

/**
 * Row `relatedId` of `type` is now linked, through inverse attribute `field`, by exactly `owners` (in this order,
 * `order` 1..n as Strapi's morphMany write numbers them).
 */
export async function replaceMorphOwners(db: Database, t: MorphTable, relatedId: number, type: string, field: string, owners: readonly number[]): Promise<void> {
  const q = (name: string) => db.quote(name);
  await db.execute(`DELETE FROM ${q(t.name)} WHERE ${q(t.idColumn)} = ? AND ${q(t.typeColumn)} = ? AND ${q('field')} = ?`, [relatedId, type, field]);
  if (!owners.length) return;
  await db.execute(
    `INSERT INTO ${q(t.name)} (${q(t.ownerColumn)}, ${q(t.idColumn)}, ${q(t.typeColumn)}, ${q('field')}, ${q('order')}) VALUES ${owners.map(() => '(?, ?, ?, ?, ?)').join(', ')}`,
    owners.flatMap((owner, i) => [owner, relatedId, type, field, i + 1]),
  );
}

/** A morphToOne's link on row `rowId` of `table`: the linked row and its type, or null. */
export async function readMorphToOne(db: Database, table: string, rowId: number): Promise<{ relatedId: number; type: string } | null> {
  const q = (name: string) => db.quote(name);
  const [row] = await db.query<{ r: number | string | null; ty: string | null }>(
    `SELECT ${q(MORPH_TO_ONE_COLUMNS.id)} AS r, ${q(MORPH_TO_ONE_COLUMNS.type)} AS ty FROM ${q(table)} WHERE id = ?`,
    [rowId],
  );
  return row && row.r !== null && row.ty !== null ? { relatedId: Number(row.r), type: row.ty } : null;
}

/** Sets the morphToOne link of rows `rowIds` of `table` (null: none). */
export async function writeMorphToOne(db: Database, table: string, rowIds: readonly number[], link: { relatedId: number; type: string } | null): Promise<void> {
  if (!rowIds.length) return;
  const q = (name: string) => db.quote(name);
  await db.execute(`UPDATE ${q(table)} SET ${q(MORPH_TO_ONE_COLUMNS.id)} = ?, ${q(MORPH_TO_ONE_COLUMNS.type)} = ? WHERE id IN (${marks(rowIds)})`, [
    link?.relatedId ?? null,
    link?.type ?? null,
    ...rowIds,
  ]);
}

/** The rows of `table` whose morphToOne links row `relatedId` of `type`. */
export async function readMorphToOneOwners(db: Database, table: string, relatedId: number, type: string): Promise<number[]> {
  const q = (name: string) => db.quote(name);
  const rows = await db.query<{ id: number | string }>(
    `SELECT id FROM ${q(table)} WHERE ${q(MORPH_TO_ONE_COLUMNS.id)} = ? AND ${q(MORPH_TO_ONE_COLUMNS.type)} = ? ORDER BY id`,
    [relatedId, type],
  );
  return rows.map((row) => Number(row.id));
}

/** The morphToMany attributes of a schema, each with its table. */
export function morphTablesOf(schema: ContentType | Component): Array<{ attribute: MorphAttribute; table: MorphTable }> {
  return [...schema.attributes.values()].flatMap((a) => (a.kind === 'morph' && a.relation === 'morphToMany' ? [{ attribute: a, table: morphTableOf(schema, a.name) }] : []));
}

/**
 * The ids of the rows of `type` that are `version` of the same documents (and locales) as rows `rowIds`, by row id:
 * the same rows for a type without Draft & Publish, or for `same`; a row whose version does not exist (or whose type
 * is no content type) is absent. One statement per type, whatever the number of rows.
 */
async function versionsOf(db: Database, model: Model, type: string, rowIds: readonly number[], version: 'published' | 'draft' | 'same'): Promise<Map<number, number>> {
  const target = model.contentTypes.get(type);
  if (!target || !rowIds.length) return new Map();
  if (!target.draftAndPublish || version === 'same') return new Map(rowIds.map((id) => [id, id]));
  const q = (name: string) => db.quote(name);
  const locale = target.localized ? ` AND (v.${q('locale')} = s.${q('locale')} OR (v.${q('locale')} IS NULL AND s.${q('locale')} IS NULL))` : '';
  const rows = await db.query<{ source: number | string; id: number | string }>(
    `SELECT s.id AS source, v.id AS id FROM ${q(target.table)} s JOIN ${q(target.table)} v ON v.document_id = s.document_id${locale} ` +
      `AND v.published_at IS ${version === 'published' ? 'NOT NULL' : 'NULL'} WHERE s.id IN (${rowIds.map(() => '?').join(', ')})`,
    [...rowIds],
  );
  return new Map(rows.map((r) => [Number(r.source), Number(r.id)]));
}

/** Links mapped to their linked rows' `version` (versionsOf), in order; a link whose row has no such version is dropped. */
async function mappedLinks<L extends { type: string; relatedId: number }>(db: Database, model: Model, links: readonly L[], version: 'published' | 'draft' | 'same'): Promise<L[]> {
  const byType = new Map<string, number[]>();
  for (const link of links) byType.set(link.type, [...(byType.get(link.type) ?? []), link.relatedId]);
  const mapped = new Map<string, Map<number, number>>();
  for (const [type, ids] of byType) mapped.set(type, await versionsOf(db, model, type, [...new Set(ids)], version));
  return links.flatMap((link) => {
    const relatedId = mapped.get(link.type)!.get(link.relatedId);
    return relatedId === undefined ? [] : [{ ...link, relatedId }];
  });
}

/** Whether a schema has a morphToOne (its rows' `target_id` / `target_type` columns). */
const hasMorphToOne = (schema: ContentType | Component) => [...schema.attributes.values()].some((a) => a.kind === 'morph' && a.relation === 'morphToOne');

/**
 * Gives row `toId` of `schema` (a content type, or a component) the owner-side morph links of row `fromId`: every
 * morphToMany's list (order and `field` kept) and the morphToOne columns, each linked row mapped to its `members`
 * version (dropped when it has none), or kept as it is for `same` (a clone). A component's rows get theirs when the
 * entry's version is copied (version-copy.ts copyComponents): publishing maps them to published rows as the entry's
 * own links, as Strapi's publish re-creates a morphToMany's links from the draft's documents. `skip`: morphToMany
 * attributes whose links are not copied (a clone writes them afresh).
 */
export async function copyOwnMorphLinks(
  db: Database,
  model: Model,
  schema: ContentType | Component,
  fromId: number,
  toId: number,
  members: 'published' | 'draft' | 'same',
  skip: ReadonlySet<string> = new Set(),
): Promise<void> {
  for (const { attribute, table } of morphTablesOf(schema)) {
    if (skip.has(attribute.name)) continue;
    await replaceMorphList(db, table, toId, await mappedLinks(db, model, await readMorphList(db, table, fromId), members));
  }
  if (hasMorphToOne(schema)) {
    const read = await readMorphToOne(db, schema.table, fromId);
    const [link] = read ? await mappedLinks(db, model, [read], members) : [];
    await writeMorphToOne(db, schema.table, [toId], link ? { relatedId: link.relatedId, type: link.type } : null);
  }
}

/**
 * Gives row `toId` of `contentType` the morph links of row `fromId` (publish, discard), each linked row mapped to its
 * `members` version (dropped when it has none), as Strapi's publish re-creates them from the draft's: the owner side
 * of every morphToMany and the morphToOne columns (copyOwnMorphLinks). Links other rows hold to `fromId` through a
 * morph relation are the other rows' own: left alone.
 */
export async function copyMorphLinks(db: Database, model: Model, contentType: ContentType, fromId: number, toId: number, members: 'published' | 'draft'): Promise<void> {
  await copyOwnMorphLinks(db, model, contentType, fromId, toId, members);
  // The inverse sides (morphMany, morphOne): Strapi's publish writes them again from the copied row's data, the
  // owners mapped to their `members` version.
  for (const attribute of contentType.attributes.values()) {
    if (attribute.kind !== 'morph' || attribute.target === undefined) continue;
    const owner = model.contentTypes.get(attribute.target);
    const by = owner?.attributes.get(attribute.morphBy!);
    if (!owner || by?.kind !== 'morph') continue;
    // The owners' versions, in the owners' order, each once.
    const mapped = async (ids: number[]) => {
      const versions = await versionsOf(db, model, owner.uid, [...new Set(ids)], members);
      return [...new Set(ids.flatMap((id) => (versions.has(id) ? [versions.get(id)!] : [])))];
    };
    if (by.relation === 'morphToMany') {
      const table = morphTableOf(owner, by.name);
      const owners = await mapped(await readMorphOwners(db, table, fromId, contentType.uid, attribute.name));
      await replaceMorphOwners(db, table, toId, contentType.uid, attribute.name, owners);
    } else {
      const owners = await mapped(await readMorphToOneOwners(db, owner.table, fromId, contentType.uid));
      const current = await readMorphToOneOwners(db, owner.table, toId, contentType.uid);
      await writeMorphToOne(db, owner.table, current.filter((o) => !owners.includes(o)), null);
      await writeMorphToOne(db, owner.table, owners, { relatedId: toId, type: contentType.uid });
    }
  }
}

/**
 * Deletes the morph links of rows `ids` of `schema` (a content type's, or a component's): their own lists (Strapi's
 * `ON DELETE CASCADE` of the owner column; a morphToOne's columns go with the rows) and, for a content type's rows,
 * the links every morphToMany of the model (content types' and components') holds to them (Strapi leaves those,
 * pointing nowhere; reads skip them either way).
 */
export async function deleteMorphRows(db: Database, model: Model, schema: ContentType | Component, ids: readonly number[]): Promise<void> {
  if (!ids.length) return;
  const q = (name: string) => db.quote(name);
  for (const { table } of morphTablesOf(schema)) await db.execute(`DELETE FROM ${q(table.name)} WHERE ${q(table.ownerColumn)} IN (${marks(ids)})`, [...ids]);
  if (schema.modelType !== 'contentType') return;
  for (const owner of [...model.contentTypes.values(), ...model.components.values()]) {
    for (const { table } of morphTablesOf(owner)) {
      await db.execute(`DELETE FROM ${q(table.name)} WHERE ${q(table.typeColumn)} = ? AND ${q(table.idColumn)} IN (${marks(ids)})`, [schema.uid, ...ids]);
    }
  }
}
