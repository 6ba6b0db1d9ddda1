import type { ContentType } from '../model/types.js';
import type { RowStore, VersionRow } from '../database/store/index.js';

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

/** Removes the published row with what hangs off it; the draft stays. */
export async function unpublishStrapiVersion(store: RowStore, contentType: ContentType, rows: VersionRow[]): Promise<void> {
  await store.deleteRows(contentType, rows.filter((r) => r.published).map((r) => r.id));
}

/** Makes the draft a copy of the published row again (`published_at` NULL), relations mapped to draft targets. */
export async function discardStrapiDraft(store: RowStore, contentType: ContentType, rows: VersionRow[]): Promise<void> {
  const published = rows.find((r) => r.published);
  if (!published) return;
  const draft = rows.find((r) => !r.published);
  await store.copyVersion(contentType, published.id, draft?.id, { published_at: null }, 'draft');
}
