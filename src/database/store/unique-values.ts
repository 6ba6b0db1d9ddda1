import type { ContentType, ScalarAttribute } from '../../model/types.js';
import type { Database } from '../types.js';
import { sqlDialect } from '../sql/index.js';

/**
 * Whether another document holds `value` in a unique attribute, among the versions a write compares with: its
 * rows in `locale` (localized types), and only drafts under Draft & Publish.
 */
export async function uniqueValueTaken(
  db: Database,
  contentType: ContentType,
  attribute: ScalarAttribute,
  value: unknown,
  documentId: string,
  locale: string | undefined,
): Promise<boolean> {
  const d = sqlDialect(db.dialect);
  const conditions = [`${d.quote(attribute.column)} = ?`, 'document_id <> ?'];
  const params: unknown[] = [d.bindValue(value, attribute.type === 'password' ? 'string' : attribute.type), documentId];
  if (contentType.localized) {
    conditions.push('locale = ?');
    params.push(locale);
  }
  if (contentType.draftAndPublish) conditions.push('published_at IS NULL');
  const rows = await db.query(`SELECT 1 AS hit FROM ${d.quote(contentType.table)} WHERE ${conditions.join(' AND ')} LIMIT 1`, params);
  return rows.length > 0;
}

/**
 * A draft's value of a unique attribute when another document's published version in `locale` holds it too (what
 * publishing the draft would clash with), else undefined.
 */
export async function publishedClash(
  db: Database,
  contentType: ContentType,
  attribute: ScalarAttribute,
  draftRowId: number,
  locale: string | undefined,
): Promise<{ value: unknown } | undefined> {
  const q = sqlDialect(db.dialect).quote;
  const table = q(contentType.table);
  const column = q(attribute.column);
  const localeCondition = contentType.localized ? ' AND o.locale = ?' : '';
  const [row] = await db.query<{ value: unknown }>(
    `SELECT d.${column} AS value FROM ${table} d JOIN ${table} o ON o.${column} = d.${column} AND o.document_id <> d.document_id ` +
      `AND o.published_at IS NOT NULL${localeCondition} WHERE d.id = ? LIMIT 1`,
    contentType.localized ? [locale, draftRowId] : [draftRowId],
  );
  return row;
}
