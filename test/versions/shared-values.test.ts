import sharp from 'sharp';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../helpers/databases.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { uploadFile } from '../helpers/upload.js';

/**
 * Non-localized values (scalars, components, dynamic zones, media) are shared by a document's locales, as Strapi
 * 5.54's i18n keeps them: a write that gives one spreads the version it answers with to the other locales in the same
 * status (a draft-only write to their drafts, a publishing one to their published versions); a publish alone spreads
 * nothing; relations and uid values stay each locale's own.
 */
const localized = { i18n: { localized: true } };
const shared = { i18n: { localized: false } };
const model = {
  contentTypes: {
    dish: {
      kind: 'collectionType',
      collectionName: 'dishes',
      info: { singularName: 'dish', pluralName: 'dishes', displayName: 'dish' },
      options: { draftAndPublish: true },
      pluginOptions: localized,
      attributes: {
        title: { type: 'string', pluginOptions: localized },
        price: { type: 'integer', pluginOptions: shared },
        slug: { type: 'uid', pluginOptions: shared },
        badge: { type: 'component', component: 'parts.badge', pluginOptions: shared },
        zone: { type: 'dynamiczone', components: ['parts.badge'], pluginOptions: shared },
        photo: { type: 'media', multiple: false, allowedTypes: ['images'], pluginOptions: shared },
        chef: { type: 'relation', relation: 'manyToOne', target: 'api::chef.chef', pluginOptions: shared },
      },
    },
    chef: {
      kind: 'collectionType',
      collectionName: 'chefs',
      info: { singularName: 'chef', pluralName: 'chefs', displayName: 'chef' },
      options: { draftAndPublish: false },
      attributes: { name: { type: 'string' } },
    },
  },
  components: { 'parts.badge': { collectionName: 'components_parts_badges', info: { displayName: 'badge' }, attributes: { label: { type: 'string' } } } },
  config: { plugins: { i18n: { config: { defaultLocale: 'en', locales: ['en', 'fr', 'de'] } } } },
};

type Entry = Record<string, any>;
const POPULATE = 'populate[badge]=true&populate[zone]=true&populate[photo]=true&populate[chef]=true';

describeEachDialect('values shared by the locales of a document', (dialect) => {
  let app: TestApp;
  let photo: Entry;
  let chef: Entry;
  beforeAll(async () => {
    app = await startTestApp(dialect, model);
    const png = await sharp({ create: { width: 2, height: 2, channels: 3, background: { r: 9, g: 9, b: 9 } } }).png().toBuffer();
    photo = (await uploadFile(app, 'p.png', 'image/png', png)).body[0];
    chef = (await app.request('POST', '/api/chefs', { data: { name: 'Ann' } })).body.data;
  });
  afterAll(async () => app?.close());

  const read = async (documentId: string, locale: string, status: 'draft' | 'published') => {
    const res = await app.request('GET', `/api/dishes/${documentId}?locale=${locale}&status=${status}&${POPULATE}`);
    expect(res.status, `${locale} ${status}: ${res.raw}`).toBe(200);
    return res.body.data as Entry;
  };
  const sharedOf = (entry: Entry) => ({
    price: entry.price,
    badge: entry.badge?.label ?? null,
    zone: (entry.zone ?? []).map((item: Entry) => item.label),
    photo: entry.photo?.id ?? null,
  });
  /** A published document in en, fr and de, sharing price 1 and badge "one". */
  let made = 0;
  const threeLocales = async () => {
    made++;
    const en = await app.request('POST', `/api/dishes?${POPULATE}`, { data: { title: 'Soup', price: 1, slug: `soup-${made}`, badge: { label: 'one' } } });
    expect(en.status, en.raw).toBe(201);
    const { documentId } = en.body.data as Entry;
    for (const [locale, title] of [['fr', 'Soupe'], ['de', 'Suppe']]) {
      const res = await app.request('PUT', `/api/dishes/${documentId}?locale=${locale}`, { data: { title, slug: `${title.toLowerCase()}-${made}` } });
      expect(res.status, res.raw).toBe(200);
    }
    return documentId as string;
  };

  it('a new locale takes the shared values; a draft-only write spreads them to the other drafts, not to published versions', async () => {
    const documentId = await threeLocales();
    for (const locale of ['fr', 'de']) expect(sharedOf(await read(documentId, locale, 'published'))).toEqual({ price: 1, badge: 'one', zone: [], photo: null });

    const draft = await app.request('PUT', `/api/dishes/${documentId}?status=draft&${POPULATE}`, {
      data: { price: 2, badge: { label: 'two' }, zone: [{ __component: 'parts.badge', label: 'z' }], photo: photo.id, chef: chef.documentId },
    });
    expect(draft.status, draft.raw).toBe(200);
    for (const locale of ['fr', 'de']) {
      const other = await read(documentId, locale, 'draft');
      expect(sharedOf(other), locale).toEqual({ price: 2, badge: 'two', zone: ['z'], photo: photo.id });
      // Fresh component rows of its own, not the en draft's.
      expect(other.badge.id).not.toBe(draft.body.data.badge.id);
      // Relations and uid values are each locale's own.
      expect(other.chef).toBeNull();
      expect(other.slug).toBe(locale === 'fr' ? `soupe-${made}` : `suppe-${made}`);
      expect(sharedOf(await read(documentId, locale, 'published')), locale).toEqual({ price: 1, badge: 'one', zone: [], photo: null });
    }
    // Publishing en alone changes no shared value of the others' published versions (Strapi 5.54: nothing to sync).
    await app.cairn.strapi.documents('api::dish.dish').publish!({ documentId, locale: 'en' });
    expect(sharedOf(await read(documentId, 'en', 'published'))).toEqual({ price: 2, badge: 'two', zone: ['z'], photo: photo.id });
    expect(sharedOf(await read(documentId, 'fr', 'published'))).toEqual({ price: 1, badge: 'one', zone: [], photo: null });
  });

  it('a publishing write spreads them to the other published versions; their drafts keep theirs (Strapi 5.54)', async () => {
    const documentId = await threeLocales();
    const put = await app.request('PUT', `/api/dishes/${documentId}?locale=fr&${POPULATE}`, { data: { price: 3, photo: photo.id } });
    expect(put.status, put.raw).toBe(200);
    expect(sharedOf(put.body.data)).toEqual({ price: 3, badge: 'one', zone: [], photo: photo.id });
    for (const locale of ['en', 'de']) {
      expect(sharedOf(await read(documentId, locale, 'published')), locale).toEqual({ price: 3, badge: 'one', zone: [], photo: photo.id });
      expect(sharedOf(await read(documentId, locale, 'draft')), locale).toEqual({ price: 1, badge: 'one', zone: [], photo: null });
    }
  });

  it('a write that gives no shared value leaves the other locales as they are', async () => {
    const documentId = await threeLocales();
    const before = await read(documentId, 'de', 'draft');
    expect((await app.request('PUT', `/api/dishes/${documentId}?status=draft`, { data: { title: 'Broth' } })).status).toBe(200);
    // A sync would have given de fresh copies of en's components.
    expect((await read(documentId, 'de', 'draft')).badge).toEqual(before.badge);
    // Nor does one that gives a shared value it has already.
    expect((await app.request('PUT', `/api/dishes/${documentId}?status=draft`, { data: { price: 1 } })).status).toBe(200);
    expect((await read(documentId, 'de', 'draft')).badge).toEqual(before.badge);
    // One that changes one gives them all.
    expect((await app.request('PUT', `/api/dishes/${documentId}?status=draft`, { data: { price: 5 } })).status).toBe(200);
    expect((await read(documentId, 'de', 'draft')).badge.id).not.toBe(before.badge.id);
    expect((await read(documentId, 'de', 'draft')).price).toBe(5);
  });

  it('the exchange recorded from real Strapi 5.54: what each write leaves in each version (price / badge)', async () => {
    const documentId = await threeLocales();
    const state = async () => {
      const out: string[] = [];
      for (const locale of ['en', 'fr']) {
        for (const status of ['draft', 'published'] as const) {
          const entry = await read(documentId, locale, status);
          out.push(`${locale}.${status}=${entry.price}/${entry.badge?.label ?? null}`);
        }
      }
      return out.join(' ');
    };
    const put = async (query: string, data: Entry) => expect((await app.request('PUT', `/api/dishes/${documentId}${query}`, { data })).status).toBe(200);
    expect(await state()).toBe('en.draft=1/one en.published=1/one fr.draft=1/one fr.published=1/one');
    await put('?status=draft', { price: 2, badge: { label: 'two' } });
    expect(await state()).toBe('en.draft=2/two en.published=1/one fr.draft=2/two fr.published=1/one');
    await put('?locale=fr', { price: 3 });
    expect(await state()).toBe('en.draft=2/two en.published=3/two fr.draft=3/two fr.published=3/two');
    // Publishes en's draft; its values equal the document's first row's (en's draft): nothing to sync.
    await put('', { title: 'Broth' });
    expect(await state()).toBe('en.draft=2/two en.published=2/two fr.draft=3/two fr.published=3/two');
    // fr's draft differs from the first row (en's draft): synced, though the write gave no shared value.
    await put('?locale=fr&status=draft', { title: 'Bouillon' });
    expect(await state()).toBe('en.draft=3/two en.published=2/two fr.draft=3/two fr.published=3/two');
  });

  it('discarding a draft that changed shared values gives the other drafts the published ones back', async () => {
    const documentId = await threeLocales();
    await app.request('PUT', `/api/dishes/${documentId}?status=draft`, { data: { price: 8, badge: { label: 'eight' } } });
    expect((await read(documentId, 'fr', 'draft')).price).toBe(8);
    await app.cairn.strapi.documents('api::dish.dish').discardDraft!({ documentId, locale: 'en' });
    for (const locale of ['en', 'fr', 'de']) expect(sharedOf(await read(documentId, locale, 'draft')), locale).toEqual({ price: 1, badge: 'one', zone: [], photo: null });
  });
});
