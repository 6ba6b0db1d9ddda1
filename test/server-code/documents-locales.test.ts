import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../helpers/databases.js';
import { startTestApp, type TestApp } from '../helpers/app.js';

// strapi.documents(uid).publish / unpublish / discardDraft with Strapi 5's locale forms: one locale, a list of them,
// or '*' (every locale the document has), as its `multiLocaleToLookup` reads them; entries of every locale changed.
const model = {
  contentTypes: {
    page: {
      kind: 'collectionType',
      collectionName: 'pages',
      info: { singularName: 'page', pluralName: 'pages', displayName: 'Page' },
      options: { draftAndPublish: true },
      pluginOptions: { i18n: { localized: true } },
      attributes: {
        title: { type: 'string', pluginOptions: { i18n: { localized: true } } },
        tags: { type: 'relation', relation: 'manyToMany', target: 'api::tag.tag', inversedBy: 'pages' },
        seo: { type: 'component', component: 'default.seo', pluginOptions: { i18n: { localized: true } } },
        code: { type: 'string', pluginOptions: { i18n: { localized: false } } },
        badge: { type: 'component', component: 'default.seo', pluginOptions: { i18n: { localized: false } } },
      },
    },
    tag: {
      kind: 'collectionType',
      collectionName: 'tags',
      info: { singularName: 'tag', pluralName: 'tags', displayName: 'Tag' },
      options: { draftAndPublish: false },
      attributes: { name: { type: 'string' }, pages: { type: 'relation', relation: 'manyToMany', target: 'api::page.page', mappedBy: 'tags' } },
    },
  },
  components: {
    'default.seo': { collectionName: 'components_default_seos', info: { displayName: 'seo' }, attributes: { metaTitle: { type: 'string' } } },
  },
  config: { plugins: { i18n: { config: { defaultLocale: 'en', locales: ['en', 'fr', 'de'] } } } },
};

/** The Document Service as untyped app code calls it (its answers are entries of any shape). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AppDocuments = Record<string, (params?: object) => Promise<any>>;

describeEachDialect('the Document Service: publish, unpublish and discardDraft in several locales', (dialect) => {
  let app: TestApp;
  const pages = () => app.cairn.strapi.documents('api::page.page') as unknown as AppDocuments;
  const published = async (documentId: string) =>
    (await pages().findMany({ status: 'published', locale: '*', filters: { documentId } } as never)).map((p: { locale: string; title: string }) => `${p.locale}:${p.title}`).sort();
  let documentId: string;
  beforeAll(async () => {
    app = await startTestApp(dialect, model);
    documentId = (await pages().create({ data: { title: 'Hello' } })).documentId as string;
    for (const [locale, title] of [['fr', 'Bonjour'], ['de', 'Hallo']]) await pages().update({ documentId, locale, data: { title } } as never);
  });
  afterAll(async () => app?.close());

  it("'*' publishes every locale the document has, a list those named, nothing given the default", async () => {
    const all = await pages().publish({ documentId, locale: '*' } as never);
    expect(all.entries.map((e: { locale: string }) => e.locale).sort()).toEqual(['de', 'en', 'fr']);
    expect(await published(documentId)).toEqual(['de:Hallo', 'en:Hello', 'fr:Bonjour']);

    const gone = await pages().unpublish({ documentId, locale: ['fr', 'de'] } as never);
    expect(gone.entries.map((e: { locale: string }) => e.locale).sort()).toEqual(['de', 'fr']);
    expect(await published(documentId)).toEqual(['en:Hello']);

    await pages().update({ documentId, data: { title: 'Hello again' } } as never);
    await pages().update({ documentId, locale: 'fr', data: { title: 'Rebonjour' } } as never);
    await pages().publish({ documentId, locale: ['fr'] } as never);
    expect(await published(documentId)).toEqual(['en:Hello', 'fr:Rebonjour']);
    const discarded = await pages().discardDraft({ documentId, locale: '*' } as never);
    expect(discarded.entries.map((e: { locale: string; title: string }) => `${e.locale}:${e.title}`).sort()).toEqual(['en:Hello', 'fr:Rebonjour']);
    // As Strapi 5.54's: the locales given lose their drafts, and only published versions make new ones, so 'de'
    // (unpublished above) has no version left.
    const drafts = await pages().findMany({ locale: '*', filters: { documentId } } as never);
    expect(drafts.map((p: { locale: string; title: string }) => `${p.locale}:${p.title}`).sort()).toEqual(['en:Hello', 'fr:Rebonjour']);
    await pages().publish({ documentId } as never);
    expect(await published(documentId)).toEqual(['en:Hello', 'fr:Rebonjour']);
    // One locale never published: its draft goes, and no entry is answered.
    await pages().update({ documentId, locale: 'de', data: { title: 'Hallo wieder' } } as never);
    expect((await pages().discardDraft({ documentId, locale: 'de' } as never)).entries).toEqual([]);
    expect(await pages().findMany({ locale: 'de', filters: { documentId } } as never)).toEqual([]);
  });

  it("publish, unpublish and discardDraft answer their entries with the call's fields and populate, as Strapi's", async () => {
    const tags = app.cairn.strapi.documents('api::tag.tag') as unknown as AppDocuments;
    const tag = await tags.create({ data: { name: 'shown' } });
    const page = await pages().create({ data: { title: 'Shaped', tags: [tag.documentId], seo: { metaTitle: 'M' } } } as never);
    const shape = { fields: ['title'], populate: { tags: { fields: ['name'] }, seo: true } };
    const expected = { documentId: page.documentId, title: 'Shaped', tags: [{ name: 'shown' }], seo: { metaTitle: 'M' } };
    const publishedPage = await pages().publish({ documentId: page.documentId, ...shape } as never);
    expect(publishedPage.entries).toMatchObject([expected]);
    expect(publishedPage.entries).toHaveLength(1);
    expect(publishedPage.entries[0]).not.toHaveProperty('createdAt');
    const discarded = await pages().discardDraft({ documentId: page.documentId, ...shape } as never);
    expect(discarded.entries).toMatchObject([expected]);
    expect(discarded.entries).toHaveLength(1);
    const unpublished = await pages().unpublish({ documentId: page.documentId, ...shape } as never);
    expect(unpublished.entries).toMatchObject([expected]);
    expect(unpublished.entries).toHaveLength(1);
    // The selection is checked as a read's: nothing is published with a key that is no attribute.
    await expect(pages().publish({ documentId: page.documentId, populate: { nothing: true } } as never)).rejects.toThrow('Invalid key nothing');
    expect(await pages().findMany({ status: 'published', filters: { documentId: page.documentId } } as never)).toEqual([]);
  });

  it('create keeps a documentId given in data: another locale joins that document, a second draft of one locale is refused', async () => {
    const en = await pages().create({ data: { documentId: 'my-page', title: 'Mine' } } as never);
    expect(en).toMatchObject({ documentId: 'my-page', locale: 'en', title: 'Mine' });
    const fr = await pages().create({ data: { documentId: 'my-page', title: 'La mienne' }, locale: 'fr' } as never);
    expect(fr).toMatchObject({ documentId: 'my-page', locale: 'fr' });
    expect((await pages().findMany({ locale: '*', filters: { documentId: 'my-page' } } as never)).length).toBe(2);
    await expect(pages().create({ data: { documentId: 'my-page', title: 'Again' } } as never)).rejects.toThrow(
      'A draft entry with documentId "my-page" and locale "en" already exists for UID "api::page.page". This combination must be unique.',
    );
    for (const none of [null, '']) {
      const made = await pages().create({ data: { documentId: none, title: 'No id' } } as never);
      expect(made.documentId).toMatch(/^[a-z][a-z0-9]{23}$/);
    }
    await expect(pages().create({ data: { documentId: 12, title: 'x' } } as never)).rejects.toThrow('documentId must be a string, not 12');
    // An update keeps the document's documentId, whatever data says.
    const updated = await pages().update({ documentId: 'my-page', data: { documentId: null, title: 'Still mine' } } as never);
    expect(updated).toMatchObject({ documentId: 'my-page', title: 'Still mine' });
  });

  it('clone: a new document of copies of the drafts asked for (values, components, links), data written over them', async () => {
    const tags = app.cairn.strapi.documents('api::tag.tag') as unknown as AppDocuments;
    const [red, blue] = [await tags.create({ data: { name: 'red' } }), await tags.create({ data: { name: 'blue' } })];
    const source = await pages().create({ data: { title: 'Source', tags: [red.documentId], seo: { metaTitle: 'S' } } } as never);
    await pages().update({ documentId: source.documentId, locale: 'fr', data: { title: 'Source fr', seo: { metaTitle: 'S fr' } } } as never);
    const populate = { tags: true, seo: true };

    const one = await pages().clone({ documentId: source.documentId, data: { title: 'Copy', tags: { connect: [blue.documentId] } }, populate } as never);
    expect(one.documentId).not.toBe(source.documentId);
    expect(one.entries).toHaveLength(1);
    expect(one.entries[0]).toMatchObject({ documentId: one.documentId, locale: 'en', title: 'Copy', publishedAt: null, seo: { metaTitle: 'S' } });
    // As Strapi 5.54's clone: a connect replaces the source's links (the clone is a new entry), see documents-clone.test.ts.
    expect(one.entries[0].tags.map((t: { name: string }) => t.name)).toEqual(['blue']);
    // The source keeps its own rows: its component is not the clone's, its tags unchanged.
    const after = await pages().findOne({ documentId: source.documentId, populate } as never);
    expect(after).toMatchObject({ title: 'Source', seo: { metaTitle: 'S' } });
    expect(after.seo.id).not.toBe(one.entries[0].seo.id);
    expect(after.tags.map((t: { name: string }) => t.name)).toEqual(['red']);
    expect((await tags.findOne({ documentId: red.documentId, populate: { pages: true } } as never)).pages).toHaveLength(1);

    const all = await pages().clone({ documentId: source.documentId, locale: '*' } as never);
    expect(all.entries.map((e: { locale: string; title: string }) => `${e.locale}:${e.title}`).sort()).toEqual(['en:Source', 'fr:Source fr']);
    expect(await pages().findMany({ status: 'published', filters: { documentId: all.documentId } } as never)).toEqual([]);

    expect(await pages().clone({ documentId: 'nothing-here', data: { title: 'x' } } as never)).toEqual({ documentId: undefined, entries: [] });
  });

  it("clone fires a create per cloned entry, as Strapi's clone: beforeCreate sees the source's values with data over them, what it changes is written; no update events", async () => {
    const source = await pages().create({ data: { title: 'Hooked source', seo: { metaTitle: 'H' } } } as never);
    await pages().update({ documentId: source.documentId, locale: 'fr', data: { title: 'Source accrochée' } } as never);
    const events: string[] = [];
    const unsubscribe = app.cairn.strapi.db.lifecycles.subscribe({
      models: ['api::page.page'],
      beforeCreate: (event) => {
        const data = event.params.data as { title: string; documentId: string };
        events.push(`beforeCreate ${event.params.locale} ${data.title} ${data.documentId}`);
        if (event.params.locale === 'fr') data.title = `${data.title} (copie)`;
      },
      afterCreate: (event) => {
        const result = event.result as { title: string; documentId: string; locale: string };
        events.push(`afterCreate ${result.locale} ${result.title} ${result.documentId}`);
      },
      beforeUpdate: (event) => {
        events.push(`beforeUpdate ${JSON.stringify(event.params.where)}`);
      },
      afterUpdate: () => {
        events.push('afterUpdate');
      },
    });
    try {
      const copy = await pages().clone({ documentId: source.documentId, locale: ['en', 'fr'], data: { title: 'Clone' } } as never);
      const id = copy.documentId as string;
      expect(events).toEqual([`beforeCreate en Clone ${id}`, `afterCreate en Clone ${id}`, `beforeCreate fr Clone ${id}`, `afterCreate fr Clone (copie) ${id}`]);
      const clones = await pages().findMany({ locale: '*', filters: { documentId: id }, populate: { seo: true } } as never);
      expect(clones.map((e: { locale: string; title: string }) => `${e.locale}:${e.title}`).sort()).toEqual(['en:Clone', 'fr:Clone (copie)']);
      expect(clones.find((e: { locale: string }) => e.locale === 'en').seo).toMatchObject({ metaTitle: 'H' });
    } finally {
      unsubscribe();
    }
  });

  it("checks params as Strapi 5.54's Document Service does, and reads what its Query Engine gives", async () => {
    const tags = app.cairn.strapi.documents('api::tag.tag') as unknown as AppDocuments;
    // `lookup` is internal to Strapi's service: refused by every action.
    for (const action of ['findMany', 'count', 'create'] as const) {
      await expect(pages()[action]({ lookup: { title: 'x' }, data: { title: 'x' } } as never)).rejects.toThrow("Invalid params: 'lookup'");
    }
    // A write checks filters and sort too, though it reads neither: nothing is written.
    const before = await pages().count({ locale: '*' } as never);
    await expect(pages().create({ data: { title: 'Sorted' }, sort: 'fakekey' } as never)).rejects.toThrow('Invalid key fakekey');
    await expect(pages().create({ data: { title: 'Filtered' }, filters: { fakekey: 'x' } } as never)).rejects.toThrow('Invalid key fakekey');
    expect(await pages().count({ locale: '*' } as never)).toBe(before);
    // App code sends Dates and `locale: null` for a target without locales.
    const tag = await tags.create({ data: { name: 'plain' } });
    const made = await pages().create({ data: { title: 'Dated', publishedAt: new Date(), tags: [{ documentId: tag.documentId, locale: null }] }, populate: { tags: true } } as never);
    expect(made).toMatchObject({ title: 'Dated', publishedAt: null, tags: [{ name: 'plain' }] });
    await expect(pages().create({ data: { title: 'Bad date', publishedAt: new Date('nope') } } as never)).rejects.toThrow('publishedAt must be a valid datetime or null');
    // A type without locales: its locale column, as code reads rows (null); REST does not show it.
    expect(await tags.findOne({ documentId: tag.documentId } as never)).toMatchObject({ name: 'plain', locale: null });
    const rest = await app.request('GET', `/api/tags/${tag.documentId}`);
    expect(rest.status).toBe(200);
    expect(rest.body.data).not.toHaveProperty('locale');
  });

  it("pagination params as Strapi 5.54's Document Service reads them, with its messages", async () => {
    const total = await pages().count({ locale: '*' } as never);
    expect(total).toBeGreaterThan(2);
    const refused: Array<[object, string, string]> = [
      [{ page: 'x', pageSize: 10 }, 'PaginationError', "Invalid 'page' parameter. Expected an integer > 0, received: x"],
      [{ page: 1, pageSize: 0 }, 'PaginationError', "Invalid 'pageSize' parameter. Expected an integer > 0, received: 0"],
      [{ start: -1 }, 'ValidationError', 'convertStartQueryParams expected a positive integer got -1'],
      [{ limit: 'x' }, 'ValidationError', 'convertLimitQueryParams expected a positive integer got NaN'],
      [{ page: 1, start: 0 }, 'PaginationError', 'Invalid pagination attributes. The page parameters are incorrect and must be in the pagination object'],
    ];
    for (const [params, name, message] of refused) {
      await expect(pages().findMany({ locale: '*', ...params } as never)).rejects.toMatchObject({ name, message });
    }
    expect(await pages().findMany({ locale: '*', page: '1', pageSize: '2' } as never)).toHaveLength(2);
    // A limit of 0 sets none in Strapi's query builder: every entry.
    expect(await pages().findMany({ locale: '*', start: 0, limit: 0 } as never)).toHaveLength(total);
  });

  it("locale params as Strapi 5.54's service reads them: a list for findMany and count, one locale for one document and for writes", async () => {
    const listed = await pages().findMany({ locale: ['fr', 'de'], filters: { documentId } } as never);
    expect(listed.map((p: { locale: string }) => p.locale)).toEqual(['fr']);
    expect((await pages().findMany({ locale: '*', filters: { documentId } } as never)).map((p: { locale: string }) => p.locale).sort()).toEqual(['en', 'fr']);
    expect(await pages().count({ locale: ['en', 'fr'], filters: { documentId } } as never)).toBe(2);
    await expect(pages().findOne({ documentId, locale: ['en', 'fr'] } as never)).rejects.toThrow('Invalid locale param en,fr provided. Document locales must be strings.');
    await expect(pages().findFirst({ locale: { en: true } } as never)).rejects.toThrow('Invalid locale param [object Object] provided. Document locales must be strings.');
    await expect(pages().create({ locale: '*', data: { title: 'everywhere' } } as never)).rejects.toThrow('Invalid locale param * provided. Document locales must be strings.');
    await expect(pages().findMany({ locale: ['en', 'xx'] } as never)).rejects.toThrow('Invalid locale xx');
  });

  it("an update making a new locale takes the non-localized values data leaves out from an existing version, as Strapi 5.54's", async () => {
    const made = await pages().create({ data: { title: 'Shared', code: 'C1', badge: { metaTitle: 'B' }, seo: { metaTitle: 'S' } } } as never);
    const fr = await pages().update({ documentId: made.documentId, locale: 'fr', data: { title: 'Partagé' }, populate: { badge: true, seo: true } } as never);
    expect(fr).toMatchObject({ locale: 'fr', title: 'Partagé', code: 'C1', badge: { metaTitle: 'B' }, seo: null });
    const en = await pages().findOne({ documentId: made.documentId, populate: { badge: true } } as never);
    expect(fr.badge.id).not.toBe(en.badge.id);
    // What data gives stays: a value, and null for a component.
    const de = await pages().update({ documentId: made.documentId, locale: 'de', data: { title: 'Geteilt', code: 'C2' }, populate: { badge: true } } as never);
    expect(de).toMatchObject({ code: 'C2', badge: { metaTitle: 'B' } });
  });

  it('a locale the app does not have is refused, nothing changed', async () => {
    await expect(pages().publish({ documentId, locale: ['de', 'xx'] } as never)).rejects.toThrow('Invalid locale xx');
    expect(await published(documentId)).toEqual(['en:Hello', 'fr:Rebonjour']);
  });
});
