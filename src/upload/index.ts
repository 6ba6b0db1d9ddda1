import { join } from 'node:path';
import type { UploadHost } from './host.js';
import { DEFAULT_BREAKPOINTS, type Breakpoints } from './images.js';
import { localProvider, type UploadProvider } from './provider.js';
import { registerUploadRoutes } from './routes.js';
import { UploadService } from './upload-service.js';
import { appUploadService } from './app-service.js';

export type { UploadHost } from './host.js';
export type { UploadProvider, ProviderFile } from './provider.js';
export { localProvider } from './provider.js';
export { s3Provider } from './s3-provider.js';

const DEFAULT_SIZE_LIMIT = 200 * 1024 * 1024;

/**
 * The media library: `POST /api/upload`, `/api/upload/files`, image formats (its files are served with `public/`:
 * app/public-files.ts). Configured by `config/plugins` → `upload.config` (`sizeLimit`, `breakpoints`, `provider`,
 * `providerOptions`).
 */
export async function registerUpload(host: UploadHost): Promise<void> {
  const config = (host.config.plugins.upload?.config ?? {}) as {
    sizeLimit?: number;
    breakpoints?: Breakpoints;
    provider?: string;
    providerOptions?: Record<string, unknown>;
  };
  const publicDir = join(host.config.dir, 'public');
  let provider: UploadProvider = localProvider(publicDir);
  if (config.provider === 'aws-s3' || config.provider === 's3') {
    const { s3Provider } = await import('./s3-provider.js');
    provider = s3Provider(config.providerOptions as never);
  }
  const service = new UploadService(host, provider, config.breakpoints ?? DEFAULT_BREAKPOINTS);
  // strapi.plugin('upload').service('upload'): app code's uploads (a bootstrap seeding media).
  host.services.set('upload', { upload: appUploadService(host, service) });
  // A scope of their own: only the upload routes accept multipart bodies.
  await host.fastify.register(async (uploads) => {
    registerUploadRoutes(uploads, host, service, { fileSize: config.sizeLimit ?? DEFAULT_SIZE_LIMIT, files: 50 });
  });
}
