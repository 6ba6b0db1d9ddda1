import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../helpers/databases.js';
import { startTestApp, type TestApp, type TestSchemas } from '../helpers/app.js';

type Entry = Record<string, any>;

/**
 * `filters` and `sort` inside a component's populate, and a dynamic zone's `on` fragments, as Strapi 5 answers them
 * (its populate-filtering API tests): a single component that does not match reads null, a repeatable one keeps the
 * matching items, and `on` reads only the components it names, each through its own filters.
 */
const schemas: TestSchemas = {
  contentTypes: {
    box: {
      kind: 'collectionType',
      collectionName: 'boxes',
      info: { singularName: 'box', pluralName: 'boxes', displayName: 'box' },
      options: { draftAndPublish: false },
      attributes: {
        name: { type: 'string' },
        one: { type: 'component', component: 'default.foo' },
        many: { type: 'component', component: 'default.foo', repeatable: true },
        dz: { type: 'dynamiczone', components: ['default.foo', 'default.bar'] },
      },
    },
  },
  components: {
    'default.foo': { collectionName: 'components_default_foos', info: { displayName: 'foo' }, attributes: { number: { type: 'integer' }, field: { type: 'string' } } },
    'default.bar': { collectionName: 'components_default_bars', info: { displayName: 'bar' }, attributes: { title: { type: 'string' } } },
  },
};

const foo = (number: number, field: string) => ({ number, field });

describeEachDialect('populate: filters and sort in components, dynamic-zone fragments', (dialect) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(dialect, schemas);
    for (const data of [
      {
        name: 'a',
        one: foo(16, 'x'),
        many: [foo(3, 'c'), foo(1, 'a'), foo(2, 'b')],
        dz: [{ __component: 'default.foo', ...foo(1, 'p') }, { __component: 'default.foo', ...foo(5, 'q') }, { __component: 'default.bar', title: 'a title' }],
      },
      { name: 'b', one: foo(14, 'y'), many: [], dz: [{ __component: 'default.bar', title: 'another title' }] },
    ]) {
      const res = await app.request('POST', '/api/boxes', { data });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    }
  });
  afterAll(async () => app?.close());

  const get = async (query: string): Promise<Entry[]> => {
    const res = await app.request('GET', `/api/boxes?sort=name&${query}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data;
  };
  const strip = (items: Entry[]) => items.map(({ id: _id, ...rest }) => rest);

  it('a single component that does not match the filters reads null', async () => {
    const [a, b] = await get('populate[one][filters][number][$lt]=15');
    expect(a.one).toBeNull();
    expect(b.one).toMatchObject(foo(14, 'y'));
  });

  it('a repeatable component keeps the matching items, in stored order or by its sort', async () => {
    const [a] = await get('populate[many][filters][number][$gte]=2');
    expect(strip(a.many)).toEqual([foo(3, 'c'), foo(2, 'b')]);
    const [sorted] = await get('populate[many][sort]=number:asc');
    expect(strip(sorted.many)).toEqual([foo(1, 'a'), foo(2, 'b'), foo(3, 'c')]);
    const [both] = await get('populate[many][filters][field][$ne]=b&populate[many][sort][0]=field:desc');
    expect(strip(both.many)).toEqual([foo(3, 'c'), foo(1, 'a')]);
  });

  it('`on` reads only the components it names', async () => {
    const [a, b] = await get('populate[dz][on][default.foo]=true');
    expect(strip(a.dz)).toEqual([{ __component: 'default.foo', ...foo(1, 'p') }, { __component: 'default.foo', ...foo(5, 'q') }]);
    expect(b.dz).toEqual([]);
    const [all] = await get('populate[dz][on][default.foo]=true&populate[dz][on][default.bar]=true');
    expect(all.dz).toHaveLength(3);
  });

  it('each fragment filters its own component', async () => {
    const [a, b] = await get('populate[dz][on][default.foo][filters][number][$lt]=3&populate[dz][on][default.bar][filters][title][$contains]=another');
    expect(strip(a.dz)).toEqual([{ __component: 'default.foo', ...foo(1, 'p') }]);
    expect(strip(b.dz)).toEqual([{ __component: 'default.bar', title: 'another title' }]);
  });

  it('a filter on an attribute the component does not have is a 400 naming it', async () => {
    const res = await app.request('GET', '/api/boxes?populate[one][filters][title][$eq]=x');
    expect(res.status).toBe(400);
    // Named as at the top of the component (Strapi validates a populate's filters afresh: `Invalid key nope`, path null).
    expect(res.body.error).toMatchObject({ name: 'ValidationError', message: 'Invalid key title', details: { key: 'title', path: null, param: 'populate' } });
  });
});
