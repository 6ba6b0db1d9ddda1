import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../helpers/databases.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { kitchen } from '../fixtures/kitchen.js';

/** Filter values as Strapi 5 reads them: `$null`/`$notNull` booleans, and a list on a single-value operator. */
describeEachDialect('filter values as Strapi reads them', (dialect) => {
  let app: TestApp;
  const names = (res: { body: { data: Array<{ name: string }> } }) => res.body.data.map((c) => c.name).sort();
  const get = async (query: string) => {
    const res = await app.request('GET', `/api/chefs?${query}`);
    expect(res.status, `${query}: ${JSON.stringify(res.body)}`).toBe(200);
    return names(res);
  };
  beforeAll(async () => {
    app = await startTestApp(dialect, kitchen);
    for (const [name, age] of [['Ana', 25], ['Bo', 42], ['Cy', null], ['Di', 60]] as const) {
      expect((await app.request('POST', '/api/chefs', { data: { name, age } })).status).toBe(201);
    }
  });
  afterAll(async () => app?.close());

  it('$null and $notNull take true, t, 1 and false, f, 0 or an empty value', async () => {
    for (const value of ['true', 't', '1']) {
      expect(await get(`filters[age][$null]=${value}`), value).toEqual(['Cy']);
      expect(await get(`filters[age][$notNull]=${value}`), value).toEqual(['Ana', 'Bo', 'Di']);
    }
    for (const value of ['false', 'f', '0', '']) {
      expect(await get(`filters[age][$null]=${value}`), value).toEqual(['Ana', 'Bo', 'Di']);
      expect(await get(`filters[age][$notNull]=${value}`), value).toEqual(['Cy']);
    }
  });

  it('$null and $notNull refuse any other value (400), rather than read it as true', async () => {
    for (const value of ['anything', 'TRUE', 'False', 'yes', '2']) {
      const res = await app.request('GET', `/api/chefs?filters[age][$null]=${value}`);
      expect(res.status, value).toBe(400);
      expect(res.body.error).toMatchObject({ name: 'ValidationError', details: { key: '$null', path: 'age', param: 'filters' } });
    }
    expect((await app.request('GET', '/api/chefs?filters[age][$notNull][a]=1')).status).toBe(400);
  });

  it('a list on a single-value operator matches any of its values (OR)', async () => {
    expect(await get('filters[age][$gt][0]=50&filters[age][$gt][1]=30')).toEqual(['Bo', 'Di']);
    expect(await get('filters[age][$lt][0]=20&filters[age][$lt][1]=30')).toEqual(['Ana']);
    expect(await get('filters[age][$eq][0]=25&filters[age][$eq][1]=60')).toEqual(['Ana', 'Di']);
    expect(await get('filters[name][$startsWith][0]=A&filters[name][$startsWith][1]=D')).toEqual(['Ana', 'Di']);
    expect(await get('filters[name][$containsi][0]=AN&filters[name][$containsi][1]=zz')).toEqual(['Ana']);
    // Each value is read alone: ≠ 25 OR ≠ 42 holds for every age (not for a missing one, as SQL has it).
    expect(await get('filters[age][$ne][0]=25&filters[age][$ne][1]=42')).toEqual(['Ana', 'Bo', 'Di']);
    expect(await get('filters[age][$null][0]=true')).toEqual(['Cy']);
    // With another condition on the field: ANDed with the OR.
    expect(await get('filters[age][$gt][0]=50&filters[age][$gt][1]=30&filters[age][$lt]=50')).toEqual(['Bo']);
  });

  it('a list item is still checked as a single value (400)', async () => {
    for (const query of [
      'filters[age][$gt][0]=abc&filters[age][$gt][1]=3',
      'filters[age][$gt][0][0]=1',
      'filters[age][$gt][0][$eq]=1',
      'filters[age][$null][0]=maybe',
    ]) {
      const res = await app.request('GET', `/api/chefs?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.error.name, query).toBe('ValidationError');
    }
  });
});
