import { readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, writeApp, writeFiles, type TestApp } from '../helpers/app.js';
import { TAG } from '../helpers/schemas.js';

/**
 * Multipart bodies on the app's routes, as Strapi's `strapi::body` (koa-body v6, formidable v2) reads them: text
 * fields in `ctx.request.body` (a repeated name: an array), files in `ctx.request.files` (formidable's File, written
 * to a temporary file removed after the answer), `formidable.maxFileSize` of strapi::body as the file size limit.
 */
const FILES = {
  'config/middlewares.js': `module.exports = ['strapi::errors', 'strapi::query', { name: 'strapi::body', config: { formidable: { maxFileSize: 1000 } } }, 'global::guard'];`,
  // An application middleware that answers before the route runs.
  'src/middlewares/guard.js': `module.exports = () => async (ctx, next) => (ctx.get('x-deny') ? ctx.unauthorized('Denied') : next());`,
  'src/api/tag/routes/echo.js': `module.exports = { routes: [{ method: 'POST', path: '/echo', handler: 'tag.echo', config: { auth: false } }] };`,
  'src/api/tag/controllers/tag.js': `const { readFileSync, existsSync } = require('node:fs');
const { factories } = require('@strapi/strapi');
module.exports = factories.createCoreController('api::tag.tag', () => ({
  async echo(ctx) {
    const files = ctx.request.files;
    const describe = (f) => ({ size: f.size, originalFilename: f.originalFilename, mimetype: f.mimetype, newFilename: typeof f.newFilename, exists: existsSync(f.filepath), text: readFileSync(f.filepath, 'utf8') });
    return {
      body: ctx.request.body ?? null,
      files: files === undefined ? null : Object.fromEntries(Object.entries(files).map(([k, v]) => [k, Array.isArray(v) ? v.map(describe) : describe(v)])),
    };
  },
}));`,
};

describe('multipart bodies on app routes (SQLite)', () => {
  let app: TestApp;
  let dir: string;
  beforeAll(async () => {
    dir = writeApp({ contentTypes: { tag: TAG } });
    writeFiles(dir, FILES);
    app = await startTestApp('sqlite', dir);
  });
  afterAll(async () => {
    await app?.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const leftovers = () => readdirSync(tmpdir()).filter((name) => name.startsWith('cairn-body-'));
  const post = async (payload: Buffer | string, contentType: string, headers: Record<string, string> = {}) => {
    const response = await app.cairn.fastify.inject({ method: 'POST', url: '/api/echo', payload, headers: { 'content-type': contentType, ...headers } });
    return { status: response.statusCode, body: JSON.parse(response.body) };
  };
  const multipart = async (parts: Array<[string, string] | [string, string, string, string]>, headers: Record<string, string> = {}) => {
    const form = new FormData();
    for (const part of parts) {
      if (part.length === 2) form.append(part[0], part[1]);
      else form.append(part[0], new Blob([part[1]], { type: part[3] }), part[2]);
    }
    const body = new Response(form);
    return post(Buffer.from(await body.arrayBuffer()), body.headers.get('content-type')!, headers);
  };

  it("gives the fields as ctx.request.body and the files as formidable's, on disk while the request runs", async () => {
    const res = await multipart([
      ['title', 'Hello'],
      ['tag', 'a'],
      ['tag', 'b'],
      ['doc', 'some text', 'notes.txt', 'text/plain'],
      // Two files in one field keep the body's order, whichever is on disk first (the order of writes finishing
      // once made this test fail now and then).
      ['pics', 'one', 'one.bin', 'application/octet-stream'],
      ['pics', 'two!', 'two.bin', 'application/octet-stream'],
    ]);
    expect(res.status).toBe(200);
    expect(res.body.body).toEqual({ title: 'Hello', tag: ['a', 'b'] });
    expect(res.body.files).toEqual({
      doc: { size: 9, originalFilename: 'notes.txt', mimetype: 'text/plain', newFilename: 'string', exists: true, text: 'some text' },
      pics: [
        { size: 3, originalFilename: 'one.bin', mimetype: 'application/octet-stream', newFilename: 'string', exists: true, text: 'one' },
        { size: 4, originalFilename: 'two.bin', mimetype: 'application/octet-stream', newFilename: 'string', exists: true, text: 'two!' },
      ],
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(leftovers()).toEqual([]);
  });

  it('the files go too when an application middleware answers before the route runs', async () => {
    const denied = await multipart([['doc', 'kept?', 'notes.txt', 'text/plain']], { 'x-deny': '1' });
    expect(denied.status).toBe(401);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(leftovers()).toEqual([]);
  });

  it('a JSON body has no files (ctx.request.files undefined, as in Koa)', async () => {
    expect(await post(JSON.stringify({ a: 1 }), 'application/json')).toEqual({ status: 200, body: { body: { a: 1 }, files: null } });
  });

  it("a file over strapi::body's formidable.maxFileSize is a 413, a broken body a 400; nothing is left behind", async () => {
    const big = await multipart([['doc', 'x'.repeat(1001), 'big.txt', 'text/plain']]);
    expect(big.status).toBe(413);
    expect(big.body.error).toMatchObject({ status: 413, name: 'PayloadTooLargeError', message: 'File is too large (at most 1000 bytes)' });
    const broken = await post('--xyz\r\nContent-Disposition: form-data; name="a"\r\n\r\nvalue-without-end', 'multipart/form-data; boundary=xyz');
    expect(broken.status).toBe(400);
    expect(broken.body.error.name).toBe('ValidationError');
    expect((await post('--xyz--', 'multipart/form-data')).status).toBe(400);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(leftovers()).toEqual([]);
  });
});
