import { createRequire } from 'node:module';
import { join } from 'node:path';
import { ConfigError } from '../errors/index.js';
import { fillTemplate } from './template.js';

export { fillTemplate } from './template.js';

/** What an email provider's `send` takes (Strapi's email plugin passes the options through). */
export interface EmailOptions {
  to?: string;
  from?: string;
  replyTo?: string;
  subject?: string;
  text?: string;
  html?: string;
  [key: string]: unknown;
}

/** `config/plugins` → `email.config`, with Strapi's defaults. */
export interface EmailConfig {
  provider: string;
  providerOptions: Record<string, unknown>;
  settings: Record<string, unknown>;
}

/** An email provider as Strapi's email plugin loads one: `init(providerOptions, settings)` → `{ send }`. */
interface EmailProvider {
  send(options: EmailOptions): Promise<unknown>;
}

/**
 * `strapi.plugin('email').service('email')`: Strapi 5.54's email service. `send` hands the options to the provider,
 * `sendTemplatedEmail` fills `subject`, `text` and `html` first (each `<%= NAME %>` naming a leaf of `data`). The
 * users-permissions emails go through this object's `send`, so an app (or a test) that replaces it is heard.
 */
export interface EmailService {
  getProviderSettings(): EmailConfig;
  send(options: EmailOptions): Promise<unknown>;
  sendTemplatedEmail(options: EmailOptions, template: Record<string, string>, data: Record<string, unknown>): Promise<unknown>;
}

const DEFAULT_PROVIDER = 'sendmail';

/** The email plugin's config as Strapi merges it with its defaults (sendmail, from `Strapi <no-reply@strapi.io>`). */
export function emailConfig(plugins: Record<string, { config?: Record<string, unknown> }>): EmailConfig {
  const given = plugins.email?.config ?? {};
  return {
    provider: typeof given.provider === 'string' ? given.provider : DEFAULT_PROVIDER,
    providerOptions: (given.providerOptions as Record<string, unknown> | undefined) ?? {},
    settings: { defaultFrom: 'Strapi <no-reply@strapi.io>', ...((given.settings as Record<string, unknown> | undefined) ?? {}) },
  };
}

/**
 * The provider module, found as Strapi finds it (`@strapi/provider-email-<name>`, else `<name>` as a package name),
 * from the app's folder first, then from Cairn's own (an app that depends on Cairn shares its node_modules).
 * Undefined: installed nowhere.
 */
function requireProvider(name: string, appDir: string): { init(options: unknown, settings: unknown): EmailProvider } | undefined {
  const lower = name.toLowerCase();
  for (const from of [join(appDir, 'package.json'), import.meta.url]) {
    const require = createRequire(from);
    for (const id of [`@strapi/provider-email-${lower}`, lower]) {
      let path: string;
      try {
        path = require.resolve(id);
      } catch {
        continue;
      }
      return require(path);
    }
  }
  return undefined;
}

/**
 * The email plugin of an app: its provider loaded and initialised at start, as Strapi's bootstrap does. A provider
 * the config names that cannot be found, or whose `init` fails, stops the start. With none configured, Strapi's
 * default (sendmail) is used when installed; otherwise every send fails, saying what to configure.
 */
export function createEmailService(config: EmailConfig, appDir: string, configured: boolean): EmailService {
  let provider: EmailProvider;
  const module = requireProvider(config.provider, appDir);
  if (module) {
    if (typeof module.init !== 'function') throw new ConfigError(`config/plugins: email provider "${config.provider}" has no init function (not an email provider)`);
    provider = module.init(config.providerOptions, config.settings);
    if (!provider || typeof provider.send !== 'function') throw new ConfigError(`config/plugins: email provider "${config.provider}": init() returned no send function`);
  } else if (configured) {
    throw new ConfigError(`config/plugins: email provider "${config.provider}" is not installed (@strapi/provider-email-${config.provider.toLowerCase()} or ${config.provider.toLowerCase()})`);
  } else {
    provider = {
      send: async () => {
        throw new Error('no email provider: set email.config.provider in config/plugins (e.g. "nodemailer") and install it (@strapi/provider-email-nodemailer)');
      },
    };
  }
  const service: EmailService = {
    getProviderSettings: () => config,
    send: (options) => provider.send(options),
    sendTemplatedEmail: (options, template, data) => {
      const missing = ['subject', 'text', 'html'].filter((key) => !(key in template));
      if (missing.length) throw new Error(`Following attributes are missing from your email template : ${missing.join(', ')}`);
      const filled = Object.fromEntries(['subject', 'text', 'html'].filter((key) => template[key]).map((key) => [key, fillTemplate(template[key], data)]));
      return provider.send({ ...options, ...filled });
    },
  };
  return service;
}

/** What the email plugin needs of the app: its config and the plugins' services. */
interface EmailHost {
  readonly config: { dir: string; plugins: Record<string, { config?: Record<string, unknown> }> };
  readonly services: Map<string, Record<string, unknown>>;
}

/** The email plugin: `strapi.plugin('email').service('email')`, which users-permissions sends its emails with. */
export async function registerEmail(host: EmailHost): Promise<void> {
  const configured = typeof host.config.plugins.email?.config?.provider === 'string';
  host.services.set('email', { email: createEmailService(emailConfig(host.config.plugins), host.config.dir, configured) });
}
