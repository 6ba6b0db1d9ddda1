import { describe, expect, it } from 'vitest';
import { COMPARISON_OPERATORS, type Filter } from '../../src/query/index.js';
import { errorOf, labModel, read } from './model.js';

const model = labModel();
const SAMPLE = 'api::sample.sample';
const filters = (query: string, uid = SAMPLE) => read(model, uid, query).filters;
const fail = (query: string, uid = SAMPLE) => errorOf(() => read(model, uid, query));
const col = (name: string, column: string, type: string) => ({ name, column, type });
const cmp = (field: ReturnType<typeof col>, operator: string, value: unknown): Filter => ({ kind: 'compare', field, operator, value }) as Filter;

const TITLE = col('title', 'title', 'string');
const COUNT = col('count', 'count', 'integer');
const ID = col('id', 'id', 'id');

describe('filters: operators', () => {
  it('every comparison operator on a string', () => {
    const scalar = COMPARISON_OPERATORS.filter((op) => !['$in', '$notIn', '$between', '$null', '$notNull'].includes(op));
    for (const op of scalar) expect(filters(`filters[title][${op}]=Ab`), op).toEqual(cmp(TITLE, op, 'Ab'));
    expect(filters('filters[title][$in][0]=a&filters[title][$in][1]=b')).toEqual(cmp(TITLE, '$in', ['a', 'b']));
    expect(filters('filters[title][$notIn][0]=a')).toEqual(cmp(TITLE, '$notIn', ['a']));
    expect(filters('filters[title][$between][0]=a&filters[title][$between][1]=m')).toEqual(cmp(TITLE, '$between', ['a', 'm']));
    expect(filters('filters[title][$null]=true')).toEqual(cmp(TITLE, '$null', true));
    expect(filters('filters[title][$notNull]=false')).toEqual(cmp(TITLE, '$notNull', false));
  });

  it('a field without an operator is $eq; a list is $in; several operators are ANDed', () => {
    expect(filters('filters[title]=x')).toEqual(cmp(TITLE, '$eq', 'x'));
    expect(filters('filters[title]=x&filters[title]=y')).toEqual(cmp(TITLE, '$in', ['x', 'y']));
    expect(filters('filters[count][$gt]=1&filters[count][$lt]=5')).toEqual({
      kind: 'and',
      items: [cmp(COUNT, '$gt', 1), cmp(COUNT, '$lt', 5)],
    });
  });

  it('$in and $notIn take a single value as a list of one (as the reference)', () => {
    expect(filters('filters[count][$in]=5')).toEqual(cmp(COUNT, '$in', [5]));
  });

  it('$between takes exactly two values; $null/$notNull a boolean', () => {
    expect(fail('filters[count][$between][0]=1')).toMatchObject({ status: 400, name: 'ValidationError', details: { key: '$between', path: 'count' } });
    expect(fail('filters[count][$between][0]=1&filters[count][$between][1]=2&filters[count][$between][2]=3').status).toBe(400);
    expect(fail('filters[count][$between]=1').status).toBe(400);
    expect(fail('filters[count][$null]=maybe')).toMatchObject({ details: { key: '$null', path: 'count', param: 'filters' } });
    expect(filters('filters[count][$null]=1')).toEqual(cmp(COUNT, '$null', true));
  });

  it('single-value operators read a list as any of its values (OR, as Strapi); they refuse objects and nested lists', () => {
    expect(filters('filters[title][$eq][0]=a&filters[title][$eq][1]=b')).toEqual({ kind: 'or', items: [cmp(TITLE, '$eq', 'a'), cmp(TITLE, '$eq', 'b')] });
    expect(filters('filters[title][$eq][0]=a')).toEqual(cmp(TITLE, '$eq', 'a'));
    expect(fail('filters[title][$eq][0][0]=a')).toMatchObject({ status: 400, details: { key: '$eq', path: 'title' } });
    expect(fail('filters[count][$gt][0]=1&filters[count][$gt][1]=x')).toMatchObject({ status: 400, details: { path: 'count' } });
    expect(fail('filters[title][$eq][$eq]=a')).toMatchObject({ status: 400, details: { key: '$eq', path: 'title' } });
    expect(fail('filters[title][$contains][a]=1').status).toBe(400);
  });

  it('unknown operator: the reference message and details', () => {
    expect(fail('filters[title][$nope]=1')).toEqual({
      status: 400,
      name: 'ValidationError',
      message: 'Invalid key $nope at title',
      details: { key: '$nope', path: 'title', source: 'query', param: 'filters' },
    });
    expect(fail('filters[title][$like]=1').message).toBe('Invalid key $like at title');
    expect(fail('filters[$eq]=1').message).toBe('Invalid key $eq');
  });

  it('an unknown operator under $not is a 400', () => {
    expect(fail('filters[title][$not][$nope]=1').status).toBe(400);
  });

  it('NUL in a value is a 400 (no database stores it)', () => {
    expect(fail('filters[title][$eq]=a%00b').status).toBe(400);
    expect(fail('filters[title][$in][0]=ok&filters[title][$in][1]=%00').status).toBe(400);
  });

  it('text operators on numbers compare text; json takes only text search and null tests', () => {
    expect(filters('filters[count][$contains]=12')).toEqual(cmp(COUNT, '$contains', '12'));
    const META = col('meta', 'meta', 'json');
    expect(filters('filters[meta][$contains]=michelin')).toEqual(cmp(META, '$contains', 'michelin'));
    expect(filters('filters[meta][$notNull]=true')).toEqual(cmp(META, '$notNull', true));
    for (const op of ['$eq', '$in', '$lt', '$between', '$startsWith']) {
      expect(fail(`filters[meta][${op}]=x`), op).toMatchObject({ message: `Invalid key ${op} at meta` });
    }
    expect(fail('filters[doc][$eq]=x').status).toBe(400);
  });
});

describe('filters: casting to the column type', () => {
  const value = (query: string) => (filters(query) as { value: unknown }).value;
  const cases: Array<[string, unknown]> = [
    ['filters[count][$eq]=42', 42],
    ['filters[count][$eq]=-7', -7],
    ['filters[id][$eq]=3', 3],
    ['filters[ratio][$eq]=4.5', 4.5],
    ['filters[ratio][$eq]=-1e3', -1000],
    ['filters[price][$gt]=.5', 0.5],
    ['filters[big][$eq]=9007199254740097', '9007199254740097'],
    ['filters[big][$eq]=-0042', '-42'],
    ['filters[flag][$eq]=true', true],
    ['filters[flag][$eq]=0', false],
    ['filters[flag][$eq]=t', true],
    ['filters[flag][$eq]=f', false],
    ['filters[day][$eq]=2024-02-29', '2024-02-29'],
    ['filters[day][$gte]=2024-01-01T23:30:00-02:00', '2024-01-02'],
    ['filters[at][$eq]=09:30', '09:30:00.000'],
    ['filters[at][$eq]=09:30:15.5', '09:30:15.500'],
    ['filters[moment][$lt]=2019-03-01T00:00:00.000Z', '2019-03-01T00:00:00.000Z'],
    ['filters[moment][$lt]=2019-03-01', '2019-03-01T00:00:00.000Z'],
    ['filters[moment][$lt]=2019-03-01T10:00%2B02:00', '2019-03-01T08:00:00.000Z'],
    ['filters[moment][$lt]=2019-03-01 10:00:00', '2019-03-01T10:00:00.000Z'],
    ['filters[moment][$lt]=2019', '2019-01-01T00:00:00.000Z'],
    ['filters[moment][$lt]=1700000000000', '2023-11-14T22:13:20.000Z'],
    ['filters[stamp][$gt]=2020-01-01T00:00:00.123456Z', '2020-01-01T00:00:00.123Z'],
    ['filters[createdAt][$gte]=2026-01-01', '2026-01-01T00:00:00.000Z'],
    ['filters[kind][$eq]=a', 'a'],
    ['filters[mail][$eq]=A@B.C', 'A@B.C'],
    ['filters[documentId][$eq]=abc', 'abc'],
    ['filters[title][$eq]=%20padded%20', ' padded '],
  ];
  for (const [query, expected] of cases) it(query, () => expect(value(query)).toEqual(expected));

  const bad: Array<[string, string]> = [
    ['filters[count][$eq]=abc', 'count'],
    ['filters[count][$eq]=1.5', 'count'],
    ['filters[count][$eq]=99999999999', 'count'],
    ['filters[id][$eq]=abc', 'id'],
    ['filters[id][$in][0]=1&filters[id][$in][1]=x', 'id'],
    ['filters[ratio][$eq]=0x10', 'ratio'],
    ['filters[ratio][$eq]=Infinity', 'ratio'],
    ['filters[price][$eq]=', 'price'],
    ['filters[big][$eq]=1.0', 'big'],
    ['filters[big][$eq]=99999999999999999999', 'big'],
    ['filters[flag][$eq]=yes', 'flag'],
    ['filters[flag][$eq]=T', 'flag'],
    ['filters[day][$eq]=2023-02-29', 'day'],
    ['filters[day][$eq]=tomorrow', 'day'],
    ['filters[at][$eq]=25:00', 'at'],
    ['filters[moment][$gt]=not-a-date', 'moment'],
    ['filters[moment][$gt]=2024-13-01', 'moment'],
    ['filters[moment][$gt]=2024-01-01T24:00', 'moment'],
    ['filters[updatedAt][$gt]=yesterday', 'updatedAt'],
    // `T` and `Z` in capitals only, as Strapi 5.54 reads them (date-fns parseISO).
    ['filters[updatedAt][$lte]=2022-06-15t12:00:00z', 'updatedAt'],
    ['filters[moment][$in][0]=2022-06-15t12:00:00Z', 'moment'],
    ['filters[moment][$gt]=2022-06-15T12:00:00z', 'moment'],
    // Years outside 1-9999: no database stores them, and as ISO text they would compare wrongly.
    ['filters[day][$eq]=0000-01-01', 'day'],
    ['filters[moment][$gt]=0000-12-31T23:59:59Z', 'moment'],
    ['filters[moment][$gt]=0001-01-01T00:30:00+01:00', 'moment'],
    ['filters[moment][$gt]=253402300800000', 'moment'],
    ['filters[moment][$gt]=-62135596800001', 'moment'],
  ];
  for (const [query, key] of bad) {
    it(`${query} → 400`, () => expect(fail(query)).toMatchObject({ status: 400, name: 'ValidationError', details: { key, source: 'query', param: 'filters' } }));
  }

  it('the first and last days of years 1 and 9999 are dates', () => {
    expect(filters('filters[day][$eq]=0001-01-01')).toMatchObject({ value: '0001-01-01' });
    expect(filters('filters[moment][$lt]=9999-12-31T23:59:59.999Z')).toMatchObject({ value: '9999-12-31T23:59:59.999Z' });
    expect(filters('filters[moment][$gt]=-62135596800000')).toMatchObject({ value: '0001-01-01T00:00:00.000Z' });
  });

  it('an invalid datetime has the reference message', () => {
    expect(fail('filters[moment][$gt]=not-a-date').message).toBe('Invalid format, expected a timestamp or an ISO date');
  });
});

describe('filters: logic', () => {
  it('$or, $and, $not at the top and nested; $not on a field', () => {
    expect(filters('filters[$or][0][count][$eq]=5&filters[$or][1][title][$eq]=x')).toEqual({
      kind: 'or',
      items: [cmp(COUNT, '$eq', 5), cmp(TITLE, '$eq', 'x')],
    });
    expect(filters('filters[$not][count][$lte]=4')).toEqual({ kind: 'not', item: cmp(COUNT, '$lte', 4) });
    expect(filters('filters[count][$not][$lte]=4')).toEqual({ kind: 'not', item: cmp(COUNT, '$lte', 4) });
    expect(filters('filters[$or][0][$and][0][count][$eq]=5&filters[$or][0][$and][1][flag][$eq]=true&filters[$or][1][price][$lt]=6')).toEqual({
      kind: 'or',
      items: [
        { kind: 'and', items: [cmp(COUNT, '$eq', 5), cmp(col('flag', 'flag', 'boolean'), '$eq', true)] },
        cmp(col('price', 'price', 'decimal'), '$lt', 6),
      ],
    });
    // $not goes down to the conditions on fields (De Morgan), as the reference negates each joined row.
    expect(filters('filters[$not][$or][0][count]=1&filters[$not][$or][1][count]=2')).toEqual({
      kind: 'and',
      items: [{ kind: 'not', item: cmp(COUNT, '$eq', 1) }, { kind: 'not', item: cmp(COUNT, '$eq', 2) }],
    });
    expect(filters('filters[$not][count]=1&filters[$not][title]=x')).toEqual({
      kind: 'or',
      items: [{ kind: 'not', item: cmp(COUNT, '$eq', 1) }, { kind: 'not', item: cmp(TITLE, '$eq', 'x') }],
    });
    expect(filters('filters[$not][$not][count]=1')).toEqual(cmp(COUNT, '$eq', 1));
  });

  it('field-level $or/$and of conditions', () => {
    expect(filters('filters[count][$or][0][$lt]=1&filters[count][$or][1][$gt]=9')).toEqual({
      kind: 'or',
      items: [cmp(COUNT, '$lt', 1), cmp(COUNT, '$gt', 9)],
    });
  });

  it('a list of filters (as code or qs may give) is an AND', () => {
    expect(filters('filters[0][count]=1&filters[1][title]=x')).toEqual({ kind: 'and', items: [cmp(COUNT, '$eq', 1), cmp(TITLE, '$eq', 'x')] });
  });

  it('malformed logic is a 400, never a 500', () => {
    expect(fail('filters[$or]=x')).toMatchObject({ status: 400, name: 'ValidationError', details: { key: '$or' } });
    expect(fail('filters[$and]=1').status).toBe(400);
    expect(fail('filters[$or][0]=x').status).toBe(400);
    expect(fail('filters[$not]=1')).toMatchObject({ status: 400, details: { key: '$not' } });
    expect(fail('filters[count][$or]=1').status).toBe(400);
    expect(fail('filters=1').status).toBe(400);
  });

  it('`filters=` and an empty object are no filter', () => {
    expect(filters('filters=')).toBeUndefined();
    expect(filters('')).toBeUndefined();
  });
});

describe('filters: relations, components, system fields', () => {
  it('through relations at any depth', () => {
    expect(filters('filters[owner][team][label][$eq]=Red')).toEqual({
      kind: 'relation',
      attribute: 'owner',
      filter: { kind: 'relation', attribute: 'team', filter: cmp(col('label', 'label', 'string'), '$eq', 'Red') },
    });
    expect(filters('filters[owner][samples][owner][name]=Ann')).toMatchObject({
      kind: 'relation',
      filter: { kind: 'relation', attribute: 'samples', filter: { kind: 'relation', attribute: 'owner' } },
    });
  });

  it('through a relation, an operator without a field compares the related id (as the reference)', () => {
    expect(filters('filters[owner]=3')).toEqual({ kind: 'relation', attribute: 'owner', filter: cmp(ID, '$eq', 3) });
    expect(filters('filters[owner][$in][0]=3&filters[owner][$in][1]=4')).toEqual({ kind: 'relation', attribute: 'owner', filter: cmp(ID, '$in', [3, 4]) });
    expect(fail('filters[owner][$eq]=abc')).toMatchObject({ status: 400, details: { key: 'id', path: 'owner' } });
  });

  it('a relation filter a missing related entry satisfies also matches entries without one (LEFT JOIN semantics)', () => {
    const none = { kind: 'not', item: { kind: 'relation', attribute: 'owner', filter: { kind: 'and', items: [] } } };
    expect(filters('filters[owner][$null]=true')).toEqual(none);
    expect(filters('filters[owner][id][$null]=true')).toEqual(none);
    expect(filters('filters[owner][id][$notNull]=true')).toEqual({ kind: 'relation', attribute: 'owner', filter: cmp(ID, '$notNull', true) });
    expect(filters('filters[owner][name][$null]=true')).toEqual({
      kind: 'or',
      items: [{ kind: 'relation', attribute: 'owner', filter: cmp(col('name', 'name', 'string'), '$null', true) }, none],
    });
    // Unknown on a NULL row: no change.
    expect(filters('filters[owner][name][$ne]=Ann')).toEqual({ kind: 'relation', attribute: 'owner', filter: cmp(col('name', 'name', 'string'), '$ne', 'Ann') });
    expect(filters('filters[owner][$not][name][$eq]=Ann')).toMatchObject({ kind: 'relation' });
  });

  it('through components, repeatable ones and nested ones', () => {
    expect(filters('filters[points][x][$gt]=1')).toEqual({ kind: 'component', attribute: 'points', filter: cmp(col('x', 'x', 'float'), '$gt', 1) });
    expect(filters('filters[points][id][$eq]=2')).toEqual({ kind: 'component', attribute: 'points', filter: cmp(ID, '$eq', 2) });
    expect(fail('filters[points][$eq]=1')).toMatchObject({ message: 'Invalid key $eq at points' });
    expect(fail('filters[points]=1').status).toBe(400);
    expect(fail('filters[points][documentId]=1')).toMatchObject({ message: 'Invalid key documentId at points' });
  });

  it('system fields: id, documentId, timestamps, and locale on localized types only', () => {
    for (const name of ['id', 'documentId', 'createdAt', 'updatedAt', 'publishedAt']) {
      expect(() => filters(`filters[${name}][$notNull]=true`), name).not.toThrow();
    }
    expect(fail('filters[locale][$eq]=en').message).toBe('Invalid key locale');
  });

  it('unknown, private, password and createdBy read the same: Invalid key at the parent path', () => {
    for (const key of ['nope', 'hidden', 'secret', 'createdBy', 'updatedBy', 'spy']) {
      expect(fail(`filters[${key}][$eq]=1`), key).toEqual({
        status: 400,
        name: 'ValidationError',
        message: `Invalid key ${key}`,
        details: { key, path: null, source: 'query', param: 'filters' },
      });
    }
    expect(fail('filters[owner][nope][$eq]=1')).toEqual({
      status: 400,
      name: 'ValidationError',
      message: 'Invalid key nope at owner',
      details: { key: 'nope', path: 'owner', source: 'query', param: 'filters' },
    });
  });

  it('dynamic zones are not filterable (the reference: Invalid key blocks)', () => {
    expect(fail('filters[zone][$notNull]=true')).toEqual({
      status: 400,
      name: 'ValidationError',
      message: 'Invalid key zone',
      details: { key: 'zone', path: 'zone', source: 'query', param: 'filters' },
    });
  });

  it('media, single and multiple, filter through the file as a relation does (as the reference)', () => {
    const NAME = col('name', 'name', 'string');
    expect(filters('filters[cover][id][$notNull]=true')).toEqual({ kind: 'relation', attribute: 'cover', filter: cmp(ID, '$notNull', true) });
    expect(filters('filters[cover]=3')).toEqual({ kind: 'relation', attribute: 'cover', filter: cmp(ID, '$eq', 3) });
    expect(filters('filters[gallery][name][$eq]=a.png')).toEqual({ kind: 'relation', attribute: 'gallery', filter: cmp(NAME, '$eq', 'a.png') });
    expect(filters('filters[gallery][mime][$startsWith]=image')).toEqual({ kind: 'relation', attribute: 'gallery', filter: cmp(col('mime', 'mime', 'string'), '$startsWith', 'image') });
    expect(filters('filters[cover][$null]=true')).toEqual({ kind: 'not', item: { kind: 'relation', attribute: 'cover', filter: { kind: 'and', items: [] } } });
    expect(filters('filters[cover][width][$gt]=10')).toEqual({ kind: 'relation', attribute: 'cover', filter: cmp(col('width', 'width', 'integer'), '$gt', 10) });
    expect(fail('filters[cover][width][$gt]=wide')).toMatchObject({ status: 400, details: { key: 'width', path: 'cover.width' } });
    // What the reference refuses on a file: unknown keys, the private folderPath, its folder and related relations.
    for (const key of ['nope', 'folderPath', 'folder', 'related']) {
      expect(fail(`filters[cover][${key}][$eq]=1`), key).toEqual({
        status: 400,
        name: 'ValidationError',
        message: `Invalid key ${key} at cover`,
        details: { key, path: 'cover', source: 'query', param: 'filters' },
      });
    }
  });

  it('media when the caller may not find files reads like an unknown key (as populate hides them)', () => {
    const canFind = (uid: string) => uid !== 'plugin::upload.file';
    expect(errorOf(() => read(model, SAMPLE, 'filters[cover][id][$notNull]=true', { canFind }))).toMatchObject({ message: 'Invalid key cover' });
  });

  it('a relation to a type the caller may not find reads like an unknown key', () => {
    const canFind = (uid: string) => uid !== 'api::person.person';
    expect(errorOf(() => read(model, SAMPLE, 'filters[owner][name][$eq]=Ann', { canFind }))).toMatchObject({ message: 'Invalid key owner' });
    expect(() => read(model, SAMPLE, 'filters[title][$eq]=Ann', { canFind })).not.toThrow();
  });
});
