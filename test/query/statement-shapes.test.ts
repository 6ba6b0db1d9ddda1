import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../helpers/databases.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { kitchen } from '../fixtures/kitchen.js';
import { ReadStatements, readStatements } from '../../src/database/sql/index.js';

/**
 * Compiled read statements are cached per query shape: requests that differ only in their values share one
 * statement (and the driver's prepared statement) and still answer with their own values' rows; whatever
 * changes the SQL text (the number of `$in` values, `$null` true/false, the page) is another shape.
 */
describeEachDialect('compiled statements per query shape', (dialect) => {
  let app: TestApp;
  const ids: Record<string, string> = {};
  beforeAll(async () => {
    app = await startTestApp(dialect, kitchen);
    const chefs = [
      { name: 'Ann', age: 30, active: true, hiredAt: '2020-01-01T10:00:00.000Z', bio: 'Pasta 100%' },
      { name: 'Bob', age: 40, active: false, hiredAt: '2021-06-01T10:00:00.000Z', bio: 'Pizza_oven' },
      { name: 'Cid', age: 50, active: true, hiredAt: '2022-03-01T10:00:00.000Z' },
    ];
    for (const data of chefs) ids[data.name] = (await app.request('POST', '/api/chefs', { data })).body.data.documentId;
    await app.request('POST', '/api/restaurants', { data: { name: 'R1', chef: ids.Ann } });
    await app.request('POST', '/api/restaurants', { data: { name: 'R2', chef: ids.Bob } });
  });
  afterAll(async () => app?.close());

  const statements = () => readStatements(app.cairn.model, dialect);
  const names = async (query: string, plural = 'chefs') => {
    const res = await app.request('GET', `/api/${plural}?${query}&sort=name:asc&fields[0]=name`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data.map((e: { name: string }) => e.name);
  };
  /** Runs the requests and returns how many statements they compiled. */
  const compiledBy = async (run: () => Promise<void>) => {
    const before = statements().compilations;
    await run();
    return statements().compilations - before;
  };

  it('values of every kind are bound: one compilation, each request its own rows', async () => {
    const pairs: Array<[string, string[], string, string[]]> = [
      ['filters[name][$eq]=Ann', ['Ann'], 'filters[name][$eq]=Bob', ['Bob']],
      ['filters[age][$gte]=40', ['Bob', 'Cid'], 'filters[age][$gte]=50', ['Cid']],
      ['filters[active][$eq]=true', ['Ann', 'Cid'], 'filters[active][$eq]=false', ['Bob']],
      ['filters[hiredAt][$gt]=2021-01-01T00:00:00.000Z', ['Bob', 'Cid'], 'filters[hiredAt][$gt]=2022-01-01T00:00:00.000Z', ['Cid']],
      // LIKE patterns are made from the value at run time, with %, _ and ! still literal.
      ['filters[bio][$contains]=100%', ['Ann'], 'filters[bio][$contains]=a_o', ['Bob']],
      ['filters[name][$containsi]=an', ['Ann'], 'filters[name][$containsi]=OB', ['Bob']],
      ['filters[name][$endsWith]=nn', ['Ann'], 'filters[name][$endsWith]=id', ['Cid']],
      ['filters[name][$in][0]=Ann&filters[name][$in][1]=Bob', ['Ann', 'Bob'], 'filters[name][$in][0]=Cid&filters[name][$in][1]=Bob', ['Bob', 'Cid']],
      ['filters[age][$between][0]=25&filters[age][$between][1]=35', ['Ann'], 'filters[age][$between][0]=35&filters[age][$between][1]=55', ['Bob', 'Cid']],
      ['filters[restaurants][name][$eq]=R1', ['Ann'], 'filters[restaurants][name][$eq]=R2', ['Bob']],
      ['filters[$or][0][name]=Ann&filters[$or][1][age]=50', ['Ann', 'Cid'], 'filters[$or][0][name]=Bob&filters[$or][1][age]=30', ['Ann', 'Bob']],
    ];
    for (const [first, firstNames, second, secondNames] of pairs) {
      const compiled = await compiledBy(async () => {
        expect(await names(first), first).toEqual(firstNames);
        expect(await names(second), second).toEqual(secondNames);
      });
      expect(compiled, `${first} / ${second}`).toBe(1);
    }
  });

  it('filters inside populate are bound too', async () => {
    const populated = async (chef: string) => {
      const res = await app.request('GET', `/api/restaurants?fields[0]=name&sort=name:asc&populate[chef][fields][0]=name&populate[chef][filters][name][$eq]=${chef}`);
      expect(res.status).toBe(200);
      return res.body.data.map((e: { name: string; chef: { name: string } | null }) => [e.name, e.chef?.name ?? null]);
    };
    const compiled = await compiledBy(async () => {
      expect(await populated('Ann')).toEqual([['R1', 'Ann'], ['R2', null]]);
      expect(await populated('Bob')).toEqual([['R1', null], ['R2', 'Bob']]);
    });
    expect(compiled).toBe(1);
  });

  it('one document: the documentId is bound', async () => {
    const compiled = await compiledBy(async () => {
      for (const name of ['Ann', 'Bob', 'Cid']) {
        const res = await app.request('GET', `/api/chefs/${ids[name]}?fields[0]=name`);
        expect(res.body.data.name).toBe(name);
      }
      expect((await app.request('GET', '/api/chefs/nosuchdocument00000000000?fields[0]=name')).status).toBe(404);
    });
    expect(compiled).toBe(1);
  });

  it('what changes the SQL text is another shape', async () => {
    const shapes: Array<[string, string[], string, string[]]> = [
      ['filters[age][$in][0]=30&filters[age][$in][1]=40', ['Ann', 'Bob'], 'filters[age][$in][0]=30&filters[age][$in][1]=40&filters[age][$in][2]=50', ['Ann', 'Bob', 'Cid']],
      ['filters[bio][$null]=true', ['Cid'], 'filters[bio][$null]=false', ['Ann', 'Bob']],
      ['filters[name][$eq]=Ann&pagination[page]=1&pagination[pageSize]=1', ['Ann'], 'filters[name][$eq]=Ann&pagination[page]=2&pagination[pageSize]=1', []],
      ['filters[age][$lt]=35', ['Ann'], 'filters[age][$gt]=35', ['Bob', 'Cid']],
    ];
    for (const [first, firstNames, second, secondNames] of shapes) {
      const compiled = await compiledBy(async () => {
        expect(await names(first), first).toEqual(firstNames);
        expect(await names(second), second).toEqual(secondNames);
      });
      expect(compiled, `${first} / ${second}`).toBe(2);
    }
  });

  it('bad values are still a precise 400, before anything is compiled', async () => {
    const compiled = await compiledBy(async () => {
      for (const query of ['filters[age][$eq]=old', 'filters[hiredAt][$gt]=yesterday', 'filters[active][$eq]=maybe', 'filters[age][$in][0]=1&filters[age][$in][1]=x']) {
        const res = await app.request('GET', `/api/chefs?${query}`);
        expect(res.status, query).toBe(400);
        expect(res.body.error.name).toBe('ValidationError');
      }
    });
    expect(compiled).toBe(0);
  });

  it('the cache is bounded: the least recently used shape goes first', () => {
    const chefs = app.cairn.documents('api::chef.chef');
    const cache = new ReadStatements(app.cairn.model, dialect, 4);
    const chef = app.cairn.model.contentTypes.get('api::chef.chef')!;
    // A new spec object each time: a spec object remembers its own statements (see the next test).
    const a = () => chefs.spec({ filters: { name: { $eq: 'Ann' } } });
    const b = () => chefs.spec({ filters: { age: { $eq: 30 } } });
    const c = () => chefs.spec({ filters: { bio: { $eq: 'x' } } });
    const d = () => chefs.spec({ filters: { email: { $eq: 'x@y.z' } } });
    for (const spec of [a(), b(), a(), c(), a(), d()]) cache.list(chef, spec);
    expect(cache.compilations).toBe(4);
    expect(cache.size).toBeLessThanOrEqual(4);
    cache.list(chef, b()); // b's shape was the least recently used: it went when d came
    expect(cache.compilations).toBe(5);
    cache.list(chef, a()); // a's shape was used recently: still cached
    expect(cache.compilations).toBe(5);
  });

  it('a spec object keeps its statements, whatever the cache evicted since', () => {
    const chefs = app.cairn.documents('api::chef.chef');
    const cache = new ReadStatements(app.cairn.model, dialect, 2);
    const chef = app.cairn.model.contentTypes.get('api::chef.chef')!;
    const kept = chefs.spec({ filters: { name: { $eq: 'Ann' } } });
    const first = cache.list(chef, kept);
    for (const filters of [{ age: { $gt: 1 } }, { bio: { $null: true } }, { email: { $eq: 'x@y.z' } }]) cache.list(chef, chefs.spec({ filters }));
    const before = cache.compilations;
    expect(cache.list(chef, kept)).toEqual(first);
    expect(cache.compilations).toBe(before);
  });
});
