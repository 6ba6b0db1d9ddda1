import type { FastifyInstance, FastifyRequest } from 'fastify';
import { authorize, findAction } from '../auth/access-control.js';
import { NotFoundError, ValidationError } from '../errors/index.js';
import { parseReadParams } from '../query/index.js';
import { attachTarget } from './attach.js';
import { emitMedia, uploadFiles } from './upload-files.js';
import type { UploadHost } from './host.js';
import { readMultipart, type MultipartLimits } from './multipart.js';
import { FILE_UID, type IncomingFile, type UploadService } from './upload-service.js';

const ACTION = 'plugin::upload.content-api';
const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * What Strapi's upload service emits on `strapi.eventHub`, with `{ media }`: the file's entry without its private
 * attributes (not `isUrlSigned`, which its controller adds to answers).
 */

/** Media entries carry `isUrlSigned` (the local and S3 public providers never sign). */
const withSigning = (entry: Record<string, unknown>): Record<string, unknown> => ({ ...entry, isUrlSigned: false });

/** Fastify leaves a multipart body unread for the upload route (see registerUploadRoutes). */
const isMultipart = (req: FastifyRequest) => (req.headers['content-type'] ?? '').toLowerCase().startsWith('multipart/form-data');

export function registerUploadRoutes(app: FastifyInstance, host: UploadHost, service: UploadService, limits: MultipartLimits): void {
  // Multipart bodies are read by the upload route itself (readMultipart), as a stream: Fastify must not buffer or
  // refuse them (415) first. Only this scope accepts them.
  app.addContentTypeParser('multipart/form-data', (_req, _payload, done) => done(null));
  // The media library's writes emit media events, not the Document Service's entry events (as Strapi's upload).
  const files = () => host.documents(FILE_UID).quiet();
  const query = (req: FastifyRequest) => host.queryString.ofRequest(req);

  /**
   * `POST /api/upload`: new files (201, their entries), or with `?id=` and no file, the file info of that file (200,
   * its entry), as Strapi's one route does both (`@strapi/client`'s `files.update` uses the second).
   */
  app.post('/api/upload', async (req, reply) => {
    const caller = await authorize(host.access, req, `${ACTION}.upload`);
    const { id } = host.queryString.strictOf(req, ['id']);
    if (id !== undefined && typeof id !== 'string') throw new ValidationError('File id is required and must be a single value');
    if (!isMultipart(req)) throw new ValidationError('Send files as multipart/form-data in the "files" field');
    const { files: parts, fields } = await readMultipart(req.raw, limits);
    const other = parts.find((part) => part.field !== 'files');
    if (other) throw new ValidationError(`Unexpected file field "${other.field}": use "files"`);
    const incoming: IncomingFile[] = parts.map(({ filename, mime, buffer }) => ({ filename, mime, buffer }));
    if (id !== undefined) {
      // Strapi replaces the file's bytes when one comes with an id; Cairn doesn't (yet): refused, not ignored.
      if (incoming.length) throw new ValidationError('Replacing a file is not supported: upload a new one, or send only fileInfo to update it');
      const entry = await fileById(host, id);
      const info = fields.fileInfo === undefined ? {} : parseFileInfo(fields.fileInfo)[0];
      await files().updateDocument({ documentId: entry.documentId as string, data: changedInfo(info) });
      const updated = await fileById(host, id);
      await emitMedia(host, 'media.update', updated);
      return reply.type(JSON_TYPE).send(JSON.stringify(withSigning(updated)));
    }
    if (!incoming.length) throw new ValidationError('Files are empty');
    applyFileInfo(incoming, fields.fileInfo);
    // Refused attachments are refused before anything is stored.
    const target = await attachTarget(host, caller, fields, incoming);
    const stored = await uploadFiles(host, service, incoming, target, 'api');
    return reply.status(201).type(JSON_TYPE).send(JSON.stringify(stored.map(withSigning)));
  });

  app.get('/api/upload/files', async (req, reply) => {
    const caller = await authorize(host.access, req, `${ACTION}.find`);
    const params = query(req);
    if (params.pagination === undefined) params.pagination = { start: 0, limit: -1 };
    const spec = parseReadParams(host.model, host.model.contentTypes.get(FILE_UID)!, params, { ...host.readSettings, canFind: (uid) => caller.can(findAction(uid)) });
    const page = await files().findPage(spec);
    const entries = page.rows.map((row) => withSigning(JSON.parse(row)));
    return reply.type(JSON_TYPE).send(JSON.stringify(entries));
  });

  // Strapi's paginated listing: the query of content-type lists (page/pageSize or start/limit, withCount), the
  // files with `meta.pagination`; its own action, as Strapi names the route's handler.
  app.get('/api/upload/files/page', async (req, reply) => {
    const caller = await authorize(host.access, req, `${ACTION}.findPage`);
    const spec = parseReadParams(host.model, host.model.contentTypes.get(FILE_UID)!, query(req), { ...host.readSettings, canFind: (uid) => caller.can(findAction(uid)) });
    const page = await files().findPage(spec);
    const entries = page.rows.map((row) => withSigning(JSON.parse(row)));
    return reply.type(JSON_TYPE).send(JSON.stringify({ data: entries, meta: { pagination: page.pagination } }));
  });

  app.get('/api/upload/files/:id', async (req, reply) => {
    await authorize(host.access, req, `${ACTION}.findOne`);
    host.queryString.strictOf(req);
    const entry = await fileById(host, (req.params as { id: string }).id);
    return reply.type(JSON_TYPE).send(JSON.stringify(withSigning(entry)));
  });

  app.delete('/api/upload/files/:id', async (req, reply) => {
    await authorize(host.access, req, `${ACTION}.destroy`);
    host.queryString.strictOf(req);
    const entry = await fileById(host, (req.params as { id: string }).id);
    await service.remove(entry as never);
    await emitMedia(host, 'media.delete', entry);
    return reply.type(JSON_TYPE).send(JSON.stringify(withSigning(entry)));
  });
}

async function fileById(host: Pick<UploadHost, 'documents'>, id: string): Promise<Record<string, unknown>> {
  if (!/^\d+$/.test(id)) throw new NotFoundError();
  const result = await host.documents(FILE_UID).findMany({ filters: { id: { $eq: id } } });
  if (!result.results.length) throw new NotFoundError();
  return result.results[0];
}

type FileInfo = NonNullable<IncomingFile['info']>;

/** `fileInfo`: one JSON object for a single file, or an array matching the files in order. */
function applyFileInfo(files: IncomingFile[], raw: string | undefined): void {
  if (raw === undefined) return;
  parseFileInfo(raw).forEach((info, i) => {
    if (files[i]) files[i].info = info;
  });
}

/** The `fileInfo` field's objects, checked: `name`, `alternativeText`, `caption` are strings or null. */
function parseFileInfo(raw: string): FileInfo[] {
  let info: unknown;
  try {
    info = JSON.parse(raw);
  } catch {
    throw new ValidationError('fileInfo must be JSON');
  }
  return (Array.isArray(info) ? info : [info]).map((item) => {
    if (typeof item !== 'object' || item === null || Array.isArray(item)) throw new ValidationError('fileInfo entries must be objects');
    const { name, alternativeText, caption } = item as Record<string, unknown>;
    for (const [key, value] of Object.entries({ name, alternativeText, caption })) {
      if (value !== undefined && value !== null && typeof value !== 'string') throw new ValidationError(`fileInfo.${key} must be a string`);
    }
    return { name: name as string | undefined, alternativeText: alternativeText as string | undefined, caption: caption as string | undefined };
  });
}

/** What an update of a file's info writes: the fields given; null or absent keeps the value (as Strapi does). */
function changedInfo(info: FileInfo): Record<string, string> {
  return Object.fromEntries(Object.entries(info).filter(([, value]) => typeof value === 'string')) as Record<string, string>;
}
