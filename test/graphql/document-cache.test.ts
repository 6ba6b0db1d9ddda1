import v8 from 'node:v8';
import vm from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DocumentCache } from '../../src/graphql/document-cache.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { kitchen } from '../fixtures/kitchen.js';

describe('DocumentCache', () => {
  it('keeps at most maxEntries, maxTotalChars of text in all, nothing longer than maxEntryChars; the oldest go first', () => {
    const cache = new DocumentCache<number>(3, 10, 4);
    cache.set('aaaaa', 1);
    expect(cache.get('aaaaa')).toBeUndefined();
    cache.set('aaaa', 1);
    cache.set('bbbb', 2);
    expect(cache.size).toEqual({ entries: 2, chars: 8 });
    cache.set('cccc', 3); // 12 chars: 'aaaa' goes
    expect([cache.get('aaaa'), cache.get('bbbb'), cache.get('cccc')]).toEqual([undefined, 2, 3]);
    cache.set('d', 4);
    cache.set('e', 5); // a fourth entry: 'bbbb' goes
    expect([cache.get('bbbb'), cache.get('cccc'), cache.get('d'), cache.get('e')]).toEqual([undefined, 3, 4, 5]);
    expect(cache.size).toEqual({ entries: 3, chars: 6 });
    cache.set('d', 6); // already held: kept as it was
    expect(cache.get('d')).toBe(4);
    expect(cache.size).toEqual({ entries: 3, chars: 6 });
  });
});

describe('GraphQL: large distinct queries are not kept in memory [sqlite]', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp('sqlite', { ...kitchen, config: { plugins: { ...kitchen.config!.plugins, graphql: { config: { shape: 'v4', maxTokens: 20_000 } } } } });
  });
  afterAll(async () => app?.close());

  it('twenty valid 48 KB queries of 9,900 tokens leave no parsed document behind (each held 2.6 MB)', async () => {
    v8.setFlagsFromString('--expose-gc');
    const gc = vm.runInNewContext('gc') as () => void;
    const query = (i: number) => `{ restaurants(filters: { stars: { in: [${Array.from({ length: 9900 }, (_, j) => j + i * 10_000).join(' ')}] } }) { data { id } } }`;
    const first = await app.request('POST', '/graphql', { query: query(0) });
    expect(first.status).toBe(200);
    expect(first.body.data.restaurants.data).toEqual([]);
    gc();
    const before = process.memoryUsage().heapUsed;
    for (let i = 1; i <= 20; i++) expect((await app.request('POST', '/graphql', { query: query(i) })).status).toBe(200);
    gc();
    const grown = process.memoryUsage().heapUsed - before;
    expect(grown / 2 ** 20).toBeLessThan(20);
  });
});
