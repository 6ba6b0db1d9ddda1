import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachDialect } from '../helpers/databases.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { kitchen } from '../fixtures/kitchen.js';

type Entry = Record<string, any>;

const model = {
  ...kitchen,
  contentTypes: {
    ...kitchen.contentTypes,
    article: {
      kind: 'collectionType',
      collectionName: 'articles',
      info: { singularName: 'article', pluralName: 'articles', displayName: 'Article' },
      options: { draftAndPublish: true },
      attributes: {
        title: { type: 'string' },
        related: { type: 'relation', relation: 'manyToMany', target: 'api::article.article' },
        places: { type: 'relation', relation: 'manyToMany', target: 'api::restaurant.restaurant' },
      },
    },
  },
};

describeEachDialect('Draft & Publish and i18n', (dialect) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(dialect, model);
  });
  afterAll(async () => app?.close());

  const create = async (plural: string, data: Entry, query = '') => {
    const res = await app.request('POST', `/api/${plural}${query}`, { data });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.data as Entry;
  };
  const get = (url: string) => app.request('GET', url);

  describe('Draft & Publish', () => {
    it('POST without status writes the draft and publishes it: both versions equal', async () => {
      const a = await create('articles', { title: 'Both' });
      expect(a.publishedAt).toMatch(/Z$/);
      const draft = (await get(`/api/articles/${a.documentId}?status=draft`)).body.data;
      expect(draft).toMatchObject({ title: 'Both', publishedAt: null, documentId: a.documentId });
      expect((await get(`/api/articles/${a.documentId}?status=published`)).body.data.title).toBe('Both');
    });

    it('a draft-only document: 404 when published is asked, listed with status=draft', async () => {
      const a = await create('articles', { title: 'Only draft' }, '?status=draft');
      expect(a.publishedAt).toBeNull();
      expect((await get(`/api/articles/${a.documentId}`)).status).toBe(404);
      const drafts = (await get('/api/articles?status=draft&filters[title][$eq]=Only draft')).body.data;
      expect(drafts.map((e: Entry) => e.documentId)).toEqual([a.documentId]);
      expect((await get('/api/articles?filters[title][$eq]=Only draft')).body.data).toEqual([]);
    });

    it('a published document with a newer draft: each status shows its version; PUT ?status=published publishes', async () => {
      const a = await create('articles', { title: 'v1' });
      const edited = await app.request('PUT', `/api/articles/${a.documentId}?status=draft`, { data: { title: 'v2' } });
      expect(edited.body.data).toMatchObject({ title: 'v2', publishedAt: null });
      expect((await get(`/api/articles/${a.documentId}`)).body.data.title).toBe('v1');
      expect((await get(`/api/articles/${a.documentId}?status=draft`)).body.data.title).toBe('v2');
      const published = await app.request('PUT', `/api/articles/${a.documentId}?status=published`, { data: {} });
      expect(published.body.data).toMatchObject({ title: 'v2' });
      expect((await get(`/api/articles/${a.documentId}`)).body.data.title).toBe('v2');
    });

    it('status other than draft or published is a 400, on reads', async () => {
      const res = await get('/api/articles?status=bogus');
      expect(res.status).toBe(400);
      expect(res.body.error.name).toBe('ValidationError');
    });

    it('populated relations show the targets in the same status; publishing copies the draft relations', async () => {
      const target = await create('articles', { title: 'target published' });
      await app.request('PUT', `/api/articles/${target.documentId}?status=draft`, { data: { title: 'target draft' } });
      const draftOnly = await create('articles', { title: 'draft-only target' }, '?status=draft');
      const source = await create('articles', { title: 'source', related: [target.documentId, draftOnly.documentId] });
      const titles = async (status: string) =>
        (await get(`/api/articles/${source.documentId}?status=${status}&populate[related][fields][0]=title`)).body.data.related.map((e: Entry) => e.title);
      expect(await titles('published')).toEqual(['target published']);
      expect(await titles('draft')).toEqual(['target draft', 'draft-only target']);
      // Relations changed in the draft only reach the published version when it is published.
      await app.request('PUT', `/api/articles/${source.documentId}?status=draft`, { data: { related: [draftOnly.documentId] } });
      expect(await titles('published')).toEqual(['target published']);
      await app.request('POST', `/api/articles/${source.documentId}/actions/publish`);
      expect(await titles('published')).toEqual([]);
      await app.request('POST', `/api/articles/${draftOnly.documentId}/actions/publish`);
      expect(await titles('published')).toEqual(['draft-only target']);
    });

    it('actions: unpublish keeps the draft; discard-draft restores the published content', async () => {
      const a = await create('articles', { title: 'live' });
      await app.request('PUT', `/api/articles/${a.documentId}?status=draft`, { data: { title: 'edit' } });
      const discarded = await app.request('POST', `/api/articles/${a.documentId}/actions/discard-draft`);
      expect(discarded.status).toBe(200);
      expect((await get(`/api/articles/${a.documentId}?status=draft`)).body.data.title).toBe('live');
      expect((await app.request('POST', `/api/articles/${a.documentId}/actions/unpublish`)).status).toBe(200);
      expect((await get(`/api/articles/${a.documentId}`)).status).toBe(404);
      expect((await get(`/api/articles/${a.documentId}?status=draft`)).body.data.title).toBe('live');
      expect((await app.request('POST', '/api/articles/doesnotexist0000000000000/actions/publish')).status).toBe(404);
    });

    it('the publish actions need the publish permission', async () => {
      const a = await create('articles', { title: 'guarded' });
      const res = await app.request('POST', `/api/articles/${a.documentId}/actions/unpublish`, undefined, { authorization: '' });
      expect(res.status).toBe(403);
    });

    it('DELETE removes every version of the document', async () => {
      const a = await create('articles', { title: 'gone' });
      await app.request('PUT', `/api/articles/${a.documentId}?status=draft`, { data: { title: 'gone draft' } });
      expect((await app.request('DELETE', `/api/articles/${a.documentId}`)).status).toBe(204);
      expect((await get(`/api/articles/${a.documentId}?status=draft`)).status).toBe(404);
      expect((await get(`/api/articles/${a.documentId}`)).status).toBe(404);
    });

    it('content-types without Draft & Publish always have publishedAt', async () => {
      const c = await create('categories', { name: 'Always' }, '?status=draft');
      expect(c.publishedAt).toMatch(/Z$/);
    });
  });

  describe('i18n', () => {
    it('locale on reads and writes; locale=* lists every locale; entries carry locale', async () => {
      const r = await create('restaurants', { name: 'Garden' });
      expect(r.locale).toBe('en');
      const fr = await app.request('PUT', `/api/restaurants/${r.documentId}?locale=fr`, { data: { name: 'Jardin' } });
      expect(fr.body.data).toMatchObject({ locale: 'fr', name: 'Jardin', documentId: r.documentId });
      expect((await get(`/api/restaurants/${r.documentId}?locale=fr`)).body.data.name).toBe('Jardin');
      expect((await get(`/api/restaurants/${r.documentId}`)).body.data.name).toBe('Garden');
      const all = (await get(`/api/restaurants?locale=*&filters[documentId][$eq]=${r.documentId}&sort=locale:asc`)).body.data;
      expect(all.map((e: Entry) => `${e.locale}:${e.name}`)).toEqual(['en:Garden', 'fr:Jardin']);
      expect((await get('/api/restaurants?locale=xx')).status).toBe(400);
      // One document in every locale is no one entry: 404, as Strapi 5.54 answers (not the first locale found).
      const one = await get(`/api/restaurants/${r.documentId}?locale=*`);
      expect(one.status).toBe(404);
      expect(one.body.error).toMatchObject({ name: 'NotFoundError' });
    });

    it('a top-level locale filter chooses the locales itself, over the default and the locale parameter, as Strapi merges filters over its locale lookup', async () => {
      const r = await create('restaurants', { name: 'Harbour' });
      await app.request('PUT', `/api/restaurants/${r.documentId}?locale=fr`, { data: { name: 'Port' } });
      const names = async (query: string) => {
        const res = await get(`/api/restaurants?filters[documentId][$eq]=${r.documentId}&sort=locale:asc&${query}`);
        expect(res.status, query).toBe(200);
        return res.body.data.map((e: Entry) => `${e.locale}:${e.name}`);
      };
      expect(await names('filters[locale]=fr')).toEqual(['fr:Port']);
      expect(await names('filters[locale][$eq]=fr')).toEqual(['fr:Port']);
      expect(await names('filters[locale][$in][0]=en&filters[locale][$in][1]=fr')).toEqual(['en:Harbour', 'fr:Port']);
      expect(await names('filters[locale][$ne]=en')).toEqual(['fr:Port']);
      // Over a locale parameter too (Strapi 5.54 answers the filter's locales; probed on one database).
      expect(await names('locale=en&filters[locale]=fr')).toEqual(['fr:Port']);
      expect(await names('locale=fr&filters[locale][$eq]=en')).toEqual(['en:Harbour']);
      expect(await names('locale=*&filters[locale][$ne]=fr')).toEqual(['en:Harbour']);
      // The parameter is still validated.
      expect((await get('/api/restaurants?locale=xx&filters[locale]=fr')).status).toBe(400);
      // One document: the version the filter names (no 404, which is for locale=* alone).
      const one = await get(`/api/restaurants/${r.documentId}?filters[locale][$eq]=fr`);
      expect(one.status).toBe(200);
      expect(one.body.data).toMatchObject({ locale: 'fr', name: 'Port' });
      expect((await get(`/api/restaurants/${r.documentId}?locale=en&filters[locale][$eq]=fr`)).body.data.name).toBe('Port');
      expect((await get(`/api/restaurants/${r.documentId}?filters[locale][$eq]=de`)).status).toBe(404);
      // Nested under $and, the filter is one more condition within the locale the parameter (or the default) gives.
      expect(await names('filters[$and][0][locale]=fr')).toEqual([]);
      expect(await names('locale=fr&filters[$and][0][locale]=fr')).toEqual(['fr:Port']);
      expect(await names('filters[$and][0][locale]=en')).toEqual(['en:Harbour']);
      // The meta total counts what the filter chose.
      const res = await get(`/api/restaurants?filters[documentId][$eq]=${r.documentId}&filters[locale][$ne]=de`);
      expect(res.body.meta.pagination.total).toBe(2);
      // A bad value is still a 400.
      expect((await get('/api/restaurants?filters[locale][$nope]=fr')).status).toBe(400);
    });

    it('a document that exists only in fr: POST ?locale=fr, en is 404; the locale can come in the body too', async () => {
      const r = await create('restaurants', { name: 'Seulement' }, '?locale=fr');
      expect(r.locale).toBe('fr');
      expect((await get(`/api/restaurants/${r.documentId}`)).status).toBe(404);
      const viaBody = await create('restaurants', { name: 'Par le corps', locale: 'fr' });
      expect(viaBody.locale).toBe('fr');
    });

    it('populate=localizations lists the other locales; DELETE ?locale=fr removes only fr', async () => {
      const r = await create('restaurants', { name: 'Two' });
      await app.request('PUT', `/api/restaurants/${r.documentId}?locale=fr`, { data: { name: 'Deux' } });
      const withOthers = (await get(`/api/restaurants/${r.documentId}?populate=localizations`)).body.data;
      expect(withOthers.localizations.map((e: Entry) => `${e.locale}:${e.name}`)).toEqual(['fr:Deux']);
      const star = (await get(`/api/restaurants/${r.documentId}?populate=*`)).body.data;
      expect(star.localizations).toHaveLength(1);
      await app.request('DELETE', `/api/restaurants/${r.documentId}?locale=fr`);
      expect((await get(`/api/restaurants/${r.documentId}?locale=fr`)).status).toBe(404);
      expect((await get(`/api/restaurants/${r.documentId}`)).body.data.name).toBe('Two');
    });

    it('unlocalized attributes are shared by every locale', async () => {
      const r = await create('restaurants', { name: 'Shared', stars: 2 });
      await app.request('PUT', `/api/restaurants/${r.documentId}?locale=fr`, { data: { name: 'Partagé' } });
      await app.request('PUT', `/api/restaurants/${r.documentId}?locale=fr`, { data: { stars: 4 } });
      expect((await get(`/api/restaurants/${r.documentId}`)).body.data.stars).toBe(4);
      await app.request('PUT', `/api/restaurants/${r.documentId}`, { data: { stars: 1 } });
      expect((await get(`/api/restaurants/${r.documentId}?locale=fr`)).body.data.stars).toBe(1);
    });

    it('non-localized types ignore locale and have no locale field', async () => {
      const c = await create('categories', { name: 'NoLocale' }, '?locale=fr');
      expect(c).not.toHaveProperty('locale');
      const listed = await get('/api/categories?locale=fr&filters[name][$eq]=NoLocale');
      expect(listed.status).toBe(200);
      expect(listed.body.data).toHaveLength(1);
    });

    it('relations from a non-localized type to a localized one name the target locale (connect with locale)', async () => {
      const r = await create('restaurants', { name: 'Bilingual' });
      await app.request('PUT', `/api/restaurants/${r.documentId}?locale=fr`, { data: { name: 'Bilingue' } });
      const a = await create('articles', {
        title: 'points to fr',
        places: { connect: [{ documentId: r.documentId, locale: 'fr' }, { documentId: r.documentId, locale: 'en' }] },
      });
      const places = (await get(`/api/articles/${a.documentId}?populate[places][fields][0]=name&populate[places][fields][1]=locale`)).body.data.places;
      expect(places.map((p: Entry) => `${p.locale}:${p.name}`)).toEqual(['fr:Bilingue', 'en:Bilingual']);
      const missing = await app.request('POST', '/api/articles', {
        data: { title: 'x', places: { connect: [{ documentId: (await create('restaurants', { name: 'en only' })).documentId, locale: 'fr' }] } },
      });
      expect(missing.status).toBe(400);
    });

    it('populate across localized and non-localized types, in both statuses', async () => {
      const chef = (await create('chefs', { name: 'Marie' })).documentId;
      const live = await create('restaurants', { name: 'Live', chef });
      await app.request('PUT', `/api/restaurants/${live.documentId}?locale=fr`, { data: { name: 'En direct', chef } });
      await create('restaurants', { name: 'Hidden draft', chef }, '?status=draft');
      const published = (await get(`/api/chefs/${chef}?populate[restaurants][fields][0]=name&populate[restaurants][sort][0]=name:asc`)).body.data.restaurants;
      expect(published.map((r: Entry) => r.name)).toEqual(['En direct', 'Live']);
      const drafts = (await get(`/api/chefs/${chef}?status=draft&populate[restaurants][fields][0]=name&populate[restaurants][sort][0]=name:asc`)).body.data.restaurants;
      expect(drafts.map((r: Entry) => r.name)).toEqual(['En direct', 'Hidden draft', 'Live']);
      const fromRestaurant = (await get(`/api/restaurants/${live.documentId}?locale=fr&populate[chef][fields][0]=name`)).body.data.chef;
      expect(fromRestaurant.name).toBe('Marie');
    });
  });
});
