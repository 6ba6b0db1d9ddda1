import type { Metadata, ResizeOptions } from 'sharp';
import { ValidationError } from '../errors/index.js';

export interface Breakpoints {
  [name: string]: number;
}

export const DEFAULT_BREAKPOINTS: Breakpoints = { large: 1000, medium: 750, small: 500 };
const THUMBNAIL = { width: 245, height: 156 };

/** Images sharp can resize; SVG keeps its bytes (dimensions only), other files get neither. */
const RESIZABLE = new Set(['image/jpeg', 'image/png', 'image/webp', 'image/tiff', 'image/gif', 'image/avif']);

export interface ImageInfo {
  width: number | null;
  height: number | null;
  /** The original re-encoded (quality 80) when that is smaller, as Strapi's size optimization does. */
  optimized?: Buffer;
  formats: Array<{ key: string; buffer: Buffer; width: number; height: number }>;
}

/** Only these go to sharp; any other file has neither dimensions nor formats. */
export function isImage(mime: string): boolean {
  return mime.startsWith('image/');
}

/**
 * Dimensions and responsive formats of an upload: a thumbnail (fit inside 245x156) and one format per
 * breakpoint, each only when the original is larger. A file that claims to be an image and isn't is a 400.
 * Runs in the image process (image-process.ts), never in the server: see there why.
 */
export async function processImage(buffer: Buffer, mime: string, breakpoints: Breakpoints): Promise<ImageInfo> {
  if (!isImage(mime)) return { width: null, height: null, formats: [] };
  const { default: sharp } = await import('sharp');
  // Each upload is a new image: libvips' operation cache would only hold memory.
  sharp.cache(false);
  let meta: Metadata;
  try {
    meta = await sharp(buffer).metadata();
  } catch (error) {
    throw new ValidationError(`File is not a valid image: ${(error as Error).message}`);
  }
  const width = meta.width ?? null;
  const height = meta.height ?? null;
  if (!RESIZABLE.has(mime) || !width || !height) return { width, height, formats: [] };
  const optimized = await optimize(sharp, buffer, meta.format);
  const jobs: Array<Promise<ImageInfo['formats'][number]>> = [];
  // Formats are made from the optimized original, as Strapi does.
  const source = optimized ?? buffer;
  const resize = (key: string, options: ResizeOptions) =>
    sharp(source)
      .rotate()
      .resize({ ...options, withoutEnlargement: true })
      .toBuffer({ resolveWithObject: true })
      .then(({ data, info }) => ({ key, buffer: data, width: info.width, height: info.height }));
  if (width > THUMBNAIL.width || height > THUMBNAIL.height) jobs.push(resize('thumbnail', { ...THUMBNAIL, fit: 'inside' }));
  for (const [key, size] of Object.entries(breakpoints)) {
    if (width > size || height > size) jobs.push(resize(key, { width: size, height: size, fit: 'inside' }));
  }
  try {
    return { width, height, formats: await Promise.all(jobs), optimized };
  } catch (error) {
    throw new ValidationError(`File is not a valid image: ${(error as Error).message}`);
  }
}

/**
 * Strapi's size optimization: the image re-encoded in its own format at quality 80 (for PNG that means a
 * palette), kept only when smaller. Matching it keeps file sizes equal to the reference's.
 */
async function optimize(sharp: (typeof import('sharp'))['default'], buffer: Buffer, format: string | undefined): Promise<Buffer | undefined> {
  if (!format || !['jpeg', 'png', 'webp', 'tiff', 'avif'].includes(format)) return undefined;
  try {
    const output = await sharp(buffer)[format as 'png']({ quality: 80 }).toBuffer();
    return output.length < buffer.length ? output : undefined;
  } catch {
    return undefined;
  }
}
