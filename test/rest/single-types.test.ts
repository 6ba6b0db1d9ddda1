import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../helpers/databases.js';
import { startTestApp, type TestApp } from '../helpers/app.js';

type Entry = Record<string, any>;

describeEachDialect('single types', (dialect) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(dialect, {
      contentTypes: {
        homepage: {
          kind: 'singleType',
          collectionName: 'homepages',
          info: { singularName: 'homepage', pluralName: 'homepages', displayName: 'Homepage' },
          options: { draftAndPublish: true },
          attributes: { title: { type: 'string', required: true }, intro: { type: 'text' } },
        },
      },
    });
  });
  afterAll(async () => app?.close());

  it('GET before any content is a 404; PUT creates it, later PUTs update the same document', async () => {
    expect((await app.request('GET', '/api/homepage')).status).toBe(404);
    const created = await app.request('PUT', '/api/homepage', { data: { title: 'Welcome' } });
    expect(created.status).toBe(200);
    const updated = await app.request('PUT', '/api/homepage', { data: { intro: 'Hello' } });
    expect(updated.body.data).toMatchObject({ title: 'Welcome', intro: 'Hello', documentId: created.body.data.documentId });
    expect((await app.request('GET', '/api/homepage')).body.data.intro).toBe('Hello');
  });

  it('status=draft edits only the draft; DELETE removes the document; there is no list route', async () => {
    await app.request('PUT', '/api/homepage?status=draft', { data: { title: 'Next' } });
    expect((await app.request('GET', '/api/homepage')).body.data.title).toBe('Welcome');
    expect((await app.request('GET', '/api/homepage?status=draft')).body.data.title).toBe('Next');
    expect((await app.request('DELETE', '/api/homepage')).status).toBe(204);
    expect((await app.request('GET', '/api/homepage')).status).toBe(404);
    expect((await app.request('GET', '/api/homepages')).status).toBe(404);
    expect((await app.request('PUT', '/api/homepage', { data: { intro: 'no title' } })).status).toBe(400);
  });
});

/**
 * A localized single type has one document in every locale: Strapi's single-type service (`createOrUpdate`,
 * core-api/service/single-type.ts) and GraphQL's update mutation find it whatever the locale
 * (`strapi.db.query(uid).findOne()`) and update it, so a locale it lacks becomes a locale version of it.
 */
describeEachDialect('localized single types: one document in every locale', (dialect) => {
  let app: TestApp;
  const single = (name: string, draftAndPublish: boolean) => ({
    kind: 'singleType',
    collectionName: `${name}s`,
    info: { singularName: name, pluralName: `${name}s`, displayName: name },
    options: { draftAndPublish },
    pluginOptions: { i18n: { localized: true } },
    attributes: { title: { type: 'string' } },
  });
  beforeAll(async () => {
    app = await startTestApp(dialect, {
      contentTypes: { homepage: single('homepage', true), footer: single('footer', false), sidebar: single('sidebar', true), banner: single('banner', false) },
      config: { plugins: { i18n: { config: { defaultLocale: 'en', locales: ['en', 'fr', 'ko', 'de'] } } } },
    });
  });
  afterAll(async () => app?.close());

  /** The (document_id, locale, version) rows of a table, sorted. */
  const rows = async (table: string) => {
    const q = (name: string) => app.cairn.db.quote(name);
    const found = await app.cairn.db.query<{ document_id: string; locale: string; published_at: unknown }>(`SELECT ${q('document_id')}, ${q('locale')}, ${q('published_at')} FROM ${q(table)}`);
    return found.map((r) => `${r.document_id} ${r.locale} ${r.published_at === null ? 'draft' : 'published'}`).sort();
  };
  const documentIds = async (table: string) => [...new Set((await rows(table)).map((r) => r.split(' ')[0]))];
  const put = async (url: string, data: Record<string, unknown>) => {
    const res = await app.request('PUT', url, { data });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data as Entry;
  };
  const localesOf = (entry: Entry) => (entry.localizations as Entry[]).map((l) => l.locale).sort();

  it('Draft & Publish: PUT in a locale the document lacks adds that locale to it (published, or a draft only)', async () => {
    const en = await put('/api/homepage?locale=en', { title: 'Welcome' });
    const ko = await put('/api/homepage?locale=ko', { title: '환영합니다' });
    expect(ko).toMatchObject({ documentId: en.documentId, locale: 'ko', title: '환영합니다' });
    const read = await app.request('GET', '/api/homepage?locale=ko&populate=localizations');
    expect(read.status).toBe(200);
    expect(read.body.data).toMatchObject({ documentId: en.documentId, locale: 'ko', title: '환영합니다' });
    expect(localesOf(read.body.data)).toEqual(['en']);
    // A third locale, written as a draft only: it joins the same document, with no published version.
    const de = await put('/api/homepage?locale=de&status=draft', { title: 'Willkommen' });
    expect(de).toMatchObject({ documentId: en.documentId, locale: 'de', publishedAt: null });
    expect((await app.request('GET', '/api/homepage?locale=de')).status).toBe(404);
    const draft = await app.request('GET', '/api/homepage?locale=de&status=draft&populate=localizations');
    expect(draft.body.data).toMatchObject({ documentId: en.documentId, title: 'Willkommen' });
    expect(localesOf(draft.body.data)).toEqual(['en', 'ko']);
    expect(await documentIds('homepages')).toEqual([en.documentId]);
    const id = en.documentId;
    expect(await rows('homepages')).toEqual([`${id} de draft`, `${id} en draft`, `${id} en published`, `${id} ko draft`, `${id} ko published`].sort());
    // A GET or DELETE in a locale it lacks finds nothing there (404, and a 204 that deletes nothing).
    expect((await app.request('GET', '/api/homepage?locale=fr')).status).toBe(404);
    expect((await app.request('DELETE', '/api/homepage?locale=fr')).status).toBe(204);
    expect(await rows('homepages')).toHaveLength(5);
    // Deleting the first locale leaves the others in the same document; a later PUT in it joins it again.
    expect((await app.request('DELETE', '/api/homepage?locale=en')).status).toBe(204);
    expect((await put('/api/homepage?locale=en', { title: 'Back' })).documentId).toBe(id);
    expect(await documentIds('homepages')).toEqual([id]);
  });

  it('without Draft & Publish: the same, one document_id in the table', async () => {
    const en = await put('/api/footer', { title: 'Footer' });
    expect(en.locale).toBe('en');
    const ko = await put('/api/footer?locale=ko', { title: '꼬리말' });
    const fr = await put('/api/footer?locale=fr', { title: 'Pied de page' });
    expect([ko.documentId, fr.documentId]).toEqual([en.documentId, en.documentId]);
    const read = await app.request('GET', '/api/footer?locale=fr&populate=localizations');
    expect(localesOf(read.body.data)).toEqual(['en', 'ko']);
    expect(await rows('footers')).toEqual([`${en.documentId} en published`, `${en.documentId} fr published`, `${en.documentId} ko published`]);
  });

  it("GraphQL's update mutation and the core service (createOrUpdate) join the same document too", async () => {
    const gql = async (query: string) => {
      const res = await app.request('POST', '/graphql', { query });
      expect(res.body.errors, JSON.stringify(res.body.errors)).toBeUndefined();
      return res.body.data as Entry;
    };
    const en = (await gql('mutation { updateSidebar(data: { title: "Side" }) { documentId locale } }')).updateSidebar;
    const ko = (await gql('mutation { updateSidebar(locale: "ko", status: DRAFT, data: { title: "옆" }) { documentId locale publishedAt } }')).updateSidebar;
    expect(ko).toEqual({ documentId: en.documentId, locale: 'ko', publishedAt: null });
    const service = (app.cairn.strapi as unknown as { service(uid: string): { createOrUpdate(p: object): Promise<Entry>; delete(p: object): Promise<{ deletedEntries: number }> } }).service;
    const fr = await service('api::sidebar.sidebar').createOrUpdate({ locale: 'fr', data: { title: 'Côté' } });
    expect(fr).toMatchObject({ documentId: en.documentId, locale: 'fr' });
    expect(await documentIds('sidebars')).toEqual([en.documentId]);
    expect(await service('api::sidebar.sidebar').delete({ locale: 'de' })).toEqual({ deletedEntries: 0 });

    const banner = await service('api::banner.banner').createOrUpdate({ data: { title: 'Banner' } });
    const bannerKo = await service('api::banner.banner').createOrUpdate({ locale: 'ko', data: { title: '배너' } });
    const bannerFr = (await gql('mutation { updateBanner(locale: "fr", data: { title: "Bannière" }) { documentId } }')).updateBanner;
    expect([bannerKo.documentId, bannerFr.documentId]).toEqual([banner.documentId, banner.documentId]);
    expect(await rows('banners')).toEqual([`${banner.documentId} en published`, `${banner.documentId} fr published`, `${banner.documentId} ko published`]);
  });
});
