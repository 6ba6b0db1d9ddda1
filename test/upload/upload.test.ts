import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachDialect } from '../helpers/databases.js';
import { startTestApp, type TestApp } from '../helpers/app.js';

type Entry = Record<string, any>;

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
        documents: { type: 'media', multiple: true, allowedTypes: ['files'] },
      },
    },
  },
  config: {
    plugins: { upload: { config: { sizeLimit: 2 * 1024 * 1024 } } },
    permissions: { roles: { public: { permissions: ['plugin::upload.content-api.find'] } } },
  },
};

const png = (width: number, height: number) => sharp({ create: { width, height, channels: 3, background: { r: 200, g: 30, b: 30 } } }).png().toBuffer();
const jpeg = (width: number, height: number) => sharp({ create: { width, height, channels: 3, background: { r: 10, g: 120, b: 200 } } }).jpeg().toBuffer();
const SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="40" height="30"><rect width="40" height="30" fill="red"/></svg>');
const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');

describeEachDialect('media library', (dialect) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(dialect, model);
  });
  afterAll(async () => app?.close());

  const upload = async (files: Array<{ name: string; type: string; data: Buffer }>, fields: Record<string, string> = {}, headers?: Record<string, string>, url = '/api/upload') => {
    const form = new FormData();
    for (const f of files) form.append('files', new Blob([new Uint8Array(f.data)], { type: f.type }), f.name);
    for (const [k, v] of Object.entries(fields)) form.append(k, v);
    const body = new Response(form);
    const res = await app.cairn.fastify.inject({
      method: 'POST',
      url,
      payload: Buffer.from(await body.arrayBuffer()),
      headers: { 'content-type': body.headers.get('content-type')!, authorization: `Bearer ${app.token}`, ...headers },
    });
    return { status: res.statusCode, body: JSON.parse(res.body) };
  };
  const uploadsDir = () => join(app.dir, 'public', 'uploads');

  it('stores a PNG with its dimensions and only the formats smaller than the original', async () => {
    const res = await upload([{ name: 'Big Photo.png', type: 'image/png', data: await png(1200, 800) }], {
      fileInfo: JSON.stringify({ alternativeText: 'alt', caption: 'cap' }),
    });
    expect(res.status).toBe(201);
    const [file] = res.body;
    expect(file).toMatchObject({ name: 'Big Photo.png', alternativeText: 'alt', caption: 'cap', width: 1200, height: 800, ext: '.png', mime: 'image/png', provider: 'local' });
    expect(file.hash).toMatch(/^big_photo_[0-9a-f]{10}$/);
    expect(file.url).toBe(`/uploads/${file.hash}.png`);
    expect(typeof file.size).toBe('number');
    expect(Object.keys(file.formats).sort()).toEqual(['large', 'medium', 'small', 'thumbnail']);
    expect(file.formats.thumbnail).toMatchObject({ width: 234, height: 156 });
    expect(file.formats.large).toMatchObject({ width: 1000, height: 667 });
    expect(file.formats.small).toMatchObject({ width: 500, height: 333, mime: 'image/png', ext: '.png' });
    for (const format of Object.values(file.formats) as Entry[]) expect(existsSync(join(uploadsDir(), `${format.hash}.png`))).toBe(true);
    const served = await app.cairn.fastify.inject({ method: 'GET', url: file.url });
    expect(served.statusCode).toBe(200);
    expect(served.headers['cache-control']).toMatch(/max-age=\d+/);
  });

  it('a small JPEG gets no formats but a thumbnail only when larger than 245x156', async () => {
    const small = (await upload([{ name: 'small.jpg', type: 'image/jpeg', data: await jpeg(100, 80) }])).body[0];
    expect(small).toMatchObject({ width: 100, height: 80, formats: null, mime: 'image/jpeg' });
    const medium = (await upload([{ name: 'medium.jpg', type: 'image/jpeg', data: await jpeg(600, 400) }])).body[0];
    expect(Object.keys(medium.formats).sort()).toEqual(['small', 'thumbnail']);
  });

  it('SVG keeps its dimensions without formats; PDF has neither; several files at once', async () => {
    const res = await upload([
      { name: 'logo.svg', type: 'image/svg+xml', data: SVG },
      { name: 'doc.pdf', type: 'application/pdf', data: PDF },
    ]);
    expect(res.status).toBe(201);
    expect(res.body[0]).toMatchObject({ name: 'logo.svg', width: 40, height: 30, formats: null });
    expect(res.body[1]).toMatchObject({ name: 'doc.pdf', width: null, height: null, formats: null, mime: 'application/pdf' });
  });

  it('attaches to an entry with ref/refId/field; the entry populates the media shape', async () => {
    const author = (await app.request('POST', '/api/authors', { data: { name: 'Ann' } })).body.data;
    const res = await upload([{ name: 'face.png', type: 'image/png', data: await png(300, 300) }], {
      ref: 'api::author.author',
      refId: String(author.id),
      field: 'avatar',
    });
    expect(res.status).toBe(201);
    const populated = (await app.request('GET', `/api/authors/${author.documentId}?populate=*`)).body.data;
    expect(populated.avatar).toMatchObject({ id: res.body[0].id, name: 'face.png', width: 300, height: 300, mime: 'image/png', url: res.body[0].url });
    for (const key of ['alternativeText', 'caption', 'formats', 'hash', 'ext', 'size', 'previewUrl', 'provider', 'provider_metadata', 'createdAt', 'updatedAt']) {
      expect(populated.avatar).toHaveProperty(key);
    }
    expect(populated.documents).toEqual([]);
  });

  it('media attributes are written with file ids; a type not allowed is a 400', async () => {
    const [pdf] = (await upload([{ name: 'cv.pdf', type: 'application/pdf', data: PDF }])).body;
    const [image] = (await upload([{ name: 'pic.png', type: 'image/png', data: await png(20, 20) }])).body;
    const created = await app.request('POST', '/api/authors?populate=*', { data: { name: 'Bob', avatar: image.id, documents: [pdf.id] } });
    expect(created.status).toBe(201);
    expect(created.body.data.avatar.name).toBe('pic.png');
    expect(created.body.data.documents.map((d: Entry) => d.name)).toEqual(['cv.pdf']);
    expect((await app.request('POST', '/api/authors', { data: { name: 'Eve', avatar: pdf.id } })).status).toBe(400);
  });

  it('a media attribute takes connect (appended, a single media replaced) and disconnect, as Strapi does', async () => {
    const [a, b, c] = (await upload(['a.pdf', 'b.pdf', 'c.pdf'].map((name) => ({ name, type: 'application/pdf', data: PDF })))).body;
    const [image] = (await upload([{ name: 'pic.png', type: 'image/png', data: await png(20, 20) }])).body;
    const created = await app.request('POST', '/api/authors?populate=*', { data: { name: 'Max', documents: { connect: [a.id, b.id] } } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const names = (entry: { documents: Entry[] }) => entry.documents.map((d) => d.name);
    expect(names(created.body.data)).toEqual(['a.pdf', 'b.pdf']);
    const url = `/api/authors/${created.body.data.documentId}?populate=*`;
    // A file already there stays where it is; a new one goes last; disconnect removes.
    const changed = await app.request('PUT', url, { data: { documents: { connect: [c.id, a.id], disconnect: [b.id] }, avatar: { connect: [image.id] } } });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(names(changed.body.data)).toEqual(['a.pdf', 'c.pdf']);
    expect(changed.body.data.avatar.name).toBe('pic.png');
    expect(names((await app.request('PUT', url, { data: { documents: { disconnect: [{ id: a.id }] }, avatar: { disconnect: [image.id] } } })).body.data)).toEqual(['c.pdf']);
    expect((await app.request('GET', url)).body.data.avatar).toBeNull();
    // Refused, and nothing changes: a position (files have no order of their own to place by), a type the field
    // does not allow, a file that does not exist.
    const refusals = [
      { documents: { connect: [{ id: a.id, position: { start: true } }] } },
      { avatar: { connect: [a.id] } },
      { documents: { connect: [987654] } },
    ];
    for (const data of refusals) expect((await app.request('PUT', url, { data })).status, JSON.stringify(data)).toBe(400);
    expect(names((await app.request('GET', url)).body.data)).toEqual(['c.pdf']);
  });

  it('lists and finds files; delete removes the entry, its links and the stored files', async () => {
    const [file] = (await upload([{ name: 'temp.png', type: 'image/png', data: await png(800, 600) }])).body;
    const author = (await app.request('POST', '/api/authors', { data: { name: 'Tim', avatar: file.id } })).body.data;
    const list = await app.request('GET', '/api/upload/files?filters[name][$eq]=temp.png');
    expect(list.body.map((f: Entry) => f.id)).toEqual([file.id]);
    expect((await app.request('GET', `/api/upload/files/${file.id}`)).body.name).toBe('temp.png');
    const stored = [file.hash, ...Object.values(file.formats as Record<string, Entry>).map((f) => f.hash)];
    expect((await app.request('DELETE', `/api/upload/files/${file.id}`)).status).toBe(200);
    for (const hash of stored) expect(existsSync(join(uploadsDir(), `${hash}.png`))).toBe(false);
    expect((await app.request('GET', `/api/upload/files/${file.id}`)).status).toBe(404);
    expect((await app.request('GET', `/api/authors/${author.documentId}?populate=avatar`)).body.data.avatar).toBeNull();
  });

  it('GET /api/upload/files/page lists files with meta.pagination, as Strapi: page/pageSize, start/limit, withCount', async () => {
    for (const name of ['p1.pdf', 'p2.pdf', 'p3.pdf']) await upload([{ name, type: 'application/pdf', data: PDF }]);
    const all = await app.request('GET', '/api/upload/files/page?filters[name][$startsWith]=p&filters[ext][$eq]=.pdf&sort=name');
    expect(all.status).toBe(200);
    expect(all.body.data.map((f: Entry) => f.name)).toEqual(['p1.pdf', 'p2.pdf', 'p3.pdf']);
    expect(all.body.data[0]).toMatchObject({ mime: 'application/pdf', isUrlSigned: false });
    expect(all.body.meta).toEqual({ pagination: { page: 1, pageSize: 25, pageCount: 1, total: 3 } });
    const only = 'filters[name][$startsWith]=p&filters[ext][$eq]=.pdf&sort=name';
    const second = await app.request('GET', `/api/upload/files/page?${only}&pagination[page]=2&pagination[pageSize]=2`);
    expect(second.body.data.map((f: Entry) => f.name)).toEqual(['p3.pdf']);
    expect(second.body.meta.pagination).toEqual({ page: 2, pageSize: 2, pageCount: 2, total: 3 });
    const offset = await app.request('GET', `/api/upload/files/page?${only}&pagination[start]=1&pagination[limit]=1&fields[0]=name`);
    expect(offset.body).toEqual({ data: [{ id: expect.any(Number), documentId: expect.any(String), name: 'p2.pdf', isUrlSigned: false }], meta: { pagination: { start: 1, limit: 1, total: 3 } } });
    const uncounted = await app.request('GET', `/api/upload/files/page?${only}&pagination[pageSize]=2&pagination[withCount]=false`);
    expect(uncounted.body.meta.pagination).toEqual({ page: 1, pageSize: 2 });
    // The query is checked as everywhere; the route has its own action, as Strapi names it.
    expect((await app.request('GET', '/api/upload/files/page?filters[nope]=1')).status).toBe(400);
    expect((await app.request('GET', '/api/upload/files/page', undefined, { authorization: '' })).status).toBe(403);
  });

  it('a file named without an extension (a browser Blob is named "blob") takes it from its media type, as in Strapi', async () => {
    const [file] = (await upload([{ name: 'blob', type: 'image/png', data: await png(20, 10) }])).body;
    expect(file).toMatchObject({ name: 'blob', ext: '.png', mime: 'image/png', url: `/uploads/${file.hash}.png` });
    expect(existsSync(join(uploadsDir(), `${file.hash}.png`))).toBe(true);
    const [unknown] = (await upload([{ name: 'data', type: 'application/x-unheard-of', data: Buffer.from('x') }], {}, undefined)).body;
    expect(unknown).toMatchObject({ ext: '', url: `/uploads/${unknown.hash}` });
  });

  describe('POST /api/upload?id=: the file info of an existing file (what @strapi/client files.update sends)', () => {
    let file: Entry;
    beforeAll(async () => {
      [file] = (await upload([{ name: 'info.png', type: 'image/png', data: await png(30, 30) }], { fileInfo: JSON.stringify({ caption: 'first' }) })).body;
    });
    const get = async () => (await app.request('GET', `/api/upload/files/${file.id}`)).body;

    it('sets the fields given; null or absent keeps the value (200, the entry)', async () => {
      const res = await upload([], { fileInfo: JSON.stringify({ name: 'renamed.png', alternativeText: 'alt', caption: null }) }, undefined, `/api/upload?id=${file.id}`);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id: file.id, documentId: file.documentId, name: 'renamed.png', alternativeText: 'alt', caption: 'first', hash: file.hash, url: file.url });
      expect(await get()).toMatchObject({ name: 'renamed.png', alternativeText: 'alt', caption: 'first' });
      expect((await upload([], {}, undefined, `/api/upload?id=${file.id}`)).body).toMatchObject({ name: 'renamed.png' });
    });

    it('a missing file → 404; bad fileInfo, a file to replace it, an unknown parameter → 400; nothing changes', async () => {
      expect((await upload([], { fileInfo: '{"name":"x"}' }, undefined, '/api/upload?id=999999')).status).toBe(404);
      expect((await upload([], { fileInfo: '{"name":"x"}' }, undefined, '/api/upload?id=abc')).status).toBe(404);
      const bad = [
        await upload([], { fileInfo: '{"name": 42}' }, undefined, `/api/upload?id=${file.id}`),
        await upload([], { fileInfo: '[1]' }, undefined, `/api/upload?id=${file.id}`),
        await upload([], { fileInfo: '{nope' }, undefined, `/api/upload?id=${file.id}`),
        await upload([{ name: 'new.png', type: 'image/png', data: await png(5, 5) }], {}, undefined, `/api/upload?id=${file.id}`),
        await upload([], { fileInfo: '{"name":"x"}' }, undefined, `/api/upload?id[0]=${file.id}`),
        await upload([], { fileInfo: '{"name":"x"}' }, undefined, `/api/upload?id=${file.id}&folder=2`),
      ];
      for (const res of bad) expect(res).toMatchObject({ status: 400, body: { error: { name: 'ValidationError' } } });
      expect(await get()).toMatchObject({ name: 'renamed.png', alternativeText: 'alt', caption: 'first', width: 30 });
    });
  });

  describe('bad uploads store nothing', () => {
    const count = () => readdirSync(uploadsDir()).length;
    it('a file over the size limit → 413', async () => {
      const before = count();
      const res = await upload([{ name: 'huge.pdf', type: 'application/pdf', data: Buffer.alloc(3 * 1024 * 1024, 1) }]);
      expect(res.status).toBe(413);
      expect(res.body.error.name).toBe('PayloadTooLargeError');
      expect(count()).toBe(before);
    });
    it('a corrupt image → 400', async () => {
      const before = count();
      const files = (await app.request('GET', '/api/upload/files')).body.length;
      const res = await upload([
        { name: 'fine.png', type: 'image/png', data: await png(10, 10) },
        { name: 'broken.png', type: 'image/png', data: Buffer.from('not a png at all') },
      ]);
      expect(res.status).toBe(400);
      expect(count()).toBe(before);
      expect((await app.request('GET', '/api/upload/files')).body.length).toBe(files);
    });
    it('no files, a wrong field, bad fileInfo → 400', async () => {
      const form = await upload([], { fileInfo: '{}' });
      expect(form.status).toBe(400);
      expect((await upload([{ name: 'a.png', type: 'image/png', data: await png(5, 5) }], { fileInfo: '{not json' })).status).toBe(400);
    });

    /** POST /api/upload with a body and content type as given. */
    const raw = async (payload: string | Buffer, contentType: string) => {
      const res = await app.cairn.fastify.inject({ method: 'POST', url: '/api/upload', payload, headers: { 'content-type': contentType, authorization: `Bearer ${app.token}` } });
      return { status: res.statusCode, body: JSON.parse(res.body) };
    };
    const part = (field: string, filename: string, data: string) =>
      `--B\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: application/pdf\r\n\r\n${data}\r\n`;

    it('more than 50 files → 413; a file under another field than "files" → 400 naming it', async () => {
      const before = count();
      const many = await upload(Array.from({ length: 51 }, (_, i) => ({ name: `f${i}.pdf`, type: 'application/pdf', data: PDF })));
      expect(many.status).toBe(413);
      expect(many.body.error).toMatchObject({ name: 'PayloadTooLargeError', message: 'Too many files (at most 50)' });
      const other = await raw(`${part('files', 'a.pdf', 'x')}${part('avatar', 'b.pdf', 'y')}--B--\r\n`, 'multipart/form-data; boundary=B');
      expect(other.status).toBe(400);
      expect(other.body.error).toMatchObject({ name: 'ValidationError', message: 'Unexpected file field "avatar": use "files"' });
      expect(count()).toBe(before);
    });

    it('a text field over 1 MB → 413; a body that is not multipart, or not valid multipart → 400; an empty form → 400', async () => {
      const before = count();
      const big = await upload([{ name: 'a.pdf', type: 'application/pdf', data: PDF }], { fileInfo: 'x'.repeat(1024 * 1024 + 1) });
      expect(big.status).toBe(413);
      expect(big.body.error.name).toBe('PayloadTooLargeError');
      const json = await raw('{"files":[]}', 'application/json');
      expect(json.status).toBe(400);
      expect(json.body.error.message).toBe('Send files as multipart/form-data in the "files" field');
      const noBoundary = await raw(part('files', 'a.pdf', 'x'), 'multipart/form-data');
      expect(noBoundary.status).toBe(400);
      expect(noBoundary.body.error.name).toBe('ValidationError');
      const cut = await raw(part('files', 'a.pdf', 'x').slice(0, 60), 'multipart/form-data; boundary=B');
      expect(cut.status).toBe(400);
      expect(cut.body.error).toMatchObject({ name: 'ValidationError', message: expect.stringMatching(/^Invalid multipart body: /) });
      const empty = await raw('', 'multipart/form-data; boundary=B');
      expect(empty.status).toBe(400);
      expect(empty.body.error.message).toBe('Files are empty');
      expect(count()).toBe(before);
    });
  });

  describe('attaching checks the entry write first, and a refused attachment stores nothing', () => {
    let author: Entry;
    let uploader: string;
    beforeAll(async () => {
      author = (await app.request('POST', '/api/authors', { data: { name: 'Attached' } })).body.data;
      // May upload, may not update authors.
      const tokens = app.cairn.plugin('users-permissions').service<{ create(input: object): Promise<{ key: string }> }>('tokens');
      uploader = (await tokens.create({ name: 'uploader', type: 'custom', permissions: ['plugin::upload.content-api.upload', 'api::author.author.find'] })).key;
    });
    const stored = async () => ({ bytes: readdirSync(uploadsDir()).length, files: (await app.request('GET', '/api/upload/files')).body.length });
    const refused = async (files: Parameters<typeof upload>[0], fields: Record<string, string>, headers?: Record<string, string>) => {
      const before = await stored();
      const res = await upload(files, fields, headers);
      expect(await stored(), JSON.stringify(fields)).toEqual(before);
      return res;
    };
    const pdf = { name: 'cv.pdf', type: 'application/pdf', data: PDF };
    const attach = (field: string, refId = String(author.id), ref = 'api::author.author') => ({ ref, refId, field });

    it("a file of a type the field doesn't allow → 400 naming the field and the allowed types", async () => {
      const res = await refused([pdf], attach('avatar'));
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ name: 'ValidationError', message: 'avatar: cv.pdf (application/pdf) is not allowed here (allowed: images)' });
      expect(res.body.error.details.errors).toEqual([{ path: ['avatar'], message: res.body.error.message, name: 'ValidationError', value: 'cv.pdf' }]);
      // One bad file among good ones refuses them all.
      const mixed = await refused([{ name: 'ok.png', type: 'image/png', data: await png(8, 8) }, pdf], attach('avatar'));
      expect(mixed.status).toBe(400);
      expect((await app.request('GET', `/api/authors/${author.documentId}?populate=avatar`)).body.data.avatar).toBeNull();
    });

    it('a caller that may upload but not update the entry → 403', async () => {
      const res = await refused([{ name: 'face.png', type: 'image/png', data: await png(8, 8) }], attach('avatar'), { authorization: `Bearer ${uploader}` });
      expect(res.status).toBe(403);
      expect(res.body.error.name).toBe('ForbiddenError');
      // Without ref/refId/field the same caller may upload.
      expect((await upload([{ name: 'free.png', type: 'image/png', data: await png(8, 8) }], {}, { authorization: `Bearer ${uploader}` })).status).toBe(201);
    });

    it('an unknown refId → 404; a refId that is no id → 400', async () => {
      const missing = await refused([pdf], attach('documents', '987654'));
      expect(missing.status).toBe(404);
      expect(missing.body.error).toMatchObject({ name: 'NotFoundError', message: 'No api::author.author entry with id 987654' });
      const bad = await refused([pdf], attach('documents', author.documentId));
      expect(bad.status).toBe(400);
      expect(bad.body.error).toMatchObject({ name: 'ValidationError', message: `refId: ${author.documentId} is not an entry id` });
    });

    it('an unknown ref, an unknown field, a field that is not media, or a missing one of the three → 400', async () => {
      const cases: Array<[Record<string, string>, string]> = [
        [attach('avatar', String(author.id), 'api::nope.nope'), 'ref: unknown content-type api::nope.nope'],
        [attach('nope'), 'field: nope is not a media attribute of api::author.author'],
        [attach('name'), 'field: name is not a media attribute of api::author.author'],
        [{ ref: 'api::author.author', refId: String(author.id) }, 'To attach files, give ref, refId and field together (missing: field)'],
        [{ field: 'avatar' }, 'To attach files, give ref, refId and field together (missing: ref, refId)'],
      ];
      for (const [fields, message] of cases) {
        const res = await refused([pdf], fields);
        expect(res.status, message).toBe(400);
        expect(res.body.error, message).toMatchObject({ name: 'ValidationError', message });
      }
    });

    it('an allowed file attaches (files field, appended to what the entry has)', async () => {
      const first = await upload([pdf], attach('documents'));
      const second = await upload([{ name: 'more.pdf', type: 'application/pdf', data: PDF }], attach('documents'));
      expect([first.status, second.status]).toEqual([201, 201]);
      const documents = (await app.request('GET', `/api/authors/${author.documentId}?populate=documents`)).body.data.documents;
      expect(documents.map((d: Entry) => d.id)).toEqual([first.body[0].id, second.body[0].id]);
    });
  });

  it('permissions: find is public here, upload and destroy are not', async () => {
    expect((await app.request('GET', '/api/upload/files', undefined, { authorization: '' })).status).toBe(200);
    expect((await upload([{ name: 'x.pdf', type: 'application/pdf', data: PDF }], {}, { authorization: '' })).status).toBe(403);
    expect((await app.request('DELETE', '/api/upload/files/1', undefined, { authorization: '' })).status).toBe(403);
    expect((await app.request('GET', '/api/upload/files/1', undefined, { authorization: '' })).status).toBe(403);
  });
});
