import type { Cairn } from '../app/cairn.js';
import { ValidationError } from '../errors/index.js';

/**
 * `ref`, `refId`, `field` on an upload: link the new files to an entry's media attribute (appended to a
 * multiple one, replacing a single one), on the entry's row given by its id, in one transaction.
 */
export async function attachToEntry(cairn: Cairn, fields: Record<string, string>, fileIds: number[]): Promise<void> {
  const { ref, refId, field } = fields;
  const contentType = cairn.model.contentTypes.get(ref ?? '');
  if (!contentType) throw new ValidationError(`ref: unknown content-type ${ref}`);
  const attribute = contentType.attributes.get(field ?? '');
  if (!attribute || attribute.kind !== 'media') throw new ValidationError(`field: ${field} is not a media attribute of ${ref}`);
  const q = (s: string) => cairn.db.quote(s);
  const rows = await cairn.db.query<{ document_id: string }>(`SELECT document_id FROM ${q(contentType.table)} WHERE id = ?`, [Number(refId)]);
  if (!/^\d+$/.test(refId ?? '') || !rows.length) throw new ValidationError(`refId: no ${ref} entry with id ${refId}`);
  const files = await cairn.db.query<{ document_id: string }>(
    `SELECT document_id FROM ${q('files')} WHERE id IN (${fileIds.map(() => '?').join(', ')}) ORDER BY id`,
    fileIds,
  );
  await cairn.db.transaction(async (trx) => {
    if (!attribute.multiple) await trx.execute(`DELETE FROM ${q(attribute.linkTable)} WHERE entity_id = ?`, [Number(refId)]);
    const [max] = await trx.query<{ m: number | null }>(`SELECT MAX(ord) AS m FROM ${q(attribute.linkTable)} WHERE entity_id = ?`, [Number(refId)]);
    let ord = Number(max?.m ?? 0);
    for (const file of attribute.multiple ? files : files.slice(-1)) {
      await trx.execute(
        `INSERT INTO ${q(attribute.linkTable)} (entity_id, target_document_id, target_locale, ord, inv_ord) VALUES (?, ?, '', ?, ?)`,
        [Number(refId), file.document_id, ++ord, 1],
      );
    }
  });
}
