import type { ContentType } from '../model/types.js';
import type { Database } from '../database/types.js';
import { documentIdsByRowId, existingVersions, type LinkKey, type StoredStatus } from '../database/store/index.js';
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

/** An item once checked: its target document, locale ('' when not localized), version ('' for any) and position. */
export interface ResolvedTarget extends LinkKey {
  position?: Position;
}

/**
 * Checks that every target exists (in its locale; in the version it names, if any) and maps media file ids to
 * documentIds.
 */
export async function resolveTargets(
  db: Database,
  target: ContentType,
  items: RelationTarget[],
  localeOf: (t: RelationTarget) => string,
  statusOf: (t: RelationTarget) => StoredStatus,
  mustExist = true,
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
  const found = new Set<string>();
  for (const existing of await existingVersions(db, target, [...new Set(resolved.map((r) => r.documentId))])) {
    const key = `${existing.documentId}|${target.localized ? existing.locale : ''}`;
    found.add(`${key}|`);
    if (existing.version) found.add(`${key}|${existing.version}`);
  }
  for (const r of resolved) {
    if (!found.has(`${r.documentId}|${r.locale}|${r.status}`)) {
      const shown = r.documentId.startsWith('#') ? r.documentId.slice(1) : r.documentId;
      const status = r.status ? `, status "${r.status}"` : '';
      throw new ValidationError(`Document with id "${shown}", locale "${target.localized ? r.locale : 'null'}"${status} not found`);
    }
  }
  return resolved;
}
