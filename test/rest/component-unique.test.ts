import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../helpers/databases.js';
import { startTestApp, type TestApp, type TestSchemas } from '../helpers/app.js';

/**
 * Unique values inside components, checked as Strapi 5.54 checks them (src/documents/unique-rule.ts): drafts are not
 * checked; publishing (and any write to a type without Draft & Publish) compares a component's unique value with the
 * published versions of the type's other documents in the same locale, at the same place in the entry; the items of
 * a repeatable component (or of a dynamic zone) at the top of the entry are compared with each other first; '' and
 * null never clash. The answers are those real Strapi 5.54 gave for the same requests.
 */
const localized = { i18n: { localized: true } };
const schemas: TestSchemas = {
  contentTypes: {
    page: {
      kind: 'collectionType',
      collectionName: 'pages',
      info: { singularName: 'page', pluralName: 'pages', displayName: 'page' },
      options: { draftAndPublish: true },
      pluginOptions: localized,
      attributes: {
        title: { type: 'string', pluginOptions: localized },
        part: { type: 'component', component: 'default.tag', pluginOptions: localized },
        parts: { type: 'component', component: 'default.tag', repeatable: true, pluginOptions: localized },
        wrap: { type: 'component', component: 'default.wrap', pluginOptions: localized },
        wraps: { type: 'component', component: 'default.wrap', repeatable: true, pluginOptions: localized },
        zone: { type: 'dynamiczone', components: ['default.tag', 'default.wrap'], pluginOptions: localized },
        slug: { type: 'string', unique: true, pluginOptions: localized },
      },
    },
    note: {
      kind: 'collectionType',
      collectionName: 'notes',
      info: { singularName: 'note', pluralName: 'notes', displayName: 'note' },
      options: { draftAndPublish: false },
      attributes: {
        title: { type: 'string' },
        part: { type: 'component', component: 'default.tag' },
        parts: { type: 'component', component: 'default.tag', repeatable: true },
      },
    },
  },
  components: {
    'default.tag': {
      collectionName: 'components_default_tags',
      info: { displayName: 'tag' },
      attributes: {
        code: { type: 'string', unique: true },
        num: { type: 'integer', unique: true },
        when: { type: 'datetime', unique: true },
        at: { type: 'time', unique: true },
        label: { type: 'string' },
      },
    },
    'default.wrap': {
      collectionName: 'components_default_wraps',
      info: { displayName: 'wrap' },
      attributes: { inner: { type: 'component', component: 'default.tag' } },
    },
  },
  config: { plugins: { i18n: { config: { defaultLocale: 'en', locales: ['en', 'fr'] } } } },
};

type Answer = Awaited<ReturnType<TestApp['request']>>;
const unique = (path: Array<string | number>, value: unknown) => ({ path: path.map(String), message: 'This attribute must be unique', name: 'ValidationError', value });

describeEachDialect('unique values inside components, as Strapi 5.54 checks them', (dialect) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(dialect, schemas);
  });
  afterAll(async () => app?.close());

  const draft = async (data: object, locale = 'en') => {
    const res = await app.request('POST', `/api/pages?status=draft&locale=${locale}`, { data });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.data.documentId as string;
  };
  /** Publishing through REST: an update without `status=draft` (Strapi's content API has no publish route). */
  const publish = (documentId: string, locale = 'en') => app.request('PUT', `/api/pages/${documentId}?locale=${locale}`, { data: {} });
  const refused = (res: Answer, ...errors: object[]) => {
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body.error).toEqual({
      status: 400,
      name: 'ValidationError',
      message: errors.length === 1 ? 'This attribute must be unique' : `${errors.length} errors occurred`,
      details: { errors },
    });
  };
  const ok = (res: Answer) => expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);

  it('a single component: drafts may share a value; publishing compares it with published versions only', async () => {
    const a = await draft({ part: { code: 'single' } });
    ok(await publish(a));
    // A draft is not checked.
    const b = await draft({ part: { code: 'single' } });
    refused(await publish(b), unique(['part', 'code'], 'single'));
    // Nor is a write that publishes (POST without status, PUT) let through.
    refused(await app.request('POST', '/api/pages', { data: { part: { code: 'single' } } }), unique(['part', 'code'], 'single'));
    refused(await app.request('PUT', `/api/pages/${b}`, { data: { title: 'b' } }), unique(['part', 'code'], 'single'));
    // Nothing was published.
    expect((await app.request('GET', `/api/pages/${b}`)).status).toBe(404);
    // Another document's draft is not compared with.
    await draft({ part: { code: 'draft only' } });
    ok(await publish(await draft({ part: { code: 'draft only' } })));
    // Other types of values: a number, a datetime and a time (reported as the draft holds them).
    ok(await publish(await draft({ part: { num: 42, when: '2024-05-01T10:00:00Z', at: '10:20:30' } })));
    refused(
      await publish(await draft({ part: { num: 42, when: '2024-05-01T10:00:00.000Z', at: '10:20:30.000' } })),
      unique(['part', 'num'], 42),
      unique(['part', 'when'], '2024-05-01T10:00:00.000Z'),
      // A time as the driver reads it back: PostgreSQL prints no zero fraction.
      unique(['part', 'at'], dialect === 'postgres' ? '10:20:30' : '10:20:30.000'),
    );
  });

  it('the same document republished keeps its value; another locale does not clash; the same value elsewhere in the entry does not either', async () => {
    const a = await draft({ part: { code: 'mine' }, slug: 'mine' });
    ok(await publish(a));
    ok(await app.request('PUT', `/api/pages/${a}`, { data: { part: { code: 'mine', label: 'again' } } }));
    ok(await publish(a));
    // fr is compared with fr only.
    ok(await publish(await draft({ part: { code: 'mine' } }, 'fr'), 'fr'));
    refused(await publish(await draft({ part: { code: 'mine' } }, 'fr'), 'fr'), unique(['part', 'code'], 'mine'));
    // The same component in another attribute, or nested elsewhere, is another place.
    ok(await publish(await draft({ parts: [{ code: 'mine' }], wrap: { inner: { code: 'mine' } }, zone: [{ __component: 'default.tag', code: 'mine' }] })));
  });

  it("a repeatable component: its items are compared with each other, then with other documents' items", async () => {
    refused(await publish(await draft({ parts: [{ code: 'r' }, { code: 'r' }] })), unique(['parts', 0, 'code'], 'r'), unique(['parts', 1, 'code'], 'r'));
    ok(await publish(await draft({ parts: [{ code: 'r2' }] })));
    refused(await publish(await draft({ parts: [{ code: 'q' }, { code: 'r2' }] })), unique(['parts', 1, 'code'], 'r2'));
    // Nested in a repeatable: compared through the single component of each item.
    refused(
      await publish(await draft({ wraps: [{ inner: { code: 'w' } }, { inner: { code: 'w' } }] })),
      unique(['wraps', 0, 'inner', 'code'], 'w'),
      unique(['wraps', 1, 'inner', 'code'], 'w'),
    );
    ok(await publish(await draft({ wraps: [{ inner: { code: 'w2' } }] })));
    refused(await publish(await draft({ wraps: [{ inner: { code: 'w3' } }, { inner: { code: 'w2' } }] })), unique(['wraps', 1, 'inner', 'code'], 'w2'));
    // A nested single component.
    ok(await publish(await draft({ wrap: { inner: { code: 'n' } } })));
    refused(await publish(await draft({ wrap: { inner: { code: 'n' } } })), unique(['wrap', 'inner', 'code'], 'n'));
  });

  it('a dynamic zone: the items of the same component are compared with each other and with those of other documents', async () => {
    const tag = (code: string) => ({ __component: 'default.tag', code });
    refused(await publish(await draft({ zone: [tag('z'), tag('z')] })), unique(['zone', 0, 'code'], 'z'), unique(['zone', 1, 'code'], 'z'));
    ok(await publish(await draft({ zone: [tag('z1')] })));
    refused(await publish(await draft({ zone: [tag('z2'), tag('z1')] })), unique(['zone', 1, 'code'], 'z1'));
    // Strapi compares a zone's direct items only: a value nested in a zone item is not compared.
    const wrapped = { __component: 'default.wrap', inner: { code: 'zn' } };
    ok(await publish(await draft({ zone: [wrapped, wrapped] })));
    ok(await publish(await draft({ zone: [wrapped] })));
  });

  it("'' is never a duplicate; errors come in attribute order", async () => {
    for (let i = 0; i < 2; i++) ok(await publish(await draft({ part: { code: '' }, parts: [{ code: '' }, { code: '' }] })));
    const data = { slug: 'ordered', part: { code: 'o' }, parts: [{ code: 'op' }] };
    ok(await publish(await draft(data)));
    refused(await publish(await draft(data)), unique(['part', 'code'], 'o'), unique(['parts', 0, 'code'], 'op'), unique(['slug'], 'ordered'));
  });

  it('a type without Draft & Publish is checked on every write: create, update, the items of a list', async () => {
    const write = (method: string, url: string, data: object) => app.request(method, url, { data });
    const a = await write('POST', '/api/notes', { part: { code: 'na' }, parts: [{ code: 'np' }] });
    ok(a);
    const id = a.body.data.documentId as string;
    refused(await write('POST', '/api/notes', { part: { code: 'na' } }), unique(['part', 'code'], 'na'));
    refused(await write('POST', '/api/notes', { parts: [{ code: 'nr' }, { code: 'nr' }] }), unique(['parts', 0, 'code'], 'nr'), unique(['parts', 1, 'code'], 'nr'));
    refused(await write('POST', '/api/notes', { parts: [{ code: 'np' }] }), unique(['parts', 0, 'code'], 'np'));
    // Dates are compared as stored and reported as sent.
    ok(await write('POST', '/api/notes', { parts: [{ at: '08:09:10', when: '2024-06-01T08:00:00.000Z' }] }));
    refused(
      await write('POST', '/api/notes', { parts: [{ at: '08:09:10', when: '2024-06-01T08:00:00Z' }] }),
      unique(['parts', 0, 'when'], '2024-06-01T08:00:00Z'),
      unique(['parts', 0, 'at'], '08:09:10'),
    );
    // Its own values again, and an update that leaves the components alone.
    ok(await write('PUT', `/api/notes/${id}`, { part: { code: 'na' }, parts: [{ code: 'np' }] }));
    const b = await write('POST', '/api/notes', { title: 'b' });
    refused(await write('PUT', `/api/notes/${b.body.data.documentId}`, { part: { code: 'na' } }), unique(['part', 'code'], 'na'));
    ok(await write('PUT', `/api/notes/${b.body.data.documentId}`, { title: 'bb' }));
    ok(await write('POST', '/api/notes', { part: { code: '' } }));
    ok(await write('POST', '/api/notes', { part: { code: '' } }));
  });

  it('GraphQL and the Document Service writes are checked the same way', async () => {
    ok(await app.request('POST', '/api/notes', { data: { part: { code: 'gq' } } }));
    const res = await app.request('POST', '/graphql', { query: 'mutation { createNote(data: { part: { code: "gq" } }) { documentId } }' });
    expect(res.body.errors?.[0]).toMatchObject({
      message: 'This attribute must be unique',
      extensions: { error: { name: 'ValidationError', details: { errors: [unique(['part', 'code'], 'gq')] } } },
    });
    const documents = app.cairn.strapi.documents('api::page.page');
    const first = await documents.create({ data: { parts: [{ code: 'ds' }] } } as never);
    await documents.publish!({ documentId: String(first.documentId) } as never);
    const second = await documents.create({ data: { parts: [{ code: 'ds' }] } } as never);
    await expect(documents.publish!({ documentId: String(second.documentId) } as never)).rejects.toThrow('This attribute must be unique');
  });
});
