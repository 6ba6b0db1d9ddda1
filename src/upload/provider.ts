import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** A file (or one of its formats) handed to a provider: where it goes is decided by hash + ext. */
export interface ProviderFile {
  hash: string;
  ext: string;
  mime: string;
  buffer: Buffer;
  /** Set by the provider: the public URL of the stored file. */
  url?: string;
  provider_metadata?: Record<string, unknown> | null;
}

/**
 * Where uploaded bytes live. Strapi's provider contract: `upload` stores and sets `url`, `delete` removes,
 * `uploadStream` is optional (Cairn buffers files, which sharp needs anyway).
 */
export interface UploadProvider {
  readonly name: string;
  upload(file: ProviderFile): Promise<void>;
  uploadStream?(file: ProviderFile & { stream: NodeJS.ReadableStream }): Promise<void>;
  delete(file: { hash: string; ext: string; url?: string; provider_metadata?: Record<string, unknown> | null }): Promise<void>;
}

/** The default provider: `<app>/public/uploads/<hash><ext>`, served by Cairn at `/uploads/...`. */
export function localProvider(publicDir: string): UploadProvider {
  const dir = join(publicDir, 'uploads');
  return {
    name: 'local',
    async upload(file) {
      await mkdir(dir, { recursive: true });
      await writeFile(join(dir, `${file.hash}${file.ext}`), file.buffer);
      file.url = `/uploads/${file.hash}${file.ext}`;
    },
    async delete(file) {
      await rm(join(dir, `${file.hash}${file.ext}`), { force: true });
    },
  };
}
