import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../helpers/databases.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { kitchen } from '../fixtures/kitchen.js';

/**
 * Filters through relations and components that a missing related entry satisfies read as the reference's LEFT
 * JOIN does: `filters[chef][$null]=true`, `filters[chef][id][$null]=true` list the entries without a chef. The
 * parser adds "has none" to the EXISTS the compiler builds; this checks the SQL on every dialect.
 */
describeEachDialect('filters a missing relation satisfies', (dialect) => {
  let app: TestApp;
  let annId = 0;
  beforeAll(async () => {
    app = await startTestApp(dialect, kitchen);
    const ann = (await app.request('POST', '/api/chefs', { data: { name: 'Ann', address: { city: 'Paris' } } })).body.data;
    await app.request('POST', '/api/chefs', { data: { name: 'Bob', address: { zip: '75001' } } });
    await app.request('POST', '/api/chefs', { data: { name: 'Cid' } });
    const pizza = (await app.request('POST', '/api/categories', { data: { name: 'Pizza' } })).body.data.documentId;
    await app.request('POST', '/api/restaurants', { data: { name: 'R1', chef: ann.documentId, categories: [pizza] } });
    await app.request('POST', '/api/restaurants', { data: { name: 'R2' } });
    annId = ann.id;
  });
  afterAll(async () => app?.close());

  const names = async (query: string, plural = 'restaurants') => {
    const res = await app.request('GET', `/api/${plural}?${query}&sort=name:asc&fields[0]=name`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data.map((e: { name: string }) => e.name);
  };

  it('to-one: $null / $notNull on the relation or on its id', async () => {
    expect(await names('filters[chef][$null]=true')).toEqual(['R2']);
    expect(await names('filters[chef][id][$null]=true')).toEqual(['R2']);
    expect(await names('filters[chef][$notNull]=true')).toEqual(['R1']);
    expect(await names('filters[chef][id][$notNull]=true')).toEqual(['R1']);
    expect(await names('filters[chef][$null]=false')).toEqual(['R1']);
    expect(await names('filters[$not][chef][id][$null]=true')).toEqual(['R1']);
  });

  it('to-one: the related id without a field', async () => {
    expect(await names(`filters[chef]=${annId}`)).toEqual(['R1']);
    expect(await names(`filters[chef][$in][0]=${annId}`)).toEqual(['R1']);
    expect(await names('filters[chef][$eq]=999999')).toEqual([]);
  });

  it('a field test a NULL row passes: entries without the relation match too', async () => {
    expect(await names('filters[chef][bio][$null]=true')).toEqual(['R1', 'R2']);
    expect(await names('filters[chef][name][$eq]=Ann')).toEqual(['R1']);
    expect(await names('filters[chef][name][$ne]=Ann')).toEqual([]);
  });

  it('to-many and components', async () => {
    expect(await names('filters[categories][id][$null]=true')).toEqual(['R2']);
    expect(await names('filters[categories][name][$notNull]=true')).toEqual(['R1']);
    expect(await names('filters[address][city][$null]=true', 'chefs')).toEqual(['Bob', 'Cid']);
    expect(await names('filters[address][id][$null]=true', 'chefs')).toEqual(['Cid']);
    expect(await names('filters[restaurants][chef][name][$null]=true', 'chefs')).toEqual(['Bob', 'Cid']);
  });

  it('$not goes into a relation as into the reference\'s join: "a related entry fails the test", never "none passes it"', async () => {
    await app.request('POST', '/api/categories', { data: { name: 'Sushi' } });
    const sushi = (await app.request('GET', '/api/categories?filters[name]=Sushi')).body.data[0].documentId;
    await app.request('POST', '/api/restaurants', { data: { name: 'R3', categories: [sushi] } });
    const pizza = (await app.request('GET', '/api/categories?filters[name]=Pizza')).body.data[0].documentId;
    await app.request('POST', '/api/restaurants', { data: { name: 'R4', categories: [pizza, sushi] } });
    // R1: Pizza; R2: none; R3: Sushi; R4: Pizza and Sushi.
    expect(await names('filters[$not][categories][name][$eq]=Pizza')).toEqual(['R3', 'R4']);
    expect(await names('filters[categories][name][$ne]=Pizza')).toEqual(['R3', 'R4']);
    // Each relation filter is its own join: some category is not Pizza and some category is not Sushi.
    expect(await names('filters[$not][$or][0][categories][name]=Pizza&filters[$not][$or][1][categories][name]=Sushi')).toEqual(['R4']);
    expect(await names('filters[$not][categories][$or][0][name]=Pizza&filters[$not][categories][$or][1][name]=Sushi')).toEqual([]);
    expect(await names('filters[$not][$not][categories][name]=Pizza')).toEqual(['R1', 'R4']);
    // A NULL row passes a negated null test: entries without categories.
    expect(await names('filters[$not][categories][id][$notNull]=true')).toEqual(['R2']);
    // To-one: an entry without a chef has no chef whose name differs.
    expect(await names('filters[$not][chef][name][$eq]=Nobody')).toEqual(['R1']);
    expect(await names('filters[$not][name][$eq]=R1&filters[$not][chef][name][$eq]=Ann')).toEqual(['R2', 'R3', 'R4']);
  });
});
