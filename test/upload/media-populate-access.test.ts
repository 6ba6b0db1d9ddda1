import sharp from 'sharp';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../helpers/databases.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { uploadFile } from '../helpers/upload.js';

/**
 * Media is populated for any caller who may read the entry, whatever its upload permissions: Strapi's sanitizers
 * restrict relations only (`remove-restricted-relations` skips `type: 'media'`), and a site shows its images to the
 * Public role (Strapi's LaunchPad grants Public nothing of the upload plugin). The media library itself stays
 * guarded, and so do filters on media fields (the README's table: a filter on what you can't list is an oracle).
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
      },
    },
  },
  config: { permissions: { roles: { public: { permissions: ['api::author.author.find', 'api::author.author.findOne'] } } } },
};

describeEachDialect('media populated for a caller without upload permissions', (dialect) => {
  let app: TestApp;
  let fileId: number;
  const asPublic = (url: string) => app.request('GET', url, undefined, { authorization: '' });
  beforeAll(async () => {
    app = await startTestApp(dialect, model);
    const png = await sharp({ create: { width: 20, height: 10, channels: 3, background: { r: 1, g: 2, b: 3 } } }).png().toBuffer();
    fileId = (await uploadFile(app, 'face.png', 'image/png', png)).body[0].id;
    expect((await app.request('POST', '/api/authors', { data: { name: 'Ada', avatar: fileId } })).status).toBe(201);
  });
  afterAll(async () => app?.close());

  it('populates the media field by name, with *, and in the object form', async () => {
    for (const query of ['populate=avatar', 'populate=*', 'populate[avatar][fields][0]=name']) {
      const res = await asPublic(`/api/authors?${query}`);
      expect(res.status, query).toBe(200);
      expect(res.body.data[0].avatar, query).toMatchObject({ id: fileId, name: 'face.png' });
    }
    const res = await asPublic('/api/authors?populate=avatar');
    expect(res.body.data[0].avatar).toMatchObject({ width: 20, height: 10, mime: 'image/png', url: expect.stringMatching(/^\/uploads\/face_.*\.png$/) });
  });

  it('answers the media field on GraphQL too, where Strapi 5.54 scopes relation fields but not media (probed)', async () => {
    const res = await app.request('POST', '/graphql', { query: '{ authors { name avatar { name mime } } }' }, { authorization: '' });
    expect(res.body).toEqual({ data: { authors: [{ name: 'Ada', avatar: { name: 'face.png', mime: 'image/png' } }] } });
  });

  it('keeps the media library and filters on media fields to callers allowed to list files', async () => {
    expect((await asPublic('/api/upload/files')).status).toBe(403);
    const filtered = await asPublic('/api/authors?filters[avatar][name][$eq]=face.png');
    expect(filtered.status).toBe(400);
    expect(filtered.body.error).toMatchObject({ name: 'ValidationError', message: 'Invalid key avatar' });
  });
});
