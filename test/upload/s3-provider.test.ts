import { createServer, type IncomingMessage } from 'node:http';
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { s3Provider, type ProviderFile } from '../../src/upload/index.js';
import { signRequest } from '../../src/upload/s3-provider.js';

/**
 * Contract test of the S3-compatible provider (no S3 server installs from npm/Debian here): a local HTTP stub
 * stands in for the bucket, records each request and checks it the way S3 does (SigV4 recomputed).
 */
const options = { endpoint: '', region: 'eu-west-1', bucket: 'media', accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret', rootPath: 'site' };
const seen: Array<{ method: string; url: string; headers: IncomingMessage['headers']; body: Buffer; signatureOk: boolean }> = [];
const server = createServer(async (req, res) => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const body = Buffer.concat(chunks);
  const date = req.headers['x-amz-date'] as string;
  const when = new Date(`${date.slice(0, 4)}-${date.slice(4, 6)}-${date.slice(6, 8)}T${date.slice(9, 11)}:${date.slice(11, 13)}:${date.slice(13, 15)}Z`);
  const extra: Record<string, string> = {};
  if (req.headers['content-type']) extra['content-type'] = req.headers['content-type'];
  const key = decodeURIComponent(req.url!.slice(`/${options.bucket}/`.length));
  const expected = signRequest(options, req.method!, key, req.method === 'PUT' ? body : undefined, extra, when);
  const signatureOk = expected.headers.authorization === req.headers.authorization;
  seen.push({ method: req.method!, url: req.url!, headers: req.headers, body, signatureOk });
  res.statusCode = signatureOk ? 200 : 403;
  res.end();
});

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as { port: number };
  options.endpoint = `http://127.0.0.1:${address.port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

it('uploads with a signed PUT to <bucket>/<rootPath>/<hash><ext> and sets the public url', async () => {
  const provider = s3Provider(options);
  const file: ProviderFile = { hash: 'photo_0123456789', ext: '.png', mime: 'image/png', buffer: Buffer.from('png bytes') };
  await provider.upload(file);
  const put = seen.at(-1)!;
  expect(put).toMatchObject({ method: 'PUT', url: '/media/site/photo_0123456789.png', signatureOk: true });
  expect(put.body.toString()).toBe('png bytes');
  expect(put.headers['x-amz-content-sha256']).toBe(createHash('sha256').update('png bytes').digest('hex'));
  expect(put.headers.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\/\d{8}\/eu-west-1\/s3\/aws4_request, SignedHeaders=content-type;host;x-amz-content-sha256;x-amz-date, Signature=[0-9a-f]{64}$/);
  expect(file.url).toBe(`${options.endpoint}/media/site/photo_0123456789.png`);
});

it('deletes with a signed DELETE; a failing bucket is an error, not a silent loss', async () => {
  const provider = s3Provider(options);
  await provider.delete({ hash: 'photo_0123456789', ext: '.png' });
  expect(seen.at(-1)).toMatchObject({ method: 'DELETE', url: '/media/site/photo_0123456789.png', signatureOk: true });
  const wrongKey = s3Provider({ ...options, secretAccessKey: 'wrong' });
  await expect(wrongKey.upload({ hash: 'x', ext: '.txt', mime: 'text/plain', buffer: Buffer.from('x') })).rejects.toThrow(/403/);
});

it('refuses incomplete configuration', () => {
  expect(() => s3Provider({ ...options, bucket: '' })).toThrow(/bucket is required/);
});
