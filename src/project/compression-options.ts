import zlib from 'node:zlib';
import { closestKey, distance } from './config-validate.js';
import { byteSize, describe, isPlain } from './config-values.js';

/**
 * `strapi::compression`'s options (config/middlewares), as Strapi 5.54 passes them to koa-compress 5: checked at
 * start, and resolved over koa-compress' defaults for Cairn's compression (app/compression.ts).
 */

/** koa-compress' options, as `strapi::compression` passes its config to it (Strapi 5.54 runs koa-compress 5). */
const COMPRESSION_OPTIONS = ['threshold', 'filter', 'defaultEncoding', 'br', 'gzip', 'deflate'];
/** The encodings koa-compress offers, in its order of preference. */
export const COMPRESSION_ENCODINGS = ['br', 'gzip', 'deflate'] as const;
export type CompressionEncoding = (typeof COMPRESSION_ENCODINGS)[number];
/** koa-compress' brotli default (quality 4: 11, zlib's, costs far more CPU for little gain). */
const BROTLI_DEFAULTS: zlib.BrotliOptions = { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } };

/** `strapi::compression` resolved: koa-compress' options as Cairn's compression (app/compression.ts) applies them. */
export interface CompressionConfig {
  /** Answers smaller than this (bytes) are sent as they are; 0 compresses all. */
  threshold: number;
  /** The config's `filter(contentType)`, else koa-compress' (the `compressible` package). */
  filter?: (type: string) => unknown;
  /** What a request without `Accept-Encoding` is taken to accept (koa-compress' `defaultEncoding`, `identity`). */
  defaultEncoding: string;
  /** The encodings offered, in koa-compress' order of preference (one set to false or null is not). */
  encodings: CompressionEncoding[];
  /** Each encoding's zlib options (koa-compress' defaults, the config's over them). */
  zlib: { br: zlib.BrotliOptions; gzip: zlib.ZlibOptions; deflate: zlib.ZlibOptions };
  /** Its place in the list. */
  at: number;
}

/**
 * Checks the config an entry gives `strapi::compression`: a value of the wrong type stops the start (`fail`, given
 * the key's path), an option koa-compress does not have is a warning.
 */
export function checkCompressionOptions(config: unknown, report: { fail: (path: string, problem: string) => never; warn: (message: string) => void }): void {
  if (!isPlain(config)) return report.fail('.config', `(strapi::compression) must be an object of koa-compress' options (${COMPRESSION_OPTIONS.join(', ')}), not ${describe(config)}`);
  for (const [key, option] of Object.entries(config)) {
    if (option === undefined) continue;
    if (key === 'threshold') {
      if (thresholdBytes(option) === undefined) report.fail('.config.threshold', `(strapi::compression) must be a size in bytes (0 or more, or a string like "1kb"), not ${describe(option)}`);
    } else if (key === 'filter') {
      if (typeof option !== 'function') report.fail('.config.filter', `(strapi::compression) must be a function of the answer's content type, not ${describe(option)}`);
    } else if (key === 'defaultEncoding') {
      if (typeof option !== 'string' || option.trim() === '') report.fail('.config.defaultEncoding', `(strapi::compression) must be an Accept-Encoding value (such as "identity" or "gzip"), not ${describe(option)}`);
    } else if ((COMPRESSION_ENCODINGS as readonly string[]).includes(key)) {
      if (option === false || option === null || option === true) continue;
      if (!isPlain(option)) report.fail(`.config.${key}`, `(strapi::compression) must be false (not offered) or an object of zlib's options, not ${describe(option)}`);
      const problem = zlibProblem(key as CompressionEncoding, option as Record<string, unknown>);
      if (problem) report.fail(`.config.${key}`, `(strapi::compression) is not options zlib takes: ${problem}`);
    } else {
      const closest = closestKey(key, COMPRESSION_OPTIONS);
      const hint = distance(key.toLowerCase(), closest.toLowerCase()) <= 2 ? `did you mean ${closest}? ` : '';
      report.warn(`config.${key} is not an option of koa-compress, which strapi::compression passes its config to: ${hint}it takes ${COMPRESSION_OPTIONS.join(', ')}`);
    }
  }
}

/** koa-compress' threshold: bytes (0 compresses everything), or a size the `bytes` package reads (`'1kb'`). */
function thresholdBytes(value: unknown): number | undefined {
  if (value === 0 || (typeof value === 'string' && /^\s*0+\s*(b|kb|mb|gb|tb|pb)?\s*$/i.test(value))) return 0;
  if (typeof value === 'number') return Number.isFinite(value) && value > 0 ? value : undefined;
  return byteSize(value);
}

/** An encoding's zlib options as koa-compress builds them (its defaults, the config's over them). */
function zlibOptions(encoding: CompressionEncoding, given: unknown): zlib.ZlibOptions & zlib.BrotliOptions {
  return { ...(encoding === 'br' ? BROTLI_DEFAULTS : {}), ...(isPlain(given) ? given : {}) };
}

/** What zlib says of these options (it checks them as it makes a stream), or undefined when it takes them. */
function zlibProblem(encoding: CompressionEncoding, given: Record<string, unknown>): string | undefined {
  try {
    const options = zlibOptions(encoding, given);
    const stream = encoding === 'br' ? zlib.createBrotliCompress(options) : encoding === 'gzip' ? zlib.createGzip(options) : zlib.createDeflate(options);
    stream.destroy();
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/** `strapi::compression`'s config over koa-compress' defaults; `at`, the entry's place in the list. */
export function compressionOptions(config: unknown, at: number): CompressionConfig {
  const given = (config ?? {}) as Record<string, unknown>;
  return {
    threshold: given.threshold === undefined ? 1024 : (thresholdBytes(given.threshold) ?? 1024),
    ...(typeof given.filter === 'function' ? { filter: given.filter as (type: string) => unknown } : {}),
    defaultEncoding: typeof given.defaultEncoding === 'string' ? given.defaultEncoding : 'identity',
    // koa-compress: `br: false` (or null) takes the encoding out of those offered.
    encodings: COMPRESSION_ENCODINGS.filter((encoding) => given[encoding] !== false && given[encoding] !== null),
    zlib: { br: zlibOptions('br', given.br), gzip: zlibOptions('gzip', given.gzip), deflate: zlibOptions('deflate', given.deflate) },
    at,
  };
}
