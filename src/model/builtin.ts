/**
 * Content-types every Cairn app has, in schema.json form so they go through the same normalization as the
 * app's own. Features add theirs (users & permissions) to this list before the model is built. Attribute types are
 * Strapi's own (`@strapi/upload`'s file: `url`, `alternativeText`... are `text`): answers name them (source-maps.ts).
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
        alternativeText: { type: 'text' },
        caption: { type: 'text' },
        focalPoint: { type: 'json' },
        width: { type: 'integer' },
        height: { type: 'integer' },
        formats: { type: 'json' },
        hash: { type: 'string', required: true },
        ext: { type: 'string' },
        mime: { type: 'string', required: true },
        size: { type: 'decimal', required: true },
        url: { type: 'text', required: true },
        previewUrl: { type: 'text' },
        provider: { type: 'string', required: true },
        provider_metadata: { type: 'json' },
        folderPath: { type: 'string', private: true },
      },
    },
  },
  {
    uid: 'plugin::users-permissions.user',
    plugin: 'users-permissions',
    schema: {
      kind: 'collectionType',
      collectionName: 'up_users',
      info: { singularName: 'user', pluralName: 'users', displayName: 'User' },
      options: { draftAndPublish: false },
      attributes: {
        username: { type: 'string', minLength: 3, unique: true, required: true },
        email: { type: 'email', minLength: 6, required: true },
        provider: { type: 'string' },
        password: { type: 'password', minLength: 6, private: true },
        resetPasswordToken: { type: 'string', private: true },
        confirmationToken: { type: 'string', private: true },
        confirmed: { type: 'boolean', default: false },
        blocked: { type: 'boolean', default: false },
        role: { type: 'relation', relation: 'manyToOne', target: 'plugin::users-permissions.role', inversedBy: 'users' },
      },
    },
  },
  {
    uid: 'plugin::users-permissions.role',
    plugin: 'users-permissions',
    schema: {
      kind: 'collectionType',
      collectionName: 'up_roles',
      info: { singularName: 'role', pluralName: 'roles', displayName: 'Role' },
      options: { draftAndPublish: false },
      attributes: {
        name: { type: 'string', minLength: 3, required: true },
        description: { type: 'string' },
        type: { type: 'string', unique: true },
        users: { type: 'relation', relation: 'oneToMany', target: 'plugin::users-permissions.user', mappedBy: 'role' },
      },
    },
  },
];
