import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../helpers/databases.js';
import { startTestApp, type TestApp } from '../helpers/app.js';

/**
 * `strapi.plugin('i18n').service('locales')`, as a Strapi app's bootstrap uses it to add a locale and seed content in
 * it: the locale is one of the app's at once (REST, the Document Service), and what the service does not provide
 * throws, naming itself.
 */
const model = {
  contentTypes: {
    note: {
      kind: 'collectionType',
      collectionName: 'notes',
      info: { singularName: 'note', pluralName: 'notes', displayName: 'Note' },
      options: { draftAndPublish: false },
      pluginOptions: { i18n: { localized: true } },
      attributes: { text: { type: 'string' } },
    },
  },
  index: `module.exports = {
  async bootstrap({ strapi }) {
    const locales = strapi.plugin('i18n').service('locales');
    if (!(await locales.findByCode('fr'))) await locales.create({ code: 'fr', name: 'French (fr)' });
    const note = await strapi.documents('api::note.note').create({ data: { text: 'Bonjour' }, locale: 'fr' });
    strapi.log.info('seeded ' + note.locale + ' ' + (await locales.getDefaultLocale()));
  },
};`,
};

describeEachDialect("i18n's locales service for app code", (dialect) => {
  let app: TestApp;
  const service = () => app.cairn.plugin('i18n').service<Record<string, (...args: unknown[]) => Promise<unknown>>>('locales');
  beforeAll(async () => {
    app = await startTestApp(dialect, model);
  });
  afterAll(() => app?.close());

  it('a bootstrap adds a locale and seeds an entry in it; REST serves both at once', async () => {
    expect((await app.request('GET', '/api/i18n/locales')).body.map((l: { code: string; isDefault: boolean }) => [l.code, l.isDefault])).toEqual([
      ['en', true],
      ['fr', false],
    ]);
    expect((await app.request('GET', '/api/notes?locale=fr')).body.data.map((n: { text: string }) => n.text)).toEqual(['Bonjour']);
    expect(app.logs().some((line) => line.msg === 'seeded fr en')).toBe(true);
  });

  it('find, findById, findByCode, count, update and getDefaultLocale read and write i18n_locale', async () => {
    const fr = (await service().findByCode('fr')) as { id: number; code: string; name: string };
    expect(fr).toMatchObject({ code: 'fr', name: 'French (fr)' });
    expect(await service().findById(fr.id)).toMatchObject({ code: 'fr' });
    expect(((await service().find()) as Array<{ code: string }>).map((l) => l.code)).toEqual(['en', 'fr']);
    expect(Number(await service().count())).toBe(2);
    expect(Number(await service().count({ code: 'fr' }))).toBe(1);
    await service().update({ id: fr.id }, { name: 'Français' });
    expect((await app.request('GET', '/api/i18n/locales')).body.find((l: { code: string }) => l.code === 'fr').name).toBe('Français');
    expect(await service().getDefaultLocale()).toBe('en');
    expect(await service().findByCode('de')).toBeNull();
  });

  it("deleting a locale and changing the default are not provided: reading them throws, naming them", () => {
    expect(() => service().delete).toThrow("strapi.plugin('i18n').service('locales').delete is not provided by Cairn");
    expect(() => service().setDefaultLocale).toThrow("strapi.plugin('i18n').service('locales').setDefaultLocale is not provided by Cairn");
  });
});
