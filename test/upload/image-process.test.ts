import { readFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { uploadFile } from '../helpers/upload.js';

/**
 * Images are processed by sharp in a child process: the server never loads libvips (~27 MB resident for the rest
 * of its life). This file runs in its own test process (Vitest forks per file) and never imports sharp itself,
 * so libvips mapped here would mean the server loaded it. Not a database matter: SQLite only.
 */

function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  return (crc ^ 0xffffffff) >>> 0;
}

/** A plain RGB PNG of `width` x `height`, made without sharp. */
function png(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const typed = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(typed));
    return Buffer.concat([length, typed, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // RGB
  const raw = Buffer.alloc((width * 3 + 1) * height, 90);
  for (let y = 0; y < height; y++) raw[y * (width * 3 + 1)] = 0; // filter byte of each row
  return Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk('IHDR', header), chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
}

const libvipsLoaded = () => /libvips/.test(readFileSync('/proc/self/maps', 'utf8'));

describe('image processing runs outside the server process', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp('sqlite', {
      contentTypes: {
        author: {
          kind: 'collectionType',
          collectionName: 'authors',
          info: { singularName: 'author', pluralName: 'authors', displayName: 'Author' },
          options: { draftAndPublish: false },
          attributes: { avatar: { type: 'media', multiple: false, allowedTypes: ['images'] } },
        },
      },
    });
  });
  afterAll(async () => app?.close());

  const upload = (name: string, type: string, data: Buffer) => uploadFile(app, name, type, data);

  it.runIf(process.platform === 'linux')('uploads get their dimensions and formats; libvips never enters the server', async () => {
    const uploads = await Promise.all([upload('a.png', 'image/png', png(600, 400)), upload('b.png', 'image/png', png(40, 30))]);
    expect(uploads.map((u) => u.status)).toEqual([201, 201]);
    expect(uploads[0].body[0]).toMatchObject({ width: 600, height: 400, mime: 'image/png' });
    expect(Object.keys(uploads[0].body[0].formats).sort()).toEqual(['small', 'thumbnail']);
    expect(uploads[0].body[0].formats.small).toMatchObject({ width: 500, height: 333 });
    expect(uploads[1].body[0]).toMatchObject({ width: 40, height: 30, formats: {} });
    expect(libvipsLoaded()).toBe(false);
  });

  it('a file that claims to be an image and is not is still a precise 400', async () => {
    const res = await upload('fake.png', 'image/png', Buffer.from('not a png at all'));
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ name: 'ValidationError' });
    expect(res.body.error.message).toMatch(/^File is not a valid image/);
    // The image process is still there for the next upload.
    expect((await upload('c.png', 'image/png', png(20, 20))).body[0]).toMatchObject({ width: 20, height: 20 });
  });
});
