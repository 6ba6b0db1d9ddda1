import type { Component, ContentType, ScalarAttribute } from '../../model/types.js';
import type { Database } from '../types.js';
import { layoutBindValue, sqlDialect } from '../sql/index.js';

/**
 * One step from an entry (or a component row) down to the components it holds: `owner`'s `field` (its `_cmps` rows
 * of that field) and the component's table. In a dynamic zone only the items of `component`'s type are followed.
 */
export interface ComponentStep {
  owner: ContentType | Component;
  field: string;
  component: Component;
  zone: boolean;
}

/**
 * The value a unique check looks for: one to bind (a write's, as its plan holds it), or the one a stored row holds
 * (publishing a draft: compared column to column, so no stored value is read and bound back in another form).
 */
export type SoughtValue = { value: unknown } | { rowId: number };

/**
 * Whether a published version of another document (in `locale`, for a localized type) holds the sought value in
 * `attribute`: of the entry itself when `steps` is empty, else of the components found down `steps` (Strapi's
 * where `{ [step]: { [step]: { [attribute]: value } } }` on the content type: `_cmps` rows by field, and by type in
 * a zone).
 */
export async function uniqueValueTaken(
  db: Database,
  contentType: ContentType,
  steps: readonly ComponentStep[],
  attribute: ScalarAttribute,
  sought: SoughtValue,
  documentId: string,
  locale: string | undefined,
): Promise<boolean> {
  const d = sqlDialect(db.dialect);
  const q = d.quote;
  const joins: string[] = [];
  const params: unknown[] = [];
  let holder = 'o';
  steps.forEach((step, i) => {
    const type = step.zone ? ` AND l${i}.component_type = ?` : '';
    joins.push(
      `JOIN ${q(step.owner.componentsTable)} l${i} ON l${i}.entity_id = ${holder}.id AND l${i}.field = ?${type} ` +
        `JOIN ${q(step.component.table)} c${i} ON c${i}.id = l${i}.cmp_id`,
    );
    params.push(step.field, ...(step.zone ? [step.component.uid] : []));
    holder = `c${i}`;
  });
  const column = q(attribute.column);
  const table = q(steps.length ? steps[steps.length - 1].component.table : contentType.table);
  let value: string;
  if ('rowId' in sought) {
    value = `(SELECT s.${column} FROM ${table} s WHERE s.id = ?)`;
    params.push(sought.rowId);
  } else {
    value = '?';
    params.push(layoutBindValue(d, sought.value, attribute.type === 'password' ? 'string' : attribute.type));
  }
  const conditions = [`${holder}.${column} = ${value}`, 'o.document_id <> ?', 'o.published_at IS NOT NULL'];
  params.push(documentId);
  if (contentType.localized) {
    conditions.push('o.locale = ?');
    params.push(locale);
  }
  const rows = await db.query(`SELECT 1 AS hit FROM ${q(contentType.table)} o ${joins.join(' ')} WHERE ${conditions.join(' AND ')} LIMIT 1`, params);
  return rows.length > 0;
}
