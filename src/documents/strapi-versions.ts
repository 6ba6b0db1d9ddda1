import type { ContentType } from '../model/types.js';
import type { RowStore, VersionRow } from '../database/store/index.js';
import { writeStrapiRelations, type StrapiRelationScope } from './strapi-relation-writes.js';
import type { RelationPlan, RowPlan } from './write-plan.js';

/**
 * Publishing, unpublishing and discarding a draft in Strapi 5's table layout (docs/strapi-5-writes.md, 2 and 4).
 * Strapi replaces the published row by a new one on every publish; Cairn makes the published row a copy of the
 * draft in place (same id) once it exists, with set-based statements whatever the size of its lists, so the links
 * other documents hold to it stay as they are (Strapi re-points them one by one). A first publish inserts the row,
 * as Strapi does. The only visible difference is the published entry's `id`, which stays the same across publishes
 * (the README's table of differences).
 */

/** Makes the published row a copy of the draft (`published_at` = now), the draft's relations mapped to published targets. */
export async function publishStrapiVersion(store: RowStore, contentType: ContentType, rows: VersionRow[], now: string): Promise<void> {
  const draft = rows.find((r) => !r.published);
  if (!draft) return;
  const published = rows.find((r) => r.published);
  // The draft's updated_at is the published row's too (a copy), as Strapi's: that is how its admin tells
  // "modified" from "published".
  await store.update(contentType, [draft.id], { updated_at: now });
  await store.copyVersion(contentType, draft.id, published?.id, { published_at: now }, 'published');
}

/**
 * Publishes a write whose published row was the draft's copy before it (`versionsInSync`): the published row gets the
 * draft's columns, components and media again, and the write's own relation changes (`plan`, applied to the draft
 * already) instead of a copy of every list, so a connect into a list of 10,000 publishes in the time of one link.
 * Lists to Draft & Publish targets are copied (their published members are not the draft's); lists the write did not
 * touch are equal already. `scope` is the published row's (version 'published').
 */
export async function publishStrapiWrite(
  store: RowStore,
  contentType: ContentType,
  rows: { draftId: number; publishedId: number },
  plan: RowPlan,
  now: string,
  scope: StrapiRelationScope,
): Promise<void> {
  const copied: string[] = [];
  const applied: RelationPlan[] = [];
  for (const relation of plan.relations) {
    const attribute = relation.attribute;
    if (attribute.kind !== 'relation') continue; // media: copied with the row
    const other = store.model.contentTypes.get(attribute.target)!;
    // The published rows of other documents with versions are other members than the draft's (either side of the
    // join table): their lists are copied, mapped. A target (or owner) without versions has one row, which both
    // versions link: the change applies to the published row too.
    if (other.draftAndPublish) copied.push(attribute.name);
    else applied.push(relation);
  }
  await store.copyVersion(contentType, rows.draftId, rows.publishedId, { published_at: now }, 'published', { links: copied });
  if (applied.length) await writeStrapiRelations(store.db, store.model, contentType, rows.publishedId, applied, scope);
}

/** Removes the published row with what hangs off it; the draft stays. */
export async function unpublishStrapiVersion(store: RowStore, contentType: ContentType, rows: VersionRow[]): Promise<void> {
  await store.deleteRows(contentType, rows.filter((r) => r.published).map((r) => r.id));
}

/**
 * Makes the draft a copy of the published row again (`published_at` NULL), relations mapped to draft targets. A
 * version never published has nothing to go back to: its draft is deleted, as Strapi 5.54's discardDraft deletes
 * the old drafts of the locales it is given and makes drafts of the published versions only.
 */
export async function discardStrapiDraft(store: RowStore, contentType: ContentType, rows: VersionRow[]): Promise<void> {
  const published = rows.find((r) => r.published);
  if (!published) {
    await store.deleteRows(contentType, rows.map((r) => r.id));
    return;
  }
  const draft = rows.find((r) => !r.published);
  await store.copyVersion(contentType, published.id, draft?.id, { published_at: null }, 'draft');
}
