import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, writeApp, type TestApp } from '../helpers/app.js';

// strapi.contentAPI.sanitize.output / .input for app code, as a custom controller calls them with the request's
// ctx.state.auth: what Strapi 5.54's sanitizers remove, removed (Cairn's own routes refuse such input instead).
const ROUTES = `module.exports = { routes: [{ method: 'POST', path: '/docs-sanitized', handler: 'doc.sanitized' }] };`;
const CONTROLLER = `
const { factories } = require('@strapi/strapi');
const { z } = require('@strapi/utils');
module.exports = factories.createCoreController('api::doc.doc', ({ strapi }) => ({
  async sanitized(ctx) {
    const schema = strapi.contentType('api::doc.doc');
    const { sanitize } = strapi.contentAPI;
    const { entry, input, query } = ctx.request.body;
    ctx.body = {
      output: await sanitize.output(entry, schema),
      outputForCaller: await sanitize.output([entry], schema, { auth: ctx.state.auth }),
      input: await sanitize.input(input, schema),
      strictInput: await sanitize.input(input, schema, { strictParams: true }),
      inputForCaller: await sanitize.input(input, schema, { auth: ctx.state.auth }),
      // A route's body schema declares extra keys: kept under strictParams, each parsed by its Zod schema.
      query: await sanitize.query(query, schema),
      strictQuery: await sanitize.query(query, schema, { strictParams: true, route: { request: { query: { ref: z.string().max(3), code: z.string().min(2) } } } }),
      routeInput: await sanitize.input({ name: 'x', ref: '  r  ', code: '', other: 1 }, schema, { strictParams: true, route: { request: { body: { 'application/json': z.object({ data: z.object({}), ref: z.string().transform((s) => s.trim()), code: z.string().min(1) }) } } } }),
    };
  },
  // Each attempt's error as Strapi's error middleware would answer it (name, message, details), or 'ok'.
  async validated(ctx) {
    const schema = strapi.contentType('api::doc.doc');
    const { validate } = strapi.contentAPI;
    const auth = ctx.state.auth;
    const body = { 'application/json': z.object({ data: z.object({}), ref: z.string().max(3) }) };
    const attempts = {
      fine: () => validate.input({ name: 'x', locale: 'en', publishedAt: null, part: { id: 1, label: 'p' }, blocks: [{ __component: 'parts.part', id: 2, label: 'b' }], tags: { connect: [{ documentId: 't1', position: { end: true } }], options: { strict: true } }, owner: [{ documentId: 'p1' }], refs: [{ __type: 'api::person.person', documentId: 'p2' }] }, schema),
      fineForCaller: () => validate.input({ name: 'x', owner: { connect: ['p1'] }, refs: [{ __type: 'api::person.person', documentId: 'p2' }] }, schema, { auth }),
      rootId: () => validate.input({ name: 'x', documentId: 'd' }, schema),
      timestamp: () => validate.input({ createdAt: '2020-01-01' }, schema),
      notWritable: () => validate.input({ locked: 'l' }, schema),
      unknownRoot: () => validate.input({ name: 'x', nope: 1 }, schema),
      unknownInComponent: () => validate.input({ part: { label: 'p', extra: true } }, schema),
      unknownInZone: () => validate.input({ blocks: [{ __component: 'parts.part', label: 'b', extra: 1 }] }, schema),
      unknownInRelation: () => validate.input({ tags: [{ id: 1, position: { end: true } }] }, schema),
      hiddenRelation: () => validate.input({ tags: { connect: ['t1'] } }, schema, { auth }),
      hiddenMorph: () => validate.input({ refs: [{ __type: 'api::tag.tag', documentId: 't1' }] }, schema, { auth }),
      morphWithoutType: () => validate.input({ refs: { connect: [{ documentId: 't1' }] } }, schema, { auth }),
      routeKeyFine: () => validate.input({ name: 'x', ref: 'abc' }, schema, { route: { request: { body } } }),
      routeKeyRefused: () => validate.input({ name: 'x', ref: 'abcd' }, schema, { route: { request: { body } } }),
      list: () => validate.input([{ name: 'x' }, { name: 'y', id: 3 }], schema),
      queryFine: () => validate.query({ filters: { name: 'x' }, sort: 'name', fields: ['name'], populate: { owner: true }, where: 1 }, schema),
      queryStrict: () => validate.query({ filters: { name: 'x' }, where: 1 }, schema, { strictParams: true }),
      queryRouteKey: () => validate.query({ ref: 'abcd' }, schema, { strictParams: true, route: { request: { query: { ref: z.string().max(3) } } } }),
      queryPrivate: () => validate.query({ sort: 'secret' }, schema),
      queryHiddenRelation: () => validate.query({ filters: { tags: { name: 'x' } } }, schema, { auth }),
      queryPublication: () => validate.query({ publicationFilter: 'sometimes' }, schema),
    };
    const outcomes = {};
    for (const [name, attempt] of Object.entries(attempts)) {
      outcomes[name] = await attempt().then(() => 'ok', (error) => ({ name: error.name, message: error.message, details: error.details }));
    }
    ctx.body = outcomes;
  },
  async misuse(ctx) {
    const attempts = [
      () => strapi.contentAPI.sanitize.output({}, undefined),
      () => strapi.contentAPI.sanitize.output({}, strapi.contentType('api::doc.doc'), { auth: { strategy: { name: 'forged' } } }),
      () => strapi.contentAPI.validate.input({}, undefined),
      () => strapi.contentAPI.sanitize.query({ filters: { secret: 'x' } }, strapi.contentType('api::doc.doc')),
      () => strapi.contentAPI.sanitize.query({ filters: { tags: { name: 'x' } } }, strapi.contentType('api::doc.doc'), { auth: ctx.state.auth }),
      () => strapi.contentAPI.sanitize.query({}, strapi.components['parts.part']),
    ];
    ctx.body = await Promise.all(attempts.map((attempt) => Promise.resolve().then(attempt).then(() => 'ok', (error) => error.message)));
  },
}));`;

let app: TestApp;
beforeAll(async () => {
  const dir = writeApp({
    contentTypes: {
      doc: {
        kind: 'collectionType',
        collectionName: 'docs',
        info: { singularName: 'doc', pluralName: 'docs', displayName: 'Doc' },
        options: { draftAndPublish: false },
        attributes: {
          name: { type: 'string' },
          secret: { type: 'string', private: true },
          pass: { type: 'password' },
          locked: { type: 'string', writable: false },
          part: { type: 'component', component: 'parts.part' },
          blocks: { type: 'dynamiczone', components: ['parts.part'] },
          tags: { type: 'relation', relation: 'manyToMany', target: 'api::tag.tag' },
          owner: { type: 'relation', relation: 'manyToOne', target: 'api::person.person' },
          refs: { type: 'relation', relation: 'morphToMany' },
        },
      },
      tag: {
        kind: 'collectionType',
        collectionName: 'tags',
        info: { singularName: 'tag', pluralName: 'tags', displayName: 'Tag' },
        options: { draftAndPublish: false },
        attributes: { name: { type: 'string' }, note: { type: 'string', private: true } },
      },
      person: {
        kind: 'collectionType',
        collectionName: 'people',
        info: { singularName: 'person', pluralName: 'people', displayName: 'Person' },
        options: { draftAndPublish: false },
        attributes: { name: { type: 'string' }, email: { type: 'string', private: true } },
      },
    },
    components: {
      'parts.part': { collectionName: 'components_parts_parts', info: { displayName: 'Part' }, attributes: { label: { type: 'string' }, hidden: { type: 'string', private: true } } },
    },
    config: {
      permissions: { roles: { public: { permissions: ['api::doc.doc.sanitized', 'api::doc.doc.misuse', 'api::doc.doc.validated', 'api::person.person.find'] } } },
    },
  });
  const routes = ROUTES.replace(']', ", { method: 'GET', path: '/docs-misuse', handler: 'doc.misuse' }, { method: 'POST', path: '/docs-validated', handler: 'doc.validated' }]");
  for (const [folder, file, text] of [
    ['routes', 'custom.js', routes],
    ['controllers', 'doc.js', CONTROLLER],
  ]) {
    mkdirSync(join(dir, 'src', 'api', 'doc', folder), { recursive: true });
    writeFileSync(join(dir, 'src', 'api', 'doc', folder, file), text);
  }
  app = await startTestApp('sqlite', dir);
});
afterAll(() => app?.close());

const entry = {
  id: 1,
  documentId: 'd1',
  name: 'Doc',
  secret: 's',
  pass: 'hash',
  locked: 'l',
  part: { id: 2, label: 'p', hidden: 'h' },
  blocks: [{ __component: 'parts.part', id: 3, label: 'b', hidden: 'h' }],
  tags: [{ id: 4, name: 't', note: 'n' }],
  owner: { id: 5, name: 'Ann', email: 'ann@example.com' },
  refs: [
    { __type: 'api::tag.tag', id: 6, name: 't2', note: 'n' },
    { __type: 'api::person.person', id: 7, name: 'Bo', email: 'bo@example.com' },
  ],
};
const input = {
  id: 9,
  documentId: 'x',
  name: 'New',
  locked: 'l',
  createdAt: '2020-01-01T00:00:00.000Z',
  unknown: 1,
  part: { id: 2, label: 'p', extra: true },
  tags: { connect: [{ documentId: 't1', position: { before: 't2' }, junk: 1 }], junk: 2 },
  owner: 5,
  refs: [
    { __type: 'api::tag.tag', documentId: 't1' },
    { __type: 'api::person.person', documentId: 'p1', junk: 1 },
  ],
};

it('output drops private attributes and passwords at every depth; with auth, relations to types the caller may not find', async () => {
  const res = await app.request('POST', '/api/docs-sanitized', { entry, input, query: {} }, { authorization: '' });
  expect(res.status).toBe(200);
  const expected = {
    id: 1,
    documentId: 'd1',
    name: 'Doc',
    locked: 'l',
    part: { id: 2, label: 'p' },
    blocks: [{ __component: 'parts.part', id: 3, label: 'b' }],
    tags: [{ id: 4, name: 't' }],
    owner: { id: 5, name: 'Ann' },
    refs: [
      { __type: 'api::tag.tag', id: 6, name: 't2' },
      { __type: 'api::person.person', id: 7, name: 'Bo' },
    ],
  };
  expect(res.body.output).toEqual(expected);
  // The public role may find people, not tags: the relation goes, and so do the morph relation's tag entries.
  const { tags: _tags, ...forCaller } = expected;
  expect(res.body.outputForCaller).toEqual([{ ...forCaller, refs: [expected.refs[1]] }]);
});

it('query keeps what the caller may ask for; strictParams keeps Strapi\'s query keys and the route\'s, parsed', async () => {
  const query = { filters: { name: { $eq: 'a' } }, sort: ['name:asc'], fields: ['name'], populate: ['tags'], page: 1, pageSize: 10, where: { id: 1 }, ref: 'abc', code: 'x', other: 'y' };
  const res = await app.request('POST', '/api/docs-sanitized', { entry, input, query }, { authorization: '' });
  expect(res.body.query).toEqual(query);
  const { where: _where, code: _code, other: _other, ...kept } = query;
  expect(res.body.strictQuery).toEqual(kept);
});

it('input drops the root ids, non-writable attributes and timestamps; strictParams drops unknown keys, at depth too', async () => {
  const res = await app.request('POST', '/api/docs-sanitized', { entry, input, query: {} }, { authorization: '' });
  expect(res.body.input).toEqual({ name: 'New', unknown: 1, part: { id: 2, label: 'p', extra: true }, tags: input.tags, owner: 5, refs: input.refs });
  expect(res.body.strictInput).toEqual({
    name: 'New',
    part: { id: 2, label: 'p' },
    tags: { connect: [{ documentId: 't1', position: { before: 't2' } }] },
    owner: 5,
    refs: [input.refs[0], { __type: 'api::person.person', documentId: 'p1' }],
  });
  // The public role may not find tags: the relation goes, and the morph relation's tag entry.
  expect(res.body.inputForCaller).toEqual({ name: 'New', unknown: 1, part: { id: 2, label: 'p', extra: true }, owner: 5, refs: [input.refs[1]] });
  expect(res.body.routeInput).toEqual({ name: 'x', ref: 'r' });
});

it('a missing schema, a forged auth, and a query with what Strapi would drop are errors naming them', async () => {
  const res = await app.request('GET', '/api/docs-misuse', undefined, { authorization: '' });
  expect(res.body).toEqual([
    'Missing schema in sanitizeOutput',
    "{ auth } must be the request's ctx.state.auth (Cairn knows the caller by it)",
    'Missing schema in validateInput',
    // What Strapi's sanitizer would drop from a query is refused, as on Cairn's routes: a private field, and a
    // relation to a type the caller may not find.
    'Invalid key secret',
    'Invalid key tags',
    'sanitizeQuery takes a content type, not the component parts.part',
  ]);
});

it('validate.input and validate.query throw Strapi\'s 400 ValidationError where the sanitizers would remove', async () => {
  const res = await app.request('POST', '/api/docs-validated', {}, { authorization: '' });
  expect(res.status).toBe(200);
  const invalid = (key: string, path: string | null | undefined, source = 'body', param?: string) => ({
    name: 'ValidationError',
    message: path && path !== key ? `Invalid key ${key} at ${path}` : `Invalid key ${key}`,
    details: { key, ...(path === undefined ? {} : { path }), source, ...(param ? { param } : {}) },
  });
  expect(res.body).toEqual({
    fine: 'ok',
    fineForCaller: 'ok',
    rootId: invalid('documentId', undefined),
    timestamp: invalid('createdAt', 'createdAt'),
    notWritable: invalid('locked', 'locked'),
    unknownRoot: invalid('nope', null),
    unknownInComponent: invalid('extra', 'part'),
    unknownInZone: invalid('extra', 'blocks'),
    unknownInRelation: invalid('position', 'tags'),
    // The public role may not find tags.
    hiddenRelation: invalid('tags', 'tags'),
    hiddenMorph: invalid('refs', 'refs'),
    morphWithoutType: invalid('refs', 'refs'),
    routeKeyFine: 'ok',
    routeKeyRefused: { name: 'ValidationError', message: expect.stringContaining('3'), details: { key: 'ref', path: null, source: 'body', param: 'ref' } },
    list: invalid('id', undefined),
    queryFine: 'ok',
    queryStrict: invalid('where', null, 'query', 'where'),
    queryRouteKey: { name: 'ValidationError', message: expect.stringContaining('3'), details: { key: 'ref', path: null, source: 'query', param: 'ref' } },
    queryPrivate: invalid('secret', 'secret', 'query', 'sort'),
    queryHiddenRelation: invalid('tags', null, 'query', 'filters'),
    queryPublication: { name: 'ValidationError', message: expect.stringContaining("Invalid value for 'publicationFilter'"), details: expect.objectContaining({ source: 'query', param: 'publicationFilter' }) },
  });
});
