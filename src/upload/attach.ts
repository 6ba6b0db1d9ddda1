import type { Caller } from '../auth/access-control.js';
import type { Database } from '../database/types.js';
import { fileDocumentIds, linkFileRows, rowExists } from '../database/store/index.js';
import { ForbiddenError, NotFoundError, ValidationError, type FieldError } from '../errors/index.js';
import { allowsMime, notAllowedMessage } from '../model/media-types.js';
import type { ContentType, MediaAttribute } from '../model/types.js';
import type { UploadHost } from './host.js';
import type { IncomingFile } from './upload-service.js';

/** Where an upload's files go: an entry's row (by id) and one of its media attributes. */
export interface AttachTarget {
  contentType: ContentType;
  attribute: MediaAttribute;
  rowId: number;
}

/**
 * `ref`, `refId`, `field` on an upload, checked before anything is stored, as a write to the entry would be: the
 * content-type and its media attribute exist (400), the caller may update the entry (403), the entry exists
 * (404), and every file is of a type the attribute allows (400). Undefined when the upload attaches to nothing.
 */
export async function attachTarget(host: Pick<UploadHost, 'db' | 'model'>, caller: Caller, fields: Record<string, string>, files: IncomingFile[]): Promise<AttachTarget | undefined> {
  const { ref, refId, field } = fields;
  if (ref === undefined && refId === undefined && field === undefined) return undefined;
  const missing = (['ref', 'refId', 'field'] as const).filter((key) => !fields[key]);
  if (missing.length) throw new ValidationError(`To attach files, give ref, refId and field together (missing: ${missing.join(', ')})`, { missing });
  const contentType = host.model.contentTypes.get(ref);
  if (!contentType) throw new ValidationError(`ref: unknown content-type ${ref}`, { key: 'ref', value: ref });
  const attribute = contentType.attributes.get(field);
  if (!attribute || attribute.kind !== 'media') throw new ValidationError(`field: ${field} is not a media attribute of ${ref}`, { key: 'field', value: field });
  if (!caller.can(`${contentType.uid}.update`)) throw new ForbiddenError();
  if (!/^\d+$/.test(refId)) throw new ValidationError(`refId: ${refId} is not an entry id`, { key: 'refId', value: refId });
  const rowId = Number(refId);
  if (!(await rowExists(host.db, contentType.table, rowId))) throw new NotFoundError(`No ${ref} entry with id ${refId}`);
  const errors: FieldError[] = files
    .filter((file) => !allowsMime(attribute, file.mime))
    .map((file) => ({ path: [field], message: notAllowedMessage(attribute, { name: file.filename, mime: file.mime }), name: 'ValidationError', value: file.filename }));
  if (errors.length) throw ValidationError.fromFieldErrors(errors);
  return { contentType, attribute, rowId };
}

/**
 * Links the stored files to the target (appended to a multiple attribute, replacing a single one), in one
 * transaction. The entry may have gone since the check: then nothing is linked and the answer is a 404.
 */
export async function attachToEntry(db: Database, target: AttachTarget, fileIds: number[]): Promise<void> {
  const { attribute, rowId } = target;
  // In the order of their ids: a single media field keeps the last of them, as Strapi's upload does.
  const files = await fileDocumentIds(db, [...fileIds].sort((a, b) => a - b));
  await db.transaction(async (trx) => {
    if (!(await rowExists(trx, target.contentType.table, rowId))) throw new NotFoundError(`No ${target.contentType.uid} entry with id ${rowId}`);
    const linked = attribute.multiple ? files : files.slice(-1);
    const mode = attribute.multiple ? 'append' : 'replace';
    // Strapi's layout keeps media in files_related_mph (by row id and uid).
    await linkFileRows(trx, target.contentType.uid, rowId, attribute.name, linked, mode);
  });
}
