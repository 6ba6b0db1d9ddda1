import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachDialect } from '../helpers/databases.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { uploadFile } from '../helpers/upload.js';

interface FileEntry {
  id: number;
  name: string;
}
type Named = { name: string };

/**
 * Filters on media attributes, single and multiple: through the file as through a relation, by id and by the file's
 * attributes. The expected lists were recorded from Strapi 5.54.0 (the reference server) on the same data: authors
 * A1 (avatar pic, gallery [pic, doc]), A2 (avatar doc, gallery [doc]), A3 (nothing), A4 (gallery [menu.pdf]).
 */
const model = {
  contentTypes: {
    author: {
      kind: 'collectionType',
      collectionName: 'authors',
      info: { singularName: 'author', pluralName: 'authors', displayName: 'Author' },
      options: { draftAndPublish: false },
      attributes: {
        name: { type: 'string' },
        avatar: { type: 'media', multiple: false, allowedTypes: ['images'] },
        gallery: { type: 'media', multiple: true, allowedTypes: ['images', 'files'] },
      },
    },
    article: {
      kind: 'collectionType',
      collectionName: 'articles',
      info: { singularName: 'article', pluralName: 'articles', displayName: 'Article' },
      options: { draftAndPublish: true },
      pluginOptions: { i18n: { localized: true } },
      attributes: {
        title: { type: 'string' },
        cover: { type: 'media', multiple: false, allowedTypes: ['images'] },
      },
    },
  },
  config: {
    plugins: { i18n: { config: { defaultLocale: 'en', locales: ['en', 'fr'] } } },
    permissions: { roles: { public: { permissions: ['api::author.author.find'] } } },
  },
};

describeEachDialect('filters on media attributes', (dialect) => {
  let app: TestApp;
  const files: Record<string, FileEntry> = {};
  beforeAll(async () => {
    app = await startTestApp(dialect, model);
    const image = await sharp({ create: { width: 30, height: 20, channels: 3, background: { r: 1, g: 2, b: 3 } } }).png().toBuffer();
    const upload = async (name: string, type: string, data: Buffer) => (await uploadFile(app, name, type, data)).body[0] as FileEntry;
    files.menu = await upload('menu.pdf', 'application/pdf', Buffer.from('%PDF-1.4\n%%EOF\n'));
    files.pic = await upload('pic.png', 'image/png', image);
    files.doc = await upload('doc.png', 'image/png', image);
    const authors = [
      { name: 'A1', avatar: files.pic.id, gallery: [files.pic.id, files.doc.id] },
      { name: 'A2', avatar: files.doc.id, gallery: [files.doc.id] },
      { name: 'A3' },
      { name: 'A4', gallery: [files.menu.id] },
    ];
    for (const data of authors) expect((await app.request('POST', '/api/authors', { data })).status).toBe(201);
  });
  afterAll(async () => app?.close());

  const names = async (query: string) => {
    const res = await app.request('GET', `/api/authors?fields[0]=name&sort=name&${query}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data.map((e: Named) => e.name);
  };

  describe('single media (avatar)', () => {
    const cases: Array<[string, string[]]> = [
      ['filters[avatar][id][$notNull]=true', ['A1', 'A2']],
      ['filters[avatar][id][$null]=true', ['A3', 'A4']],
      ['filters[avatar][$null]=true', ['A3', 'A4']],
      ['filters[avatar][$notNull]=true', ['A1', 'A2']],
      ['filters[avatar][name][$eq]=pic.png', ['A1']],
      ['filters[avatar][mime][$startsWith]=image', ['A1', 'A2']],
      ['filters[avatar][url][$contains]=doc', ['A2']],
      ['filters[avatar][hash][$contains]=doc', ['A2']],
      ['filters[avatar][width][$gt]=10', ['A1', 'A2']],
      ['filters[avatar][formats][$null]=true', ['A1', 'A2', 'A3', 'A4']],
      ['filters[avatar][caption][$null]=true', ['A1', 'A2', 'A3', 'A4']],
      ['filters[avatar][createdAt][$notNull]=true', ['A1', 'A2']],
      ['filters[avatar][documentId][$notNull]=true', ['A1', 'A2']],
      ['filters[avatar][provider][$eq]=local', ['A1', 'A2']],
      ['filters[$not][avatar][id][$notNull]=true', ['A3', 'A4']],
    ];
    for (const [query, expected] of cases) it(query, async () => expect(await names(query)).toEqual(expected));

    it('by file id: the shorthand, id and $in', async () => {
      expect(await names(`filters[avatar]=${files.pic.id}`)).toEqual(['A1']);
      expect(await names(`filters[avatar][id]=${files.pic.id}`)).toEqual(['A1']);
      expect(await names(`filters[avatar][id][$in][0]=${files.pic.id}&filters[avatar][id][$in][1]=${files.doc.id}`)).toEqual(['A1', 'A2']);
    });
  });

  describe('multiple media (gallery)', () => {
    const cases: Array<[string, string[]]> = [
      ['filters[gallery][id][$notNull]=true', ['A1', 'A2', 'A4']],
      ['filters[gallery][id][$null]=true', ['A3']],
      ['filters[gallery][name][$eq]=pic.png', ['A1']],
      ['filters[gallery][$null]=true', ['A3']],
      ['filters[gallery][$notNull]=true', ['A1', 'A2', 'A4']],
      ['filters[gallery][name][$ne]=pic.png', ['A1', 'A2', 'A4']],
      ['filters[$or][0][avatar][name][$eq]=pic.png&filters[$or][1][gallery][name][$eq]=menu.pdf', ['A1', 'A4']],
      ['filters[gallery][mime][$eq]=application/pdf', ['A4']],
    ];
    for (const [query, expected] of cases) it(query, async () => expect(await names(query)).toEqual(expected));

    it('by file id', async () => {
      expect(await names(`filters[gallery][id]=${files.doc.id}`)).toEqual(['A1', 'A2']);
      expect(await names(`filters[gallery][id][$eq]=${files.menu.id}`)).toEqual(['A4']);
    });

    it('inside populate too', async () => {
      const res = await app.request('GET', '/api/authors?fields[0]=name&sort=name&populate[gallery][filters][name][$eq]=doc.png&populate[gallery][fields][0]=name');
      expect(res.body.data.map((a: Named & { gallery: Named[] }) => [a.name, a.gallery.map((f) => f.name)])).toEqual([
        ['A1', ['doc.png']],
        ['A2', ['doc.png']],
        ['A3', []],
        ['A4', []],
      ]);
    });
  });

  it('a draft and a published version, a locale: each filters on its own media', async () => {
    const created = await app.request('POST', '/api/articles', { data: { title: 'One', cover: files.pic.id } });
    const id = created.body.data.documentId;
    await app.request('PUT', `/api/articles/${id}?status=draft`, { data: { cover: files.doc.id } });
    await app.request('PUT', `/api/articles/${id}?locale=fr`, { data: { title: 'Un', cover: files.doc.id } });
    const titles = async (query: string) => (await app.request('GET', `/api/articles?${query}`)).body.data.map((e: { title: string }) => e.title);
    expect(await titles('filters[cover][name][$eq]=pic.png')).toEqual(['One']);
    expect(await titles('filters[cover][name][$eq]=doc.png')).toEqual([]);
    expect(await titles('status=draft&filters[cover][name][$eq]=doc.png')).toEqual(['One']);
    expect(await titles('locale=fr&filters[cover][name][$eq]=doc.png')).toEqual(['Un']);
  });

  describe('what the reference refuses, and what Cairn adds', () => {
    it('unknown keys, the private folderPath, folder and related: Invalid key <key> at <media>', async () => {
      for (const key of ['nope', 'folderPath', 'folder', 'related']) {
        const res = await app.request('GET', `/api/authors?filters[avatar][${key}][$eq]=1`);
        expect(res.status, key).toBe(400);
        expect(res.body.error).toEqual({
          status: 400,
          name: 'ValidationError',
          message: `Invalid key ${key} at avatar`,
          details: { key, path: 'avatar', source: 'query', param: 'filters' },
        });
      }
    });

    it('a value that is not a file id is a 400', async () => {
      expect((await app.request('GET', '/api/authors?filters[gallery][id][$eq]=abc')).status).toBe(400);
    });

    it('a caller who may not find files filters on media as on an unknown key (as populate hides them)', async () => {
      const res = await app.request('GET', '/api/authors?filters[avatar][id][$notNull]=true', undefined, { authorization: '' });
      expect(res.status).toBe(400);
      expect(res.body.error.message).toBe('Invalid key avatar');
      expect((await app.request('GET', '/api/authors?fields[0]=name', undefined, { authorization: '' })).status).toBe(200);
    });
  });
});
