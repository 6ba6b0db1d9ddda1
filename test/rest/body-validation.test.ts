import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../helpers/databases.js';
import { startTestApp, type TestApp, type TestSchemas } from '../helpers/app.js';

/**
 * Body validation as Strapi 5 answers it (its own API tests expect these exact texts): a message names the field by
 * its full path (`list[0].description ...`), `details.errors[].path` lists the parts as strings, a missing required
 * value is "must be defined." (or a null type error when a Draft & Publish document is published), lists
 * (repeatable components, dynamic zones) are never null and keep their `min`/`max`.
 */
const compo = { collectionName: 'components_default_compos', info: { displayName: 'compo' }, attributes: {
  name: { type: 'string', required: true },
  description: { type: 'text', minLength: 3, maxLength: 10 },
} };

const type = (singularName: string, pluralName: string, draftAndPublish: boolean, attributes: object) => ({
  kind: 'collectionType',
  collectionName: pluralName,
  info: { singularName, pluralName, displayName: singularName },
  options: { draftAndPublish },
  attributes,
});

const required = {
  compo: { type: 'component', component: 'default.compo', required: true },
  list: { type: 'component', component: 'default.compo', repeatable: true, required: true },
  zone: { type: 'dynamiczone', components: ['default.compo'], required: true },
};

const schemas: TestSchemas = {
  contentTypes: {
    plain: type('plain', 'plains', false, {
      title: { type: 'string' },
      when: { type: 'datetime' },
      day: { type: 'date' },
      at: { type: 'time' },
      kind: { type: 'enumeration', enum: ['a', 'b'] },
      code: { type: 'string', regex: '^[A-Z]+$' },
      single: { type: 'component', component: 'default.compo' },
      list: { type: 'component', component: 'default.compo', repeatable: true, min: 2, max: 3 },
      zone: { type: 'dynamiczone', components: ['default.compo'], min: 1, max: 2 },
      tags: { type: 'relation', relation: 'manyToMany', target: 'api::tag.tag' },
      // Read, filtered and written by app code, never by a request (Strapi's content API refuses it).
      stamp: { type: 'string', writable: false },
    }),
    strict: type('strict', 'stricts', false, { title: { type: 'string', required: true }, data: { type: 'json', required: true }, ...required }),
    drafted: type('drafted', 'drafteds', true, { title: { type: 'string', required: true }, ...required }),
    tag: type('tag', 'tags', false, { name: { type: 'string' } }),
  },
  components: { 'default.compo': compo },
};

const item = (name: string) => ({ name, description: 'short' });

describeEachDialect('body validation in Strapi 5 words', (dialect) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(dialect, schemas);
  });
  afterAll(async () => app?.close());

  /** The one error a refused write answers with (message and details.errors[0] agree). */
  async function refused(method: string, url: string, data: unknown) {
    const res = await app.request(method, url, { data });
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body.error.name).toBe('ValidationError');
    return res.body.error as { message: string; details: { errors: Array<{ path: string[]; message: string }> } };
  }
  async function one(method: string, url: string, data: unknown) {
    const error = await refused(method, url, data);
    expect(error.details.errors).toHaveLength(1);
    expect(error.details.errors[0].message).toBe(error.message);
    return { message: error.message, path: error.details.errors[0].path };
  }

  it('a field inside a component is named by its full path, and the path parts are strings', async () => {
    expect(await one('POST', '/api/plains', { single: { name: 'x', description: '' } })).toEqual({
      message: 'single.description must be at least 3 characters',
      path: ['single', 'description'],
    });
    expect(await one('POST', '/api/plains', { list: [item('a'), { name: 'b', description: 'far too long' }] })).toEqual({
      message: 'list[1].description must be at most 10 characters',
      path: ['list', '1', 'description'],
    });
    expect(await one('POST', '/api/plains', { zone: [{ __component: 'default.compo', description: 'short' }] })).toEqual({
      message: 'zone[0].name must be defined.',
      path: ['zone', '0', 'name'],
    });
  });

  it('a missing required value "must be defined."; null fails the type first; on a publishing write, absent reads as null', async () => {
    const full = { title: 'T', data: {}, compo: item('c'), list: [item('l')], zone: [{ __component: 'default.compo', ...item('z') }] };
    expect((await app.request('POST', '/api/stricts', { data: full })).status).toBe(201);
    for (const key of ['title', 'data', 'compo', 'list', 'zone'] as const) {
      const { [key]: _left, ...rest } = full;
      expect(await one('POST', '/api/stricts', rest)).toEqual({ message: `${key} must be defined.`, path: [key] });
    }
    expect(await one('POST', '/api/stricts', { ...full, title: null })).toEqual({
      message: 'title must be a `string` type, but the final value was: `null`.',
      path: ['title'],
    });
    expect(await one('POST', '/api/stricts', { ...full, compo: null })).toEqual({
      message: 'compo must be a `object` type, but the final value was: `null`.',
      path: ['compo'],
    });
    // A json value is any value: null fails `required` itself, worded for a creation or an update.
    expect((await one('POST', '/api/stricts', { ...full, data: null })).message).toBe('data must be defined.');
    const id = (await app.request('POST', '/api/stricts', { data: full })).body.data.documentId;
    expect((await one('PUT', `/api/stricts/${id}`, { data: null })).message).toBe('data cannot be null.');

    // Draft & Publish: Strapi checks the stored draft when it publishes, where an absent value is null.
    const drafted = { title: 'T', compo: item('c'), list: [item('l')], zone: [{ __component: 'default.compo', ...item('z') }] };
    expect((await app.request('POST', '/api/drafteds', { data: drafted })).status).toBe(201);
    const { title: _t, ...noTitle } = drafted;
    expect((await one('POST', '/api/drafteds', noTitle)).message).toBe('title must be a `string` type, but the final value was: `null`.');
    const { compo: _c, ...noCompo } = drafted;
    expect((await one('POST', '/api/drafteds', noCompo)).message).toBe('compo must be a `object` type, but the final value was: `null`.');
    expect((await one('POST', '/api/drafteds', { ...drafted, compo: { description: 'short' } })).message).toBe(
      'compo.name must be a `string` type, but the final value was: `null`.',
    );
    // A list has no stored null: its absence is caught before the draft is written.
    const { list: _l, ...noList } = drafted;
    expect((await one('POST', '/api/drafteds', noList)).message).toBe('list must be defined.');
    // A draft may lack a required single component (Strapi 5 checks it when the draft is published); a list not.
    expect((await app.request('POST', '/api/drafteds?status=draft', { data: noCompo })).status).toBe(201);
    expect((await one('POST', '/api/drafteds?status=draft', noList)).message).toBe('list must be defined.');
  });

  it('a repeatable component or a dynamic zone is never null; min applies to a required or non-empty list, max always', async () => {
    for (const field of ['list', 'zone']) {
      expect(await one('POST', '/api/plains', { [field]: null })).toEqual({
        message: `${field} must be a \`array\` type, but the final value was: \`null\`.`,
        path: [field],
      });
      expect((await one('POST', '/api/plains', { [field]: 'someString' })).message).toBe(
        `${field} must be a \`array\` type, but the final value was: \`"someString"\`.`,
      );
      expect((await app.request('POST', '/api/plains', { data: { [field]: [] } })).status).toBe(201);
    }
    expect(await one('POST', '/api/plains', { list: [item('a')] })).toEqual({ message: 'list field must have at least 2 items', path: ['list'] });
    expect((await one('POST', '/api/plains', { list: [item('a'), item('b'), item('c'), item('d')] })).message).toBe(
      'list field must have less than or equal to 3 items',
    );
    const z = { __component: 'default.compo', ...item('z') };
    expect((await one('POST', '/api/plains', { zone: [z, z, z] })).message).toBe('zone field must have less than or equal to 2 items');
    expect((await one('POST', '/api/plains', { list: [item('a'), null] })).message).toBe(
      'list[1] must be a `object` type, but the final value was: `null`.',
    );

    const id = (await app.request('POST', '/api/plains', { data: { title: 'lists', list: [item('a'), item('b')], zone: [z] } })).body.data.documentId;
    for (const field of ['list', 'zone']) {
      expect((await one('PUT', `/api/plains/${id}`, { [field]: null })).path).toEqual([field]);
    }
    expect((await one('PUT', `/api/plains/${id}`, { list: [item('a')] })).message).toBe('list field must have at least 2 items');
    // Nothing was written by the refused updates.
    const read = (await app.request('GET', `/api/plains/${id}?populate[list]=true&populate[zone]=true`)).body.data;
    expect(read.list.map((c: { name: string }) => c.name)).toEqual(['a', 'b']);
    expect(read.zone).toHaveLength(1);
  });

  it('a dynamic-zone item without __component: its own error, then the relations check error (two, as Strapi)', async () => {
    const error = await refused('POST', '/api/plains', { zone: [item('x')] });
    expect(error.message).toBe('2 errors occurred');
    expect(error.details.errors).toEqual([
      { path: ['zone', '0', '__component'], message: 'zone[0].__component is a required field', name: 'ValidationError' },
      { path: [], message: 'Cannot build relations store from dynamiczone, component identifier is undefined', name: 'ValidationError' },
    ]);
    const unknown = await refused('POST', '/api/plains', { zone: [{ __component: 'default.nope', ...item('x') }] });
    expect(unknown.details.errors.map((e) => e.message)).toEqual([
      'zone[0].__component must be one of the following values: default.compo',
      'Invalid relations',
    ]);
  });

  it("a component sent back with an id on PUT must be the entry's own (Strapi: 400 otherwise); POST ignores ids", async () => {
    const created = await app.request('POST', '/api/plains?populate=*', {
      data: { title: 'ids', single: { id: 'invalid_id', ...item('s') }, list: [item('a'), item('b')], zone: [{ __component: 'default.compo', ...item('z') }] },
    });
    expect(created.status).toBe(201);
    const { documentId, single, list, zone } = created.body.data;
    for (const data of [
      { single: { id: 'invalid_id', ...item('x') } },
      { list: [{ id: 'invalid_id', ...item('x') }, item('y')] },
      { list: [{ id: single.id, ...item('x') }, item('y')] },
      { zone: [{ id: list[0].id, __component: 'default.compo', ...item('x') }] },
    ]) {
      const field = Object.keys(data)[0];
      const res = await app.request('PUT', `/api/plains/${documentId}`, { data });
      expect(res.status, JSON.stringify(data)).toBe(400);
      expect(res.body.error).toEqual({
        status: 400,
        name: 'ApplicationError',
        message: `Some of the provided components in ${field} are not related to the entity`,
        details: {},
      });
    }
    const own = await app.request('PUT', `/api/plains/${documentId}?populate=*`, {
      data: {
        single: { id: single.id, ...item('s2') },
        list: [{ id: String(list[1].id), ...item('b2') }, item('c')],
        zone: [{ id: zone[0].id, __component: 'default.compo', ...item('z2') }],
      },
    });
    expect(own.status, JSON.stringify(own.body)).toBe(200);
    expect(own.body.data.single.name).toBe('s2');
    expect(own.body.data.list.map((c: { name: string }) => c.name)).toEqual(['b2', 'c']);
  });

  it('Draft & Publish: what a published read showed may be sent back with its ids (the draft is written)', async () => {
    const data = { title: 'T', compo: item('c'), list: [item('l')], zone: [{ __component: 'default.compo', ...item('z') }] };
    const { documentId } = (await app.request('POST', '/api/drafteds', { data })).body.data;
    const read = (await app.request('GET', `/api/drafteds/${documentId}?populate=*`)).body.data;
    const back = await app.request('PUT', `/api/drafteds/${documentId}?populate=*`, {
      data: { compo: { ...read.compo, name: 'c2' }, list: read.list, zone: read.zone },
    });
    expect(back.status, JSON.stringify(back.body)).toBe(200);
    expect(back.body.data.compo.name).toBe('c2');
    const other = (await app.request('POST', '/api/drafteds?populate=*', { data })).body.data;
    const res = await app.request('PUT', `/api/drafteds/${documentId}`, { data: { compo: other.compo } });
    expect(res.status).toBe(400);
    expect(res.body.error.name).toBe('ApplicationError');
  });

  it('a date, time or date-time that is not one: 400 in the words of Strapi\'s database layer', async () => {
    expect(await one('POST', '/api/plains', { when: '2020-02-30T10:00:00.000Z' })).toEqual({
      message: 'Invalid format, expected a timestamp or an ISO date',
      path: ['when'],
    });
    expect((await one('POST', '/api/plains', { when: 'something' })).message).toBe('Invalid format, expected a timestamp or an ISO date');
    expect((await one('POST', '/api/plains', { day: '2023-02-29' })).message).toBe('Invalid date');
    expect((await one('POST', '/api/plains', { day: '17/03/2022' })).message).toBe('Invalid format, expected yyyy-MM-dd');
    expect((await one('POST', '/api/plains', { at: '25:00' })).message).toBe('Invalid time format, expected HH:mm:ss.SSS');
    expect((await one('POST', '/api/plains', { at: 12 })).message).toBe('Expected a string, got a number');
    // Another error first: that one alone is answered (Strapi's database layer never sees the body).
    expect((await one('POST', '/api/plains', { when: 'something', kind: 'c' })).path).toEqual(['kind']);
    const ok = await app.request('POST', '/api/plains', { data: { when: '2020-02-29T10:00:00+01:00', day: '2024-02-29', at: '10:15' } });
    expect(ok.status).toBe(201);
    expect(ok.body.data).toMatchObject({ when: '2020-02-29T09:00:00.000Z', day: '2024-02-29', at: '10:15:00.000' });
  });

  it('a short text holds at most 255 characters unless its schema says otherwise, a number is no text', async () => {
    expect(await one('POST', '/api/plains', { title: 'x'.repeat(256) })).toEqual({ message: 'title must be at most 255 characters', path: ['title'] });
    const longest = await app.request('POST', '/api/plains', { data: { title: 'x'.repeat(255) } });
    expect(longest.status).toBe(201);
    expect(longest.body.data.title).toHaveLength(255);
    // `text` has no default limit; an explicit maxLength wins (description: 10).
    expect((await one('POST', '/api/plains', { list: [item('a'), { name: 'b', description: 'x'.repeat(11) }] })).message).toBe('list[1].description must be at most 10 characters');
    expect(await one('POST', '/api/plains', { title: 12 })).toEqual({ message: 'title must be a `string` type, but the final value was: `12`.', path: ['title'] });
    expect((await one('POST', '/api/plains', { code: 3 })).message).toBe('code must be a `string` type, but the final value was: `3`.');
    // An enumeration casts a number to its text first, as Strapi's validator does: 1 is not one of a, b.
    expect((await one('POST', '/api/plains', { kind: 1 })).message).toBe('kind must be one of the following values: a, b, ');
  });

  it('enumeration and pattern messages as Strapi prints them', async () => {
    expect((await one('POST', '/api/plains', { kind: 'c' })).message).toBe('kind must be one of the following values: a, b, ');
    expect((await one('POST', '/api/plains', { code: 'abc' })).message).toBe('code must match the following: "/^[A-Z]+$/"');
  });

  it('relations given by ids that name no entry: counted, in Strapi\'s words', async () => {
    const tag = (await app.request('POST', '/api/tags', { data: { name: 't' } })).body.data;
    expect(await one('POST', '/api/plains', { tags: [1000] })).toEqual({
      message: '1 relation(s) of type api::tag.tag associated with this entity do not exist',
      path: [],
    });
    expect((await one('POST', '/api/plains', { tags: [1000, 1001, 1001, 1002, tag.documentId] })).message).toBe(
      '3 relation(s) of type api::tag.tag associated with this entity do not exist',
    );
    expect((await app.request('POST', '/api/plains', { data: { tags: [tag.id] } })).status).toBe(201);
  });

  it('an attribute whose schema says writable: false is refused in a body, as Strapi\'s content API refuses it', async () => {
    for (const [method, url] of [['POST', '/api/plains'], ['PUT', `/api/plains/${(await app.request('POST', '/api/plains', { data: { title: 'w' } })).body.data.documentId}`]]) {
      const res = await app.request(method, url, { data: { title: 'x', stamp: 'nope' } });
      expect(res.status, `${method} ${JSON.stringify(res.body)}`).toBe(400);
      expect(res.body.error).toEqual({ status: 400, name: 'ValidationError', message: 'Invalid key stamp', details: { key: 'stamp', path: 'stamp', source: 'body' } });
    }
    // It is still read.
    const listed = await app.request('GET', '/api/plains?fields[0]=stamp&pagination[pageSize]=1');
    expect(listed.status).toBe(200);
    expect(listed.body.data[0]).toHaveProperty('stamp', null);
  });
});
