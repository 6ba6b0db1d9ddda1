import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { strapi } from '@strapi/client';
import { describeEachDialect } from '../helpers/databases.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { kitchen } from '../fixtures/kitchen.js';
import { contentStatements } from '../helpers/auth-statements.js';

type Entry = Record<string, any>;

describeEachDialect('REST query language', (dialect) => {
  let app: TestApp;
  const chefs: Record<string, string> = {};
  const categories: Record<string, string> = {};
  beforeAll(async () => {
    app = await startTestApp(dialect, kitchen);
    const people = [
      { name: 'Ann', age: 30, rating: 4.5, salary: 1000.5, big: '10', active: true, born: '1990-01-15', hiredAt: '2020-01-01T10:00:00.000Z', kind: 'head', email: 'ann@example.com', tags: ['michelin'] },
      { name: 'Bob', age: 45, rating: 3.0, salary: 2000, big: '9007199254740097', active: false, born: '1975-06-30', hiredAt: '2021-06-01T10:00:00.000Z', kind: 'sous', email: 'BOB@example.com' },
      { name: 'Chloé', age: 28, rating: null, salary: 1500, big: '-5', active: true, born: '1996-12-01', hiredAt: '2022-03-03T03:03:03.000Z', kind: 'sous', email: 'chloe@example.com', address: { city: 'Paris' } },
      { name: 'Dan_100%', age: 60, rating: 5, salary: 3000, big: '0', active: null, born: null, kind: null, email: null, address: { city: 'Lyon' } },
    ];
    for (const data of people) chefs[data.name] = (await app.request('POST', '/api/chefs', { data })).body.data.documentId;
    for (const name of ['Pizza', 'Sushi', 'Tacos']) categories[name] = (await app.request('POST', '/api/categories', { data: { name } })).body.data.documentId;
    const restaurants = [
      { name: 'R1', stars: 5, chef: chefs.Ann, categories: [categories.Pizza, categories.Sushi] },
      { name: 'R2', stars: 3, chef: chefs.Ann, categories: [categories.Tacos] },
      { name: 'R3', stars: 4, chef: chefs.Bob, categories: [categories.Pizza] },
      { name: 'R4', stars: 1, chef: chefs['Chloé'], categories: [] },
    ];
    for (const data of restaurants) await app.request('POST', '/api/restaurants', { data });
  });
  afterAll(async () => app?.close());

  const names = async (query: string, plural = 'chefs') => {
    const res = await app.request('GET', `/api/${plural}?${query}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data.map((e: Entry) => e.name);
  };

  describe('filters: every operator, cast to the attribute type', () => {
    const cases: Array<[string, string[]]> = [
      ['filters[name][$eq]=Ann', ['Ann']],
      ['filters[name]=Bob', ['Bob']],
      ['filters[name][$eqi]=ANN', ['Ann']],
      ['filters[name][$ne]=Ann', ['Bob', 'Chloé', 'Dan_100%']],
      ['filters[name][$nei]=ann', ['Bob', 'Chloé', 'Dan_100%']],
      ['filters[age][$lt]=30', ['Chloé']],
      ['filters[age][$lte]=30', ['Ann', 'Chloé']],
      ['filters[age][$gt]=45', ['Dan_100%']],
      ['filters[age][$gte]=45', ['Bob', 'Dan_100%']],
      ['filters[age][$in][0]=30&filters[age][$in][1]=60', ['Ann', 'Dan_100%']],
      ['filters[age][$notIn][0]=30&filters[age][$notIn][1]=60', ['Bob', 'Chloé']],
      ['filters[name][$contains]=n', ['Ann', 'Dan_100%']],
      ['filters[name][$notContains]=n', ['Bob', 'Chloé']],
      ['filters[name][$containsi]=N', ['Ann', 'Dan_100%']],
      ['filters[name][$notContainsi]=N', ['Bob', 'Chloé']],
      ['filters[name][$containsi]=CHLOÉ', ['Chloé']],
      ['filters[name][$contains]=%25', ['Dan_100%']],
      ['filters[name][$contains]=_', ['Dan_100%']],
      ['filters[rating][$null]=true', ['Chloé']],
      ['filters[rating][$notNull]=true', ['Ann', 'Bob', 'Dan_100%']],
      ['filters[age][$between][0]=28&filters[age][$between][1]=45', ['Ann', 'Bob', 'Chloé']],
      ['filters[name][$startsWith]=B', ['Bob']],
      ['filters[name][$startsWithi]=b', ['Bob']],
      ['filters[email][$endsWith]=example.com', ['Ann', 'Bob', 'Chloé']],
      ['filters[email][$endsWithi]=B@EXAMPLE.COM', ['Bob']],
      ['filters[rating][$eq]=4.5', ['Ann']],
      ['filters[salary][$gt]=1500', ['Bob', 'Dan_100%']],
      ['filters[big][$eq]=9007199254740097', ['Bob']],
      ['filters[active][$eq]=false', ['Bob']],
      ['filters[born][$lt]=1991-01-01', ['Ann', 'Bob']],
      ['filters[hiredAt][$gte]=2021-01-01T00:00:00.000Z', ['Bob', 'Chloé']],
      ['filters[kind][$eq]=sous', ['Bob', 'Chloé']],
      ['filters[tags][$contains]=michelin', ['Ann']],
      ['filters[$or][0][name][$eq]=Ann&filters[$or][1][age][$gt]=50', ['Ann', 'Dan_100%']],
      ['filters[$and][0][age][$gt]=20&filters[$and][1][age][$lt]=40', ['Ann', 'Chloé']],
      ['filters[$not][age][$lt]=40', ['Bob', 'Dan_100%']],
      ['filters[age][$not][$lt]=40', ['Bob', 'Dan_100%']],
      ['filters[$or][0][$and][0][age][$gt]=40&filters[$or][0][$and][1][active][$eq]=false&filters[$or][1][name][$eq]=Ann', ['Ann', 'Bob']],
      ['filters[address][city][$eq]=Paris', ['Chloé']],
      ['filters[restaurants][stars][$eq]=5', ['Ann']],
      ['filters[restaurants][categories][name][$eq]=Pizza', ['Ann', 'Bob']],
      ['filters[id][$gt]=0&filters[name][$eq]=Ann', ['Ann']],
    ];
    for (const [query, expected] of cases) {
      it(query, async () => expect(await names(`${query}&sort=name:asc`)).toEqual(expected));
    }

    it('a deep relation filter does not duplicate rows', async () => {
      // Ann has two restaurants with Pizza/Sushi and Tacos: she is listed once.
      expect(await names('filters[restaurants][stars][$gte]=1&sort=name:asc')).toEqual(['Ann', 'Bob', 'Chloé']);
      const res = await app.request('GET', '/api/chefs?filters[restaurants][stars][$gte]=1');
      expect(res.body.meta.pagination.total).toBe(3);
    });

    it('filters through a relation from the other side', async () => {
      expect(await names('filters[chef][name][$eq]=Ann&sort=name:asc', 'restaurants')).toEqual(['R1', 'R2']);
    });
  });

  describe('fields, sort, pagination, populate', () => {
    it('fields keeps id and documentId', async () => {
      const res = await app.request('GET', '/api/chefs?fields[0]=name&fields[1]=age&sort=name:asc');
      expect(Object.keys(res.body.data[0]).sort()).toEqual(['age', 'documentId', 'id', 'name']);
      const comma = await app.request('GET', '/api/chefs?fields=name,age&sort=name:asc');
      expect(comma.body.data).toEqual(res.body.data);
    });

    it('sort forms, stable ties, relation fields', async () => {
      expect(await names('sort=age:desc')).toEqual(['Dan_100%', 'Bob', 'Ann', 'Chloé']);
      expect(await names('sort[0]=active:asc&sort[1]=name:desc')).toEqual(['Dan_100%', 'Bob', 'Chloé', 'Ann']);
      expect(await names('sort[age]=asc')).toEqual(['Chloé', 'Ann', 'Bob', 'Dan_100%']);
      expect(await names('sort=chef.name:desc,name:asc', 'restaurants')).toEqual(['R4', 'R3', 'R1', 'R2']);
      expect(await names('sort[0][chef][name]=asc&sort[1]=name:desc', 'restaurants')).toEqual(['R2', 'R1', 'R3', 'R4']);
      expect(await names('sort[chef][name]=desc', 'restaurants')).toEqual(['R4', 'R3', 'R1', 'R2']);
    });

    it('pagination: page form, offset form, withCount=false, clamping, -1', async () => {
      const page = await app.request('GET', '/api/chefs?pagination[page]=2&pagination[pageSize]=3&sort=name:asc');
      expect(page.body.data.map((e: Entry) => e.name)).toEqual(['Dan_100%']);
      expect(page.body.meta.pagination).toEqual({ page: 2, pageSize: 3, pageCount: 2, total: 4 });
      const offset = await app.request('GET', '/api/chefs?pagination[start]=1&pagination[limit]=2&sort=name:asc');
      expect(offset.body.meta.pagination).toEqual({ start: 1, limit: 2, total: 4 });
      expect(offset.body.data.map((e: Entry) => e.name)).toEqual(['Bob', 'Chloé']);
      const noCount = await app.request('GET', '/api/chefs?pagination[withCount]=false');
      expect(noCount.body.meta.pagination).toEqual({ page: 1, pageSize: 25 });
      expect((await app.request('GET', '/api/chefs?pagination[pageSize]=1000')).body.meta.pagination.pageSize).toBe(100);
      expect((await app.request('GET', '/api/chefs?pagination[limit]=-1')).body.meta.pagination.limit).toBe(100);
    });

    it('populate: count, nested filters/sort/fields, to-one null, dot paths', async () => {
      const res = await app.request(
        'GET',
        '/api/chefs?sort=name:asc&fields[0]=name&populate[restaurants][count]=true',
      );
      expect(res.body.data.map((e: Entry) => e.restaurants)).toEqual([{ count: 2 }, { count: 1 }, { count: 1 }, { count: 0 }]);
      const nested = await app.request(
        'GET',
        '/api/chefs?filters[name][$eq]=Ann&populate[restaurants][fields][0]=name&populate[restaurants][sort][0]=stars:asc&populate[restaurants][filters][stars][$gte]=3&populate[restaurants][populate][categories][fields][0]=name',
      );
      const restaurants = nested.body.data[0].restaurants;
      expect(restaurants.map((r: Entry) => r.name)).toEqual(['R2', 'R1']);
      expect(restaurants[1].categories.map((c: Entry) => c.name)).toEqual(['Pizza', 'Sushi']);
      expect(Object.keys(restaurants[0]).sort()).toEqual(['categories', 'documentId', 'id', 'name']);
      const toOne = await app.request('GET', '/api/restaurants?sort=name:asc&populate=chef&fields[0]=name');
      expect(toOne.body.data.map((r: Entry) => r.chef?.name ?? null)).toEqual(['Ann', 'Ann', 'Bob', 'Chloé']);
      const star = await app.request('GET', `/api/chefs/${chefs['Chloé']}?populate=*`);
      expect(star.body.data.address).toMatchObject({ city: 'Paris' });
      expect(star.body.data.address).not.toHaveProperty('geo');
      expect(star.body.data.restaurants.map((r: Entry) => r.name)).toEqual(['R4']);
    });

    it('count on a to-one relation and a component, as Strapi 5.54 counts them (0 or 1); a filtered count', async () => {
      const res = await app.request('GET', '/api/chefs?sort=name:asc&fields[0]=name&populate[address][count]=true&populate[restaurants][count]=true');
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.data.map((c: Entry) => [c.name, c.address, c.restaurants])).toEqual([
        ['Ann', { count: 0 }, { count: 2 }],
        ['Bob', { count: 0 }, { count: 1 }],
        ['Chloé', { count: 1 }, { count: 1 }],
        ['Dan_100%', { count: 1 }, { count: 0 }],
      ]);
      const toOne = await app.request('GET', '/api/restaurants?sort=name:asc&fields[0]=name&populate[chef][count]=true');
      expect(toOne.body.data.map((r: Entry) => r.chef)).toEqual([{ count: 1 }, { count: 1 }, { count: 1 }, { count: 1 }]);
      const filtered = await app.request('GET', '/api/chefs?sort=name:asc&fields[0]=name&populate[address][count]=true&populate[address][filters][city]=Lyon');
      expect(filtered.body.data.map((c: Entry) => c.address)).toEqual([{ count: 0 }, { count: 0 }, { count: 0 }, { count: 1 }]);
    });
  });

  describe('strictness: bad parameters are 400s naming the parameter', () => {
    const cases: Array<[string, string]> = [
      ['nope=1', 'nope'],
      ['filters[nope][$eq]=1', 'nope'],
      ['filters[name][$nope]=1', '$nope'],
      ['filters[secret][$eq]=x', 'secret'],
      ['filters[note][$eq]=x', 'note'],
      ['filters[$or]=x', '$or'],
      ['filters[age][$eq]=abc', 'age'],
      ['filters[hiredAt][$gt]=not-a-date', 'hiredAt'],
      ['filters[rating][$null]=maybe', '$null'],
      ['filters[age][$between][0]=1', '$between'],
      ['fields[0]=secret', 'secret'],
      ['fields[0]=restaurants', 'restaurants'],
      ['fields[0]=address', 'address'],
      ['sort=secret:asc', 'secret'],
      ['sort=name:sideways', 'Invalid order'],
      ['sort=restaurants:asc', 'restaurants'],
      ['sort=restaurants.note:asc', 'note'],
      ['sort=name;DROP TABLE chefs', 'name;DROP TABLE chefs'],
      ['populate=nope', 'nope'],
      ['populate=name', 'name'],
      ['populate[restaurants][pagination][limit]=1', 'pagination'],
      ['populate[address][count]=maybe', 'count'],
      ['pagination[pageSize]=0', 'pageSize'],
      ['pagination[page]=-1', 'page'],
      ['pagination[pageSize]=abc', 'pageSize'],
      ['pagination[foo]=1', 'foo'],
      ['status=bogus', 'status'],
    ];
    for (const [query, key] of cases) {
      it(query, async () => {
        const res = await app.request('GET', `/api/chefs?${query}`);
        expect(res.status).toBe(400);
        expect(res.body.error.name).toBe('ValidationError');
        expect(JSON.stringify(res.body.error)).toContain(key);
      });
    }

    it('page and offset pagination mixed → 400 PaginationError', async () => {
      const res = await app.request('GET', '/api/chefs?pagination[page]=1&pagination[limit]=2');
      expect(res.status).toBe(400);
      expect(res.body.error.name).toBe('PaginationError');
    });

    it('an unknown locale on a localized type → 400; filters on a dynamic zone or media → 400', async () => {
      expect((await app.request('GET', '/api/restaurants?locale=xx')).status).toBe(400);
      expect((await app.request('GET', '/api/restaurants?filters[blocks][$notNull]=true')).status).toBe(400);
    });

    it('dates: years 1 to 9999 compare as dates; a year outside is a 400, on reads and writes', async () => {
      expect(await names('filters[born][$gt]=0001-01-01&sort=name')).toEqual(['Ann', 'Bob', 'Chloé']);
      expect(await names('filters[hiredAt][$lt]=9999-12-31T23:59:59.999Z&sort=name')).toEqual(['Ann', 'Bob', 'Chloé']);
      for (const query of [
        'filters[born][$eq]=0000-01-01',
        'filters[hiredAt][$gt]=0000-01-01T00:00:00Z',
        'filters[hiredAt][$gt]=253402300800000', // 10000-01-01 in epoch ms
        'filters[hiredAt][$lt]=9999-12-31T23:30:00-01:00', // 10000-01-01T00:30 UTC
        'filters[hiredAt][$gt]=8640000000000000',
      ]) {
        const res = await app.request('GET', `/api/chefs?${query}`);
        expect(res.status, query).toBe(400);
        expect(res.body.error.name).toBe('ValidationError');
      }
      const written = await app.request('POST', '/api/chefs', { data: { name: 'Eve', born: '0000-06-01' } });
      expect(written.status).toBe(400);
      expect(await names('filters[name][$eq]=Eve')).toEqual([]);
    });

    it('populate deeper than 10 levels is a 400, not a statement the database refuses', async () => {
      const path = (n: number) => Array.from({ length: n }, (_, i) => (i % 2 ? 'restaurants' : 'chef')).join('.');
      expect((await app.request('GET', `/api/restaurants?populate=${path(10)}&fields=name`)).status).toBe(200);
      for (const n of [11, 120]) {
        const res = await app.request('GET', `/api/restaurants?populate=${path(n)}&fields=name`);
        expect(res.status, String(n)).toBe(400);
        expect(res.body.error).toMatchObject({ name: 'ValidationError', details: { param: 'populate' } });
      }
    });

    it('values are bound, never SQL text', async () => {
      expect(await names(`filters[name][$eq]=${encodeURIComponent("' OR 1=1 --")}`)).toEqual([]);
      expect((await app.request('GET', '/api/chefs')).body.meta.pagination.total).toBe(4);
    });
  });

  describe('one SQL statement per request', () => {
    const count = async (url: string) => {
      const statements: string[] = [];
      const stop = app.cairn.db.onQuery((sql) => statements.push(sql));
      const res = await app.request('GET', url);
      stop();
      expect(res.status).toBe(200);
      // The token check reads the token tables once (either layout): count only reads of content.
      return contentStatements(statements);
    };

    it('a list with deep populate and its total: one statement', async () => {
      const url =
        '/api/chefs?filters[restaurants][categories][name][$eq]=Pizza&populate[restaurants][populate][categories]=true&populate[address][populate]=geo&sort=name:asc';
      const statements = await count(url);
      expect(statements).toHaveLength(1);
      expect(statements[0]).toMatch(/COUNT\(\*\)/);
      expect((await app.request('GET', url)).body.meta.pagination.total).toBeGreaterThan(0);
    });

    it('a page past the end has no row to carry the total: the COUNT runs on its own', async () => {
      const statements = await count('/api/chefs?pagination[page]=50&pagination[pageSize]=2');
      expect(statements).toHaveLength(2);
      const total = (await app.request('GET', '/api/chefs?pagination[pageSize]=100')).body.data.length;
      expect(total).toBeGreaterThan(0);
      const res = await app.request('GET', '/api/chefs?pagination[page]=50&pagination[pageSize]=2');
      expect(res.body).toEqual({ data: [], meta: { pagination: { page: 50, pageSize: 2, pageCount: Math.ceil(total / 2), total } } });
      const none = await app.request('GET', '/api/chefs?filters[name][$eq]=Nobody');
      expect(none.body.meta.pagination).toEqual({ page: 1, pageSize: 25, pageCount: 0, total: 0 });
    });

    it('the total counts every matching row, not the page: filters through relations, offset pagination', async () => {
      const all = (await app.request('GET', '/api/chefs?pagination[pageSize]=100')).body.data.length;
      const res = await app.request('GET', '/api/chefs?pagination[start]=1&pagination[limit]=1');
      expect(res.body.data).toHaveLength(1);
      expect(res.body.meta.pagination).toEqual({ start: 1, limit: 1, total: all });
      const pizza = await app.request('GET', '/api/chefs?filters[restaurants][categories][name][$eq]=Pizza&pagination[pageSize]=1');
      const pizzaAll = await app.request('GET', '/api/chefs?filters[restaurants][categories][name][$eq]=Pizza&pagination[pageSize]=100');
      expect(pizza.body.meta.pagination.total).toBe(pizzaAll.body.data.length);
    });

    it('withCount=false: one statement; findOne: one statement', async () => {
      expect(await count('/api/restaurants?populate=*&pagination[withCount]=false')).toHaveLength(1);
      expect(await count(`/api/chefs/${chefs.Ann}?populate[restaurants][populate]=*`)).toHaveLength(1);
    });
  });

  describe('@strapi/client, unchanged', () => {
    it('drives filters, populate, fields, sort and pagination through the official client', async () => {
      const address = await app.cairn.fastify.listen({ port: 0, host: '127.0.0.1' });
      const client = strapi({ baseURL: `${address}/api`, auth: app.token });
      const result = await client.collection('restaurants').find({
        filters: { stars: { $gte: 3 }, chef: { name: { $startsWith: 'A' } } },
        populate: { chef: { fields: ['name'] }, categories: { fields: ['name'], sort: ['name:desc'] } },
        fields: ['name', 'stars'],
        sort: ['stars:desc'],
        pagination: { page: 1, pageSize: 10 },
      });
      expect(result.data.map((r: Entry) => r.name)).toEqual(['R1', 'R2']);
      expect(result.data[0].chef.name).toBe('Ann');
      expect(result.data[0].categories.map((c: Entry) => c.name)).toEqual(['Sushi', 'Pizza']);
      expect(result.meta.pagination).toEqual({ page: 1, pageSize: 10, pageCount: 1, total: 2 });
      const one = await client.collection('chefs').findOne(chefs.Bob, { populate: ['restaurants'] });
      expect(one.data.restaurants.map((r: Entry) => r.name)).toEqual(['R3']);
      const created = await client.collection('categories').create({ name: 'Ramen' });
      expect(created.data.name).toBe('Ramen');
    });
  });
});
