import type { TestApp } from './app.js';

/** One file sent to `POST /api/upload` as a multipart body, with the app's full-access token: Cairn's answer. */
export async function uploadFile(app: TestApp, name: string, type: string, data: Buffer): Promise<{ status: number; body: any }> {
  const form = new FormData();
  form.append('files', new Blob([new Uint8Array(data)], { type }), name);
  const body = new Response(form);
  const res = await app.cairn.fastify.inject({
    method: 'POST',
    url: '/api/upload',
    payload: Buffer.from(await body.arrayBuffer()),
    headers: { 'content-type': body.headers.get('content-type')!, authorization: `Bearer ${app.token}` },
  });
  return { status: res.statusCode, body: JSON.parse(res.body) };
}
