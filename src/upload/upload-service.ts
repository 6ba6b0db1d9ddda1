import { randomBytes } from 'node:crypto';
import { extname } from 'node:path';
import { ValidationError } from '../errors/index.js';
import type { UploadHost } from './host.js';
import type { Breakpoints } from './images.js';
import { imageInfo } from './image-process.js';
import { extensionOfMime } from './mime-extension.js';
import type { ProviderFile, UploadProvider } from './provider.js';
import { apiUploadFolder, fileIntoFolder } from '../database/strapi-layout/upload-folder.js';

export const FILE_UID = 'plugin::upload.file';

export interface IncomingFile {
  filename: string;
  mime: string;
  buffer: Buffer;
  info?: { name?: string; alternativeText?: string; caption?: string };
}

/**
 * Where new files go: `api` is Strapi's "API Uploads" folder (files uploaded through the Content API), `root` no
 * folder (files app code uploads through the upload service, as Strapi's service leaves them).
 */
export type UploadFolder = 'api' | 'root';

const kb = (bytes: number) => Math.round((bytes / 1000) * 100) / 100;

/** `My Photo.JPG` -> `my_photo`: the readable part of a stored file's name. */
function baseName(filename: string): string {
  const stem = filename.slice(0, filename.length - extname(filename).length);
  return (
    stem
      .normalize('NFD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '_')
      .replace(/^_+|_+$/g, '') || 'file'
  );
}

/**
 * Stores uploads: dimensions and formats first (a corrupt image fails before anything is written), then the
 * bytes through the provider, then the file entries. If any step fails, what was already written is removed.
 * Its writes emit no entry events (Strapi's upload writes through its Query Engine): the routes emit media events.
 */
export class UploadService {
  constructor(
    private readonly host: Pick<UploadHost, 'db' | 'documents' | 'log'>,
    private readonly provider: UploadProvider,
    private readonly breakpoints: Breakpoints,
  ) {}

  async upload(files: IncomingFile[], into: UploadFolder = 'api'): Promise<string[]> {
    const prepared: Prepared[] = [];
    for (const file of files) prepared.push(await this.prepare(file));
    const stored: ProviderFile[] = [];
    const created: string[] = [];
    try {
      for (const p of prepared) {
        for (const f of [p.main, ...p.formats.map((x) => x.file)]) {
          await this.provider.upload(f);
          stored.push(f);
        }
      }
      const documents = this.host.documents(FILE_UID).quiet();
      // Files uploaded through the Content API go into Strapi's "API Uploads" folder, as Strapi files them.
      const folder = into === 'api' ? await apiUploadFolder(this.host.db) : undefined;
      for (const p of prepared) {
        const formats = p.formats.length
          ? Object.fromEntries(
              p.formats.map(({ key, file, width, height }) => [
                key,
                { name: `${key}_${p.name}`, hash: file.hash, ext: file.ext, mime: file.mime, path: null, width, height, size: kb(file.buffer.length), sizeInBytes: file.buffer.length, url: file.url },
              ]),
            )
          : null;
        created.push(
          await documents.createDocument({
            data: {
              name: p.name,
              alternativeText: p.info?.alternativeText ?? null,
              caption: p.info?.caption ?? null,
              width: p.width,
              height: p.height,
              formats,
              hash: p.main.hash,
              ext: p.main.ext,
              mime: p.main.mime,
              size: kb(p.main.buffer.length),
              url: p.main.url,
              provider: this.provider.name,
              provider_metadata: p.main.provider_metadata ?? null,
              // A file at the root has '/' (Strapi's getFolderPath without a folder).
              folderPath: folder ? folder.path : '/',
            },
          }),
        );
        if (folder) await fileIntoFolder(this.host.db, created[created.length - 1], folder);
      }
      return created;
    } catch (error) {
      // All or nothing: entries already written and stored bytes are removed again. A cleanup that fails too is
      // logged (what it left behind), and the upload's own failure is the answer.
      const leftBehind = (what: string) => (cleanup: unknown) => this.host.log.error({ err: cleanup }, `upload: could not remove ${what} after a failed upload`);
      for (const documentId of created) await this.host.documents(FILE_UID).quiet().delete({ documentId }).catch(leftBehind(`file entry ${documentId}`));
      for (const f of stored) await this.provider.delete(f).catch(leftBehind(`stored file ${f.hash}${f.ext}`));
      throw error;
    }
  }

  private async prepare(file: IncomingFile): Promise<Prepared> {
    const name = file.info?.name ?? file.filename;
    if (!name) throw new ValidationError('Every file needs a name');
    const ext = extname(file.filename).toLowerCase() || extensionOfMime(file.mime);
    const hash = `${baseName(file.filename)}_${randomBytes(5).toString('hex')}`;
    const image = await imageInfo(file.buffer, file.mime, this.breakpoints);
    const main: ProviderFile = { hash, ext, mime: file.mime, buffer: image.optimized ?? file.buffer };
    const formats = image.formats.map((f) => ({
      key: f.key,
      width: f.width,
      height: f.height,
      file: { hash: `${f.key}_${hash}`, ext, mime: file.mime, buffer: f.buffer } as ProviderFile,
    }));
    return { name, info: file.info, width: image.width, height: image.height, main, formats };
  }

  /** Removes a file's entry, its links from entries, and its stored bytes (formats included). */
  async remove(entry: { documentId: string; hash: string; ext: string; url?: string; formats?: Record<string, { hash: string; ext: string }> | null }) {
    await this.host.documents(FILE_UID).quiet().delete({ documentId: entry.documentId });
    await this.provider.delete(entry);
    for (const format of Object.values(entry.formats ?? {})) await this.provider.delete(format);
  }
}

/** An upload checked and resized, not stored yet. */
interface Prepared {
  name: string;
  info?: IncomingFile['info'];
  width: number | null;
  height: number | null;
  main: ProviderFile;
  formats: Array<{ key: string; width: number; height: number; file: ProviderFile }>;
}
