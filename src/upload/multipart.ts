import type { IncomingMessage } from 'node:http';
import type { BusboyConstructor } from '@fastify/busboy';
import { PayloadTooLargeError, ValidationError } from '../errors/index.js';
import type { IncomingFile } from './upload-service.js';

export interface MultipartLimits {
  /** Bytes per file; a larger one is a 413. */
  fileSize: number;
  /** Files per request; more is a 413. */
  files: number;
}

/** Non-file fields (`fileInfo`, `ref`...) are small: a larger value, or too many of them, is a 413. */
const FIELD_LIMITS = { fieldSize: 1024 * 1024, fields: 100, parts: 1000, headerPairs: 2000 };

/**
 * busboy is imported by the first upload, not at start (with @fastify/multipart, which Cairn used before, it cost
 * every start ~10 ms and every request on its scope two hooks). An upload reads every part into memory anyway
 * (image formats need the whole file), so one pass over the body collects them.
 */
let busboy: Promise<BusboyConstructor> | undefined;
const loadBusboy = () => (busboy ??= import('@fastify/busboy').then((m) => m.Busboy ?? m.default));

/**
 * Reads a `multipart/form-data` body: its files (any field name; the route decides which it takes) and its text
 * fields. Limits and malformed bodies are errors with their status: a file, a field or a count over its limit is a
 * 413, a body that is not valid multipart a 400. A body with no part at all reads as an empty form.
 */
export async function readMultipart(
  request: IncomingMessage,
  limits: MultipartLimits,
): Promise<{ files: Array<IncomingFile & { field: string }>; fields: Record<string, string> }> {
  const Busboy = await loadBusboy();
  return new Promise((resolve, reject) => {
    const files: Array<IncomingFile & { field: string }> = [];
    const fields: Record<string, string> = Object.create(null);
    let sawData = false;
    let settled = false;
    let parser: InstanceType<BusboyConstructor>;
    const fail = (error: Error) => {
      if (settled) return;
      settled = true;
      // Stop parsing, and read the rest of the body into nothing so the answer can be sent on this connection.
      request.unpipe(parser);
      request.resume();
      reject(error);
    };
    try {
      parser = new Busboy({ headers: request.headers as never, limits: { ...FIELD_LIMITS, fileSize: limits.fileSize, files: limits.files } });
    } catch (error) {
      // A multipart content type without a boundary, or one busboy can't read.
      reject(new ValidationError(`Invalid multipart body: ${(error as Error).message}`));
      return;
    }
    parser.on('file', (field, stream, filename, _encoding, mime) => {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('limit', () => fail(new PayloadTooLargeError('File is too large')));
      // A part cut short errors on its own stream too (busboy also tells the parser): unheard, it would be uncaught.
      stream.on('error', (error: Error) => fail(new ValidationError(`Invalid multipart body: ${error.message}`)));
      stream.on('end', () => {
        if (!stream.truncated) files.push({ field, filename, mime, buffer: Buffer.concat(chunks) });
      });
    });
    parser.on('field', (name, value, _nameTruncated, valueTruncated) => {
      if (valueTruncated) return fail(new PayloadTooLargeError(`Field "${name}" is too large`));
      fields[name] = value;
    });
    parser.on('filesLimit', () => fail(new PayloadTooLargeError(`Too many files (at most ${limits.files})`)));
    parser.on('fieldsLimit', () => fail(new PayloadTooLargeError(`Too many fields (at most ${FIELD_LIMITS.fields})`)));
    parser.on('partsLimit', () => fail(new PayloadTooLargeError(`Too many parts (at most ${FIELD_LIMITS.parts})`)));
    const done = () => {
      if (settled) return;
      settled = true;
      resolve({ files, fields });
    };
    parser.on('error', (error: Error) => {
      // An empty body is an empty form (the route then says what is missing), not a truncated one.
      if (!sawData && /Unexpected end of (multipart data|form)/.test(error.message)) done();
      else fail(new ValidationError(`Invalid multipart body: ${error.message}`));
    });
    parser.on('finish', done);
    request.once('data', () => (sawData = true));
    request.on('error', (error) => fail(error));
    request.pipe(parser);
  });
}
