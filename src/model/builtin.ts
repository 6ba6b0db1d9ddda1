/**
 * Content-types every Cairn app has, in schema.json form so they go through the same normalization as the
 * app's own. Features add theirs (users & permissions) to this list before the model is built.
 */
export interface BuiltinSchema {
  uid: string;
  plugin: string;
  schema: Record<string, unknown>;
}

export const BUILTIN_SCHEMAS: BuiltinSchema[] = [
  {
    uid: 'plugin::upload.file',
    plugin: 'upload',
    schema: {
      kind: 'collectionType',
      collectionName: 'files',
      info: { singularName: 'file', pluralName: 'files', displayName: 'File' },
      options: { draftAndPublish: false },
      attributes: {
        name: { type: 'string', required: true },
        alternativeText: { type: 'string' },
        caption: { type: 'string' },
        focalPoint: { type: 'json' },
        width: { type: 'integer' },
        height: { type: 'integer' },
        formats: { type: 'json' },
        hash: { type: 'string', required: true },
        ext: { type: 'string' },
        mime: { type: 'string', required: true },
        size: { type: 'decimal', required: true },
        url: { type: 'string', required: true },
        previewUrl: { type: 'string' },
        provider: { type: 'string', required: true },
        provider_metadata: { type: 'json' },
        folderPath: { type: 'string', private: true },
      },
    },
  },
];
