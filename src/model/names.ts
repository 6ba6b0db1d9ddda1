/** `publishDate` -> `publish_date`, `openedOn` -> `opened_on`; already snake_case names stay as they are. */
export function snakeCase(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .replace(/-/g, '_')
    .toLowerCase();
}

export const ATTRIBUTE_NAME = /^[A-Za-z][A-Za-z0-9_]*$/;
export const API_NAME = /^[a-z][a-z0-9-]*$/;

/** Names the system uses on every entry: an attribute may not take them. */
export const RESERVED_NAMES = new Set([
  'id',
  'documentId',
  'document_id',
  'createdAt',
  'updatedAt',
  'publishedAt',
  'createdBy',
  'updatedBy',
  'locale',
  'localizations',
  'status',
]);
