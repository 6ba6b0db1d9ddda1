import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  HTTPAuthorizationError,
  HTTPBadRequestError,
  HTTPError,
  HTTPForbiddenError,
  HTTPNotFoundError,
  strapi,
  type StrapiClient,
} from '@strapi/client';
import { describeEachDialect } from '../helpers/databases.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import type { ApiTokens } from '../../src/auth/index.js';

type Entry = Record<string, any>;

/**
 * Every public method of the official `@strapi/client` (collection and single types, files, users, `fetch`, its
 * error classes) against a Cairn listening on a real port. The client sends `Content-Type: application/json` on
 * every request, bodiless GET and DELETE included, and reads bodies as Strapi answers them.
 */
const model = {
  contentTypes: {
    writer: {
      kind: 'collectionType',
      collectionName: 'writers',
      info: { singularName: 'writer', pluralName: 'writers', displayName: 'Writer' },
      options: { draftAndPublish: false },
      attributes: {
        name: { type: 'string', required: true },
        articles: { type: 'relation', relation: 'oneToMany', target: 'api::article.article', mappedBy: 'writer' },
      },
    },
    article: {
      kind: 'collectionType',
      collectionName: 'articles',
      info: { singularName: 'article', pluralName: 'articles', displayName: 'Article' },
      options: { draftAndPublish: true },
      pluginOptions: { i18n: { localized: true } },
      attributes: {
        title: { type: 'string', required: true },
        views: { type: 'integer', pluginOptions: { i18n: { localized: false } } },
        writer: { type: 'relation', relation: 'manyToOne', target: 'api::writer.writer', inversedBy: 'articles' },
        cover: { type: 'media', multiple: false, allowedTypes: ['images'] },
        gallery: { type: 'media', multiple: true, allowedTypes: ['images', 'files'] },
      },
    },
    homepage: {
      kind: 'singleType',
      collectionName: 'homepages',
      info: { singularName: 'homepage', pluralName: 'homepages', displayName: 'Homepage' },
      options: { draftAndPublish: true },
      pluginOptions: { i18n: { localized: true } },
      attributes: {
        headline: { type: 'string' },
        hero: { type: 'media', multiple: false, allowedTypes: ['images'] },
      },
    },
  },
  config: {
    plugins: { i18n: { config: { defaultLocale: 'en', locales: ['en', 'fr'] } } },
    permissions: { roles: { public: { permissions: ['api::article.article.find'] } } },
  },
};

const png = (width: number, height: number) => sharp({ create: { width, height, channels: 3, background: { r: 20, g: 90, b: 160 } } }).png().toBuffer();

/** The error a client call rejects with (the test fails if it resolves). */
async function rejection(promise: Promise<unknown>): Promise<HTTPError> {
  try {
    await promise;
  } catch (error) {
    return error as HTTPError;
  }
  throw new Error('expected the call to fail');
}

describeEachDialect('@strapi/client against Cairn', (dialect) => {
  let app: TestApp;
  let client: StrapiClient;
  let baseURL: string;
  beforeAll(async () => {
    app = await startTestApp(dialect, model);
    const address = await app.cairn.fastify.listen({ port: 0, host: '127.0.0.1' });
    baseURL = `${address}/api`;
    client = strapi({ baseURL, auth: app.token });
  });
  afterAll(async () => app?.close());

  const files: Record<string, Entry> = {};
  const writers: Record<string, string> = {};
  const articles: Record<string, string> = {};
  const titles = (list: Entry[]) => list.map((e) => e.title);

  describe('files', () => {
    it('upload: a Blob, and a Buffer with its filename, mime type and fileInfo', async () => {
      const [blob] = await client.files.upload(new Blob([new Uint8Array(await png(300, 200))], { type: 'image/png' }));
      expect(blob).toMatchObject({ mime: 'image/png', ext: '.png', width: 300, height: 200, provider: 'local' });
      expect(blob.url).toBe(`/uploads/${blob.hash}.png`);
      files.blob = blob;
      const [buffer] = await client.files.upload(await png(40, 30), {
        filename: 'logo.png',
        mimetype: 'image/png',
        fileInfo: { name: 'Logo', alternativeText: 'Our logo', caption: 'since 1990' },
      });
      expect(buffer).toMatchObject({ name: 'Logo', alternativeText: 'Our logo', caption: 'since 1990', mime: 'image/png', width: 40, height: 30 });
      files.logo = buffer;
      const [pdf] = await client.files.upload(Buffer.from('%PDF-1.4\n%%EOF\n'), { filename: 'menu.pdf', mimetype: 'application/pdf' });
      expect(pdf).toMatchObject({ name: 'menu.pdf', mime: 'application/pdf', ext: '.pdf', width: null, height: null });
      files.pdf = pdf;
    });

    it('find with filters and sort answers the plain array Strapi answers', async () => {
      const images = await client.files.find({ filters: { mime: { $eq: 'image/png' } }, sort: 'width:asc' });
      expect(images.map((f) => f.id)).toEqual([files.logo.id, files.blob.id]);
      const all = await client.files.find({ sort: ['name:desc'] });
      expect(all.map((f) => f.name)).toEqual(['menu.pdf', 'Logo', files.blob.name].sort().reverse());
    });

    it('findOne', async () => {
      const logo = await client.files.findOne(files.logo.id);
      expect(logo).toMatchObject({ id: files.logo.id, documentId: files.logo.documentId, name: 'Logo', url: files.logo.url });
    });

    it('update sets name, alternativeText and caption, and answers the file', async () => {
      const updated = await client.files.update(files.logo.id, { name: 'Brand', alternativeText: 'The brand', caption: 'new' });
      expect(updated).toMatchObject({ id: files.logo.id, name: 'Brand', alternativeText: 'The brand', caption: 'new', url: files.logo.url, width: 40 });
      expect(await client.files.findOne(files.logo.id)).toMatchObject({ name: 'Brand', alternativeText: 'The brand', caption: 'new' });
      // Only the fields given change.
      expect(await client.files.update(files.logo.id, { caption: 'newer' })).toMatchObject({ name: 'Brand', alternativeText: 'The brand', caption: 'newer' });
    });

    it('update of a missing file is a FileNotFoundError (an HTTPNotFoundError)', async () => {
      const error = await rejection(client.files.update(999999, { name: 'x' }));
      expect(error).toBeInstanceOf(HTTPNotFoundError);
      expect(error.name).toBe('FileNotFoundError');
      expect((await error.response.json()).error).toMatchObject({ status: 404, name: 'NotFoundError' });
    });

    it('update with a bad fileInfo is an HTTPBadRequestError with a ValidationError body', async () => {
      const error = await rejection(client.files.update(files.logo.id, { name: 42 } as never));
      expect(error).toBeInstanceOf(HTTPBadRequestError);
      expect((await error.response.json()).error).toMatchObject({ status: 400, name: 'ValidationError' });
      expect((await client.files.findOne(files.logo.id)).name).toBe('Brand');
    });
  });

  describe('collection types', () => {
    it('create, with status and locale in the query', async () => {
      for (const name of ['Ann', 'Bob']) {
        const created = await client.collection('writers').create({ name });
        expect(created.data).toMatchObject({ name, documentId: expect.any(String) });
        writers[name] = created.data.documentId;
      }
      const alpha = await client.collection('articles').create(
        { title: 'Alpha', views: 10, writer: writers.Ann, cover: files.blob.id, gallery: [files.logo.id, files.pdf.id] },
        { populate: ['writer', 'cover', 'gallery'] },
      );
      expect(alpha.data).toMatchObject({ title: 'Alpha', views: 10, locale: 'en', writer: { name: 'Ann' }, cover: { id: files.blob.id } });
      expect(alpha.data.publishedAt).not.toBeNull();
      expect(alpha.data.gallery.map((f: Entry) => f.id)).toEqual([files.logo.id, files.pdf.id]);
      articles.alpha = alpha.data.documentId;
      const beta = await client.collection('articles').create({ title: 'Beta', views: 5, writer: writers.Bob }, { status: 'draft' });
      expect(beta.data).toMatchObject({ title: 'Beta', publishedAt: null });
      articles.beta = beta.data.documentId;
      const gamma = await client.collection('articles').create({ title: 'Gamma', views: 20, writer: writers.Ann }, { locale: 'fr', fields: ['title', 'locale'] });
      expect(gamma.data).toEqual({ id: expect.any(Number), documentId: expect.any(String), title: 'Gamma', locale: 'fr' });
      articles.gamma = gamma.data.documentId;
    });

    it('find with filters, populate, sort, pagination and fields', async () => {
      const list = await client.collection('articles').find({
        filters: { writer: { name: { $eq: 'Ann' } }, views: { $gte: 1 } },
        populate: { writer: { fields: ['name'] }, cover: { fields: ['name', 'mime'] } },
        fields: ['title', 'views'],
        sort: ['views:desc'],
        pagination: { page: 1, pageSize: 5 },
      });
      expect(list.data).toEqual([
        {
          id: expect.any(Number),
          documentId: articles.alpha,
          title: 'Alpha',
          views: 10,
          writer: { id: expect.any(Number), documentId: writers.Ann, name: 'Ann' },
          cover: { id: files.blob.id, documentId: files.blob.documentId, name: files.blob.name, mime: 'image/png' },
        },
      ]);
      expect(list.meta.pagination).toEqual({ page: 1, pageSize: 5, pageCount: 1, total: 1 });
    });

    it('find with status and locale', async () => {
      expect(titles((await client.collection('articles').find({ sort: 'title' })).data)).toEqual(['Alpha']);
      expect(titles((await client.collection('articles').find({ status: 'draft', sort: 'title' })).data)).toEqual(['Alpha', 'Beta']);
      expect(titles((await client.collection('articles').find({ locale: 'fr' })).data)).toEqual(['Gamma']);
      const everywhere = await client.collection('articles').find({ locale: '*', sort: ['title:asc'], fields: ['title', 'locale'] });
      expect(everywhere.data.map((e) => [e.title, e.locale])).toEqual([
        ['Alpha', 'en'],
        ['Gamma', 'fr'],
      ]);
      const paged = await client.collection('articles').find({ status: 'draft', sort: 'title:desc', pagination: { start: 1, limit: 1 } });
      expect(titles(paged.data)).toEqual(['Alpha']);
      expect(paged.meta.pagination).toEqual({ start: 1, limit: 1, total: 2 });
    });

    it('findOne with populate, fields, status and locale', async () => {
      const alpha = await client.collection('articles').findOne(articles.alpha, { populate: { gallery: { fields: ['name'] } }, fields: ['title'] });
      expect(alpha.data).toMatchObject({ documentId: articles.alpha, title: 'Alpha' });
      expect(alpha.data.views).toBeUndefined();
      expect(alpha.data.gallery.map((f: Entry) => f.name)).toEqual(['Brand', 'menu.pdf']);
      expect((await client.collection('articles').findOne(articles.beta, { status: 'draft' })).data.title).toBe('Beta');
      expect((await client.collection('articles').findOne(articles.gamma, { locale: 'fr' })).data.title).toBe('Gamma');
      // A writer (not localized) links articles in any locale, as in Strapi.
      const writer = await client.collection('writers').findOne(writers.Ann, { populate: { articles: { sort: ['title:asc'], fields: ['title', 'locale'] } } });
      expect(writer.data.articles.map((a: Entry) => [a.title, a.locale])).toEqual([
        ['Alpha', 'en'],
        ['Gamma', 'fr'],
      ]);
    });

    it('update, in a locale and as a draft', async () => {
      const updated = await client.collection('articles').update(articles.alpha, { views: 11, cover: files.logo.id }, { populate: ['cover'] });
      expect(updated.data).toMatchObject({ title: 'Alpha', views: 11, cover: { id: files.logo.id, name: 'Brand' } });
      const fr = await client.collection('articles').update(articles.alpha, { title: 'Alpha (fr)' }, { locale: 'fr' });
      expect(fr.data).toMatchObject({ documentId: articles.alpha, title: 'Alpha (fr)', locale: 'fr' });
      const draft = await client.collection('articles').update(articles.alpha, { title: 'Alpha v2' }, { status: 'draft' });
      expect(draft.data).toMatchObject({ title: 'Alpha v2', publishedAt: null });
      expect((await client.collection('articles').findOne(articles.alpha)).data.title).toBe('Alpha');
      expect((await client.collection('articles').findOne(articles.alpha, { locale: 'fr' })).data.title).toBe('Alpha (fr)');
    });

    it('delete one locale, then the document (204, whatever the client sends as Content-Type)', async () => {
      await expect(client.collection('articles').delete(articles.alpha, { locale: 'fr' })).resolves.toBeUndefined();
      expect(await rejection(client.collection('articles').findOne(articles.alpha, { locale: 'fr' }))).toBeInstanceOf(HTTPNotFoundError);
      expect((await client.collection('articles').findOne(articles.alpha)).data.title).toBe('Alpha');
      await client.collection('articles').delete(articles.beta);
      const gone = await rejection(client.collection('articles').findOne(articles.beta, { status: 'draft' }));
      expect(gone).toBeInstanceOf(HTTPNotFoundError);
      expect((await gone.response.json()).error).toEqual({ status: 404, name: 'NotFoundError', message: 'Not Found', details: {} });
      // Deleting a document that does not exist is a 204 too, as in Strapi.
      await expect(client.collection('articles').delete('doesnotexist0000000000000')).resolves.toBeUndefined();
    });
  });

  describe('single types', () => {
    it('update creates the document, find reads it with populate, status and locale', async () => {
      const created = await client.single('homepage').update({ headline: 'Welcome', hero: files.blob.id }, { populate: ['hero'] });
      expect(created.data).toMatchObject({ headline: 'Welcome', locale: 'en', hero: { id: files.blob.id } });
      const draft = await client.single('homepage').update({ headline: 'Welcome back' }, { status: 'draft' });
      expect(draft.data).toMatchObject({ headline: 'Welcome back', publishedAt: null });
      expect((await client.single('homepage').find({ populate: { hero: { fields: ['width'] } } })).data).toMatchObject({ headline: 'Welcome', hero: { width: 300 } });
      expect((await client.single('homepage').find({ status: 'draft', fields: ['headline'] })).data.headline).toBe('Welcome back');
      await client.single('homepage').update({ headline: 'Bienvenue' }, { locale: 'fr' });
      expect((await client.single('homepage').find({ locale: 'fr' })).data).toMatchObject({ headline: 'Bienvenue', locale: 'fr' });
    });

    it('delete one locale, then the rest', async () => {
      await expect(client.single('homepage').delete({ locale: 'fr' })).resolves.toBeUndefined();
      expect(await rejection(client.single('homepage').find({ locale: 'fr' }))).toBeInstanceOf(HTTPNotFoundError);
      expect((await client.single('homepage').find()).data.headline).toBe('Welcome');
      await client.single('homepage').delete();
      expect(await rejection(client.single('homepage').find())).toBeInstanceOf(HTTPNotFoundError);
    });
  });

  describe('users (the users-permissions manager: numeric ids, no data wrapper)', () => {
    it('create, find, findOne, update, delete', async () => {
      const users = client.collection('users');
      // The roles, as the client reads them (users-permissions' role routes answer `{ roles }`).
      const roles = (await (await client.fetch('/users-permissions/roles')).json()).roles as Entry[];
      const role = roles.find((r) => r.type === 'authenticated')!;
      const created = (await users.create({ username: 'carol', email: 'Carol@Example.com', password: 'secret123', role: role.id })) as unknown as Entry;
      expect(created).toMatchObject({ username: 'carol', email: 'carol@example.com', confirmed: false, blocked: false, role: { id: role.id } });
      expect(created.password).toBeUndefined();
      const list = (await users.find({ filters: { username: { $eq: 'carol' } }, fields: ['username'] })) as unknown as Entry[];
      expect(list.map((u) => u.username)).toEqual(['carol']);
      expect(((await users.findOne(created.id)) as unknown as Entry).email).toBe('carol@example.com');
      expect(((await users.update(created.id, { blocked: true })) as unknown as Entry).blocked).toBe(true);
      await users.delete(created.id);
      expect(await rejection(users.findOne(created.id))).toBeInstanceOf(HTTPNotFoundError);
    });
  });

  describe('fetch', () => {
    it('sends any request through the client (auth and base URL applied) and answers the Response', async () => {
      const response = await client.fetch('/articles?fields[0]=title&sort=title');
      expect(response.status).toBe(200);
      expect(titles((await response.json()).data)).toEqual(['Alpha']);
      const created = await client.fetch('/writers', {
        method: 'POST',
        body: JSON.stringify({ data: { name: 'Dee' } }),
        headers: { 'Content-Type': 'application/json' },
      });
      expect(created.status).toBe(201);
      const { data } = await created.json();
      expect(data.name).toBe('Dee');
      const deleted = await client.fetch(`/writers/${data.documentId}`, { method: 'DELETE' });
      expect(deleted.status).toBe(204);
      expect(await deleted.text()).toBe('');
    });

    it('rejects with the HTTP error classes on 4xx, whose body names a Strapi error', async () => {
      const error = await rejection(client.fetch('/nothing-here'));
      expect(error).toBeInstanceOf(HTTPNotFoundError);
      expect((await error.response.json()).error.name).toBe('NotFoundError');
    });
  });

  describe('errors', () => {
    it('400: HTTPBadRequestError, the body a ValidationError naming the key', async () => {
      const error = await rejection(client.collection('articles').find({ filters: { nope: { $eq: 1 } } }));
      expect(error).toBeInstanceOf(HTTPBadRequestError);
      expect((await error.response.json()).error).toMatchObject({ status: 400, name: 'ValidationError', message: 'Invalid key nope' });
      const invalid = await rejection(client.collection('writers').create({ name: null }));
      expect(invalid).toBeInstanceOf(HTTPBadRequestError);
      expect((await invalid.response.json()).error).toMatchObject({ name: 'ValidationError', details: { errors: [{ path: ['name'] }] } });
    });

    it('404 on findOne, update of a missing document and a missing file', async () => {
      expect(await rejection(client.collection('writers').findOne('doesnotexist0000000000000'))).toBeInstanceOf(HTTPNotFoundError);
      expect(await rejection(client.collection('writers').update('doesnotexist0000000000000', { name: 'X' }))).toBeInstanceOf(HTTPNotFoundError);
      const file = await rejection(client.files.findOne(424242));
      expect(file).toBeInstanceOf(HTTPNotFoundError);
      expect(file.name).toBe('FileNotFoundError');
    });

    it('401: HTTPAuthorizationError for a bad token (never a fallback to public)', async () => {
      const stranger = strapi({ baseURL, auth: 'not-a-token' });
      const error = await rejection(stranger.collection('articles').find());
      expect(error).toBeInstanceOf(HTTPAuthorizationError);
      expect((await error.response.json()).error).toMatchObject({ status: 401, name: 'UnauthorizedError' });
    });

    it('403: HTTPForbiddenError for an action the caller may not do', async () => {
      const tokens = app.cairn.plugin('users-permissions').service<ApiTokens>('tokens');
      const { key } = await tokens.create({ name: 'reader', type: 'read-only' });
      const reader = strapi({ baseURL, auth: key });
      expect(titles((await reader.collection('articles').find()).data)).toEqual(['Alpha']);
      const error = await rejection(reader.collection('writers').create({ name: 'Eve' }));
      expect(error).toBeInstanceOf(HTTPForbiddenError);
      expect((await error.response.json()).error).toMatchObject({ status: 403, name: 'ForbiddenError' });
      const upload = await rejection(reader.files.upload(await png(4, 4), { filename: 'x.png', mimetype: 'image/png' }));
      expect(upload).toBeInstanceOf(HTTPForbiddenError);
      expect(upload.name).toBe('FileForbiddenError');
      // The public role may list articles only.
      const anonymous = strapi({ baseURL });
      expect(titles((await anonymous.collection('articles').find()).data)).toEqual(['Alpha']);
      expect(await rejection(anonymous.collection('writers').find())).toBeInstanceOf(HTTPForbiddenError);
    });
  });

  describe('files, last', () => {
    it('delete answers the deleted file; the file is gone, and so is its link', async () => {
      const deleted = await client.files.delete(files.logo.id);
      expect(deleted).toMatchObject({ id: files.logo.id, name: 'Brand' });
      const error = await rejection(client.files.findOne(files.logo.id));
      expect(error.name).toBe('FileNotFoundError');
      const alpha = await client.collection('articles').findOne(articles.alpha, { populate: ['cover', 'gallery'] });
      expect(alpha.data.cover).toBeNull();
      expect(alpha.data.gallery.map((f: Entry) => f.id)).toEqual([files.pdf.id]);
      expect((await rejection(client.files.delete(files.logo.id))).name).toBe('FileNotFoundError');
    });
  });
});
