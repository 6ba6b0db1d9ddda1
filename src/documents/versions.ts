import type { ContentType } from '../model/types.js';
import type { RowStore, VersionRow } from '../database/store/index.js';

/**
 * Publishing replaces the published version with a copy of the draft (its columns, components and relations),
 * so later draft edits leave the published version untouched.
 */
export async function publishVersion(store: RowStore, contentType: ContentType, rows: VersionRow[], now: string): Promise<void> {
  const draft = rows.find((r) => !r.published);
  if (!draft) return;
  await store.deleteRows(contentType, rows.filter((r) => r.published).map((r) => r.id));
  await store.copyRow(contentType, draft.id, { published_at: now });
}

/** Removes the published version; the draft stays. */
export async function unpublishVersion(store: RowStore, contentType: ContentType, rows: VersionRow[]): Promise<void> {
  await store.deleteRows(contentType, rows.filter((r) => r.published).map((r) => r.id));
}

/** Replaces the draft with a copy of the published version. */
export async function discardDraftVersion(store: RowStore, contentType: ContentType, rows: VersionRow[]): Promise<void> {
  const published = rows.find((r) => r.published);
  if (!published) return;
  await store.deleteRows(contentType, rows.filter((r) => !r.published).map((r) => r.id));
  await store.copyRow(contentType, published.id, { published_at: null });
}
