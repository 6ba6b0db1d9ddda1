// Issue 7 of 7: uploading a 5 MB JPEG and building its formats. Starts Cairn (built) in-process on a temp app,
// uploads through HTTP (inject) and reports the median time of 5 uploads; baseline in the same run: sharp alone
// making the same four formats from the same bytes. Usage: npm run build && node bench/upload.js
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { createCairn } from '../dist/app/cairn.js';

const dir = mkdtempSync(join(tmpdir(), 'cairn-upload-bench-'));
mkdirSync(join(dir, 'config'), { recursive: true });
writeFileSync(join(dir, 'config', 'plugins.json'), JSON.stringify({ upload: { config: { sizeLimit: 50 * 1024 * 1024 } } }));
const cairn = await createCairn({ dir, config: { database: { connection: { client: 'sqlite', connection: { filename: join(dir, 'data.db') } } } } });
const { key } = await cairn.plugin('users-permissions').service('tokens').create({ name: 'bench', type: 'full-access' });

// Noise does not compress: a 3000x2000 JPEG of random pixels at quality 92 weighs about 5 MB.
const raw = Buffer.alloc(3000 * 2000 * 3);
for (let i = 0; i < raw.length; i++) raw[i] = (Math.random() * 256) | 0;
const jpeg = await sharp(raw, { raw: { width: 3000, height: 2000, channels: 3 } }).jpeg({ quality: 92 }).toBuffer();

const form = new FormData();
form.append('files', new Blob([jpeg], { type: 'image/jpeg' }), 'noise.jpg');
const body = new Response(form);
const payload = Buffer.from(await body.arrayBuffer());
const headers = { 'content-type': body.headers.get('content-type'), authorization: `Bearer ${key}` };
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const cairnTimes = [];
let formats;
for (let i = 0; i < 5; i++) {
  const t = performance.now();
  const res = await cairn.fastify.inject({ method: 'POST', url: '/api/upload', payload, headers });
  cairnTimes.push(performance.now() - t);
  if (res.statusCode !== 201) throw new Error(res.body);
  formats = Object.keys(JSON.parse(res.body)[0].formats).join(', ');
}
const sharpTimes = [];
for (let i = 0; i < 5; i++) {
  const t = performance.now();
  const optimized = await sharp(jpeg).jpeg({ quality: 80 }).toBuffer();
  await Promise.all([[245, 156], [1000, 1000], [750, 750], [500, 500]].map(([w, h]) => sharp(optimized).rotate().resize({ width: w, height: h, fit: 'inside' }).toBuffer()));
  sharpTimes.push(performance.now() - t);
}
await cairn.close();
rmSync(dir, { recursive: true, force: true });
const c = median(cairnTimes);
const s = median(sharpTimes);
console.log(`5 MB JPEG (${(jpeg.length / 1e6).toFixed(1)} MB, 3000x2000), formats: ${formats}`);
console.log(`| | median of 5 |\n| --- | --- |\n| Cairn upload (HTTP, store, formats, entry) | ${c.toFixed(0)} ms |\n| sharp alone, same work | ${s.toFixed(0)} ms |\n| ratio | ${(c / s).toFixed(2)}x |`);
console.log(`target < 1000 ms: ${c < 1000 ? 'met' : 'MISSED'}`);
