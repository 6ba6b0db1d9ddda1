import type { MediaAttribute } from './types.js';

/** The `allowedTypes` family of a file: images, videos, audios, or files (anything else). */
export function mediaKind(mime: string): 'images' | 'videos' | 'audios' | 'files' {
  if (mime.startsWith('image/')) return 'images';
  if (mime.startsWith('video/')) return 'videos';
  if (mime.startsWith('audio/')) return 'audios';
  return 'files';
}

/** Whether a media attribute takes a file of this mime type (no `allowedTypes`: any file). */
export function allowsMime(attribute: MediaAttribute, mime: string): boolean {
  return !attribute.allowedTypes.length || attribute.allowedTypes.includes(mediaKind(mime));
}

/** The message both writes and uploads give for a file a media attribute does not take. */
export function notAllowedMessage(attribute: MediaAttribute, file: { name: string; mime: string }): string {
  return `${attribute.name}: ${file.name} (${file.mime}) is not allowed here (allowed: ${attribute.allowedTypes.join(', ')})`;
}
