import type { Database } from '../database/types.js';
import { readStoreValue } from '../database/core-store.js';
import { STRAPI_DEFAULT_STORE } from '../database/strapi-layout/default-rows.js';

/**
 * users-permissions' settings that Strapi keeps in its core store and its admin edits ("Advanced settings", "Email
 * templates"): read at each use, as Strapi's controllers read them, so a change made in Strapi's admin applies at
 * once. A database without the row (made before the plugin's bootstrap wrote it) has Strapi's defaults.
 */
export interface AdvancedSettings {
  unique_email: boolean;
  allow_register: boolean;
  email_confirmation: boolean;
  /** The page of the front end that takes a reset code (`<%= URL %>` of the reset email). */
  email_reset_password: string | null;
  /** Where `GET /api/auth/email-confirmation` redirects once the email is confirmed. */
  email_confirmation_redirection: string | null;
  /** The type of the role register gives. */
  default_role: string;
}

/** One email template of the plugin's `email` settings. */
export interface EmailTemplate {
  from: { name?: string; email?: string };
  response_email?: string;
  object: string;
  message: string;
}

const defaultOf = (key: string) => STRAPI_DEFAULT_STORE.find((row) => row.key === `plugin_users-permissions_${key}`)!.value as Record<string, unknown>;

async function setting(db: Database, key: string): Promise<Record<string, unknown>> {
  const stored = await readStoreValue(db, { type: 'plugin', name: 'users-permissions', key });
  return stored !== null && typeof stored === 'object' ? (stored as Record<string, unknown>) : defaultOf(key);
}

export async function readAdvancedSettings(db: Database): Promise<AdvancedSettings> {
  return setting(db, 'advanced') as unknown as Promise<AdvancedSettings>;
}

/** The `reset_password` or `email_confirmation` template's options. */
export async function readEmailTemplate(db: Database, which: 'reset_password' | 'email_confirmation'): Promise<EmailTemplate> {
  const templates = await setting(db, 'email');
  const template = (templates[which] as { options?: EmailTemplate } | undefined)?.options;
  return template ?? (defaultOf('email')[which] as { options: EmailTemplate }).options;
}

/** Whether the local provider (email and password) is enabled in the plugin's `grant` settings ("Providers"). */
export async function localProviderEnabled(db: Database): Promise<boolean> {
  const grant = await setting(db, 'grant');
  return (grant.email as { enabled?: unknown } | undefined)?.enabled === true;
}
