import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../helpers/databases.js';
import { startTestApp, type TestApp, type TestSchemas } from '../helpers/app.js';
import { kitchen } from '../fixtures/kitchen.js';

/** The kitchen, its chefs with an attribute left out of the search (`searchable: false`, as Strapi's schemas say it). */
const chef = kitchen.contentTypes.chef as { attributes: Record<string, unknown> };
const model: TestSchemas = {
  ...kitchen,
  contentTypes: { ...kitchen.contentTypes, chef: { ...chef, attributes: { ...chef.attributes, motto: { type: 'string', searchable: false }, shoe: { type: 'integer', searchable: false } } } },
};

/** `_q`: Strapi's search over an entry's id and text attributes (number attributes too for a numeric query). */
describeEachDialect('search (_q)', (dialect) => {
  let app: TestApp;
  const names = async (query: string) => {
    const res = await app.request('GET', `/api/chefs?${query}`);
    expect(res.status, `${query}: ${JSON.stringify(res.body)}`).toBe(200);
    return res.body.data.map((c: { name: string }) => c.name).sort();
  };
  beforeAll(async () => {
    app = await startTestApp(dialect, model);
    const chefs = [
      { name: 'Sleepy Ann', email: 'ann@bed.fr', age: 61, rating: 1.14157, salary: 12.4, big: '999999999999999', bio: '**Sleeps** well', kind: 'head', secret: 'hidden-word', note: 'private-word' },
      { name: 'Tired Bo', email: 'bo@sleep.fr', age: 22, kind: 'sous', motto: 'never search me', shoe: 4242 },
      { name: 'A*b_c%d\\e+f' },
      { name: 'Zed' },
    ];
    for (const data of chefs) expect((await app.request('POST', '/api/chefs', { data })).status).toBe(201);
  });
  afterAll(async () => app?.close());

  it('finds the whole query in any text attribute, case-insensitively', async () => {
    expect(await names('_q=sleepy%20ann')).toEqual(['Sleepy Ann']);
    expect(await names('_q=SLEEP')).toEqual(['Sleepy Ann', 'Tired Bo']);
    expect(await names('_q=bed.fr')).toEqual(['Sleepy Ann']);
    expect(await names('_q=sous')).toEqual(['Tired Bo']);
    expect(await names('_q=**Sleeps**')).toEqual(['Sleepy Ann']);
    // The whole query, not each word.
    expect(await names('_q=Sleepy%20Bo')).toEqual([]);
  });

  it('a numeric query searches number attributes and the id as text too', async () => {
    expect(await names('_q=1.14157')).toEqual(['Sleepy Ann']);
    expect(await names('_q=12.4')).toEqual(['Sleepy Ann']);
    expect(await names('_q=999999999999999')).toEqual(['Sleepy Ann']);
    // Besides Bo's age, a documentId may hold "22" (documentIds are searched as text too: see below).
    const all = (await app.request('GET', '/api/chefs')).body.data as Array<{ name: string; documentId: string }>;
    const idsWith22 = all.filter((c) => c.documentId.includes('22')).map((c) => c.name);
    expect(await names('_q=22')).toEqual([...new Set(['Tired Bo', ...idsWith22])].sort());
    const zed = (await app.request('GET', '/api/chefs?filters[name]=Zed')).body.data[0];
    expect(await names(`_q=${zed.id}&filters[name][$ne]=Sleepy%20Ann`)).toContain('Zed');
  });

  it("a documentId, whole or in part, and a localized type's locale are searched too, as Strapi's search does", async () => {
    const all = (await app.request('GET', '/api/chefs')).body.data as Array<{ name: string; documentId: string }>;
    const bo = all.find((c) => c.name === 'Tired Bo')!;
    expect(await names(`_q=${bo.documentId}`)).toEqual(['Tired Bo']);
    expect(await names(`_q=${bo.documentId.slice(3, 19).toUpperCase()}`)).toEqual(['Tired Bo']);
    // Every restaurant is in the default locale, en: `_q=en` finds each, whatever its name.
    for (const name of ['Chez Zoé', 'Osteria']) {
      expect((await app.request('POST', '/api/restaurants', { data: { name } })).status).toBe(201);
    }
    const found = await app.request('GET', '/api/restaurants?_q=en&status=draft');
    expect(found.status).toBe(200);
    expect(found.body.data.map((r: { name: string }) => r.name).sort()).toEqual(['Chez Zoé', 'Osteria']);
    // No restaurant is in French: `_q=fr` finds only a documentId that happens to hold "fr".
    for (const r of (await app.request('GET', '/api/restaurants?_q=fr&status=draft')).body.data as Array<{ documentId: string }>) {
      expect(r.documentId).toContain('fr');
    }
  });

  it('LIKE wildcards in the query are plain characters', async () => {
    expect(await names(`_q=${encodeURIComponent('A*b_c%d\\e+f')}`)).toEqual(['A*b_c%d\\e+f']);
    expect(await names('_q=%25')).toEqual(['A*b_c%d\\e+f']);
    expect(await names('_q=_')).toEqual(['A*b_c%d\\e+f']);
  });

  it('attributes with searchable: false are not searched (Strapi searches only the others)', async () => {
    expect(await names('_q=never%20search')).toEqual([]);
    expect(await names('_q=4242')).toEqual([]);
    // They are still read and filtered on.
    expect(await names('filters[motto][$eq]=never%20search%20me')).toEqual(['Tired Bo']);
  });

  it('private attributes and passwords are not searched', async () => {
    expect(await names('_q=hidden-word')).toEqual([]);
    expect(await names('_q=private-word')).toEqual([]);
  });

  it('an empty query is no condition; with filters, both apply', async () => {
    expect(await names('_q=')).toHaveLength(4);
    expect(await names('_q=&filters[age][$gt]=30')).toEqual(['Sleepy Ann']);
    expect(await names('_q=sleep&filters[age][$lt]=30')).toEqual(['Tired Bo']);
    const page = await app.request('GET', '/api/chefs?_q=sleep&pagination[pageSize]=1');
    expect(page.body.meta.pagination).toMatchObject({ total: 2, pageCount: 2 });
  });

  it('a _q that is not one string is a 400', async () => {
    for (const query of ['_q[0]=a', '_q[a]=1', '_q=a&_q=b', '_q=a%00b']) {
      const res = await app.request('GET', `/api/chefs?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.error).toMatchObject({ name: 'ValidationError', details: { key: '_q', param: '_q' } });
    }
  });
});
