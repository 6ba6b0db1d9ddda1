import { beforeAll, describe, expect, it } from 'vitest';
import type { Model } from '../../src/model/types.js';
import { parseDocumentParams, parseQueryString, parseReadParams, QS_LIMITS, QueryStringParser } from '../../src/query/index.js';
import { conformanceModel, errorOf, labModel, OPTIONS, read } from './model.js';

/** With Strapi's default limits (no config/middlewares). */
const parse = (raw: string) => parseQueryString(raw, QS_LIMITS);

describe('parseQueryString: qs with limits, strict keys', () => {
  it('parses bracket notation, lists and repeated keys', () => {
    expect(parse('filters[chef][name][$eq]=Ann&sort[0]=a&sort[1]=b&fields=a&fields=b')).toEqual({
      filters: { chef: { name: { $eq: 'Ann' } } },
      sort: ['a', 'b'],
      fields: ['a', 'b'],
    });
    expect(parse('?populate=*')).toEqual({ populate: '*' });
    expect(parse('')).toEqual({});
    expect(parse('filters[name][$eq]=a+b%20c%25')).toEqual({ filters: { name: { $eq: 'a b c%' } } });
    expect(parse('filters%5Bname%5D=x')).toEqual({ filters: { name: 'x' } });
    expect(parse('filters[a.b]=x')).toEqual({ filters: { 'a.b': 'x' } });
  });

  it('allows a populate tree ten levels deep', () => {
    const key = `populate${'[a][populate]'.repeat(9)}[a]`;
    expect(() => parse(`${key}=true`)).not.toThrow();
  });

  const refused: Array<[string, string]> = [
    [`filters${'[a]'.repeat(21)}=1`, 'depth'],
    ['a[101]=1', 'array limit'],
    [Array.from({ length: 101 }, () => 'a[]=1').join('&'), 'array limit'],
    [Array.from({ length: 1001 }, (_, i) => `p${i}=1`).join('&'), 'parameter limit'],
    ['filters[title]][$eq]=x', 'stray ]'],
    ['filters[title=x', 'unclosed ['],
    ['filters[a]b=x', 'text after ]'],
    ['[filters]=x', 'leading ['],
    ['filters[[a]]=x', 'nested ['],
    ['=x', 'empty name'],
    ['filters[__proto__][name]=x', '__proto__'],
    ['filters[constructor][prototype]=1', 'constructor'],
    ['toString=1', 'toString'],
    ['populate[hasOwnProperty]=true', 'hasOwnProperty'],
  ];
  for (const [query, why] of refused) {
    it(`${why} → 400 ValidationError`, () => {
      expect(errorOf(() => parse(query))).toMatchObject({ status: 400, name: 'ValidationError', details: { source: 'query' } });
    });
  }
});

describe("an app's query-string limits (config/middlewares' strapi::query)", () => {
  const populate = (count: number) => Array.from({ length: count }, (_, i) => `populate[${i}]=r${i}`).join('&');

  it("Strapi's defaults: arrayLimit 100, depth 20, parameterLimit 1000", () => {
    expect(new QueryStringParser().limits).toEqual({ arrayLimit: 100, depth: 20, parameterLimit: 1000 });
    expect(new QueryStringParser({ arrayLimit: 155 }).limits).toEqual({ arrayLimit: 155, depth: 20, parameterLimit: 1000 });
  });

  it('a raised arrayLimit takes 105 indexed populate entries as a list; the default refuses them with Strapi\'s message', () => {
    const parsed = new QueryStringParser({ arrayLimit: 155 }).parse(populate(105));
    expect(parsed.populate).toEqual(Array.from({ length: 105 }, (_, i) => `r${i}`));
    expect(errorOf(() => new QueryStringParser().parse(populate(105)))).toMatchObject({
      status: 400,
      name: 'ValidationError',
      message:
        'Too many populate entries (105). The maximum number of populate entries when using array notation is 100. ' +
        'Consider using object notation (populate[field]=true), nested population, or reducing the number of fields.',
    });
  });

  it('the messages name the limit the app configured', () => {
    const parser = new QueryStringParser({ arrayLimit: 120 });
    expect(() => parser.parse(populate(120))).not.toThrow();
    expect(errorOf(() => parser.parse(populate(125))).message).toMatch(/^Too many populate entries \(125\)\. The maximum number of populate entries when using array notation is 120\. /);
    expect(errorOf(() => parser.parse('a[121]=1')).message).toBe('Invalid query string: Array limit exceeded. Only 120 elements allowed in an array.');
  });

  it('depth and parameterLimit: lowered and raised', () => {
    const shallow = new QueryStringParser({ depth: 3 });
    expect(() => shallow.parse('filters[a][b][$eq]=1')).not.toThrow();
    expect(errorOf(() => shallow.parse('filters[a][b][c][$eq]=1'))).toMatchObject({ status: 400, name: 'ValidationError' });
    expect(() => new QueryStringParser({ depth: 30 }).parse(`filters${'[a]'.repeat(25)}=1`)).not.toThrow();
    const few = new QueryStringParser({ parameterLimit: 3 });
    expect(() => few.parse('a=1&b=2&c=3')).not.toThrow();
    expect(errorOf(() => few.parse('a=1&b=2&c=3&d=4'))).toMatchObject({ status: 400, name: 'ValidationError' });
    expect(() => new QueryStringParser({ parameterLimit: 2000 }).parse(Array.from({ length: 1500 }, (_, i) => `p${i}=1`).join('&'))).not.toThrow();
  });

  it('two parsers keep their own limits (two apps in one process)', () => {
    const raised = new QueryStringParser({ arrayLimit: 155 });
    const standard = new QueryStringParser();
    expect(() => raised.parse(populate(105))).not.toThrow();
    expect(() => standard.parse(populate(105))).toThrow(/maximum number of populate entries when using array notation is 100\./);
    expect(() => raised.parse(populate(105))).not.toThrow();
  });

  it('strict(): the route\'s allowed parameters only, with the same limits', () => {
    const parser = new QueryStringParser({ arrayLimit: 2 });
    expect(parser.strict('/api/upload?id=3', ['id'])).toEqual({ id: '3' });
    expect(errorOf(() => parser.strict('/api/x?foo=1'))).toMatchObject({ status: 400, message: 'Invalid key foo' });
    expect(errorOf(() => parser.strict('/api/x?id[3]=1', ['id'])).message).toBe('Invalid query string: Array limit exceeded. Only 2 elements allowed in an array.');
    expect(parser.ofUrl('/api/x')).toEqual({});
  });
});

describe('top-level parameters', () => {
  let model: Model;
  beforeAll(async () => {
    model = await conformanceModel();
  });
  const RESTAURANT = 'api::restaurant.restaurant';
  const ARTICLE = 'api::article.article';
  const CHEF = 'api::chef.chef';

  it('an unknown parameter is 400 Invalid key (strict, deviation err-unknown-param)', () => {
    for (const name of ['foo', 'publicationState', 'populate.x', 'Filters']) {
      expect(errorOf(() => read(model, ARTICLE, `${name}=bar`)), name).toEqual({
        status: 400,
        name: 'ValidationError',
        message: `Invalid key ${name}`,
        details: { key: name, path: null, source: 'query', param: name },
      });
    }
  });

  it('allowedParams lets a route take its own parameters', () => {
    expect(() => read(model, ARTICLE, 'foo=bar&fields=title', { allowedParams: ['foo'] })).not.toThrow();
    expect(errorOf(() => read(model, ARTICLE, 'baz=1', { allowedParams: ['foo'] })).message).toBe('Invalid key baz');
  });

  it('status: published by default, draft; anything else is a 400 (also on types without Draft & Publish)', () => {
    expect(read(model, ARTICLE, '').status).toBe('published');
    expect(read(model, ARTICLE, 'status=draft').status).toBe('draft');
    expect(read(model, ARTICLE, 'status=published').status).toBe('published');
    expect(read(model, CHEF, 'status=draft').status).toBe('draft');
    for (const query of ['status=bogus', 'status=', 'status=DRAFT', 'status[0]=draft']) {
      expect(errorOf(() => read(model, ARTICLE, query)), query).toMatchObject({ status: 400, name: 'ValidationError', details: { key: 'status', param: 'status' } });
    }
    expect(errorOf(() => read(model, CHEF, 'status=bogus')).status).toBe(400);
  });

  it('locale: the default, a configured code or * on localized types; an unknown code is a 400', () => {
    expect(read(model, RESTAURANT, '').locale).toBe('en');
    expect(read(model, RESTAURANT, 'locale=fr').locale).toBe('fr');
    expect(read(model, RESTAURANT, 'locale=*').locale).toBe('*');
    expect(errorOf(() => read(model, RESTAURANT, 'locale=xx'))).toMatchObject({ status: 400, name: 'ValidationError', details: { key: 'locale', param: 'locale' } });
    expect(errorOf(() => read(model, RESTAURANT, 'locale=')).status).toBe(400);
  });

  it('locale on a type that is not localized is ignored, but must be a string', () => {
    expect(read(model, ARTICLE, 'locale=xx').locale).toBeUndefined();
    expect(read(model, ARTICLE, 'locale=fr').locale).toBeUndefined();
    expect(errorOf(() => read(model, ARTICLE, 'locale[0]=en')).status).toBe(400);
  });

  it('filters on locale only on localized types', () => {
    expect(read(model, RESTAURANT, 'filters[locale][$eq]=fr&locale=*').filters).toMatchObject({ field: { column: 'locale' } });
    expect(errorOf(() => read(model, ARTICLE, 'filters[locale][$eq]=fr')).message).toBe('Invalid key locale');
  });

  it('a full read spec', () => {
    const spec = read(
      model,
      RESTAURANT,
      'filters[stars][$gte]=3&fields[0]=name&sort=name:asc&pagination[pageSize]=10&populate[chef][fields][0]=name&status=draft&locale=fr',
    );
    expect(spec).toEqual({
      filters: { kind: 'compare', field: { name: 'stars', column: 'stars', type: 'integer' }, operator: '$gte', value: 3 },
      fields: ['name'],
      sort: [{ relations: [], field: { name: 'name', column: 'name', type: 'string' }, direction: 'asc' }],
      pagination: { mode: 'page', page: 1, pageSize: 10, withCount: true },
      populate: new Map([['chef', { fields: ['name'], populate: new Map() }]]),
      status: 'draft',
      locale: 'fr',
    });
  });
});

describe('parseDocumentParams (from code)', () => {
  const model = labModel();
  const ct = model.contentTypes.get('api::sample.sample')!;
  const parse = (params: Record<string, unknown>) => parseDocumentParams(model, ct, params, OPTIONS);

  it('ignores keys it does not know, and undefined/null values', () => {
    expect(() => parse({ documentId: 'x', data: {}, filters: undefined, status: null })).not.toThrow();
    expect(parse({ status: undefined }).status).toBe('published');
  });

  it('validates the read parameters as REST does, with JS values', () => {
    expect(parse({ filters: { count: { $gt: 1 }, flag: true, moment: { $lt: 0 } } }).filters).toEqual({
      kind: 'and',
      items: [
        { kind: 'compare', field: { name: 'count', column: 'count', type: 'integer' }, operator: '$gt', value: 1 },
        { kind: 'compare', field: { name: 'flag', column: 'flag', type: 'boolean' }, operator: '$eq', value: true },
        { kind: 'compare', field: { name: 'moment', column: 'moment', type: 'datetime' }, operator: '$lt', value: '1970-01-01T00:00:00.000Z' },
      ],
    });
    expect(parse({ filters: { title: null } }).filters).toMatchObject({ operator: '$eq', value: null });
    expect(parse({ filters: { title: { $ne: null } } }).filters).toMatchObject({ operator: '$ne', value: null });
    expect(parse({ filters: { $or: [] } }).filters).toEqual({ kind: 'and', items: [] });
    // Empty objects are no condition (the reference drops them); their keys must still exist.
    expect(parse({ filters: { owner: {}, title: {}, $not: {}, count: { $not: {} } } }).filters).toEqual({ kind: 'and', items: [] });
    expect(errorOf(() => parse({ filters: { nope: {} } })).message).toBe('Invalid key nope');
    expect(parse({ populate: ['owner'], fields: ['title'], sort: [{ title: 'desc' }] })).toMatchObject({ fields: ['title'], sort: [{ direction: 'desc' }] });
    expect(errorOf(() => parse({ filters: { title: { $contains: null } } })).status).toBe(400);
    expect(errorOf(() => parse({ filters: { count: { $eq: 1.5 } } })).status).toBe(400);
    expect(errorOf(() => parse({ filters: { count: { $between: [1, null] } } })).status).toBe(400);
    expect(errorOf(() => parse({ filters: { secret: 'x' } })).message).toBe('Invalid key secret');
    expect(errorOf(() => parse({ status: 'bogus' })).status).toBe(400);
  });

  it('parseReadParams is strict where parseDocumentParams is not', () => {
    expect(errorOf(() => parseReadParams(model, ct, { documentId: 'x' }, OPTIONS)).message).toBe('Invalid key documentId');
  });
});
