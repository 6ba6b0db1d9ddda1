import type { Component, ContentType, Model } from '../../model/types.js';
import type { Database } from '../types.js';
import { sqlDialect } from '../sql/dialect.js';
import { relationJoin } from '../strapi-layout/names.js';
import { copyFileRows } from '../store/media-links.js';
import { copyOwnMorphLinks } from '../store/morph-links.js';
import { copyLinksMapped, replaceLinksMapped, type MemberVersion } from './copy-links.js';
import { incomingJoins, owningJoins } from './relations-of.js';

/**
 * The pieces of a version copy in Strapi's layout (publishing copies a draft row into a published one, discarding a
 * draft the other way; docs/strapi-5-writes.md, 2, 4, 6, 7): stored values copied by the database (`INSERT ...
 * SELECT`, `UPDATE` from the source row), never read into JS and written back, so every value stays exactly as
 * Strapi stored it.
 */

/** The columns of a schema's rows but `id`: a content type's system columns and attributes; a component's attributes. */
export function storedColumns(schema: ContentType | Component): string[] {
  const attributes = [...schema.attributes.values()].flatMap((a) => (a.kind === 'scalar' ? [a.column] : []));
  if (schema.modelType === 'component') return attributes;
  return ['document_id', ...attributes, 'created_at', 'updated_at', 'published_at', 'created_by_id', 'updated_by_id', 'locale'];
}

/** A row id checked before it is written into SQL as a literal. */
export function checkedRowId(value: unknown, table: string, what: string): number {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value > 0) return value;
  throw new Error(`${table}: ${what} must be a row id (a positive integer), got ${JSON.stringify(value) ?? String(value)}`);
}

/**
 * Copies `columns` of row `fromId` into row `toId` (an `UPDATE` from the source row), or into a new row (`INSERT ...
 * SELECT`) when `toId` is undefined; `values` (columns with values bound already) are written in the same statement.
 * Returns the row written; throws when a row is missing, naming it.
 */
export async function copyColumns(
  db: Database,
  schema: ContentType | Component,
  fromId: number,
  toId: number | undefined,
  columns: readonly string[],
  values: ReadonlyArray<[string, unknown]> = [],
): Promise<number> {
  return (await copyColumnsAsking(db, schema, fromId, toId, columns, values, [])).id;
}

/** An SQL term with its parameters (`?`, in the term's order). */
export interface SqlTerm {
  sql: string;
  params: readonly unknown[];
}

/**
 * `copyColumns`, asking `questions` (SQL select terms, each `... AS name`) in the same
 * statement where the database can (its RETURNING: PostgreSQL and SQLite always, MariaDB for a new row): `answers`
 * holds them, or is undefined where the statement could not ask (the caller asks on its own then). They are
 * evaluated once the row is written.
 */
export async function copyColumnsAsking(
  db: Database,
  schema: ContentType | Component,
  fromId: number,
  toId: number | undefined,
  columns: readonly string[],
  values: ReadonlyArray<[string, unknown]>,
  questions: readonly SqlTerm[],
): Promise<{ id: number; answers?: Record<string, unknown> }> {
  const t = db.quote(schema.table);
  const q = (name: string) => db.quote(name);
  const given = values.map(([c]) => c);
  const givenValues = values.map(([, v]) => v);
  const asked = questions.map((term) => `, ${term.sql}`).join('');
  const askedParams = questions.flatMap((term) => term.params);
  const answered = (row: Record<string, unknown>) => ({ id: Number(row.id), answers: questions.length ? row : undefined });
  if (toId === undefined) {
    if (!columns.length && !given.length) {
      // Nothing to copy but the row itself (a component without attributes of its own).
      if (!(await db.query(`SELECT id FROM ${t} WHERE id = ?`, [fromId])).length) throw new Error(`${schema.table} has no row ${fromId} to copy from`);
      const [row] = await db.query<{ id: number | string }>(`INSERT INTO ${t} ${sqlDialect(db.dialect).defaultValues} RETURNING id${asked}`, askedParams);
      return answered(row!);
    }
    const selected = [...columns.map(q), ...given.map(() => '?')];
    const [row] = await db.query<{ id: number | string }>(
      `INSERT INTO ${t} (${[...columns, ...given].map(q).join(', ')}) SELECT ${selected.join(', ')} FROM ${t} WHERE id = ? RETURNING id${asked}`,
      [...givenValues, fromId, ...askedParams],
    );
    if (!row) throw new Error(`${schema.table} has no row ${fromId} to copy from`);
    return answered(row);
  }
  if ((!columns.length && !given.length) || db.dialect === 'mysql') {
    // MySQL counts changed rows, not matched ones, and has no RETURNING: both rows are looked for first.
    await requireRows(db, schema, fromId, toId);
    const set = [...columns.map((c) => `d.${q(c)} = s.${q(c)}`), ...given.map((c) => `d.${q(c)} = ?`)];
    if (set.length) await db.execute(`UPDATE ${t} d JOIN ${t} s ON s.id = ? SET ${set.join(', ')} WHERE d.id = ?`, [fromId, ...givenValues, toId]);
    return { id: toId };
  }
  // PostgreSQL and SQLite (3.33+): UPDATE ... FROM, the target named by its table, the source by an alias; no row
  // back means one of the two is missing (looked for then, to say which).
  const set = [...columns.map((c) => `${q(c)} = s.${q(c)}`), ...given.map((c) => `${q(c)} = ?`)];
  const [updated] = await db.query(`UPDATE ${t} SET ${set.join(', ')} FROM ${t} s WHERE s.id = ? AND ${t}.id = ? RETURNING ${t}.id${asked}`, [...givenValues, fromId, toId, ...askedParams]);
  if (!updated) await requireRows(db, schema, fromId, toId);
  return answered(updated!);
}

/** Throws unless rows `fromId` and `toId` of the schema's table exist, naming the one that does not. */
async function requireRows(db: Database, schema: ContentType | Component, fromId: number, toId: number): Promise<void> {
  const found = new Set((await db.query<{ id: number | string }>(`SELECT id FROM ${db.quote(schema.table)} WHERE id IN (?, ?)`, [fromId, toId])).map((r) => Number(r.id)));
  for (const [id, role] of [[fromId, 'from'], [toId, 'to']] as const) if (!found.has(id)) throw new Error(`${schema.table} has no row ${id} to copy ${role}`);
}

/** Which version of a relation's members a copy links: a target without Draft & Publish has one row, the same one. */
export function memberVersionOf(model: Model, targetUid: string, members: 'published' | 'draft' | 'same'): MemberVersion {
  return model.contentTypes.get(targetUid)?.draftAndPublish ? members : 'same';
}

/**
 * Gives row `toId` the own-side links of row `fromId` in every owning relation of `schema`, each member mapped to its
 * `members` version. A row without links yet (`fresh`) gets them copied with the other side's orders as they are
 * (Strapi's first publish: a tie with the source link); a row that has links gets its lists made equal, each kept
 * member's other-side order restored from its old link, new ones after every link of the member
 * (replaceLinksMapped). One or three statements per join table; `only` names the relations to copy (default all).
 */
export async function copyOwnLinks(
  db: Database,
  model: Model,
  schema: ContentType | Component,
  fromId: number,
  toId: number,
  members: 'published' | 'draft' | 'same',
  fresh: boolean,
  only?: readonly string[],
): Promise<void> {
  for (const { attribute } of owningJoins(model, schema)) {
    if (only && !only.includes(attribute.name)) continue;
    const join = relationJoin(model, schema, attribute);
    const version = memberVersionOf(model, attribute.target, members);
    if (fresh) await copyLinksMapped(db, join, { from: fromId, to: toId, members: version, otherOrder: 'copy' });
    else await replaceLinksMapped(db, join, { from: fromId, to: toId, members: version });
  }
}

/**
 * Gives row `toId` of `contentType` the links its mappedBy relations hold in another content type's join table (the
 * other type owns them), as Strapi's publish and discard-draft re-create the copied row's relations, both sides
 * (`getDeepPopulate` reads the mappedBy side too; `bidirectional-relations.js` restores the owners' orders):
 * - an owner WITH Draft & Publish: each link L → `fromId` whose L has a version in `members` (same document and
 *   locale) becomes L' → `toId`, L' that version; a link of `toId` whose L no longer links `fromId` goes. A fresh
 *   row gets the links' orders copied (the first publish's tie with the draft link); a kept row keeps each kept
 *   link's order in L's list, new ones go last there (MAX + 1), as Strapi restores them from the replaced version.
 * - an owner WITHOUT Draft & Publish links both versions of a document, so, when publishing, the owners that link
 *   `fromId` link `toId` too, in `fromId`'s order (new ones last in the owner's list); discarding a draft leaves them.
 * Self relations are mirrorSelfLinks' (publish-links.ts); links from components (their entry's version) and from
 * unidirectional relations (copyNonDraftSourceLinks) are not this rule's. `only` names the relations of
 * `contentType` to copy (default all).
 */
export async function copyInverseLinks(
  db: Database,
  model: Model,
  contentType: ContentType,
  fromId: number,
  toId: number,
  members: 'published' | 'draft',
  fresh: boolean,
  only?: readonly string[],
): Promise<void> {
  for (const { owner, attribute, table } of incomingJoins(model, contentType.uid)) {
    if (owner.modelType !== 'contentType' || owner.uid === contentType.uid || !attribute.inversedBy) continue;
    if (only && !only.includes(attribute.inversedBy)) continue;
    const join = { table, side: 'inverse' as const };
    if (!owner.draftAndPublish) {
      if (members === 'published') await replaceLinksMapped(db, join, { from: fromId, to: toId, members: 'same' });
    } else if (fresh) await copyLinksMapped(db, join, { from: fromId, to: toId, members, otherOrder: 'copy' });
    else await replaceLinksMapped(db, join, { from: fromId, to: toId, members });
  }
}

/** One `_cmps` row: a component row attached to a row in one field. */
interface CmpsRow {
  id: number | string;
  cmp_id: number | string;
  component_type: string;
}

/**
 * Attaches fresh copies of row `fromId`'s components (in `field` only, when given; every level) to row `toId` of
 * `owner`: each component row copied by the database, its `_cmps` row copied with its field and `order` (NULL for a
 * single component), its media rows, its own relation links and its morph links (members mapped to their `members`
 * version) with it. `toId` must have no components (in that field).
 * Components are a handful per entry: one `INSERT ... SELECT` per component row, as a new row's id comes back one
 * at a time on every dialect.
 */
export async function copyComponents(
  db: Database,
  model: Model,
  owner: ContentType | Component,
  fromId: number,
  toId: number,
  members: 'published' | 'draft' | 'same',
  field?: string,
): Promise<void> {
  if (![...owner.attributes.values()].some((a) => a.kind === 'component' || a.kind === 'dynamiczone')) return;
  const cmps = db.quote(owner.componentsTable);
  const order = db.quote('order');
  const links = await db.query<CmpsRow>(
    `SELECT id, cmp_id, component_type FROM ${cmps} WHERE entity_id = ?${field === undefined ? '' : ' AND field = ?'} ORDER BY id`,
    field === undefined ? [fromId] : [fromId, field],
  );
  for (const link of links) {
    const component = model.components.get(link.component_type);
    if (!component) continue;
    const newId = await copyComponentRow(db, model, component, Number(link.cmp_id), members);
    await db.execute(
      `INSERT INTO ${cmps} (entity_id, cmp_id, component_type, field, ${order}) SELECT ${checkedRowId(toId, owner.componentsTable, 'the row copied to')}, ${newId}, component_type, field, ${order} FROM ${cmps} WHERE id = ?`,
      [Number(link.id)],
    );
  }
}

/**
 * A fresh copy of component row `oldId`, attached to nothing: its columns, media rows, own relation and morph links
 * (members mapped to their `members` version) and its own components (every level). Returns the copy's id.
 */
export async function copyComponentRow(db: Database, model: Model, component: Component, oldId: number, members: 'published' | 'draft' | 'same'): Promise<number> {
  const newId = await copyColumns(db, component, oldId, undefined, storedColumns(component));
  if ([...component.attributes.values()].some((a) => a.kind === 'media')) await copyFileRows(db, component.uid, oldId, newId);
  await copyOwnLinks(db, model, component, oldId, newId, members, true);
  if ([...component.attributes.values()].some((a) => a.kind === 'morph')) await copyOwnMorphLinks(db, model, component, oldId, newId, members);
  await copyComponents(db, model, component, oldId, newId, members);
  return newId;
}
