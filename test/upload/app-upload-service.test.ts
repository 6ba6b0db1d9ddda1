import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../helpers/databases.js';
import { startTestApp, type TestApp } from '../helpers/app.js';

/**
 * `strapi.plugin('upload').service('upload').upload({ data, files })`, Strapi 5's upload service as app code calls
 * it (a bootstrap seeding media from files on disk): stored as an upload through the API is (formats, the files
 * table, the provider), into no folder, attached when `ref`, `refId` and `field` say so; bad input refused before
 * anything is stored.
 */
const SEED_DIR = mkdtempSync(join(tmpdir(), 'cairn-seed-media-'));
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
        gallery: { type: 'media', multiple: true, allowedTypes: ['images'] },
      },
    },
  },
  // A bootstrap that seeds an author with an avatar read from disk, as seed scripts of Strapi apps do.
  index: `module.exports = {
  async bootstrap({ strapi }) {
    const author = await strapi.documents('api::author.author').create({ data: { name: 'Seeded' } });
    const [file] = await strapi.plugin('upload').service('upload').upload({
      files: { filepath: ${JSON.stringify(join(SEED_DIR, 'portrait.png'))}, originalFilename: 'Portrait.png', mimetype: 'image/png', size: 1 },
      data: { fileInfo: { alternativeText: 'A portrait', caption: 'Seeded' }, ref: 'api::author.author', refId: author.id, field: 'avatar' },
    });
    strapi.log.info('seeded file ' + file.id + ' ' + file.name);
  },
};`,
};

describeEachDialect('the upload service for app code', (dialect) => {
  let app: TestApp;
  type FileEntry = { id: number; documentId: string; name: string; url: string; width: number; height: number; alternativeText: string | null };
  const service = () => app.cairn.plugin('upload').service<{ upload(args: unknown): Promise<FileEntry[]> }>('upload');
  const onDisk = (name: string, data: Buffer) => {
    const path = join(SEED_DIR, name);
    writeFileSync(path, data);
    return path;
  };

  beforeAll(async () => {
    onDisk('portrait.png', await sharp({ create: { width: 800, height: 600, channels: 3, background: { r: 9, g: 99, b: 199 } } }).png().toBuffer());
    app = await startTestApp(dialect, model);
  });
  afterAll(async () => {
    await app?.close();
    if (dialect === 'mysql') rmSync(SEED_DIR, { recursive: true, force: true });
  });

  it("a bootstrap's upload is stored with its formats and attached to the entry it names", async () => {
    const res = await app.request('GET', '/api/authors?filters[name][$eq]=Seeded&populate=avatar');
    expect(res.status).toBe(200);
    const avatar = res.body.data[0].avatar;
    expect(avatar).toMatchObject({ name: 'Portrait.png', alternativeText: 'A portrait', caption: 'Seeded', width: 800, height: 600, mime: 'image/png', ext: '.png', provider: 'local' });
    expect(Object.keys(avatar.formats).sort()).toEqual(['medium', 'small', 'thumbnail']);
    expect(existsSync(join(app.dir, 'public', avatar.url))).toBe(true);
    // Into no folder (Strapi's service files them at the root), unlike an upload through the API.
    const [row] = await app.cairn.db.query<{ folder_path: string }>('SELECT folder_path FROM files WHERE id = ?', [avatar.id]);
    expect(row.folder_path).toBe('/');
  });

  it('several files with one fileInfo each, into a multiple media field; the entries come back as Strapi returns them', async () => {
    const author = await app.cairn.documents('api::author.author').create({ data: { name: 'Gallery' } });
    const red = onDisk('red.png', await sharp({ create: { width: 40, height: 30, channels: 3, background: { r: 255, g: 0, b: 0 } } }).png().toBuffer());
    const green = onDisk('green.png', await sharp({ create: { width: 50, height: 20, channels: 3, background: { r: 0, g: 255, b: 0 } } }).png().toBuffer());
    const entries = await service().upload({
      files: [
        { filepath: red, originalFilename: 'red.png', mimetype: 'image/png' },
        { filepath: green, originalFilename: 'green.png', mimetype: 'image/png' },
      ],
      data: { fileInfo: [{ name: 'Red' }, { name: 'Green', alternativeText: 'green' }], ref: 'api::author.author', refId: author.id, field: 'gallery' },
    });
    expect(entries.map((e) => [e.name, e.width, e.height, e.alternativeText])).toEqual([
      ['Red', 40, 30, null],
      ['Green', 50, 20, 'green'],
    ]);
    expect(entries.every((e) => typeof e.id === 'number' && typeof e.documentId === 'string' && e.url.startsWith('/uploads/'))).toBe(true);
    const res = await app.request('GET', `/api/authors/${author.documentId}?populate=gallery`);
    expect(res.body.data.gallery.map((f: { name: string }) => f.name)).toEqual(['Red', 'Green']);
  });

  it('bad input is refused before anything is stored: no file, no path, an unreadable path, no type, a partial or wrong attachment', async () => {
    const count = async () => Number((await app.cairn.db.query<{ n: number }>('SELECT COUNT(*) AS n FROM files'))[0].n);
    const before = await count();
    const png = onDisk('ok.png', await sharp({ create: { width: 4, height: 4, channels: 3, background: { r: 1, g: 2, b: 3 } } }).png().toBuffer());
    const refused = async (args: unknown) => {
      const error = await service().upload(args).then(() => undefined, (e: Error) => e);
      return error && { name: error.name, message: error.message };
    };
    expect(await refused({ files: [] })).toEqual({ name: 'ValidationError', message: 'Files are empty' });
    expect(await refused({ files: { originalFilename: 'x.png', mimetype: 'image/png' } })).toEqual({ name: 'ValidationError', message: 'files[0].filepath is required: the path of the file to upload' });
    expect(await refused({ files: { filepath: join(SEED_DIR, 'missing.png'), mimetype: 'image/png' } })).toEqual({
      name: 'ValidationError',
      message: `files[0].filepath: cannot read ${join(SEED_DIR, 'missing.png')} (ENOENT)`,
    });
    expect(await refused({ files: [{ filepath: png, mimetype: 'image/png' }, { filepath: png }] })).toEqual({ name: 'ValidationError', message: 'files[1].mimetype is required (image/png, application/pdf...)' });
    expect(await refused({ files: { filepath: png, mimetype: 'image/png' }, data: { ref: 'api::author.author', field: 'avatar' } })).toEqual({
      name: 'ValidationError',
      message: 'To attach files, give ref, refId and field together (missing: refId)',
    });
    expect(await refused({ files: { filepath: png, mimetype: 'image/png' }, data: { ref: 'api::author.author', refId: 999999, field: 'avatar' } })).toEqual({
      name: 'NotFoundError',
      message: 'No api::author.author entry with id 999999',
    });
    expect(await refused({ files: { filepath: png, mimetype: 'image/png' }, data: { ref: 'api::author.author', refId: 1, field: 'name' } })).toEqual({
      name: 'ValidationError',
      message: 'field: name is not a media attribute of api::author.author',
    });
    expect(await count()).toBe(before);
    // A file without a name is named as Strapi names it.
    const [unnamed] = await service().upload({ files: { filepath: png, mimetype: 'image/png' } });
    expect(unnamed.name).toBe('unamed');
  });

  it("the service's other methods are not provided: reading one is an error naming it", () => {
    expect(() => (service() as unknown as Record<string, unknown>).remove).toThrow("strapi.plugin('upload').service('upload').remove is not provided by Cairn");
  });
});
