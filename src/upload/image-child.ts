import { ValidationError } from '../errors/index.js';
import { processImage } from './images.js';
import type { ImageReply, ImageRequest } from './image-process.js';

/**
 * The image process (forked by image-process.ts): answers each request with the image's dimensions and
 * formats, and ends with the server (or when the server lets it go after a quiet while).
 */
process.on('message', (request: ImageRequest) => {
  const buffer = Buffer.from(request.buffer.buffer, request.buffer.byteOffset, request.buffer.byteLength);
  processImage(buffer, request.mime, request.breakpoints).then(
    (info) => process.send!({ id: request.id, info } satisfies ImageReply),
    (error: Error) => process.send!({ id: request.id, error: error.message, invalid: error instanceof ValidationError } satisfies ImageReply),
  );
});
process.on('disconnect', () => process.exit(0));
