import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Cairn } from '../app/cairn.js';
import { authorize, findAction } from '../app/access.js';
import { NotFoundError, PayloadTooLargeError, ValidationError } from '../errors/index.js';
import { parseQueryString, parseReadParams, strictQuery } from '../query/index.js';
import { attachTarget, attachToEntry } from './attach.js';
import { FILE_UID, type IncomingFile, type UploadService } from './upload-service.js';

const ACTION = 'plugin::upload.content-api';
const JSON_TYPE = 'application/json; charset=utf-8';

/** Media entries carry `isUrlSigned` (the local and S3 public providers never sign). */
const withSigning = (entry: Record<string, unknown>): Record<string, unknown> => ({ ...entry, isUrlSigned: false });

export function registerUploadRoutes(app: FastifyInstance, cairn: Cairn, service: UploadService): void {
  const files = () => cairn.documents(FILE_UID);
  const query = (req: FastifyRequest) => {
    const url = req.raw.url ?? '';
    return url.includes('?') ? parseQueryString(url.slice(url.indexOf('?') + 1)) : {};
  };
  const options = () => ({
    ...cairn.config.api.rest,
    locales: cairn.locales.map((l) => l.code),
    defaultLocale: cairn.defaultLocale,
  });

  app.post('/api/upload', async (req, reply) => {
    const caller = await authorize(cairn.access, req, `${ACTION}.upload`);
    strictQuery(req.url);
    if (!req.isMultipart()) throw new ValidationError('Send files as multipart/form-data in the "files" field');
    const incoming: IncomingFile[] = [];
    const fields: Record<string, string> = {};
    try {
      for await (const part of req.parts()) {
        if (part.type === 'file') {
          if (part.fieldname !== 'files') throw new ValidationError(`Unexpected file field "${part.fieldname}": use "files"`);
          incoming.push({ filename: part.filename, mime: part.mimetype, buffer: await part.toBuffer() });
        } else fields[part.fieldname] = String(part.value);
      }
    } catch (error) {
      if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw new PayloadTooLargeError('File is too large');
      throw error;
    }
    if (!incoming.length) throw new ValidationError('Files are empty');
    applyFileInfo(incoming, fields.fileInfo);
    // Refused attachments are refused before anything is stored.
    const target = await attachTarget(cairn, caller, fields, incoming);
    const ids = await service.upload(incoming);
    const entries = [];
    for (const documentId of ids) entries.push(withSigning((await files().findOne({ documentId }))!));
    if (target) {
      try {
        await attachToEntry(cairn, target, entries.map((e) => e.id as number));
      } catch (error) {
        // All or nothing: files that could not be attached are not kept.
        for (const entry of entries) await service.remove(entry as never).catch((cleanup: unknown) => cairn.log.error({ err: cleanup, file: entry.hash }, 'could not remove an upload whose attachment failed'));
        throw error;
      }
    }
    return reply.status(201).type(JSON_TYPE).send(JSON.stringify(entries));
  });

  app.get('/api/upload/files', async (req, reply) => {
    const caller = await authorize(cairn.access, req, `${ACTION}.find`);
    const params = query(req);
    if (params.pagination === undefined) params.pagination = { start: 0, limit: -1 };
    const spec = parseReadParams(cairn.model, cairn.model.contentTypes.get(FILE_UID)!, params, { ...options(), canFind: (uid) => caller.can(findAction(uid)) });
    const page = await files().findPage(spec);
    const entries = page.rows.map((row) => withSigning(JSON.parse(row)));
    return reply.type(JSON_TYPE).send(JSON.stringify(entries));
  });

  app.get('/api/upload/files/:id', async (req, reply) => {
    await authorize(cairn.access, req, `${ACTION}.findOne`);
    strictQuery(req.url);
    const entry = await fileById(cairn, (req.params as { id: string }).id);
    return reply.type(JSON_TYPE).send(JSON.stringify(withSigning(entry)));
  });

  app.delete('/api/upload/files/:id', async (req, reply) => {
    await authorize(cairn.access, req, `${ACTION}.destroy`);
    strictQuery(req.url);
    const entry = await fileById(cairn, (req.params as { id: string }).id);
    await service.remove(entry as never);
    return reply.type(JSON_TYPE).send(JSON.stringify(withSigning(entry)));
  });
}

async function fileById(cairn: Cairn, id: string): Promise<Record<string, unknown>> {
  if (!/^\d+$/.test(id)) throw new NotFoundError();
  const result = await cairn.documents(FILE_UID).findMany({ filters: { id: { $eq: id } } });
  if (!result.results.length) throw new NotFoundError();
  return result.results[0];
}

/** `fileInfo`: one JSON object for a single file, or an array matching the files in order. */
function applyFileInfo(files: IncomingFile[], raw: string | undefined): void {
  if (raw === undefined) return;
  let info: unknown;
  try {
    info = JSON.parse(raw);
  } catch {
    throw new ValidationError('fileInfo must be JSON');
  }
  const list = Array.isArray(info) ? info : [info];
  list.forEach((item, i) => {
    if (!files[i]) return;
    if (typeof item !== 'object' || item === null) throw new ValidationError('fileInfo entries must be objects');
    const { name, alternativeText, caption } = item as Record<string, unknown>;
    for (const [key, value] of Object.entries({ name, alternativeText, caption })) {
      if (value !== undefined && value !== null && typeof value !== 'string') throw new ValidationError(`fileInfo.${key} must be a string`);
    }
    files[i].info = { name: name as string | undefined, alternativeText: alternativeText as string | undefined, caption: caption as string | undefined };
  });
}
