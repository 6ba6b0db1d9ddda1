/**
 * The rows Strapi 5.54.0 writes into a database it has just made, before anyone uses it: read from the databases it
 * made on SQLite, PostgreSQL and MariaDB (test/fixtures/strapi-db) and from its code (`@strapi/database`'s internal
 * migrations, `@strapi/i18n`'s and `@strapi/plugin-users-permissions`' bootstrap). Data only; new-database.ts writes
 * them. Strapi's bootstrap writes each of these only when it is missing (no locale, no role, no store key), so a
 * database that has them is one Strapi leaves as it is; one without them, Strapi would fill on its first start.
 */

/**
 * `strapi_migrations_internal`, in the order Strapi runs them (`@strapi/database` `migrations/internal-migrations`):
 * a database whose log lacks one gets it run at Strapi's next start.
 */
export const STRAPI_INTERNAL_MIGRATIONS: readonly string[] = [
  '5.0.0-rename-identifiers-longer-than-max-length',
  '5.0.0-02-created-document-id',
  '5.0.0-03-created-locale',
  '5.0.0-04-created-published-at',
  '5.0.0-05-drop-slug-fields-index',
  '5.0.0-06-add-document-id-indexes',
  'core::5.0.0-discard-drafts',
  'admin::migrate-prefered-language-dk-to-da',
];

/** i18n's first locale (`STRAPI_PLUGIN_I18N_INIT_LOCALE_CODE` unset), and the store key naming it the default. */
export const STRAPI_DEFAULT_LOCALE = { code: 'en', name: 'English (en)' } as const;

/**
 * users-permissions' two roles, in the order it creates them (Authenticated gets id 1), each with the actions it is
 * granted at creation (`permission_ord` 1..n in this order).
 */
export const STRAPI_DEFAULT_ROLES: ReadonlyArray<{ name: string; description: string; type: string; actions: readonly string[] }> = [
  {
    name: 'Authenticated',
    description: 'Default role given to authenticated user.',
    type: 'authenticated',
    actions: [
      'plugin::users-permissions.auth.logout',
      'plugin::users-permissions.auth.getSessions',
      'plugin::users-permissions.auth.revokeSession',
      'plugin::users-permissions.user.me',
      'plugin::users-permissions.auth.changePassword',
    ],
  },
  {
    name: 'Public',
    description: 'Default role given to unauthenticated user.',
    type: 'public',
    actions: [
      'plugin::users-permissions.auth.callback',
      'plugin::users-permissions.auth.connect',
      'plugin::users-permissions.auth.forgotPassword',
      'plugin::users-permissions.auth.resetPassword',
      'plugin::users-permissions.auth.register',
      'plugin::users-permissions.auth.emailConfirmation',
      'plugin::users-permissions.auth.sendEmailConfirmation',
      'plugin::users-permissions.auth.refresh',
    ],
  },
];

const provider = (icon: string, callbackUrl: string, scope?: string[]) => ({
  icon,
  enabled: false,
  key: '',
  secret: '',
  callbackUrl: `api/auth/${callbackUrl}/callback`,
  ...(scope ? { scope } : {}),
});
const subdomainProvider = (icon: string, subdomain: string, callback: string, scope: string[], subdomainLast = false) =>
  subdomainLast
    ? { icon, enabled: false, key: '', secret: '', callback: `api/auth/${callback}/callback`, scope, subdomain }
    : { icon, enabled: false, key: '', secret: '', subdomain, callback: `api/auth/${callback}/callback`, scope };

const emailTemplate = (display: string, icon: string, object: string, message: string) => ({
  display,
  icon,
  options: { from: { name: 'Administration Panel', email: 'no-reply@strapi.io' }, response_email: '', object, message },
});

/**
 * `strapi_core_store_settings` rows of i18n and users-permissions (`key`, `type`, and the value as Strapi stores
 * it: JSON.stringify of the value, key order included, since Strapi compares them when it starts).
 */
export const STRAPI_DEFAULT_STORE: ReadonlyArray<{ key: string; type: string; value: unknown }> = [
  { key: 'plugin_i18n_default_locale', type: 'string', value: STRAPI_DEFAULT_LOCALE.code },
  {
    key: 'plugin_users-permissions_grant',
    type: 'object',
    value: {
      email: { icon: 'envelope', enabled: true },
      discord: provider('discord', 'discord', ['identify', 'email']),
      facebook: provider('facebook-square', 'facebook', ['email']),
      google: provider('google', 'google', ['email']),
      github: provider('github', 'github', ['user', 'user:email']),
      microsoft: provider('windows', 'microsoft', ['user.read']),
      twitter: provider('twitter', 'twitter'),
      instagram: provider('instagram', 'instagram', ['user_profile']),
      vk: provider('vk', 'vk', ['email']),
      twitch: provider('twitch', 'twitch', ['user:read:email']),
      linkedin: provider('linkedin', 'linkedin', ['r_liteprofile', 'r_emailaddress']),
      cognito: subdomainProvider('aws', 'my.subdomain.com', 'cognito', ['email', 'openid', 'profile']),
      reddit: { icon: 'reddit', enabled: false, key: '', secret: '', callback: 'api/auth/reddit/callback', scope: ['identity'] },
      auth0: subdomainProvider('', 'my-tenant.eu', 'auth0', ['openid', 'email', 'profile']),
      cas: subdomainProvider('book', 'my.subdomain.com/cas', 'cas', ['openid email'], true),
      patreon: { icon: '', enabled: false, key: '', secret: '', callback: 'api/auth/patreon/callback', scope: ['identity', 'identity[email]'] },
      keycloak: subdomainProvider('', 'myKeycloakProvider.com/realms/myrealm', 'keycloak', ['openid', 'email', 'profile']),
    },
  },
  {
    key: 'plugin_users-permissions_email',
    type: 'object',
    value: {
      reset_password: emailTemplate(
        'Email.template.reset_password',
        'sync',
        'Reset password',
        '<p>We heard that you lost your password. Sorry about that!</p>\n\n<p>But don’t worry! You can use the following link to reset your password:</p>\n<p><%= URL %>?code=<%= TOKEN %></p>\n\n<p>Thanks.</p>',
      ),
      email_confirmation: emailTemplate(
        'Email.template.email_confirmation',
        'check-square',
        'Account confirmation',
        '<p>Thank you for registering!</p>\n\n<p>You have to confirm your email address. Please click on the link below.</p>\n\n<p><%= URL %>?confirmation=<%= CODE %></p>\n\n<p>Thanks.</p>',
      ),
    },
  },
  {
    key: 'plugin_users-permissions_advanced',
    type: 'object',
    value: {
      unique_email: true,
      allow_register: true,
      email_confirmation: false,
      email_reset_password: null,
      email_confirmation_redirection: null,
      default_role: 'authenticated',
    },
  },
];
