import type { Component, ContentType, MediaAttribute, Model, RelationAttribute } from '../model/types.js';
import { allowsMime, notAllowedMessage } from '../model/media-types.js';
import type { Database } from '../database/types.js';
import {
  LinkList,
  documentIdOfRow,
  documentRowIds,
  fileMimeTypes,
  linkFiles,
  linkFileRows,
  rowFileDocumentIds,
  type LinkKey,
  type StoredStatus,
} from '../database/store/index.js';
import { ValidationError } from '../errors/index.js';
import type { Anchor, RelationTarget } from './relation-ops.js';
import { narrowed, resolveTargets, type ResolvedTarget } from './relation-targets.js';
import { connectOrdered, type ConnectMember } from './ordered-connect.js';
import type { RelationPlan } from './write-plan.js';

/** Where relation writes happen: the source row's locale and the default locale for localized targets. */
export interface RelationScope {
  locale?: string;
  defaultLocale: string;
  /**
   * The entry written has Draft & Publish: its draft links the targets' drafts and its published version their
   * published versions, so a link never names a version of its own.
   */
  versioned: boolean;
}

/**
 * Writes a row's relations and media from its plan. Relation lists are ordered links (database/store/link-list.ts):
 * order keys are doubles, inserting between two neighbours takes the midpoint, so placing one item anywhere in a
 * list of N touches one row (the list is renumbered only when a gap is exhausted). Media attributes take `set` only:
 * their files replace the row's (database/store/media-links.ts).
 */
export async function writeRelations(
  db: Database,
  model: Model,
  source: ContentType | Component,
  rowId: number,
  plans: RelationPlan[],
  scope: RelationScope,
): Promise<void> {
  for (const plan of plans) {
    const attribute = plan.attribute;
    if (attribute.kind === 'media') {
      await writeMedia(db, model, source, rowId, attribute, plan);
      continue;
    }
    if (!attribute.owner) {
      await writeInverse(db, model, source as ContentType, rowId, attribute, plan, scope);
      continue;
    }
    const list = new LinkList(db, attribute.linkTable, 'entity_id', rowId, 'ord');
    const target = model.contentTypes.get(attribute.target)!;
    const sourceLocalized = source.modelType === 'contentType' && source.localized;
    const targetLocale = (t: RelationTarget) =>
      target.localized ? (t.locale ?? (sourceLocalized ? scope.locale : undefined) ?? scope.defaultLocale) : '';
    // An item's status only means something where the source has no versions of its own and the target has.
    const carriesStatus = !scope.versioned && target.draftAndPublish;
    const targetStatus = (t: RelationTarget): StoredStatus => (carriesStatus ? (t.status ?? '') : '');
    // A position's anchor is narrowed by what this list's links can differ in, and nothing else.
    const anchor = (a: Anchor): Anchor => ({
      documentId: a.documentId,
      locale: target.localized ? a.locale : undefined,
      status: carriesStatus ? a.status : undefined,
    });
    const resolve = async (items: RelationTarget[], mustExist = true) =>
      (await resolveTargets(db, target, items, targetLocale, targetStatus, mustExist)).map((r) => ({ ...r, position: r.position && narrowed(r.position, anchor) }));
    const ops = plan.ops;
    if (ops.kind === 'set') {
      const resolved = await resolve(ops.targets);
      await list.clear();
      for (const r of resolved) await list.append(r);
      continue;
    }
    const sameLink = (a: LinkKey, b: LinkKey) => a.documentId === b.documentId && a.locale === b.locale && a.status === b.status;
    // Items that name the same link once their status is dropped (a source with Draft & Publish) are one item.
    const connect = (await resolve(ops.connect)).filter((r, i, all) => all.findIndex((other) => sameLink(other, r)) === i);
    // As Strapi: an item both disconnected and connected is only (re)connected.
    const disconnect = (await resolve(ops.disconnect, false)).filter((d) => !connect.some((c) => sameLink(c, d)));
    if (!attribute.toMany && connect.length) {
      await list.clear();
    }
    // Each item's link, if the list has one (a whole-document link merged from version links first).
    const links = new Map<ResolvedTarget, number | null>();
    for (const r of connect) links.set(r, await list.linkOf(r));
    const members: ConnectMember[] = connect.map((r, i) => {
      const id = links.get(r)!;
      return {
        key: id === null ? `new:${i}` : `link:${id}`,
        ref: r.documentId,
        position: r.position,
        insert: { entity_id: rowId, target_document_id: r.documentId, target_locale: r.locale, target_status: r.status },
      };
    });
    const anchorKey = async (a: Anchor): Promise<string | undefined> => {
      const id = await list.anchorLink(a);
      if (id !== null) return `link:${id}`;
      const i = connect.findIndex(
        (c) => c.documentId === a.documentId && (a.locale === undefined || c.locale === a.locale) && (a.status === undefined || c.status === a.status || c.status === ''),
      );
      return i >= 0 ? members[i].key : undefined;
    };
    const removed = await list.linksOf(disconnect);
    await connectOrdered(list, members, anchorKey, removed, async () => {
      for (const r of disconnect) await list.remove(r);
    });
  }
}

/**
 * A media attribute's value replaces its files (relation-ops.ts gives it `set` only), each file once, checked
 * against the attribute's `allowedTypes`.
 */
export async function writeMedia(db: Database, model: Model, source: ContentType | Component, rowId: number, attribute: MediaAttribute, plan: RelationPlan): Promise<void> {
  // Files have neither locales nor versions.
  const fileContentType = model.contentTypes.get(attribute.target)!;
  const resolve = async (items: RelationTarget[], mustExist = true) => (await resolveTargets(db, fileContentType, items, () => '', () => '', mustExist)).map((r) => r.documentId);
  const ops = plan.ops;
  let documentIds: string[];
  if (ops.kind === 'set') documentIds = [...new Set(await resolve(ops.targets))];
  else {
    // connect appends files the field lacks (a single media field: replaces its file), disconnect removes files.
    const connect = await resolve(ops.connect);
    const disconnect = new Set(await resolve(ops.disconnect, false));
    const kept = (await rowFileDocumentIds(db, { linkTable: attribute.linkTable, relatedType: source.uid, field: attribute.name }, rowId)).filter((d) => !disconnect.has(d) || connect.includes(d));
    documentIds = attribute.multiple ? [...new Set([...kept, ...connect])] : connect.length ? connect.slice(-1) : kept;
  }
  await checkAllowedTypes(db, attribute, documentIds);
  // Strapi keeps every media field of every type in one table, by row id, type and field.
  if (db.layout === 'strapi') await linkFileRows(db, source.uid, rowId, attribute.name, documentIds, 'replace');
  else await linkFiles(db, attribute.linkTable, rowId, documentIds, 'replace');
}

/** A media attribute's `allowedTypes` (images, videos, audios, files = anything else), checked on each file's mime. */
async function checkAllowedTypes(db: Database, attribute: MediaAttribute, documentIds: string[]): Promise<void> {
  if (!attribute.allowedTypes.length || !documentIds.length) return;
  for (const file of await fileMimeTypes(db, documentIds)) {
    if (!allowsMime(attribute, file.mime)) throw new ValidationError(notAllowedMessage(attribute, file));
  }
}

/**
 * The inverse side (`mappedBy`) of a relation is stored in the owner's link table: writing it links the
 * related documents' rows to this document, ordered by `inv_ord`.
 */
async function writeInverse(
  db: Database,
  model: Model,
  source: ContentType,
  rowId: number,
  attribute: RelationAttribute,
  plan: RelationPlan,
  scope: RelationScope,
): Promise<void> {
  const owner = model.contentTypes.get(attribute.target)!;
  const ownerAttribute = owner.attributes.get(attribute.mappedBy!) as RelationAttribute;
  const myDocumentId = await documentIdOfRow(db, source, rowId);
  const myLocale = source.localized ? (scope.locale ?? scope.defaultLocale) : '';
  const list = new LinkList(db, attribute.linkTable, 'target_document_id', myDocumentId, 'inv_ord', {
    locale: myLocale,
    ownerTable: owner.table,
  });
  const localeOf = (t: RelationTarget) => (owner.localized ? (t.locale ?? scope.locale ?? scope.defaultLocale) : '');
  // The owner document's rows, its draft first: Strapi links a document without Draft & Publish to both versions of
  // one with it, in that order, and a position names the first (relation-order.ts places each row).
  const rowsOf = (documentId: string, locale: string) => documentRowIds(db, owner, documentId, locale);
  /** A to-one owner (manyToOne) links one document: linking its row here unlinks it from any other. */
  const unlinkElsewhere = async (ownerRow: number) => {
    if (!ownerAttribute.toMany) await list.unlinkOwnerElsewhere(ownerRow);
  };
  // The inverse side links every version row of the owner document: an item's status does not apply here.
  const resolve = (items: RelationTarget[], mustExist = true) => resolveTargets(db, owner, items, localeOf, () => '', mustExist);
  const ops = plan.ops;
  if (ops.kind === 'set') {
    const targets = await resolve(ops.targets);
    await list.clear();
    for (const r of targets) {
      for (const ownerRow of await rowsOf(r.documentId, r.locale)) {
        await unlinkElsewhere(ownerRow);
        await list.placeRow(ownerRow);
      }
    }
    return;
  }
  const connect = await resolve(ops.connect);
  const sameDocument = (a: ResolvedTarget, b: ResolvedTarget) => a.documentId === b.documentId && a.locale === b.locale;
  const disconnect = (await resolve(ops.disconnect, false)).filter((d) => !connect.some((c) => sameDocument(c, d)));
  const removed = new Set<number>();
  const disconnectedRows: number[] = [];
  for (const r of disconnect) disconnectedRows.push(...(await rowsOf(r.documentId, r.locale)));
  for (const id of await list.linksOfRows(disconnectedRows)) removed.add(id);
  const members: ConnectMember[] = [];
  const memberRows: number[] = [];
  for (const r of connect) {
    for (const ownerRow of await rowsOf(r.documentId, r.locale)) {
      const id = await list.linkOfRow(ownerRow);
      members.push({
        key: id === null ? `new:${ownerRow}` : `link:${id}`,
        ref: r.documentId,
        position: r.position,
        insert: { entity_id: ownerRow, target_document_id: myDocumentId, target_locale: myLocale },
      });
      memberRows.push(ownerRow);
    }
  }
  const anchorKey = async (a: Anchor): Promise<string | undefined> => {
    const [first] = await rowsOf(a.documentId, owner.localized ? (a.locale ?? scope.locale ?? scope.defaultLocale) : '');
    if (first === undefined) return undefined;
    const id = await list.linkOfRow(first);
    if (id !== null) return `link:${id}`;
    const i = memberRows.indexOf(first);
    return i >= 0 ? members[i].key : undefined;
  };
  await connectOrdered(list, members, anchorKey, removed, async () => {
    if (disconnectedRows.length) await list.unlinkRows(disconnectedRows);
  });
  for (const ownerRow of memberRows) await unlinkElsewhere(ownerRow);
}
