import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../helpers/databases.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { kitchen } from '../fixtures/kitchen.js';

/** Malformed input of every kind: each must get a 4xx with the error envelope, never a 500. */
const QUERIES = [
  'filters[$or][0]=x',
  'filters[$and]=1',
  'filters[$not]=1',
  'filters[name][$eq][$eq]=1',
  'filters[name][$in][a]=1',
  'filters[__proto__][name]=x',
  'filters[constructor][prototype]=1',
  'filters[restaurants][$eq]=1',
  'filters[address][$eq]=1',
  'filters[address][geo][lat][$gt]=north',
  'filters[hiredAt][$between][0]=2020-01-01&filters[hiredAt][$between][1]=never',
  'filters=1',
  `filters${'[a]'.repeat(40)}=1`,
  'fields[0][a]=1',
  'fields=',
  'sort[0][0]=x',
  'sort=:asc',
  'sort=name:asc:desc',
  'populate[restaurants][populate][chef][populate][restaurants][fields][0]=nope',
  'populate[restaurants][on][x]=1',
  'populate[address][filters][city]=x',
  'populate=*,nope',
  'populate[0][a]=1',
  'pagination=1',
  'pagination[page]=1e3',
  'pagination[pageSize]=99999999999999999999',
  'pagination[start]=-1',
  'pagination[withCount]=maybe',
  'locale[0]=en',
  'status[0]=draft',
  `${'a='.repeat(1500)}`,
  '%%%',
  'filters[name][$eq]=%00',
];
const BODIES: unknown[] = [
  null,
  [],
  'text',
  { data: [] },
  { data: 'x' },
  { data: { name: ['Ann'] } },
  { data: { name: 'Ann', address: [] } },
  { data: { name: 'Ann', address: { geo: 'x' } } },
  { data: { name: 'Ann', restaurants: { connect: [{}] } } },
  { data: { name: 'Ann', restaurants: { connect: [{ documentId: 5 }] } } },
  { data: { name: 'Ann', restaurants: { connect: 'x', nope: [] } } },
  { data: { name: 'Ann', age: 1e400 } },
  { data: { name: 'Ann', big: '1'.repeat(40) } },
  { data: { name: 'Ann', tags: { deep: { deeper: [1, 2, { x: null }] } } } },
  { data: { name: 'Ann\u0000' } },
  { data: { name: 'Ann', tags: { k: 'a\u0000b' } } },
];

describeEachDialect('no input makes a 500', (dialect) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(dialect, kitchen);
  });
  afterAll(async () => app?.close());

  it('malformed query strings on lists and single reads', async () => {
    for (const query of QUERIES) {
      for (const url of [`/api/chefs?${query}`, `/api/chefs/x?${query}`]) {
        const res = await app.request('GET', url);
        expect(res.status, `${url} → ${res.raw.slice(0, 200)}`).toBeLessThan(500);
        if (res.status >= 400) expect(res.body.error?.name, url).toMatch(/Error$/);
      }
    }
  });

  it('malformed bodies on create and update', async () => {
    const existing = (await app.request('POST', '/api/chefs', { data: { name: 'Existing' } })).body.data.documentId;
    for (const body of BODIES) {
      for (const [method, url] of [['POST', '/api/chefs'], ['PUT', `/api/chefs/${existing}`]]) {
        const res = await app.request(method, url, JSON.stringify(body), { 'content-type': 'application/json' });
        expect(res.status, `${method} ${JSON.stringify(body)} → ${res.raw.slice(0, 200)}`).toBeLessThan(500);
      }
    }
    const wrongType = await app.request('POST', '/api/chefs', 'name=x', { 'content-type': 'application/x-www-form-urlencoded' });
    expect(wrongType.status).toBeLessThan(500);
  });
});
