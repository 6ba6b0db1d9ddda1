import type { ContentType } from '../model/types.js';
import type { Database } from '../database/types.js';
import { sqlDialect } from '../database/sql/index.js';
import type { RowStore } from './row-store.js';

/** The rows of one document in one locale (or every locale): its draft and/or published version. */
export interface VersionRow {
  id: number;
  locale: string | null;
  published: boolean;
}

export async function versionRows(
  db: Database,
  contentType: ContentType,
  documentId: string,
  locale: string | undefined,
): Promise<VersionRow[]> {
  const q = sqlDialect(db.dialect).quote;
  const byLocale = contentType.localized && locale !== undefined && locale !== '*';
  const rows = await db.query<{ id: number; locale?: string; published_at: unknown }>(
    `SELECT id, published_at${contentType.localized ? ', locale' : ''} FROM ${q(contentType.table)} WHERE document_id = ?${byLocale ? ' AND locale = ?' : ''} ORDER BY id`,
    byLocale ? [documentId, locale] : [documentId],
  );
  return rows.map((r) => ({ id: Number(r.id), locale: r.locale ?? null, published: r.published_at !== null }));
}

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
