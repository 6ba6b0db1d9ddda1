/** A content type many tests need as a bare route to call: `tags`, one string, no Draft & Publish. */
export const TAG = {
  kind: 'collectionType',
  collectionName: 'tags',
  info: { singularName: 'tag', pluralName: 'tags', displayName: 'Tag' },
  options: { draftAndPublish: false },
  attributes: { name: { type: 'string' } },
};
