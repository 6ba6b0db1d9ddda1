import { describe, expect, it } from 'vitest';
import { parseDocumentParams, parsePagination } from '../../src/query/index.js';
import { errorOf, labModel, OPTIONS, read } from './model.js';

const model = labModel();
const SAMPLE = 'api::sample.sample';
const spec = (query: string, uid = SAMPLE) => read(model, uid, query);
const fail = (query: string, uid = SAMPLE) => errorOf(() => read(model, uid, query));

describe('fields', () => {
  it('every form: one name, commas, a list, lists of comma lists', () => {
    expect(spec('fields=title').fields).toEqual(['title']);
    expect(spec('fields=title,count').fields).toEqual(['title', 'count']);
    expect(spec('fields=title, count').fields).toEqual(['title', 'count']);
    expect(spec('fields[0]=title&fields[1]=count').fields).toEqual(['title', 'count']);
    expect(spec('fields[0]=title,count&fields[1]=flag').fields).toEqual(['title', 'count', 'flag']);
    expect(spec('fields[]=title&fields[]=title').fields).toEqual(['title']);
  });

  it('`*` is every field; no `fields` is every field', () => {
    expect(spec('fields=*').fields).toBeUndefined();
    expect(spec('fields[0]=*').fields).toBeUndefined();
    expect(spec('').fields).toBeUndefined();
  });

  it('id and documentId are always returned: accepted and left out', () => {
    expect(spec('fields[0]=id&fields[1]=documentId').fields).toEqual([]);
    expect(spec('fields=documentId,title').fields).toEqual(['title']);
  });

  it('every scalar type and the timestamps are selectable', () => {
    const names = ['title', 'body', 'rich', 'doc', 'kind', 'mail', 'slug', 'day', 'at', 'moment', 'stamp', 'count', 'big', 'ratio', 'price', 'flag', 'meta'];
    expect(spec(`fields=${names.join(',')},createdAt,updatedAt,publishedAt`).fields).toEqual([...names, 'createdAt', 'updatedAt', 'publishedAt']);
    expect(read(model, 'api::person.person', 'fields=name').fields).toEqual(['name']);
  });

  it('relations, media, components, dynamic zones, private, password and unknown names: Invalid key <name>', () => {
    // Strapi 5.54's path: the attribute's own name, none for a name the schema lacks (probed: fields[0]=chef, =nope).
    for (const name of ['owner', 'gallery', 'cover', 'points', 'zone', 'secret', 'hidden', 'nope', 'createdBy', 'locale']) {
      expect(fail(`fields[0]=${name}`), name).toEqual({
        status: 400,
        name: 'ValidationError',
        message: `Invalid key ${name}`,
        details: { key: name, path: name === 'nope' ? null : name, source: 'query', param: 'fields' },
      });
    }
  });

  it('malformed fields are 400s', () => {
    expect(fail('fields=').status).toBe(400);
    expect(fail('fields=title,').status).toBe(400);
    expect(fail('fields[0][a]=1').status).toBe(400);
    expect(fail('fields[a]=title').status).toBe(400);
  });
});

describe('sort', () => {
  const item = (name: string, column: string, type: string, direction: 'asc' | 'desc', relations: string[] = []) => ({
    relations,
    field: { name, column, type },
    direction,
  });
  const TITLE_ASC = item('title', 'title', 'string', 'asc');
  const COUNT_DESC = item('count', 'count', 'integer', 'desc');

  it('every form gives the same items', () => {
    for (const query of [
      'sort=title,count:desc',
      'sort=title:asc,count:DESC',
      'sort[0]=title&sort[1]=count:desc',
      'sort[0]=title:asc,count:desc',
      'sort[title]=asc&sort[count]=desc',
      'sort[0][title]=asc&sort[1][count]=desc',
    ]) {
      expect(spec(query).sort, query).toEqual([TITLE_ASC, COUNT_DESC]);
    }
    expect(spec('').sort).toEqual([]);
    expect(spec('sort=').sort).toEqual([]);
    expect(spec('sort=title,').sort).toEqual([TITLE_ASC]);
  });

  it('through to-one relations: dot paths and nested objects, any depth', () => {
    const label = item('label', 'label', 'string', 'desc', ['owner', 'team']);
    expect(spec('sort=owner.team.label:desc').sort).toEqual([label]);
    expect(spec('sort[owner][team][label]=desc').sort).toEqual([label]);
    expect(spec('sort[0][owner][team][label]=desc').sort).toEqual([label]);
    expect(spec('sort=owner.id').sort).toEqual([item('id', 'id', 'id', 'asc', ['owner'])]);
  });

  it('system fields sort', () => {
    expect(spec('sort=createdAt:desc,id').sort.map((s) => s.field.column)).toEqual(['created_at', 'id']);
  });

  it('unknown, private, password, relation and injected names: Invalid key; the path is the attribute, none when unknown (the reference)', () => {
    for (const name of ['nope', 'hidden', 'secret', 'owner', 'points', 'zone', 'createdBy', 'title;DROP TABLE samples']) {
      expect(fail(`sort=${name}:asc`), name).toEqual({
        status: 400,
        name: 'ValidationError',
        message: `Invalid key ${name}`,
        details: { key: name, path: ['nope', 'title;DROP TABLE samples'].includes(name) ? null : name, source: 'query', param: 'sort' },
      });
    }
    expect(fail('sort=owner.nope')).toMatchObject({ message: 'Invalid key nope at owner', details: { key: 'nope', path: 'owner' } });
    expect(fail('sort=spy.name')).toMatchObject({ message: 'Invalid key spy' });
    // A dynamic zone is no step (its items are of several components); a component or a file is no key.
    expect(fail('sort=zone.x')).toMatchObject({ message: 'Invalid key zone', details: { key: 'zone', path: 'zone' } });
    // `{ owner: 'asc' }` names no field of owner: Strapi reads `asc` as a key there.
    expect(fail('sort[owner]=asc')).toMatchObject({ message: 'Invalid key asc at owner', details: { key: 'asc', path: 'owner' } });
    expect(fail('sort=points.nope')).toMatchObject({ message: 'Invalid key nope at points', details: { key: 'nope', path: 'points' } });
  });

  it('through components (repeatable too) and media, as Strapi 5.54 sorts', () => {
    expect(spec('sort=points.x:desc').sort).toEqual([item('x', 'x', 'float', 'desc', ['points'])]);
    expect(spec('sort[cover][name]=asc').sort).toEqual([item('name', 'name', 'string', 'asc', ['cover'])]);
    expect(spec('sort=owner.samples.gallery.size').sort).toEqual([item('size', 'size', 'decimal', 'asc', ['owner', 'samples', 'gallery'])]);
    // A file's type is found only when the caller may read files, as for filters.
    expect(errorOf(() => read(model, 'api::sample.sample', 'sort=cover.name', { canFind: (uid) => uid !== 'plugin::upload.file' }))).toMatchObject({
      message: 'Invalid key cover',
    });
  });

  it('through to-many relations too, at any step; the path still ends on a scalar field the caller may read', () => {
    expect(spec('sort=owner.samples.title:desc').sort).toEqual([item('title', 'title', 'string', 'desc', ['owner', 'samples'])]);
    expect(spec('sort[owner][samples][count]=asc').sort).toEqual([item('count', 'count', 'integer', 'asc', ['owner', 'samples'])]);
    expect(read(model, 'api::person.person', 'sort=samples.owner.name').sort).toEqual([item('name', 'name', 'string', 'asc', ['samples', 'owner'])]);
    // An attribute that is not a field is named by its own path (Strapi: sort=restaurants.chef → at restaurants.chef).
    const invalid = (query: string, key: string, path: string) =>
      expect(fail(query), query).toEqual({
        status: 400,
        name: 'ValidationError',
        message: `Invalid key ${key} at ${path}`,
        details: { key, path, source: 'query', param: 'sort' },
      });
    invalid('sort=owner.samples', 'samples', 'owner.samples');
    invalid('sort=owner.samples.gallery', 'gallery', 'owner.samples.gallery');
    invalid('sort=owner.samples.cover', 'cover', 'owner.samples.cover');
    invalid('sort=owner.samples.hidden', 'hidden', 'owner.samples.hidden');
    invalid('sort=owner.samples.secret', 'secret', 'owner.samples.secret');
    invalid('sort=owner.samples.points', 'points', 'owner.samples.points');
    invalid('sort=owner.samples.nope', 'nope', 'owner.samples');
    expect(errorOf(() => read(model, 'api::person.person', 'sort=samples.title', { canFind: (uid) => uid !== SAMPLE }))).toMatchObject({
      message: 'Invalid key samples',
    });
  });

  it('a relation to a type the caller may not find reads like an unknown key', () => {
    expect(errorOf(() => read(model, SAMPLE, 'sort=owner.name', { canFind: (uid) => uid !== 'api::person.person' }))).toMatchObject({
      message: 'Invalid key owner',
    });
  });

  it('directions: asc/desc in any case, anything else is a 400', () => {
    expect(spec('sort=title:DeSc').sort[0].direction).toBe('desc');
    // Strapi's convert-query-params says it without details; keys are checked before the direction.
    expect(fail('sort=title:sideways')).toEqual({ status: 400, name: 'ValidationError', message: 'Invalid order. order can only be one of asc|desc|ASC|DESC', details: {} });
    expect(fail('sort=nope:sideways')).toMatchObject({ message: 'Invalid key nope' });
    expect(fail('sort[title]=up').status).toBe(400);
    expect(fail('sort=title:asc:desc').status).toBe(400);
    expect(fail('sort=:asc').status).toBe(400);
    expect(fail('sort[0][0]=x').status).toBe(400);
    expect(fail('sort[title][0]=asc').status).toBe(400);
  });
});

describe('pagination', () => {
  const limits = { defaultLimit: 25, maxLimit: 100, withCount: true };
  const page = (raw: unknown) => parsePagination(raw, limits);

  it('defaults: page 1 of defaultLimit, withCount from the config', () => {
    expect(spec('').pagination).toEqual({ mode: 'page', page: 1, pageSize: 25, withCount: true });
    expect(read(model, SAMPLE, '', { withCount: false, defaultLimit: 10 }).pagination).toEqual({ mode: 'page', page: 1, pageSize: 10, withCount: false });
  });

  it('page form and offset form', () => {
    expect(spec('pagination[page]=2&pagination[pageSize]=5').pagination).toEqual({ mode: 'page', page: 2, pageSize: 5, withCount: true });
    expect(spec('pagination[page]=3').pagination).toEqual({ mode: 'page', page: 3, pageSize: 25, withCount: true });
    expect(spec('pagination[start]=5&pagination[limit]=7').pagination).toEqual({ mode: 'offset', start: 5, limit: 7, withCount: true });
    expect(spec('pagination[start]=0').pagination).toEqual({ mode: 'offset', start: 0, limit: 25, withCount: true });
    expect(spec('pagination[limit]=3').pagination).toEqual({ mode: 'offset', start: 0, limit: 3, withCount: true });
  });

  it('withCount: true/false (also 1/0 and booleans from code)', () => {
    expect(spec('pagination[withCount]=false&pagination[pageSize]=5').pagination).toEqual({ mode: 'page', page: 1, pageSize: 5, withCount: false });
    expect(page({ withCount: 'true' }).withCount).toBe(true);
    expect(page({ withCount: false, start: 1 })).toEqual({ mode: 'offset', start: 1, limit: 25, withCount: false });
    expect(page({ withCount: '0' }).withCount).toBe(false);
    expect(errorOf(() => page({ withCount: 'maybe' }))).toMatchObject({ status: 400, details: { key: 'withCount' } });
  });

  it('sizes over maxLimit are clamped; limit=-1 is maxLimit', () => {
    expect(spec('pagination[pageSize]=1000').pagination).toMatchObject({ pageSize: 100 });
    expect(spec('pagination[limit]=1000').pagination).toMatchObject({ limit: 100 });
    expect(spec('pagination[limit]=-1').pagination).toMatchObject({ limit: 100 });
    expect(page({ pageSize: 100 })).toMatchObject({ pageSize: 100 });
  });

  it('zero, negative, non-numeric, fractional and huge values are 400 ValidationErrors naming the key', () => {
    const cases: Array<[string, string]> = [
      ['pagination[pageSize]=0', 'pageSize'],
      ['pagination[pageSize]=-1', 'pageSize'],
      ['pagination[pageSize]=abc', 'pageSize'],
      ['pagination[pageSize]=2.5', 'pageSize'],
      ['pagination[page]=0', 'page'],
      ['pagination[page]=-1', 'page'],
      ['pagination[page]=1e3', 'page'],
      ['pagination[page]=99999999999999999999', 'page'],
      ['pagination[page]=900719925474099', 'page'],
      ['pagination[start]=-1', 'start'],
      ['pagination[start]=x', 'start'],
      ['pagination[limit]=0', 'limit'],
      ['pagination[limit]=-2', 'limit'],
      ['pagination[page][0]=1', 'page'],
    ];
    for (const [query, key] of cases) {
      expect(fail(query), query).toMatchObject({ status: 400, name: 'ValidationError', details: { key, path: `pagination.${key}`, param: 'pagination' } });
    }
  });

  it('unknown keys and a non-object are 400s', () => {
    expect(fail('pagination[foo]=1')).toMatchObject({ message: 'Invalid key foo', details: { key: 'foo', param: 'pagination' } });
    expect(fail('pagination=1').status).toBe(400);
  });

  it('page and offset mixed: 400 PaginationError with the reference message', () => {
    for (const query of ['pagination[page]=1&pagination[limit]=5', 'pagination[pageSize]=1&pagination[start]=0']) {
      expect(fail(query)).toEqual({
        status: 400,
        name: 'PaginationError',
        message: 'Cannot use both page & offset pagination in the same query',
        details: {},
      });
    }
  });

  it('the document service also takes Strapi top-level page/pageSize/start/limit', () => {
    const ct = model.contentTypes.get(SAMPLE)!;
    expect(parseDocumentParams(model, ct, { start: 2, limit: 3 }, OPTIONS).pagination).toEqual({ mode: 'offset', start: 2, limit: 3, withCount: true });
    expect(parseDocumentParams(model, ct, { page: 2, pageSize: 3 }, OPTIONS).pagination).toEqual({ mode: 'page', page: 2, pageSize: 3, withCount: true });
    expect(errorOf(() => parseDocumentParams(model, ct, { limit: 3, pagination: { page: 1 } }, OPTIONS)).status).toBe(400);
    expect(errorOf(() => parseDocumentParams(model, ct, { page: 1, limit: 3 }, OPTIONS)).name).toBe('PaginationError');
  });
});
