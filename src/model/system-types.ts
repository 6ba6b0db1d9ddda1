import { snakeCase } from './names.js';
import type { Attribute, ContentType, RelationAttribute, ScalarAttribute, ScalarType } from './types.js';

/**
 * Strapi's own content types that code's APIs reach although the app's model has no place for them (no REST route,
 * no Document Service of their own): i18n's locales (`strapi.db.query('plugin::i18n.locale')`, which Strapi's tests
 * call to clean up), the session manager's sessions (`strapi.db.query('admin::session')`, likewise), users-permissions'
 * permissions (`strapi.db.query('plugin::users-permissions.permission')`, which tests write to grant a role an action)
 * and the admin users every content row's `createdBy`/`updatedBy` points at (populated by the
 * Query Engine and the Document Service for app code). Their attributes that are
 * columns, as @strapi/i18n and @strapi/admin 5.54 declare them (their relations to admin roles and tokens are not
 * read here). Kept out of the app's model so that nothing else (routes, GraphQL, permissions) ever serves them.
 */

export const LOCALE_UID = 'plugin::i18n.locale';
export const ADMIN_USER_UID = 'admin::user';
export const SESSION_UID = 'admin::session';
export const PERMISSION_UID = 'plugin::users-permissions.permission';
const ROLE_UID = 'plugin::users-permissions.role';

type Shorthand = ScalarType | { type: ScalarType; private?: boolean; unique?: boolean };

/** The types app code may query through `strapi.db.query(uid)` (the Query Engine); admin users are only populated. */
const QUERYABLE = new Set([LOCALE_UID, SESSION_UID, PERMISSION_UID]);

function contentType(uid: string, table: string, singularName: string, pluralName: string, attributes: Record<string, Shorthand>, relations: RelationAttribute[] = []): ContentType {
  const scalars = Object.entries(attributes).map(([name, a]): ScalarAttribute => {
    const spec = typeof a === 'string' ? { type: a } : a;
    return Object.freeze({
      kind: 'scalar',
      name,
      type: spec.type,
      // Strapi's column names: these short attribute names are their snake case.
      column: snakeCase(name),
      required: false,
      unique: spec.unique === true,
      private: spec.private === true || spec.type === 'password',
      localized: false,
      raw: Object.freeze({ type: spec.type }),
    });
  });
  return Object.freeze({
    modelType: 'contentType',
    uid,
    kind: 'collectionType',
    table,
    componentsTable: `${table}_cmps`,
    info: Object.freeze({ singularName, pluralName, displayName: singularName }),
    draftAndPublish: false,
    localized: false,
    pluginOptions: Object.freeze({}),
    plugin: uid.split('::')[0] === 'plugin' ? uid.slice('plugin::'.length).split('.')[0] : uid.split('::')[0],
    attributes: new Map<string, Attribute>([...scalars, ...relations].map((a) => [a.name, a])),
    privateAttributes: new Set(scalars.filter((a) => a.private).map((a) => a.name)),
    file: `<Strapi's ${uid}>`,
  });
}

const PRIVATE_STRING = { type: 'string', private: true } as const;

const SYSTEM_TYPES: ReadonlyMap<string, ContentType> = new Map([
  [LOCALE_UID, contentType(LOCALE_UID, 'i18n_locale', 'locale', 'locales', { name: 'string', code: { type: 'string', unique: true } })],
  [
    ADMIN_USER_UID,
    contentType(ADMIN_USER_UID, 'admin_users', 'user', 'users', {
      firstname: 'string',
      lastname: 'string',
      username: 'string',
      email: { type: 'email', private: true, unique: true },
      password: 'password',
      resetPasswordToken: PRIVATE_STRING,
      resetPasswordTokenExpiresAt: { type: 'datetime', private: true },
      registrationToken: PRIVATE_STRING,
      isActive: { type: 'boolean', private: true },
      blocked: { type: 'boolean', private: true },
      preferedLanguage: 'string',
    }),
  ],
  [
    // users-permissions' permissions: one row per (role, action), linked to its role through up_permissions_role_lnk
    // (Strapi's manyToOne, inversed by the role's `permissions`). Cairn's roles read them (auth/roles.ts).
    PERMISSION_UID,
    contentType(PERMISSION_UID, 'up_permissions', 'permission', 'permissions', { action: 'string' }, [
      Object.freeze({
        kind: 'relation',
        name: 'role',
        relation: 'manyToOne',
        target: ROLE_UID,
        toMany: false,
        owner: true,
        linkTable: 'up_permissions_role_lnk',
        inversedBy: 'permissions',
        inverseOf: 'permissions',
        required: false,
        private: false,
        localized: false,
        raw: Object.freeze({ type: 'relation', relation: 'manyToOne', target: ROLE_UID, inversedBy: 'permissions' }),
      }),
    ]),
  ],
  [
    // The session manager's rows (admin logins and users-permissions' refresh sessions), every attribute private.
    SESSION_UID,
    contentType(SESSION_UID, 'strapi_sessions', 'session', 'sessions', {
      userId: PRIVATE_STRING,
      sessionId: { type: 'string', private: true, unique: true },
      childId: PRIVATE_STRING,
      deviceId: PRIVATE_STRING,
      origin: PRIVATE_STRING,
      expiresAt: { type: 'datetime', private: true },
      absoluteExpiresAt: { type: 'datetime', private: true },
      status: PRIVATE_STRING,
      type: PRIVATE_STRING,
      metadata: { type: 'json', private: true },
    }),
  ],
]);

/**
 * Strapi's creator fields: every content type's `createdBy` / `updatedBy`, a relation to an admin user held by a
 * column of the row (Strapi's `addCreatorFields`, `useJoinTable: false`). Not attributes of the app's model.
 */
export const CREATOR_COLUMNS: Readonly<Record<string, 'created_by_id' | 'updated_by_id'>> = { createdBy: 'created_by_id', updatedBy: 'updated_by_id' };

/** The column of creator field `name` on `schema` (a content type without an attribute of that name), or undefined. */
export const creatorColumn = (schema: { modelType: string; attributes: ReadonlyMap<string, unknown> }, name: string) =>
  schema.modelType === 'contentType' && !schema.attributes.has(name) && Object.prototype.hasOwnProperty.call(CREATOR_COLUMNS, name) ? CREATOR_COLUMNS[name] : undefined;

/** One of Strapi's own content types above, or undefined. */
export const systemContentType = (uid: string): ContentType | undefined => SYSTEM_TYPES.get(uid);

/** One of Strapi's own content types above that `strapi.db.query(uid)` serves, or undefined. */
export const queryableSystemType = (uid: string): ContentType | undefined => (QUERYABLE.has(uid) ? SYSTEM_TYPES.get(uid) : undefined);
