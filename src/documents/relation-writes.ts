import type { Component, ContentType, MediaAttribute, Model } from '../model/types.js';
import { allowsMime, notAllowedMessage } from '../model/media-types.js';
import type { Database } from '../database/types.js';
import { fileMimeTypes, linkFileRows, rowFileDocumentIds } from '../database/store/index.js';
import { ValidationError } from '../errors/index.js';
import type { RelationTarget } from './relation-ops.js';
import { resolveTargets } from './relation-targets.js';
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
    const kept = (await rowFileDocumentIds(db, { relatedType: source.uid, field: attribute.name }, rowId)).filter((d) => !disconnect.has(d) || connect.includes(d));
    documentIds = attribute.multiple ? [...new Set([...kept, ...connect])] : connect.length ? connect.slice(-1) : kept;
  }
  await checkAllowedTypes(db, attribute, documentIds);
  // Strapi keeps every media field of every type in one table, by row id, type and field.
  await linkFileRows(db, source.uid, rowId, attribute.name, documentIds, 'replace');
}

/** A media attribute's `allowedTypes` (images, videos, audios, files = anything else), checked on each file's mime. */
async function checkAllowedTypes(db: Database, attribute: MediaAttribute, documentIds: string[]): Promise<void> {
  if (!attribute.allowedTypes.length || !documentIds.length) return;
  for (const file of await fileMimeTypes(db, documentIds)) {
    if (!allowsMime(attribute, file.mime)) throw new ValidationError(notAllowedMessage(attribute, file));
  }
}
