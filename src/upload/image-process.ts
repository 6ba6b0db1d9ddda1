import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { ValidationError } from '../errors/index.js';
import { isImage, type Breakpoints, type ImageInfo } from './images.js';

export interface ImageRequest {
  id: number;
  buffer: Uint8Array;
  mime: string;
  breakpoints: Breakpoints;
}

export type ImageReply = { id: number; info: ImageInfo } | { id: number; error: string; invalid: boolean };

/** The image process ends after this long without work; the next image starts a new one (~0.1 s). */
const IDLE_MS = 10_000;

/**
 * Images are measured and resized by sharp in a child process, not in the server. libvips is a large native
 * library (~27 MB resident once loaded, plus its caches and thread pool) that a content API needs only for the
 * rare upload; loaded in the server it would stay for the server's whole life. The child lives while uploads
 * come and goes after a quiet while, so the server's memory is the same before and after an upload.
 */
class ImageProcess {
  private child?: ChildProcess;
  private next = 0;
  private readonly pending = new Map<number, { resolve(info: ImageInfo): void; reject(error: Error): void }>();
  private idle?: NodeJS.Timeout;

  run(buffer: Buffer, mime: string, breakpoints: Breakpoints): Promise<ImageInfo> {
    const child = this.child ?? this.start();
    clearTimeout(this.idle);
    child.channel?.ref();
    const id = this.next++;
    return new Promise<ImageInfo>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      child.send({ id, buffer, mime, breakpoints } satisfies ImageRequest);
    });
  }

  private start(): ChildProcess {
    const entry = new URL('./image-child.js', import.meta.url);
    // From the TypeScript sources (tests, `cairn develop` from a checkout) the child runs them through jiti.
    const fromSource = import.meta.url.endsWith('.ts');
    const child = fork(fileURLToPath(fromSource ? new URL('./image-child.ts', import.meta.url) : entry), {
      serialization: 'advanced',
      execArgv: fromSource ? ['--import', 'jiti/register'] : [],
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    child.unref();
    child.on('message', (reply: ImageReply) => this.settle(reply));
    child.on('exit', (code, signal) => {
      if (this.child === child) this.child = undefined;
      const error = new Error(`the image process stopped (${signal ?? code})`);
      for (const { reject } of this.pending.values()) reject(error);
      this.pending.clear();
    });
    this.child = child;
    return child;
  }

  private settle(reply: ImageReply): void {
    const waiting = this.pending.get(reply.id);
    this.pending.delete(reply.id);
    if (waiting) {
      if ('info' in reply) waiting.resolve(reviveBuffers(reply.info));
      else waiting.reject(reply.invalid ? new ValidationError(reply.error) : new Error(reply.error));
    }
    if (this.pending.size === 0) {
      // The child must not keep the process alive while idle (a CLI command, a test run, a stopping server).
      this.child?.channel?.unref();
      this.idle = setTimeout(() => this.child?.disconnect(), IDLE_MS).unref();
    }
  }
}

/** Buffers cross the channel as Uint8Arrays. */
function reviveBuffers(info: ImageInfo): ImageInfo {
  const buffer = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return {
    ...info,
    optimized: info.optimized && buffer(info.optimized),
    formats: info.formats.map((f) => ({ ...f, buffer: buffer(f.buffer) })),
  };
}

const images = new ImageProcess();

/** Dimensions and responsive formats of an upload (see images.ts), computed in the image process. */
export async function imageInfo(buffer: Buffer, mime: string, breakpoints: Breakpoints): Promise<ImageInfo> {
  if (!isImage(mime)) return { width: null, height: null, formats: [] };
  return images.run(buffer, mime, breakpoints);
}
