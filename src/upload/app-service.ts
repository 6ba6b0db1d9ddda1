import { readFile } from 'node:fs/promises';
import type { Caller } from '../auth/access-control.js';
import { providedMembers, ValidationError } from '../errors/index.js';
import { attachTarget } from './attach.js';
import type { UploadHost } from './host.js';
import { uploadFiles } from './upload-files.js';
import type { IncomingFile, UploadService } from './upload-service.js';

/** A file as app code hands it to Strapi 5's upload service: formidable's File (a file on disk, its name and type). */
export interface InputFile {
  filepath?: string;
  originalFilename?: string;
  mimetype?: string;
  size?: number;
}

/** What `upload` takes besides the files: each file's info, and the entry to attach them to (`ref`, `refId`, `field`). */
export interface UploadData {
  fileInfo?: FileInfo | FileInfo[];
  ref?: string;
  refId?: number | string;
  field?: string;
}

interface FileInfo {
  name?: string;
  alternativeText?: string;
  caption?: string;
}

/** App code is trusted: it may attach files to any entry (Strapi's service checks no permission either). */
const APP_CODE: Caller = { kind: 'token', key: 'app-code', can: () => true };

/**
 * `strapi.plugin('upload').service('upload')` for app code, with Strapi 5's `upload({ data, files })`: what a
 * bootstrap that seeds media calls. `files` are files on disk (one or an array, `filepath`, `originalFilename`,
 * `mimetype`, as formidable and Strapi name them); `data.fileInfo` (one, or one per file) names and describes them;
 * `ref`, `refId`, `field` attach them to an entry's media attribute. The files go through the media library as an
 * upload through the API does (formats, the provider, all or nothing, a media.create each), into no folder (Strapi's
 * service files them where `fileInfo.folder` says, the root without one). Answers the file entries.
 */
export function appUploadService(host: Pick<UploadHost, 'db' | 'model' | 'documents' | 'entryEvents' | 'log'>, service: UploadService): object {
  const members = {
    async upload({ data = {}, files }: { data?: UploadData; files: InputFile | InputFile[] }): Promise<Record<string, unknown>[]> {
      const given = Array.isArray(files) ? files : files ? [files] : [];
      if (!given.length) throw new ValidationError('Files are empty');
      const infos = Array.isArray(data.fileInfo) ? data.fileInfo : [data.fileInfo];
      const incoming: IncomingFile[] = [];
      for (const [i, file] of given.entries()) incoming.push(await incomingFile(file, i, infos[i]));
      const { ref, refId, field } = data;
      const attach: Record<string, string> = {};
      for (const [key, value] of Object.entries({ ref, refId, field })) if (value !== undefined) attach[key] = String(value);
      const target = await attachTarget(host, APP_CODE, attach, incoming);
      return uploadFiles(host, service, incoming, target, 'root');
    },
  };
  // Strapi's service has more (remove, update, findMany...): reading one is an error naming it, not an undefined.
  return providedMembers('upload', 'upload', members);
}

async function incomingFile(file: InputFile, index: number, info: FileInfo | undefined): Promise<IncomingFile> {
  const where = `files[${index}]`;
  if (typeof file?.filepath !== 'string' || !file.filepath) throw new ValidationError(`${where}.filepath is required: the path of the file to upload`);
  if (typeof file.mimetype !== 'string' || !file.mimetype) throw new ValidationError(`${where}.mimetype is required (image/png, application/pdf...)`);
  let buffer: Buffer;
  try {
    buffer = await readFile(file.filepath);
  } catch (error) {
    throw new ValidationError(`${where}.filepath: cannot read ${file.filepath} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  // Strapi names a file without originalFilename 'unamed' (sic).
  return { filename: file.originalFilename || 'unamed', mime: file.mimetype, buffer, info: info ?? {} };
}
