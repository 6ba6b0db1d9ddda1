import { ConfigError } from '../errors/index.js';
import { STRAPI_LOCALE_NAMES } from './strapi-locale-names.js';

export interface LocaleInfo {
  code: string;
  name: string;
  isDefault: boolean;
  /** The stored entry (a database that Strapi made keeps its locales in `i18n_locale`): answered as it is. */
  stored?: { id: number; documentId: string; createdAt: string | null; updatedAt: string | null; publishedAt: string | null };
}

/** Made on first use: creating it loads ICU's language names (~10 ms), which only a locale without a name needs. */
let displayNames: Intl.DisplayNames | undefined;

/**
 * Locales from `config/plugins` → `i18n.config` (`{ defaultLocale, locales: ['en', 'fr'] | [{ code, name }] }`).
 * Names default to Strapi's ("English (en)", "French (Canada) (fr-CA)": strapi-locale-names.ts).
 */
export function resolveLocales(i18nConfig: Record<string, unknown> | undefined): LocaleInfo[] {
  const defaultLocale = typeof i18nConfig?.defaultLocale === 'string' ? i18nConfig.defaultLocale : 'en';
  const raw = Array.isArray(i18nConfig?.locales) ? (i18nConfig!.locales as unknown[]) : [defaultLocale];
  const locales = raw.map((entry): LocaleInfo => {
    const code = typeof entry === 'string' ? entry : (entry as { code?: unknown })?.code;
    if (typeof code !== 'string' || !/^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/.test(code)) {
      throw new ConfigError(`config/plugins: i18n locale ${JSON.stringify(entry)} is not a locale code`);
    }
    const given = typeof entry === 'object' ? (entry as { name?: unknown }).name : undefined;
    return locale(code, code === defaultLocale, typeof given === 'string' ? given : undefined);
  });
  if (!locales.some((l) => l.isDefault)) locales.unshift(locale(defaultLocale, true));
  return locales;
}

/** A locale whose name, when not given, is looked up when first read (`GET /api/i18n/locales`), not at start. */
function locale(code: string, isDefault: boolean, given?: string): LocaleInfo {
  let name = given;
  return {
    code,
    get name() {
      // As Strapi's admin names a locale it adds; ICU's name for a code Strapi does not list.
      return (name ??= STRAPI_LOCALE_NAMES[code] ?? `${safeName(code)} (${code})`);
    },
    isDefault,
  };
}

function safeName(code: string): string {
  try {
    return (displayNames ??= new Intl.DisplayNames(['en'], { type: 'language' })).of(code) ?? code;
  } catch {
    return code;
  }
}

/**
 * The locales a database that Strapi made holds (edited in Strapi's admin), which replace the config's: the default is
 * Strapi's setting, else the config's default when the database has it, else the first.
 */
export function storedLocales(
  rows: ReadonlyArray<{ id: number; documentId: string; name: string; code: string; createdAt: string | null; updatedAt: string | null; publishedAt: string | null }>,
  defaultCode: string | undefined,
  configured: readonly LocaleInfo[],
): LocaleInfo[] {
  if (rows.length === 0) throw new ConfigError('the database that Strapi made has no locale in i18n_locale');
  const codes = new Set(rows.map((r) => r.code));
  const fallback = configured.find((l) => l.isDefault && codes.has(l.code))?.code ?? rows[0].code;
  const chosen = defaultCode !== undefined && codes.has(defaultCode) ? defaultCode : fallback;
  return rows.map(({ code, name, ...stored }) => ({ code, name, isDefault: code === chosen, stored }));
}
