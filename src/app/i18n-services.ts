import { providedMembers } from '../errors/index.js';

/** What the locales service uses: Strapi's Query Engine on the app (`strapi.db.query`) and the app's locales. */
interface I18nHost {
  readonly strapi: { readonly db: { query(uid: string): LocaleQueries } };
  readonly appLocales: { readonly defaultLocale: string };
  readonly services: Map<string, Record<string, unknown>>;
}

/** The Query Engine's methods the service calls (documents/query-engine.ts). */
interface LocaleQueries {
  findMany(params: Record<string, unknown>): Promise<unknown>;
  findOne(params: Record<string, unknown>): Promise<unknown>;
  count(params: Record<string, unknown>): Promise<unknown>;
  create(params: Record<string, unknown>): Promise<unknown>;
  update(params: Record<string, unknown>): Promise<unknown>;
}

const LOCALE = 'plugin::i18n.locale';

/**
 * `strapi.plugin('i18n').service('locales')`, what a bootstrap that adds a locale calls, as Strapi 5.54's i18n
 * service does it: through the Query Engine on `plugin::i18n.locale` (`i18n_locale`), whose writes make the app read
 * its locales again at once, so an entry in the new locale can be written right after. `find(where)`, `findById`,
 * `findByCode`, `count(where)`, `create(locale)`, `update(where, changes)`, `getDefaultLocale()`. Deleting a locale
 * (Strapi deletes every entry in it) and changing the default are not provided: reading them throws, naming them.
 */
export function registerI18nServices(host: I18nHost): void {
  const locales = () => host.strapi.db.query(LOCALE);
  const members = {
    find: (where: Record<string, unknown> = {}) => locales().findMany({ where }),
    findById: (id: number) => locales().findOne({ where: { id } }),
    findByCode: (code: string) => locales().findOne({ where: { code } }),
    count: (where: Record<string, unknown> = {}) => locales().count({ where }),
    create: (locale: Record<string, unknown>) => locales().create({ data: locale }),
    update: (where: Record<string, unknown>, changes: Record<string, unknown>) => locales().update({ where, data: changes }),
    getDefaultLocale: async () => host.appLocales.defaultLocale,
  };
  host.services.set('i18n', { locales: providedMembers('i18n', 'locales', members) });
}
