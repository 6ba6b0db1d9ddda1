import type { ScalarType } from '../../model/types.js';
import type { StrapiAttribute, StrapiIndex, StrapiRelationKind, StrapiSchema } from './schema.js';

/**
 * The schemas of Strapi 5.54's own content types and internal tables that Cairn reads or that every content table
 * points at (admin_users), as Strapi declares them (`@strapi/upload`, `@strapi/i18n`, `@strapi/plugin-users-permissions`,
 * `@strapi/admin` content types; `@strapi/core`'s core store; `@strapi/database`'s three tables of its own): data only,
 * the tables follow from the same rules as the app's (plan.ts). Where Cairn's own model describes one of these types
 * differently (model/builtin.ts: the files there have no `related` or `folder`), this is what the database has.
 *
 * Attributes are limited to what makes these tables: relations to types Cairn does not plan (admin roles, review
 * workflows...) are left out, and so are their link tables (admin_users_roles_lnk...).
 */

type Relation = { relation: StrapiRelationKind; target: string; inversedBy?: string; mappedBy?: string };
type Shorthand = ScalarType | 'morphToMany' | Relation;

const FILE = 'plugin::upload.file';
const FOLDER = 'plugin::upload.folder';
const UP_ROLE = 'plugin::users-permissions.role';
const API_TOKEN = 'admin::api-token';
const ADMIN_USER = 'admin::user';

const schema = (
  uid: string,
  modelType: StrapiSchema['modelType'],
  collectionName: string,
  singularName: string,
  attributes: Record<string, Shorthand>,
  indexes?: StrapiIndex[],
): StrapiSchema => ({
  uid,
  modelType,
  collectionName,
  singularName,
  attributes: Object.entries(attributes).map(([name, a]): StrapiAttribute => {
    if (a === 'morphToMany') return { kind: 'morphToMany', name };
    if (typeof a === 'string') return { kind: 'scalar', name, type: a };
    return { kind: 'relation', name, ...a };
  }),
  indexes,
});

/** `upload_files_<column>_index` on one column: the upload plugin's own names. */
const uploadIndex = (column: string): StrapiIndex => ({ name: `upload_files_${column}_index`, columns: [column] });

export const BUILTIN_STRAPI_SCHEMAS: readonly StrapiSchema[] = [
  schema(
    FILE,
    'contentType',
    'files',
    'file',
    {
      name: 'string',
      alternativeText: 'text',
      caption: 'text',
      focalPoint: 'json',
      width: 'integer',
      height: 'integer',
      formats: 'json',
      hash: 'string',
      ext: 'string',
      mime: 'string',
      size: 'decimal',
      url: 'text',
      previewUrl: 'text',
      provider: 'string',
      provider_metadata: 'json',
      related: 'morphToMany',
      folder: { relation: 'manyToOne', target: FOLDER, inversedBy: 'files' },
      folderPath: 'string',
    },
    ['folder_path', 'created_at', 'updated_at', 'name', 'size', 'ext'].map(uploadIndex),
  ),
  schema(
    FOLDER,
    'contentType',
    'upload_folders',
    'folder',
    {
      name: 'string',
      pathId: 'integer',
      parent: { relation: 'manyToOne', target: FOLDER, inversedBy: 'children' },
      children: { relation: 'oneToMany', target: FOLDER, mappedBy: 'parent' },
      files: { relation: 'oneToMany', target: FILE, mappedBy: 'folder' },
      path: 'string',
    },
    [
      { name: 'upload_folders_path_id_index', columns: ['path_id'], unique: true },
      { name: 'upload_folders_path_index', columns: ['path'], unique: true },
    ],
  ),
  schema('plugin::i18n.locale', 'contentType', 'i18n_locale', 'locale', { name: 'string', code: 'string' }),
  schema('plugin::users-permissions.user', 'contentType', 'up_users', 'user', {
    username: 'string',
    email: 'email',
    provider: 'string',
    password: 'password',
    resetPasswordToken: 'string',
    confirmationToken: 'string',
    confirmed: 'boolean',
    blocked: 'boolean',
    role: { relation: 'manyToOne', target: UP_ROLE, inversedBy: 'users' },
  }),
  schema(UP_ROLE, 'contentType', 'up_roles', 'role', {
    name: 'string',
    description: 'string',
    type: 'string',
    permissions: { relation: 'oneToMany', target: 'plugin::users-permissions.permission', mappedBy: 'role' },
    users: { relation: 'oneToMany', target: 'plugin::users-permissions.user', mappedBy: 'role' },
  }),
  schema('plugin::users-permissions.permission', 'contentType', 'up_permissions', 'permission', {
    action: 'string',
    role: { relation: 'manyToOne', target: UP_ROLE, inversedBy: 'permissions' },
  }),
  schema(API_TOKEN, 'contentType', 'strapi_api_tokens', 'api-token', {
    name: 'string',
    description: 'string',
    type: 'enumeration',
    accessKey: 'string',
    encryptedKey: 'text',
    lastUsedAt: 'datetime',
    permissions: { relation: 'oneToMany', target: 'admin::api-token-permission', mappedBy: 'token' },
    expiresAt: 'datetime',
    lifespan: 'biginteger',
    kind: 'enumeration',
    adminUserOwner: { relation: 'manyToOne', target: ADMIN_USER, inversedBy: 'apiTokens' },
  }),
  schema('admin::api-token-permission', 'contentType', 'strapi_api_token_permissions', 'api-token-permission', {
    action: 'string',
    token: { relation: 'manyToOne', target: API_TOKEN, inversedBy: 'permissions' },
  }),
  // Every content table's created_by_id / updated_by_id points here.
  schema(ADMIN_USER, 'contentType', 'admin_users', 'user', {
    firstname: 'string',
    lastname: 'string',
    username: 'string',
    email: 'email',
    password: 'password',
    resetPasswordToken: 'string',
    resetPasswordTokenExpiresAt: 'datetime',
    registrationToken: 'string',
    isActive: 'boolean',
    blocked: 'boolean',
    preferedLanguage: 'string',
  }),
  schema('strapi::core-store', 'internal', 'strapi_core_store_settings', 'strapi_core_store_settings', {
    key: 'string',
    value: 'text',
    type: 'string',
    environment: 'string',
    tag: 'string',
  }),
  // @strapi/database's own tables (made with knex directly, in the same types): the stored schema and the migration logs.
  schema('strapi::database-schema', 'internal', 'strapi_database_schema', 'strapi_database_schema', { schema: 'json', time: 'datetime', hash: 'string' }),
  schema('strapi::migrations', 'internal', 'strapi_migrations', 'strapi_migrations', { name: 'string', time: 'datetime' }),
  schema('strapi::migrations-internal', 'internal', 'strapi_migrations_internal', 'strapi_migrations_internal', { name: 'string', time: 'datetime' }),
];
