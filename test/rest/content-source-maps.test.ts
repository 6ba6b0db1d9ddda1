import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../helpers/databases.js';
import { startTestApp, writeApp, type TestApp, type TestSchemas } from '../helpers/app.js';

type Entry = Record<string, any>;

/**
 * Content source maps: with `strapi-encode-source-maps: true` (LaunchPad's Next.js front end sends it in draft mode),
 * Strapi's core controllers hide, after each string of an encodable field, where it comes from (Vercel's stega form:
 * zero-width characters). The metadata expected here is what Strapi 5.54.0's content-source-maps service gives for
 * such entries: the answer's document and locale, the attribute type, the path (a multiple media field's files without
 * their index), the model, the kind of a content type (a component has none); blocks marked once per block.
 */
const schemas: TestSchemas = {
  contentTypes: {
    dish: {
      kind: 'collectionType',
      collectionName: 'dishes',
      info: { singularName: 'dish', pluralName: 'dishes', displayName: 'dish' },
      options: { draftAndPublish: false },
      attributes: { name: { type: 'string' } },
    },
    place: {
      kind: 'collectionType',
      collectionName: 'places',
      info: { singularName: 'place', pluralName: 'places', displayName: 'place' },
      options: { draftAndPublish: true },
      pluginOptions: { i18n: { localized: true } },
      attributes: {
        name: { type: 'string', pluginOptions: { i18n: { localized: true } } },
        slug: { type: 'uid', targetField: 'name' },
        rating: { type: 'integer' },
        mood: { type: 'enumeration', enum: ['calm', 'busy'] },
        story: { type: 'blocks' },
        cover: { type: 'media', multiple: false },
        photos: { type: 'media', multiple: true },
        address: { type: 'component', component: 'parts.address' },
        sections: { type: 'dynamiczone', components: ['parts.menu', 'parts.address'] },
        dishes: { type: 'relation', relation: 'manyToMany', target: 'api::dish.dish' },
      },
    },
    home: {
      kind: 'singleType',
      collectionName: 'homes',
      info: { singularName: 'home', pluralName: 'homes', displayName: 'home' },
      options: { draftAndPublish: false },
      attributes: { headline: { type: 'string' } },
    },
  },
  components: {
    'parts.address': { collectionName: 'components_parts_addresses', info: { displayName: 'address' }, attributes: { city: { type: 'string' } } },
    'parts.menu': {
      collectionName: 'components_parts_menus',
      info: { displayName: 'menu' },
      attributes: { title: { type: 'string' }, dishes: { type: 'relation', relation: 'oneToMany', target: 'api::dish.dish' } },
    },
  },
  config: { plugins: { i18n: { config: { defaultLocale: 'en', locales: ['en', 'fr'] } } } },
};

// The dishes' find is the app's own (server code): the core find it calls answers through `transformResponse`.
const FILES: Record<string, string> = {
  'src/api/dish/routes/dish.js': `module.exports = require('@strapi/strapi').factories.createCoreRouter('api::dish.dish');`,
  'src/api/dish/controllers/dish.js': `module.exports = require('@strapi/strapi').factories.createCoreController('api::dish.dish', () => ({
  async find(ctx) {
    return super.find(ctx);
  },
}));`,
};

const STORY = [
  { type: 'paragraph', children: [{ type: 'text', text: 'Hello' }, { type: 'text', text: ' world', bold: true }] },
  { type: 'heading', level: 2, children: [{ type: 'link', url: 'https://example.org', children: [{ type: 'text', text: 'Linked' }] }, { type: 'text', text: 'after' }] },
  {
    type: 'list',
    format: 'unordered',
    children: [
      { type: 'list-item', children: [{ type: 'text', text: 'one' }, { type: 'text', text: 'more' }] },
      { type: 'list', format: 'ordered', children: [{ type: 'list-item', children: [{ type: 'text', text: 'nested' }] }] },
    ],
  },
  { type: 'image', image: { url: '/uploads/a.png', alternativeText: 'A plate', name: 'a.png' }, children: [{ type: 'text', text: '' }] },
  { type: 'code', language: 'js', children: [{ type: 'text', text: 'let x = 1;' }] },
];

const ON = { 'strapi-encode-source-maps': 'true' };
const DIGITS: Record<string, number> = { '\u200b': 0, '\u200c': 1, '\u200d': 2, '\ufeff': 3 };
const MARKER = /[\u200b\u200c\u200d\ufeff]+$/u;

/** The text before its marker, and the metadata the marker hides (undefined: no marker). */
function read(value: string): { text: string; source?: Record<string, string> } {
  const marker = MARKER.exec(value)?.[0];
  if (!marker) return { text: value };
  const chars = Array.from(marker);
  expect(chars.slice(0, 4).join('')).toBe('\u200b'.repeat(4));
  let json = '';
  for (let i = 4; i < chars.length; i += 4) json += String.fromCharCode(parseInt(chars.slice(i, i + 4).map((c) => DIGITS[c]).join(''), 4));
  const { strapiSource } = JSON.parse(json) as { strapiSource: string };
  return { text: value.slice(0, -marker.length), source: Object.fromEntries(new URLSearchParams(strapiSource)) };
}

describeEachDialect('content source maps (strapi-encode-source-maps: true)', (dialect) => {
  let app: TestApp;
  let files: Entry[];
  let dishes: Entry[];
  let place: Entry;
  const populate =
    'populate[cover]=true&populate[photos]=true&populate[address]=true&populate[dishes]=true&populate[localizations]=true' +
    '&populate[sections][on][parts.menu][populate][dishes]=true&populate[sections][on][parts.address]=true';

  beforeAll(async () => {
    const dir = writeApp(schemas);
    for (const [path, text] of Object.entries(FILES)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
    app = await startTestApp(dialect, dir);
    files = [];
    for (const name of ['a.pdf', 'b.pdf']) {
      const form = new FormData();
      form.append('files', new Blob([new Uint8Array(Buffer.from('%PDF-1.4\n%%EOF\n'))], { type: 'application/pdf' }), name);
      const multipart = new Response(form);
      const uploaded = await app.cairn.fastify.inject({
        method: 'POST',
        url: '/api/upload',
        payload: Buffer.from(await multipart.arrayBuffer()),
        headers: { 'content-type': multipart.headers.get('content-type')!, authorization: `Bearer ${app.token}` },
      });
      expect(uploaded.statusCode).toBe(201);
      files.push(JSON.parse(uploaded.body)[0]);
    }
    dishes = [];
    for (const name of ['Soup', 'Stew']) dishes.push((await app.request('POST', '/api/dishes', { data: { name } })).body.data);
    const created = await app.request('POST', '/api/places?locale=en', {
      data: {
        name: 'Inn',
        slug: 'inn',
        rating: 4,
        mood: 'calm',
        story: STORY,
        cover: files[0].id,
        photos: [files[0].id, files[1].id],
        address: { city: 'Paris' },
        sections: [{ __component: 'parts.menu', title: 'Lunch', dishes: dishes.map((d) => d.documentId) }, { __component: 'parts.address', city: 'Lyon' }],
        dishes: [dishes[0].documentId],
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    place = created.body.data;
    const fr = await app.request('PUT', `/api/places/${place.documentId}?locale=fr`, { data: { name: 'Auberge', slug: 'auberge' } });
    expect(fr.status, JSON.stringify(fr.body)).toBe(200);
    expect((await app.request('PUT', '/api/home', { data: { headline: 'Welcome' } })).status).toBe(200);
  });
  afterAll(async () => app?.close());

  const placeSource = (type: string, path: string, more: Record<string, string> = {}) => ({
    documentId: place.documentId,
    type,
    path,
    model: 'api::place.place',
    kind: 'collectionType',
    locale: 'en',
    ...more,
  });

  it("marks an entry's strings with their field, document and locale; ids, uids, numbers, locale and publishedAt are left as they are", async () => {
    const res = await app.request('GET', `/api/places/${place.documentId}?locale=en&status=draft`, undefined, ON);
    expect(res.status).toBe(200);
    const entry = res.body.data;
    expect(read(entry.name)).toEqual({ text: 'Inn', source: placeSource('string', 'name') });
    expect(read(entry.mood)).toEqual({ text: 'calm', source: placeSource('enumeration', 'mood') });
    expect(read(entry.createdAt).source).toEqual(placeSource('datetime', 'createdAt'));
    expect(read(entry.updatedAt).source).toEqual(placeSource('datetime', 'updatedAt'));
    expect(entry.documentId).toBe(place.documentId);
    expect(entry.slug).toBe('inn');
    expect(entry.locale).toBe('en');
    expect(entry.rating).toBe(4);
    expect(entry.publishedAt).toBeNull();
  });

  it('marks blocks once per block: the first text of a paragraph, heading or list item, an image by its alternative text, no code', async () => {
    const story = (await app.request('GET', `/api/places/${place.documentId}?locale=en&status=draft`, undefined, ON)).body.data.story;
    const source = placeSource('blocks', 'story', { fieldPath: 'story' });
    expect(read(story[0].children[0].text)).toEqual({ text: 'Hello', source });
    expect(story[0].children[1].text).toBe(' world');
    expect(read(story[1].children[0].children[0].text)).toEqual({ text: 'Linked', source });
    expect(story[1].children[1].text).toBe('after');
    expect(read(story[2].children[0].children[0].text)).toEqual({ text: 'one', source });
    expect(story[2].children[0].children[1].text).toBe('more');
    expect(read(story[2].children[1].children[0].children[0].text)).toEqual({ text: 'nested', source });
    expect(read(story[3].image.alternativeText)).toEqual({ text: 'A plate', source });
    expect(story[3].image.url).toBe('/uploads/a.png');
    expect(story[3].children[0].text).toBe('');
    expect(story[4]).toEqual(STORY[4]);
  });

  it("marks populated media, components, dynamic-zone items, relations and localizations under the answer's document", async () => {
    const entry = (await app.request('GET', `/api/places/${place.documentId}?locale=en&status=draft&${populate}`, undefined, ON)).body.data;
    const file = (type: string, path: string) => ({ ...placeSource(type, path), model: 'plugin::upload.file' });
    expect(read(entry.cover.url)).toEqual({ text: files[0].url, source: file('text', 'cover.url') });
    expect(read(entry.cover.name).source).toEqual(file('string', 'cover.name'));
    expect(read(entry.cover.createdAt).source).toEqual(file('datetime', 'cover.createdAt'));
    // The files of a multiple media field share the field's path.
    expect(read(entry.photos[1].url)).toEqual({ text: files[1].url, source: file('text', 'photos.url') });
    expect(read(entry.photos[0].mime).source).toEqual(file('string', 'photos.mime'));
    expect(entry.photos[0].size).toBe(files[0].size);
    // A component's model is its uid, with no kind.
    const { kind: _kind, ...component } = placeSource('string', 'address.city', { model: 'parts.address' });
    expect(read(entry.address.city)).toEqual({ text: 'Paris', source: component });
    expect(read(entry.sections[0].title).source).toEqual({ ...component, path: 'sections.0.title', model: 'parts.menu' });
    expect(read(entry.sections[1].city).source).toEqual({ ...component, path: 'sections.1.city' });
    expect(entry.sections[0].__component).toBe('parts.menu');
    const dish = (path: string) => ({ ...placeSource('string', path), model: 'api::dish.dish' });
    expect(read(entry.sections[0].dishes[1].name)).toEqual({ text: 'Stew', source: dish('sections.0.dishes.1.name') });
    expect(read(entry.dishes[0].name)).toEqual({ text: 'Soup', source: dish('dishes.0.name') });
    expect(entry.dishes[0].documentId).toBe(dishes[0].documentId);
    // Another locale of the document: its own fields, this answer's document and locale.
    expect(read(entry.localizations[0].name)).toEqual({ text: 'Auberge', source: placeSource('string', 'localizations.0.name') });
    expect(entry.localizations[0].locale).toBe('fr');
  });

  it("marks each entry of a list with its own locale; a single type's kind is singleType; app code's core find answers alike", async () => {
    const list = await app.request('GET', '/api/places?locale=fr&status=draft', undefined, ON);
    expect(read(list.body.data[0].name)).toEqual({ text: 'Auberge', source: placeSource('string', 'name', { locale: 'fr' }) });
    expect(list.body.meta.pagination.total).toBe(1);
    const home = (await app.request('GET', '/api/home', undefined, ON)).body.data;
    expect(read(home.headline)).toEqual({ text: 'Welcome', source: { documentId: home.documentId, type: 'string', path: 'headline', model: 'api::home.home', kind: 'singleType' } });
    const served = (await app.request('GET', '/api/dishes?sort=name', undefined, ON)).body.data;
    expect(read(served[0].name)).toEqual({ text: 'Soup', source: { documentId: dishes[0].documentId, type: 'string', path: 'name', model: 'api::dish.dish', kind: 'collectionType' } });
  });

  it("marks a write's answer too", async () => {
    const res = await app.request('PUT', `/api/dishes/${dishes[1].documentId}`, { data: { name: 'Stew' } }, ON);
    expect(res.status).toBe(200);
    expect(read(res.body.data.name).source).toEqual({ documentId: dishes[1].documentId, type: 'string', path: 'name', model: 'api::dish.dish', kind: 'collectionType' });
  });

  it("leaves the answer as it is without the header, with any other value, or in v4's shape", async () => {
    const url = `/api/places/${place.documentId}?locale=en&status=draft&${populate}`;
    for (const headers of [{}, { 'strapi-encode-source-maps': 'false' }, { 'strapi-encode-source-maps': 'TRUE' }] as Record<string, string>[]) {
      const res = await app.request('GET', url, undefined, headers);
      expect(res.status).toBe(200);
      expect(res.raw).not.toMatch(/[\u200b\u200c\u200d\ufeff]/u);
      expect(res.body.data.story).toEqual(STORY);
    }
    const v4 = await app.request('GET', url, undefined, { ...ON, 'strapi-response-format': 'v4' });
    expect(v4.body.data.attributes.name).toBe('Inn');
    expect(v4.raw).not.toMatch(/[\u200b\u200c\u200d\ufeff]/u);
    const dishesRaw = (await app.request('GET', '/api/dishes', undefined, { 'strapi-encode-source-maps': 'false' })).raw;
    expect(dishesRaw).not.toMatch(/[\u200b\u200c\u200d\ufeff]/u);
  });
});
