import type { Component, ContentType, Model, RelationAttribute } from '../model/types.js';
import type { Database } from '../database/types.js';
import { siblingRowIds, versionRows, type StoredStatus, type VersionRow } from '../database/store/index.js';
import { relationJoin, type RelationJoin } from '../database/strapi-layout/names.js';
import { PairedListReads, StrapiLinkRows } from '../database/strapi-store/index.js';
import type { Anchor, RelationTarget } from './relation-ops.js';
import { connectOrdered, type ConnectMember } from './ordered-connect.js';
import { narrowed, resolveTargets, TargetRows, type ResolvedTarget } from './relation-targets.js';
import type { RelationScope } from './relation-writes.js';
import type { RelationPlan } from './write-plan.js';

/**
 * Which version row the written row is (or belongs to, for a component row): a Draft & Publish document's draft or
 * published row, or the one row of a type without Draft & Publish.
 */
export type RowVersion = 'draft' | 'published' | 'single';

export type StrapiRelationScope = RelationScope & {
  version: RowVersion;
  /**
   * The row was inserted by this request (a create, or a locale's first draft): Strapi writes the lists a `connect`
   * makes there 0, 1, 2... rather than 1..n (docs/strapi-5-writes.md 5.1). Defaults to false (an update).
   */
  created?: boolean;
  /**
   * The target rows read by this write's transaction, by target type: publishing a write applies its lists' changes
   * to the draft and then to the published row, whose targets (without versions) are the same rows.
   */
  targetsRead?: Map<string, Map<string, VersionRow[]>>;
  /**
   * Set when the same relation plans are applied next to another row's lists (a publishing update whose published
   * row is the draft's copy): a connect into a list of targets without versions reads that row's list with its own
   * (the lists of targets with versions are copied instead). Nothing may write those lists in between.
   */
  paired?: PairedListReads;
};

/** A scope's cache of target rows for `target` (a new one when the scope keeps none). */
function readTargets(scope: StrapiRelationScope, target: ContentType): Map<string, VersionRow[]> {
  if (!scope.targetsRead) return new Map();
  let read = scope.targetsRead.get(target.uid);
  if (!read) scope.targetsRead.set(target.uid, (read = new Map()));
  return read;
}

/**
 * Writes a row's relation plans into Strapi 5's join tables (`*_lnk`, docs/strapi-5-writes.md 3 and 5), the
 * counterpart of relation-writes.ts for a database Strapi made. Links join version rows, so each item is first
 * mapped to the rows it links by Strapi's version rules (`linkedRows`); lists are then edited through
 * database/strapi-store (`StrapiLinkRows`), with Strapi's ordering of a `connect` (ordered-connect.ts,
 * relation-order.ts) and Strapi's values afterwards: the edited list renumbered 1..n, a new link last in its member's
 * own list (MAX + 1), the members' own lists renumbered when a write deleted their links. Media plans are not
 * relations here (Strapi keeps media in `files_related_mph`): refused.
 */
export async function writeStrapiRelations(
  db: Database,
  model: Model,
  source: ContentType | Component,
  rowId: number,
  plans: RelationPlan[],
  scope: StrapiRelationScope,
): Promise<void> {
  for (const plan of plans) {
    if (plan.attribute.kind === 'media') throw new Error(`${source.uid}.${plan.attribute.name}: media is written to files_related_mph, not by writeStrapiRelations`);
  }
  // All or nothing: an item refused halfway (an unknown anchor is found once the list is read) leaves no list changed.
  await db.transaction(async (trx) => {
    for (const plan of plans) {
      const attribute = plan.attribute as RelationAttribute;
      await writeSide(trx, model, source, rowId, attribute, relationJoin(model, source, attribute), plan, scope);
    }
  });
}

/**
 * One attribute's list. On the owner side it is the row's targets; on the inverse side (`mappedBy`) the owner's join
 * table read backwards: the owner rows linking this row, ordered by the inverse order column. Either way the members
 * are rows of `attribute.target`, linked by the same version rules seen from the owner (a draft links drafts, a
 * published row published rows, a row without versions both), so one path writes both sides.
 */
async function writeSide(
  db: Database,
  model: Model,
  source: ContentType | Component,
  rowId: number,
  attribute: RelationAttribute,
  join: RelationJoin,
  plan: RelationPlan,
  scope: StrapiRelationScope,
): Promise<void> {
  const other = model.contentTypes.get(attribute.target)!;
  const links = new StrapiLinkRows(db, join, rowId, other.draftAndPublish ? undefined : scope.paired);
  // A component takes its document's locale (scope.locale, when the document has one).
  const sourceLocalized = source.modelType === 'contentType' ? source.localized : true;
  const localeOf = (t: RelationTarget) => (other.localized ? (t.locale ?? (sourceLocalized ? scope.locale : undefined) ?? scope.defaultLocale) : '');
  // An item's status only means something from a row without versions to a target with them (Strapi's dp.js).
  const carriesStatus = scope.version === 'single' && other.draftAndPublish;
  const statusOf = (t: RelationTarget): StoredStatus => (carriesStatus ? (t.status ?? '') : '');
  const anchorOf = (a: Anchor): Anchor => ({ documentId: a.documentId, locale: other.localized ? a.locale : undefined, status: carriesStatus ? a.status : undefined });
  // The rows of the items' and anchors' documents, read once for this list.
  const targetRows = new TargetRows(db, other, readTargets(scope, other));
  const resolve = async (items: RelationTarget[], mustExist = true) => {
    const resolved = await resolveTargets(db, other, items, localeOf, statusOf, mustExist, targetRows);
    await targetRows.load(resolved.map((r) => r.documentId));
    return resolved.map((r) => ({ ...r, position: r.position && narrowed(r.position, anchorOf) }));
  };
  const rowsOf = (r: ResolvedTarget) => linkedRowsAmong(targetRows.of(r.documentId, r.locale || undefined), other, scope.version, r.status);
  // Strapi's "steal" (`deletePreviousOneToAnyRelations`): on a bidirectional relation whose members have one owner
  // (oneToOne, and a oneToMany's inverse side: each owner row links one target), linking a member removes its links
  // from other documents' rows; this document's other versions and locales keep theirs.
  const exclusive = (attribute.relation === 'oneToOne' || attribute.relation === 'oneToMany') && (attribute.inversedBy !== undefined || attribute.mappedBy !== undefined);
  const stealFrom = async (members: number[]) => {
    if (!exclusive || !members.length) return;
    const own = source.modelType === 'contentType' ? await siblingRowIds(db, source, rowId) : [rowId];
    await links.unlinkMembersElsewhere(members, own);
  };
  const ops = plan.ops;

  if (ops.kind === 'set') {
    const rows = unique((await resolve(ops.targets)).flatMap(rowsOf));
    if (!attribute.toMany) await replaceToOne(links, rows);
    else await links.list.set(rows);
    await stealFrom(rows);
    return;
  }

  // The items' documents and their anchors' in one statement (items given by row id are mapped first, in resolve).
  const anchorOfItem = (t: RelationTarget): Anchor[] => (t.position && 'before' in t.position ? [t.position.before] : t.position && 'after' in t.position ? [t.position.after] : []);
  const byDocumentId = (items: RelationTarget[]) => items.flatMap((t) => (typeof t.ref === 'string' ? [t.ref] : []));
  await targetRows.load([...byDocumentId(ops.connect), ...byDocumentId(ops.disconnect), ...ops.connect.flatMap(anchorOfItem).map((a) => a.documentId)]);
  const same = (a: ResolvedTarget, b: ResolvedTarget) => a.documentId === b.documentId && a.locale === b.locale && a.status === b.status;
  // Items naming the same link once their status is dropped (a source with versions) are one item.
  const connect = (await resolve(ops.connect)).filter((r, i, all) => all.findIndex((o) => same(o, r)) === i);
  // As Strapi: an item both disconnected and connected is only (re)connected.
  const disconnect = (await resolve(ops.disconnect, false)).filter((d) => !connect.some((c) => same(c, d)));
  const connected: Array<{ target: ResolvedTarget; row: number }> = [];
  for (const target of connect) {
    for (const row of rowsOf(target)) if (!connected.some((c) => c.row === row)) connected.push({ target, row });
  }
  const connectRows = connected.map((c) => c.row);
  const disconnectRows = unique(disconnect.flatMap(rowsOf)).filter((row) => !connectRows.includes(row));
  // The anchors' rows in the version and locale an anchor names (any, unless named).
  const anchorRows = (a: Anchor) =>
    targetRows
      .of(a.documentId, other.localized ? a.locale : undefined)
      .filter((r) => a.status === undefined || r.published === (a.status === 'published'))
      .map((r) => r.id);
  const anchors = connect.flatMap((t) => anchorOfItem({ ref: t.documentId, position: t.position }));
  const anchorMembers = unique(anchors.flatMap(anchorRows));
  // A connect into a list that loses no link reads its window (connectOrdered) with its links, in one statement.
  const windowFor = attribute.toMany && connected.length && !disconnectRows.length ? anchorMembers : undefined;
  const linkOf = await links.orderedLinksOf(unique([...connectRows, ...disconnectRows, ...anchorMembers]), windowFor);
  const removedLinks = disconnectRows.flatMap((row) => (linkOf.has(row) ? [linkOf.get(row)!.id] : []));

  if (!attribute.toMany) {
    // A to-one list: connecting replaces what it held, but for the links to the connected document's other rows
    // (Strapi's deletePreviousAnyToOneRelations keeps a document's siblings: a source without versions may link a
    // target's draft and its published version, one connect each). Positions mean nothing here.
    const siblings = unique(connected.flatMap(({ target }) => targetRows.of(target.documentId, undefined).map((r) => r.id)));
    if (connectRows.length) await replaceToOne(links, connectRows, siblings);
    else await links.unlink(removedLinks);
    await stealFrom(connectRows);
    return;
  }

  const members: ConnectMember[] = connected.map(({ target, row }) => {
    const id = linkOf.get(row)?.id;
    return { key: id === undefined ? `new:${row}` : `link:${id}`, ref: target.documentId, position: target.position, insert: { member: row } };
  });
  const anchorKey = async (a: Anchor): Promise<string | undefined> => {
    // The first of the anchor's rows in this list (by order, then link id).
    const rows = anchorRows(a);
    const first = rows
      .flatMap((row) => (linkOf.has(row) ? [linkOf.get(row)!] : []))
      .sort((x, y) => (x.order ?? 0) - (y.order ?? 0) || x.id - y.id)[0];
    if (first) return `link:${first.id}`;
    const i = connected.findIndex((c) => rows.includes(c.row));
    return i >= 0 ? members[i].key : undefined;
  };
  await connectOrdered(links, members, anchorKey, new Set(removedLinks), async () => {
    await links.unlink(removedLinks);
  });
  // A created row's list holds only what this connect placed: written 0, 1, 2... as Strapi's create does. An update
  // leaves the values where the connect put them (the midpoint of the neighbours': one row written, whatever the
  // list's length), where Strapi renumbers the whole list 1..n; reads order the same.
  if (scope.created) await links.renumber(0);
  await stealFrom(connectRows);
}

/**
 * A to-one list now holds `rows` (one document's rows): its other links go (but for those to `kept`, rows of the
 * same document), links kept stay the same rows.
 */
async function replaceToOne(links: StrapiLinkRows, rows: number[], kept: number[] = rows): Promise<number[]> {
  const removed = await links.unlinkAllBut(unique([...rows, ...kept]));
  const linked = await links.linksOf(rows);
  for (const row of rows) if (!linked.has(row)) await links.link(row);
  return removed;
}

/**
 * The rows of `target`'s document (in `locale`) that a row of version `version` links (docs/strapi-5-writes.md 3):
 * a target without Draft & Publish: its one row; from a draft: the target's draft; from a published row: its
 * published row (none: no link, as Strapi); from a row without versions: both, draft first, or the one `status`
 * names.
 */
export async function linkedRows(db: Database, target: ContentType, documentId: string, locale: string | undefined, version: RowVersion, status: StoredStatus): Promise<number[]> {
  return linkedRowsAmong(await versionRows(db, target, documentId, locale), target, version, status);
}

/** linkedRows among a document's rows read already. */
function linkedRowsAmong(rows: VersionRow[], target: ContentType, version: RowVersion, status: StoredStatus): number[] {
  if (!target.draftAndPublish) return rows.map((r) => r.id);
  const wanted = version === 'single' ? status : version;
  const drafts = rows.filter((r) => !r.published).map((r) => r.id);
  const published = rows.filter((r) => r.published).map((r) => r.id);
  if (wanted === 'draft') return drafts;
  if (wanted === 'published') return published;
  return [...drafts, ...published];
}

const unique = (values: number[]): number[] => [...new Set(values)];
