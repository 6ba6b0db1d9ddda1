/**
 * The extension a file named without one gets from its media type, as Strapi's upload does (it asks `mime-types`,
 * whose first extension for each type these are). A browser's `Blob` upload is named `blob`: its stored name and
 * URL still end in `.png`. Types not listed keep no extension.
 */
const EXTENSIONS: Record<string, string> = {
  'image/png': '.png',
  'image/jpeg': '.jpeg',
  'image/gif': '.gif',
  'image/webp': '.webp',
  'image/avif': '.avif',
  'image/svg+xml': '.svg',
  'image/tiff': '.tif',
  'image/bmp': '.bmp',
  'image/x-icon': '.ico',
  'image/vnd.microsoft.icon': '.ico',
  'image/heic': '.heic',
  'video/mp4': '.mp4',
  'video/webm': '.webm',
  'video/quicktime': '.qt',
  'video/mpeg': '.mpeg',
  'audio/mpeg': '.mpga',
  'audio/ogg': '.oga',
  'audio/wav': '.wav',
  'audio/webm': '.weba',
  'application/pdf': '.pdf',
  'application/json': '.json',
  'application/zip': '.zip',
  'application/msword': '.doc',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': '.docx',
  'application/vnd.ms-excel': '.xls',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': '.xlsx',
  'application/vnd.ms-powerpoint': '.ppt',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation': '.pptx',
  'text/plain': '.txt',
  'text/csv': '.csv',
  'text/html': '.html',
  'text/markdown': '.markdown',
};

export function extensionOfMime(mime: string): string {
  return EXTENSIONS[mime.split(';')[0].trim().toLowerCase()] ?? '';
}
