import { ConfigError } from '../errors/index.js';

export interface LocaleInfo {
  code: string;
  name: string;
  isDefault: boolean;
}

const displayNames = new Intl.DisplayNames(['en'], { type: 'language' });

/**
 * Locales from `config/plugins` → `i18n.config` (`{ defaultLocale, locales: ['en', 'fr'] | [{ code, name }] }`).
 * Names default to "English (en)", as the reference lists them.
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
    const name = typeof given === 'string' ? given : `${safeName(code)} (${code})`;
    return { code, name, isDefault: code === defaultLocale };
  });
  if (!locales.some((l) => l.isDefault)) locales.unshift({ code: defaultLocale, name: `${safeName(defaultLocale)} (${defaultLocale})`, isDefault: true });
  return locales;
}

function safeName(code: string): string {
  try {
    return displayNames.of(code) ?? code;
  } catch {
    return code;
  }
}
