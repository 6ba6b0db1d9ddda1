import type { ContentType } from '../model/types.js';
import type { Database } from '../database/types.js';
import { documentIdsByRowId, documentsRows, type LinkKey, type StoredStatus, type VersionRow } from '../database/store/index.js';
import { ValidationError } from '../errors/index.js';
import type { Anchor, Position, RelationTarget } from './relation-ops.js';

/**
 * The relation items of a request checked against the target's rows, for both table layouts (relation-writes.ts,
 * strapi-relation-writes.ts): the same checks and the same messages (Strapi's) whichever layout stores the links.
 */

/** A position with its anchor narrowed by `anchor` (to what a list's links can differ in). */
export function narrowed(position: Position, anchor: (a: Anchor) => Anchor): Position {
  if ('before' in position) return { before: anchor(position.before) };
  if ('after' in position) return { after: anchor(position.after) };
  return position;
}

/**
 * The rows of a relation's target documents, read once for a list's write (one statement for its items and their
 * anchors): whether an item exists, which rows it links, which rows an anchor names.
 */
export class TargetRows {
  constructor(
    private readonly db: Database,
    readonly target: ContentType,
    /** What was read already of `target`'s documents in this transaction (a write's draft and published passes share it). */
    private readonly byDocument = new Map<string, VersionRow[]>(),
  ) {}

  /** Reads the rows of those documents not read yet. */
  async load(documentIds: Iterable<string>): Promise<void> {
    const missing = [...new Set(documentIds)].filter((id) => !this.byDocument.has(id));
    if (!missing.length) return;
    const found = await documentsRows(this.db, this.target, missing);
    for (const id of missing) this.byDocument.set(id, found.get(id) ?? []);
  }

  /** A loaded document's rows in `locale`; every locale's for undefined or '*' (and for types without locales). */
  of(documentId: string, locale: string | undefined): VersionRow[] {
    const rows = this.byDocument.get(documentId);
    if (!rows) throw new Error(`${this.target.uid}: the rows of ${documentId} were not read`);
    return this.target.localized && locale !== undefined && locale !== '*' ? rows.filter((r) => r.locale === locale) : rows;
  }
}

/** An item once checked: its target document, locale ('' when not localized), version ('' for any) and position. */
export interface ResolvedTarget extends LinkKey {
  position?: Position;
}

/**
 * Checks that every target exists (in its locale; in the version it names, if any) and maps media file ids to
 * documentIds. `rows` keeps what was read, for the caller's next questions about the same documents.
 */
export async function resolveTargets(
  db: Database,
  target: ContentType,
  items: RelationTarget[],
  localeOf: (t: RelationTarget) => string,
  statusOf: (t: RelationTarget) => StoredStatus,
  mustExist = true,
  rows = new TargetRows(db, target),
): Promise<ResolvedTarget[]> {
  if (!items.length) return [];
  const numeric = items.filter((t) => typeof t.ref === 'number').map((t) => t.ref as number);
  let byId = new Map<number, string>();
  if (numeric.length) {
    byId = await documentIdsByRowId(db, target, numeric);
    // Ids (not documentIds) that name no entry: counted per target type, in Strapi's words.
    const missing = new Set(numeric.filter((id) => !byId.has(id)));
    if (mustExist && missing.size) {
      const message = `${missing.size} relation(s) of type ${target.uid} associated with this entity do not exist`;
      throw ValidationError.fromFieldErrors([{ path: [], message, name: 'ValidationError' }]);
    }
  }
  const resolved = items.map((t) => ({
    documentId: typeof t.ref === 'number' ? (byId.get(t.ref) ?? `#${t.ref}`) : t.ref,
    locale: localeOf(t),
    status: statusOf(t),
    position: t.position,
  }));
  if (!mustExist) return resolved;
  await rows.load(resolved.map((r) => r.documentId));
  for (const r of resolved) {
    // A version is asked for only of a Draft & Publish target (statusOf); '' is any.
    const versions = rows.of(r.documentId, target.localized ? r.locale : undefined).filter((v) => r.status === '' || (target.draftAndPublish && v.published === (r.status === 'published')));
    if (!versions.length) {
      const shown = r.documentId.startsWith('#') ? r.documentId.slice(1) : r.documentId;
      const status = r.status ? `, status "${r.status}"` : '';
      throw new ValidationError(`Document with id "${shown}", locale "${target.localized ? r.locale : 'null'}"${status} not found`);
    }
  }
  return resolved;
}
