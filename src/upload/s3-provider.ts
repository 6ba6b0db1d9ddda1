import { createHash, createHmac } from 'node:crypto';
import type { UploadProvider } from './provider.js';

export interface S3Options {
  /** e.g. https://s3.eu-west-1.amazonaws.com or http://127.0.0.1:9000 (MinIO, Garage...). */
  endpoint: string;
  region: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** Public base URL of stored files (a CDN); default `<endpoint>/<bucket>`. */
  baseUrl?: string;
  /** Key prefix inside the bucket. */
  rootPath?: string;
  /** Sent as x-amz-acl (e.g. public-read); omitted when undefined. */
  acl?: string;
}

const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');
const hmac = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data).digest();

/** AWS Signature Version 4 headers for one request (path-style addressing). */
export function signRequest(
  options: S3Options,
  method: string,
  key: string,
  body: Buffer | undefined,
  extraHeaders: Record<string, string>,
  now = new Date(),
): { url: string; headers: Record<string, string> } {
  const url = new URL(`${options.endpoint.replace(/\/$/, '')}/${options.bucket}/${key.split('/').map(encodeURIComponent).join('/')}`);
  const amzDate = now.toISOString().replace(/[:-]|\.\d{3}/g, '');
  const day = amzDate.slice(0, 8);
  const payloadHash = sha256(body ?? '');
  const headers: Record<string, string> = { ...extraHeaders, host: url.host, 'x-amz-content-sha256': payloadHash, 'x-amz-date': amzDate };
  const names = Object.keys(headers).map((h) => h.toLowerCase()).sort();
  const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v.trim()]));
  const canonical = [method, url.pathname, '', names.map((h) => `${h}:${lower[h]}`).join('\n') + '\n', names.join(';'), payloadHash].join('\n');
  const scope = `${day}/${options.region}/s3/aws4_request`;
  const toSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256(canonical)].join('\n');
  const signingKey = hmac(hmac(hmac(hmac(`AWS4${options.secretAccessKey}`, day), options.region), 's3'), 'aws4_request');
  const signature = createHmac('sha256', signingKey).update(toSign).digest('hex');
  headers.authorization = `AWS4-HMAC-SHA256 Credential=${options.accessKeyId}/${scope}, SignedHeaders=${names.join(';')}, Signature=${signature}`;
  delete headers.host;
  return { url: url.toString(), headers };
}

/** Stores uploads in an S3-compatible bucket, under the same provider interface as `local`. */
export function s3Provider(options: S3Options): UploadProvider {
  for (const key of ['endpoint', 'region', 'bucket', 'accessKeyId', 'secretAccessKey'] as const) {
    if (!options?.[key]) throw new Error(`upload provider s3: providerOptions.${key} is required`);
  }
  const keyOf = (file: { hash: string; ext: string }) => `${options.rootPath ? `${options.rootPath.replace(/\/$/, '')}/` : ''}${file.hash}${file.ext}`;
  const base = (options.baseUrl ?? `${options.endpoint.replace(/\/$/, '')}/${options.bucket}`).replace(/\/$/, '');
  const send = async (method: string, key: string, body?: Buffer, headers: Record<string, string> = {}) => {
    const signed = signRequest(options, method, key, body, headers);
    const res = await fetch(signed.url, { method, headers: signed.headers, body: body ? new Uint8Array(body) : undefined });
    if (!res.ok && !(method === 'DELETE' && res.status === 404)) {
      throw new Error(`S3 ${method} ${key} failed: ${res.status} ${await res.text()}`);
    }
  };
  return {
    name: 'aws-s3',
    async upload(file) {
      const key = keyOf(file);
      await send('PUT', key, file.buffer, { 'content-type': file.mime, ...(options.acl ? { 'x-amz-acl': options.acl } : {}) });
      file.url = `${base}/${key}`;
    },
    async delete(file) {
      await send('DELETE', keyOf(file));
    },
  };
}
