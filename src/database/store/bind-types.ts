import type { Component, ContentType } from '../../model/types.js';
import type { ColumnType } from '../../query/types.js';

const cache = new WeakMap<object, Map<string, ColumnType>>();

/** Column name -> its type, for binding values of a schema's rows (system columns included). */
export function columnTypes(schema: ContentType | Component): Map<string, ColumnType> {
  let types = cache.get(schema);
  if (!types) {
    types = new Map<string, ColumnType>([
      ['id', 'id'],
      ['document_id', 'string'],
      ['created_at', 'datetime'],
      ['updated_at', 'datetime'],
      ['published_at', 'datetime'],
      ['locale', 'string'],
    ]);
    for (const attribute of schema.attributes.values()) {
      if (attribute.kind === 'scalar') types.set(attribute.column, (attribute.type === 'password' ? 'string' : attribute.type) as ColumnType);
    }
    cache.set(schema, types);
  }
  return types;
}
