import { join } from 'node:path';
import { expect, it } from 'vitest';
import { startTestApp } from '../helpers/app.js';

it('the example app starts on an empty database, seeds its demo data, and serves it', async () => {
  const app = await startTestApp('sqlite', join(import.meta.dirname, '..', '..', 'examples', 'restaurants'));
  try {
    const list = await app.request('GET', '/api/restaurants?populate=*', undefined, { authorization: '' });
    expect(list.status).toBe(200);
    expect(list.body.data).toHaveLength(25);
    expect(list.body.meta.pagination.total).toBeGreaterThan(100);
    const first = list.body.data[0];
    expect(first.address.city).toBeTruthy();
    expect(first.blocks.map((b: { __component: string }) => b.__component)).toEqual(['sections.hero', 'sections.menu']);
    const fr = await app.request('GET', '/api/restaurants?locale=fr', undefined, { authorization: '' });
    expect(fr.body.meta.pagination.total).toBeGreaterThan(0);
  } finally {
    await app.close();
  }
}, 60_000);
