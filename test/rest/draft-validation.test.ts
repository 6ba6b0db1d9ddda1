import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../helpers/databases.js';
import { startTestApp, type TestApp, type TestSchemas } from '../helpers/app.js';

/**
 * Drafts are checked as Strapi 5 checks them: a draft may be incomplete (required values and single components,
 * `minLength`, a list's `min`/`max` are not checked), and publishing (a write without `status=draft`, or the
 * publish action) checks the stored draft whole, with Strapi's messages, leaving everything as it was when refused.
 */
const compo = { collectionName: 'components_default_parts', info: { displayName: 'part' }, attributes: {
  name: { type: 'string', required: true },
  note: { type: 'text', minLength: 3, maxLength: 10 },
} };

const schemas: TestSchemas = {
  contentTypes: {
    page: {
      kind: 'collectionType',
      collectionName: 'pages',
      info: { singularName: 'page', pluralName: 'pages', displayName: 'page' },
      options: { draftAndPublish: true },
      attributes: {
        title: { type: 'string', required: true, minLength: 3, maxLength: 20 },
        code: { type: 'string', unique: true },
        when: { type: 'datetime', required: true },
        part: { type: 'component', component: 'default.part', required: true },
        parts: { type: 'component', component: 'default.part', repeatable: true, min: 2, max: 3 },
        zone: { type: 'dynamiczone', components: ['default.part'], required: true, min: 1 },
      },
    },
  },
  components: { 'default.part': compo },
};

const part = (name?: string, note = 'fine') => (name === undefined ? { note } : { name, note });
const complete = () => ({
  title: 'Title',
  when: '2024-01-01T00:00:00.000Z',
  part: part('p'),
  parts: [part('a'), part('b')],
  zone: [{ __component: 'default.part', ...part('z') }],
});

describeEachDialect('drafts checked as Strapi 5 checks them', (dialect) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(dialect, schemas);
  });
  afterAll(async () => app?.close());

  const messages = (res: { status: number; body: { error?: { details?: { errors?: Array<{ message: string; path: string[] }> } } } }) => {
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    return res.body.error!.details!.errors!.map((e) => `${e.path.join('.')}: ${e.message}`);
  };

  it('an incomplete draft is accepted: required, minLength, single components, list min/max are left for publishing', async () => {
    const res = await app.request('POST', '/api/pages?status=draft', {
      data: { title: 'ab', part: null, parts: [part(undefined, 'x')], zone: [] },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data).toMatchObject({ title: 'ab', publishedAt: null, when: null });
    // Nor does an update of the draft check them.
    const put = await app.request('PUT', `/api/pages/${res.body.data.documentId}?status=draft`, {
      data: { title: null, parts: [part('a'), part('b'), part('c'), part('d')] },
    });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    // What a draft is checked for all the same: types, maxLength, and a list is never null nor a required one absent.
    expect(messages(await app.request('POST', '/api/pages?status=draft', { data: { title: 'far longer than twenty', zone: [] } }))).toEqual([
      'title: title must be at most 20 characters',
    ]);
    expect(messages(await app.request('POST', '/api/pages?status=draft', { data: { title: 'x', parts: null } }))).toEqual([
      'parts: parts must be a `array` type, but the final value was: `null`.',
      'zone: zone must be defined.',
    ]);
    // Inside a component of a draft too.
    expect((await app.request('POST', '/api/pages?status=draft', { data: { zone: [], part: { note: 'x' } } })).status).toBe(201);
  });

  it('publishing checks the stored draft whole, with Strapi 5 messages; a refused publish changes nothing', async () => {
    const draft = await app.request('POST', '/api/pages?status=draft', { data: { title: 'ab', parts: [part('a')], zone: [] } });
    expect(draft.status).toBe(201);
    const id = draft.body.data.documentId as string;
    const expected = [
      'title: title must be at least 3 characters',
      'when: when must be defined.',
      'part: part must be a `object` type, but the final value was: `null`.',
      'parts: parts field must have at least 2 items',
      'zone: zone field must have at least 1 items',
    ];
    // A publishing write whose own body is fine is refused for what the stored draft lacks.
    expect(messages(await app.request('PUT', `/api/pages/${id}`, { data: { code: 'one' } }))).toEqual(expected);
    expect(messages(await app.request('POST', `/api/pages/${id}/actions/publish`, {}))).toEqual(expected);
    // Nothing was written or published.
    expect((await app.request('GET', `/api/pages/${id}`)).status).toBe(404);
    expect((await app.request('GET', `/api/pages/${id}?status=draft`)).body.data.code).toBeNull();

    // Nested: a component's own required value and minLength.
    await app.request('PUT', `/api/pages/${id}?status=draft`, {
      data: { ...complete(), parts: [part('a'), part(undefined, 'no')] },
    });
    expect(messages(await app.request('POST', `/api/pages/${id}/actions/publish`, {}))).toEqual([
      'parts.1.name: parts[1].name must be a `string` type, but the final value was: `null`.',
      'parts.1.note: parts[1].note must be at least 3 characters',
    ]);
    const done = await app.request('PUT', `/api/pages/${id}`, { data: { parts: [part('a'), part('b')] } });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body.data.publishedAt).not.toBeNull();
  });

  it('a create that publishes is refused for what a published version needs', async () => {
    const { title: _t, part: _p, ...rest } = complete();
    expect(messages(await app.request('POST', '/api/pages', { data: rest }))).toEqual([
      'title: title must be a `string` type, but the final value was: `null`.',
      'part: part must be a `object` type, but the final value was: `null`.',
    ]);
    expect((await app.request('POST', '/api/pages', { data: complete() })).status).toBe(201);
  });

  it('a unique value is checked when published, among published versions; drafts may share it, as in Strapi 5', async () => {
    const a = await app.request('POST', '/api/pages?status=draft', { data: { ...complete(), code: 'draft-dup' } });
    const b = await app.request('POST', '/api/pages?status=draft', { data: { ...complete(), code: 'draft-dup' } });
    expect([a.status, b.status], JSON.stringify(b.body)).toEqual([201, 201]);
    expect((await app.request('POST', `/api/pages/${a.body.data.documentId}/actions/publish`, {})).status).toBe(200);
    expect(messages(await app.request('POST', `/api/pages/${b.body.data.documentId}/actions/publish`, {}))).toEqual(['code: This attribute must be unique']);
    // An empty string is never a duplicate.
    for (const page of [a, b]) await app.request('PUT', `/api/pages/${page.body.data.documentId}`, { data: { code: '' } });
    const published = await app.request('GET', '/api/pages?filters[code][$eq]=');
    expect(published.body.data.length).toBe(2);
  });

  it('a unique value of a published version stays unique when its draft moves on', async () => {
    const first = await app.request('POST', '/api/pages', { data: { ...complete(), code: 'same' } });
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    // The first document's draft moves on; its published version keeps the value.
    await app.request('PUT', `/api/pages/${first.body.data.documentId}?status=draft`, { data: { code: 'moved' } });
    const second = await app.request('POST', '/api/pages?status=draft', { data: { ...complete(), code: 'same' } });
    expect(second.status, JSON.stringify(second.body)).toBe(201);
    expect(messages(await app.request('POST', `/api/pages/${second.body.data.documentId}/actions/publish`, {}))).toEqual([
      'code: This attribute must be unique',
    ]);
  });
});
