import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { PayloadTooLargeError, ValidationError } from '../errors/index.js';
import { unsupportedMediaType } from '../rest/index.js';
import type { BusboyConstructor } from '@fastify/busboy';

/** Text fields are small (as the media library's reader has them): a larger one, or too many, is a 413. */
const FIELD_LIMITS = { fieldSize: 1024 * 1024, fields: 100, parts: 1000, headerPairs: 2000 };
/** busboy comes with the first multipart body, not at start. */
let busboy: Promise<BusboyConstructor> | undefined;
const loadBusboy = () => (busboy ??= import('@fastify/busboy').then((m) => m.Busboy ?? m.default));

/** The route config key that marks a route of the app's server code: only those read multipart bodies. */
export const APP_ROUTE = 'cairnAppRoute';
const FILES = Symbol('cairn.server-code.files');
const FOLDER = Symbol('cairn.server-code.files-folder');

/**
 * formidable v2's File, as koa-body v6 hands it to Strapi 5's `ctx.request.files`: the part written to a temporary
 * file (`filepath`), its name as sent (`originalFilename`), its type and size. What Strapi's upload service takes.
 */
export interface FormidableFile {
  size: number;
  filepath: string;
  originalFilename: string | null;
  newFilename: string;
  mimetype: string | null;
  mtime: Date;
  hashAlgorithm: false;
  hash: null;
}

export type RequestFiles = Record<string, FormidableFile | FormidableFile[]>;

/** The files of a multipart body read for an app route (`ctx.request.files`); undefined for other bodies, as in Koa. */
export function filesOf(request: FastifyRequest): RequestFiles | undefined {
  return (request as unknown as { [FILES]?: RequestFiles })[FILES];
}

/**
 * `multipart/form-data` bodies as Strapi's `strapi::body` (koa-body v6 with formidable v2) reads them, for the routes
 * of the app's server code: the text fields become `ctx.request.body` (a name sent twice, an array of its values), the
 * files `ctx.request.files` (by field name; a field sent with several files, an array), each written to a temporary
 * folder that is removed once the answer is sent (or the connection closes). A file larger than `maxFileSize`
 * (formidable's default, 200 MB, or strapi::body's `formidable.maxFileSize`) is a 413, a body that is not valid
 * multipart a 400. Other routes answer a multipart body as before: 415 (the media library has its own parser).
 */
export function installAppMultipart(fastify: FastifyInstance, limits: { maxFileSize: number }): void {
  fastify.addContentTypeParser('multipart/form-data', (request, payload, done) => {
    if ((request.routeOptions.config as unknown as Record<string, unknown> | undefined)?.[APP_ROUTE] !== true) {
      let answered = false;
      payload.on('data', () => {
        if (answered) return;
        answered = true;
        done(unsupportedMediaType(request), undefined);
        payload.resume();
      });
      payload.on('end', () => answered || done(null, undefined));
      return;
    }
    mkdtemp(join(tmpdir(), 'cairn-body-'))
      .then((folder) => {
        const marked = request as unknown as { [FILES]?: RequestFiles; [FOLDER]?: string };
        marked[FOLDER] = folder;
        return readToTemporaryFiles(request, payload, folder, limits.maxFileSize).then(({ fields, files }) => {
          marked[FILES] = files;
          done(null, fields);
        });
      })
      .catch((error: Error) => {
        void removeFolderOf(request);
        done(error, undefined);
      });
  });
}

/**
 * The `onRequest` hook of the app's routes: the temporary files of the request's body (if it gets any) are removed
 * once the answer is sent or the client is gone, whoever answers (the route, or an application middleware before it).
 * The app's code has them for the whole request; a body that failed to parse has had them removed already.
 */
export function removeBodyFilesAtClose(request: FastifyRequest, reply: FastifyReply, done: () => void): void {
  reply.raw.once('close', () => void removeFolderOf(request));
  done();
}

async function removeFolderOf(request: FastifyRequest): Promise<void> {
  const marked = request as unknown as { [FOLDER]?: string };
  const folder = marked[FOLDER];
  marked[FOLDER] = undefined;
  if (folder) await rm(folder, { recursive: true, force: true });
}

async function readToTemporaryFiles(request: FastifyRequest, payload: NodeJS.ReadableStream, folder: string, maxFileSize: number): Promise<{ fields: Record<string, unknown>; files: RequestFiles }> {
  const Busboy = await loadBusboy();
  return new Promise((resolve, reject) => {
    const fields: Record<string, unknown> = Object.create(null);
    const files: RequestFiles = Object.create(null);
    const writing: Array<Promise<void>> = [];
    let settled = false;
    let parser: ReturnType<typeof createParser>;
    const fail = (error: Error) => {
      if (settled) return;
      settled = true;
      payload.unpipe(parser);
      payload.resume();
      reject(error);
    };
    const add = <T>(into: Record<string, T | T[]>, name: string, value: T) => {
      const current = into[name];
      into[name] = current === undefined ? value : Array.isArray(current) ? [...current, value] : [current, value];
    };
    function createParser() {
      return new Busboy({ headers: request.headers as never, limits: { ...FIELD_LIMITS, fileSize: maxFileSize } });
    }
    try {
      parser = createParser();
    } catch (error) {
      reject(new ValidationError(`Invalid multipart body: ${(error as Error).message}`));
      return;
    }
    let count = 0;
    // The files in the body's order (several in one field keep it), whichever is written to disk first.
    const arrived: Array<{ field: string; file: () => FormidableFile | undefined }> = [];
    parser.on('file', (field, stream, filename, _encoding, mime) => {
      const newFilename = `upload_${++count}`;
      const filepath = join(folder, newFilename);
      const out = createWriteStream(filepath);
      let size = 0;
      let mtime = new Date();
      stream.on('data', (chunk: Buffer) => (size += chunk.length));
      stream.on('limit', () => fail(new PayloadTooLargeError(`File is too large (at most ${maxFileSize} bytes)`)));
      stream.on('error', (error: Error) => fail(new ValidationError(`Invalid multipart body: ${error.message}`)));
      arrived.push({
        field,
        file: () => (stream.truncated ? undefined : { size, filepath, originalFilename: filename || null, newFilename, mimetype: mime || null, mtime, hashAlgorithm: false, hash: null }),
      });
      writing.push(
        new Promise<void>((written, failed) => {
          out.on('finish', () => {
            mtime = new Date();
            written();
          });
          out.on('error', failed);
        }),
      );
      stream.pipe(out);
    });
    parser.on('field', (name, value, _nameTruncated, valueTruncated) => {
      if (valueTruncated) return fail(new PayloadTooLargeError(`Field "${name}" is too large`));
      add(fields, name, value);
    });
    parser.on('filesLimit', () => fail(new PayloadTooLargeError('Too many files')));
    parser.on('fieldsLimit', () => fail(new PayloadTooLargeError(`Too many fields (at most ${FIELD_LIMITS.fields})`)));
    parser.on('partsLimit', () => fail(new PayloadTooLargeError(`Too many parts (at most ${FIELD_LIMITS.parts})`)));
    parser.on('error', (error: Error) => fail(new ValidationError(`Invalid multipart body: ${error.message}`)));
    parser.on('finish', () => {
      Promise.all(writing).then(
        () => {
          if (settled) return;
          settled = true;
          for (const { field, file } of arrived) {
            const written = file();
            if (written) add(files, field, written);
          }
          resolve({ fields, files });
        },
        (error: Error) => fail(error),
      );
    });
    payload.on('error', (error: Error) => fail(error));
    payload.pipe(parser);
  });
}
