import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachDialect } from '../helpers/databases.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { isLocalesRecheck } from '../helpers/auth-statements.js';

const model = {
  contentTypes: {
    article: {
      kind: 'collectionType',
      collectionName: 'articles',
      info: { singularName: 'article', pluralName: 'articles', displayName: 'Article' },
      options: { draftAndPublish: true },
      pluginOptions: { i18n: { localized: true } },
      attributes: {
        title: { type: 'string', pluginOptions: { i18n: { localized: true } } },
        password: { type: 'password' },
        secret: { type: 'string', private: true },
        categories: { type: 'relation', relation: 'manyToMany', target: 'api::category.category', inversedBy: 'articles' },
        cover: { type: 'media', multiple: false, allowedTypes: ['images', 'files'] },
        seo: { type: 'component', component: 'default.seo' },
        blocks: { type: 'dynamiczone', components: ['default.quote', 'default.seo'] },
      },
    },
    category: {
      kind: 'collectionType',
      collectionName: 'categories',
      info: { singularName: 'category', pluralName: 'categories', displayName: 'Category' },
      options: { draftAndPublish: false },
      attributes: {
        name: { type: 'string' },
        code: { type: 'string', private: true },
        articles: { type: 'relation', relation: 'manyToMany', target: 'api::article.article', mappedBy: 'categories' },
      },
    },
  },
  components: {
    'default.seo': {
      collectionName: 'components_default_seos',
      info: { displayName: 'seo' },
      attributes: { metaTitle: { type: 'string' }, note: { type: 'string', private: true }, tag: { type: 'component', component: 'default.tag' } },
    },
    'default.tag': { collectionName: 'components_default_tags', info: { displayName: 'tag' }, attributes: { label: { type: 'string' } } },
    'default.quote': { collectionName: 'components_default_quotes', info: { displayName: 'quote' }, attributes: { text: { type: 'text' }, category: { type: 'relation', relation: 'oneToOne', target: 'api::category.category' } } },
  },
  config: { plugins: { i18n: { config: { defaultLocale: 'en', locales: ['en', 'fr'] } } } },
};

interface Seen {
  /** What the app's listeners (`on`, registered in register()) got: [event, payload] (payloads of any shape). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  heard: Array<[string, Record<string, any>]>;
  /** What the app's subscriber (registered in bootstrap()) got: [event, ...args]. */
  subscribed: unknown[][];
  stopSubscriber: () => void;
}

/**
 * The app's src/index.js: a listener of every entry and media event (register), one that throws on an entry titled
 * "throw" (after the first, as a webhook that fails would), a lifecycle that refuses an entry titled "rollback"
 * after its rows were written, and a subscriber (bootstrap) whose unsubscribe function the test may call.
 */
const index = (key: string) => `
const EVENTS = ['entry.create', 'entry.update', 'entry.delete', 'entry.publish', 'entry.unpublish', 'entry.draft-discard', 'media.create', 'media.update', 'media.delete'];
module.exports = {
  register({ strapi }) {
    const seen = (globalThis[${JSON.stringify(key)}] = { heard: [], subscribed: [] });
    for (const name of EVENTS) strapi.eventHub.on(name, (payload) => void seen.heard.push([name, payload]));
    strapi.eventHub.on('entry.update', async (payload) => {
      if (payload.entry.title === 'throw') throw new Error('the listener failed');
    });
  },
  bootstrap({ strapi }) {
    const seen = globalThis[${JSON.stringify(key)}];
    seen.stopSubscriber = strapi.eventHub.subscribe((...args) => void seen.subscribed.push(args));
    strapi.db.lifecycles.subscribe({
      models: ['api::article.article'],
      afterCreate(event) {
        if (event.result.title === 'rollback') throw new Error('refused after the rows were written');
      },
    });
  },
};
`;

describeEachDialect('strapi.eventHub: what the Document Service and the media library emit', (dialect) => {
  let app: TestApp;
  const key = `__eventHub_${dialect}`;
  const seen = () => (globalThis as unknown as Record<string, Seen>)[key];
  /**
   * The events heard since `from`, which must be `count`: a write answers once its events were emitted (its
   * listeners done), so they are all there when the request or the call returns, and none comes later.
   */
  const heard = (from: number, count: number) => {
    const events = seen().heard.slice(from);
    expect(events.map(([name]) => name)).toHaveLength(count);
    return events;
  };
  const names = (events: Array<[string, unknown]>) => events.map(([name, payload]) => `${name} ${(payload as { entry?: { locale?: string; publishedAt?: unknown } }).entry?.publishedAt === null ? 'draft' : 'published'}`);
  let red: { documentId: string; id: number };
  beforeAll(async () => {
    app = await startTestApp(dialect, { ...model, index: index(key) });
    red = (await app.request('POST', '/api/categories', { data: { name: 'red', code: 'R' } })).body.data;
    heard(0, 1);
  });
  afterAll(async () => app?.close());

  it('REST create: entry.create for the draft, then entry.publish; { model, uid, entry } deep populated, without private attributes and passwords', async () => {
    const from = seen().heard.length;
    const body = {
      data: {
        title: 'Hello',
        password: 'hunter22',
        secret: 'hidden',
        categories: [red.documentId],
        seo: { metaTitle: 'Meta', note: 'private note', tag: { label: 'deep' } },
        blocks: [
          { __component: 'default.quote', text: 'Quoted', category: red.documentId },
          { __component: 'default.seo', metaTitle: 'In zone', tag: { label: 'deeper' } },
        ],
      },
    };
    const created = await app.request('POST', '/api/articles', body);
    expect(created.status).toBe(201);
    const events = heard(from, 2);
    expect(names(events)).toEqual(['entry.create draft', 'entry.publish published']);
    for (const [, payload] of events) {
      expect(payload).toMatchObject({
        model: 'article',
        uid: 'api::article.article',
        entry: {
          id: expect.any(Number),
          documentId: created.body.data.documentId,
          locale: 'en',
          title: 'Hello',
          categories: [{ documentId: red.documentId, name: 'red' }],
          cover: null,
          seo: { metaTitle: 'Meta', tag: { label: 'deep' } },
          blocks: [
            { __component: 'default.quote', text: 'Quoted', category: { name: 'red' } },
            { __component: 'default.seo', metaTitle: 'In zone', tag: { label: 'deeper' } },
          ],
        },
      });
      const text = JSON.stringify(payload);
      for (const hidden of ['password', 'hunter22', 'secret', 'hidden', 'private note', '"code"']) expect(text).not.toContain(hidden);
    }
    expect(events[1][1].entry.publishedAt).toEqual(expect.any(String));
    // The subscriber is called for every event, with the event's name first.
    expect(seen().subscribed.slice(-2)).toEqual([['entry.create', events[0][1]], ['entry.publish', events[1][1]]]);
  });

  it('REST update: entry.update (then entry.publish, unless status=draft); a type without Draft & Publish: entry.create, entry.update', async () => {
    const before = seen().heard.length;
    const { documentId } = (await app.request('POST', '/api/articles?status=draft', { data: { title: 'Draft only' } })).body.data;
    heard(before, 1);
    let from = seen().heard.length;
    await app.request('PUT', `/api/articles/${documentId}?status=draft`, { data: { title: 'Still a draft' } });
    let events = heard(from, 1);
    expect(names(events)).toEqual(['entry.update draft']);
    expect(events[0][1].entry).toMatchObject({ documentId, title: 'Still a draft' });

    from = seen().heard.length;
    await app.request('PUT', `/api/articles/${documentId}`, { data: { title: 'Published now' } });
    events = heard(from, 2);
    expect(names(events)).toEqual(['entry.update draft', 'entry.publish published']);
    expect(events.map(([, p]) => p.entry.title)).toEqual(['Published now', 'Published now']);

    from = seen().heard.length;
    const blue = (await app.request('POST', '/api/categories', { data: { name: 'blue' } })).body.data;
    await app.request('PUT', `/api/categories/${blue.documentId}`, { data: { name: 'navy' } });
    events = heard(from, 2);
    expect(events.map(([name, p]) => `${name} ${p.model} ${p.entry.name}`)).toEqual(['entry.create category blue', 'entry.update category navy']);
    expect(events[1][1].entry.publishedAt).toEqual(expect.any(String));
  });

  it('REST delete: entry.delete for each version deleted, as it was (not populated)', async () => {
    const before = seen().heard.length;
    const { documentId } = (await app.request('POST', '/api/articles', { data: { title: 'Doomed', password: 'hunter22', categories: [red.documentId] } })).body.data;
    heard(before, 2);
    const from = seen().heard.length;
    expect((await app.request('DELETE', `/api/articles/${documentId}`)).status).toBe(204);
    const events = heard(from, 2);
    expect(events.map(([name]) => name)).toEqual(['entry.delete', 'entry.delete']);
    expect(events.map(([, p]) => p.entry.publishedAt === null).sort()).toEqual([false, true]);
    for (const [, payload] of events) {
      expect(payload).toMatchObject({ model: 'article', uid: 'api::article.article', entry: { documentId, title: 'Doomed', locale: 'en' } });
      expect(payload.entry).not.toHaveProperty('categories');
      expect(payload.entry).not.toHaveProperty('password');
    }
  });

  it("app code: publish, unpublish, discardDraft, clone, an update in a new locale, each with Strapi's event", async () => {
    const articles = app.cairn.strapi.documents('api::article.article');
    const before = seen().heard.length;
    const draft = await articles.create({ data: { title: 'Code', categories: [red.documentId] } });
    heard(before, 1);
    let from = seen().heard.length;
    await articles.publish!({ documentId: draft.documentId as string });
    let events = heard(from, 1);
    expect(names(events)).toEqual(['entry.publish published']);
    expect(events[0][1].entry).toMatchObject({ documentId: draft.documentId, title: 'Code', categories: [{ name: 'red' }] });

    from = seen().heard.length;
    await articles.update({ documentId: draft.documentId as string, data: { title: 'Code, changed' } });
    await articles.discardDraft!({ documentId: draft.documentId as string });
    events = heard(from, 2);
    expect(names(events)).toEqual(['entry.update draft', 'entry.draft-discard draft']);
    expect(events[1][1].entry).toMatchObject({ title: 'Code', categories: [{ name: 'red' }] });

    from = seen().heard.length;
    await articles.unpublish!({ documentId: draft.documentId as string });
    events = heard(from, 1);
    expect(names(events)).toEqual(['entry.unpublish published']);
    expect(events[0][1].entry).toMatchObject({ documentId: draft.documentId, title: 'Code' });
    expect(events[0][1].entry).not.toHaveProperty('categories');

    from = seen().heard.length;
    await articles.update({ documentId: draft.documentId as string, locale: 'fr', data: { title: 'Code en français' } } as never);
    const clone = await articles.clone({ documentId: draft.documentId as string, data: { title: 'Code copy' } });
    events = heard(from, 2);
    expect(events.map(([name, p]) => `${name} ${p.entry.locale} ${p.entry.title}`)).toEqual(['entry.create fr Code en français', 'entry.create en Code copy']);
    expect(events[1][1].entry).toMatchObject({ documentId: clone.documentId, publishedAt: null, categories: [{ name: 'red' }] });
    // Nothing happens twice: a publish without a draft to publish, an unpublish without a published version.
    from = seen().heard.length;
    await articles.unpublish!({ documentId: draft.documentId as string });
    await articles.update({ documentId: draft.documentId as string, data: { title: 'marker' } });
    events = heard(from, 1);
    expect(names(events)).toEqual(['entry.update draft']);
  });

  it('GraphQL mutations emit as REST does', async () => {
    const from = seen().heard.length;
    const res = await app.request('POST', '/graphql', { query: 'mutation { createArticle(data: { title: "From GraphQL" }) { documentId } }' });
    expect(res.body.errors).toBeUndefined();
    const documentId = res.body.data.createArticle.documentId;
    await app.request('POST', '/graphql', { query: `mutation { deleteArticle(documentId: "${documentId}") { documentId } }` });
    const events = heard(from, 4);
    expect(events.map(([name, p]) => `${name} ${p.entry.title}`)).toEqual(['entry.create From GraphQL', 'entry.publish From GraphQL', 'entry.delete From GraphQL', 'entry.delete From GraphQL']);
  });

  it('a write that rolls back emits nothing: a lifecycle that throws after the rows were written, a transaction rolled back', async () => {
    const from = seen().heard.length;
    const refused = await app.request('POST', '/api/articles', { data: { title: 'rollback' } });
    expect(refused.status).toBeGreaterThanOrEqual(400);
    const articles = app.cairn.strapi.documents('api::article.article');
    await expect(
      app.cairn.strapi.db.transaction(async () => {
        await articles.create({ data: { title: 'undone' } });
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    expect(await articles.count({ filters: { title: { $in: ['rollback', 'undone'] } } })).toBe(0);
    // In a transaction that commits, events wait for the commit and come in order.
    await app.cairn.strapi.db.transaction(async () => {
      await articles.create({ data: { title: 'first in trx' } });
      await articles.create({ data: { title: 'second in trx' } });
      expect(seen().heard.length).toBe(from);
    });
    const events = heard(from, 2);
    expect(events.map(([name, p]) => `${name} ${p.entry.title}`)).toEqual(['entry.create first in trx', 'entry.create second in trx']);
  });

  it('a listener that throws fails neither the write nor the events after it, and is logged', async () => {
    const before = seen().heard.length;
    const { documentId } = (await app.request('POST', '/api/categories', { data: { name: 'for the throw' } })).body.data;
    const articles = app.cairn.strapi.documents('api::article.article');
    const article = await articles.create({ data: { title: 'about to throw' } });
    heard(before, 2);
    const from = seen().heard.length;
    const subscribedFrom = seen().subscribed.length;
    const updated = await app.request('PUT', `/api/articles/${article.documentId as string}`, { data: { title: 'throw' } });
    expect(updated.status).toBe(200);
    expect(updated.body.data.title).toBe('throw');
    await app.request('PUT', `/api/categories/${documentId}`, { data: { name: 'after the throw' } });
    const events = heard(from, 3);
    expect(events.map(([name, p]) => `${name} ${p.entry.title ?? p.entry.name}`)).toEqual(['entry.update throw', 'entry.publish throw', 'entry.update after the throw']);
    // emit stops at the listener that threw, as Strapi's: the subscriber after it missed that one event only.
    expect(seen().subscribed.slice(subscribedFrom).map((args) => args[0])).toEqual(['entry.publish', 'entry.update']);
    const logged = app.logs().filter((line) => line.msg.includes('entry.update failed'));
    expect(logged).toHaveLength(1);
    expect(logged[0].err?.message).toBe('the listener failed');
  });

  it('the media library emits media.create, media.update, media.delete with { media }', async () => {
    const from = seen().heard.length;
    const form = new FormData();
    form.append('files', new Blob([new Uint8Array(Buffer.from('%PDF-1.4\n%%EOF\n'))], { type: 'application/pdf' }), 'guide.pdf');
    const body = new Response(form);
    const uploaded = await app.cairn.fastify.inject({
      method: 'POST',
      url: '/api/upload',
      payload: Buffer.from(await body.arrayBuffer()),
      headers: { 'content-type': body.headers.get('content-type')!, authorization: `Bearer ${app.token}` },
    });
    expect(uploaded.statusCode).toBe(201);
    const [file] = JSON.parse(uploaded.body);
    const info = new FormData();
    info.append('fileInfo', JSON.stringify({ caption: 'A guide' }));
    const infoBody = new Response(info);
    await app.cairn.fastify.inject({
      method: 'POST',
      url: `/api/upload?id=${file.id}`,
      payload: Buffer.from(await infoBody.arrayBuffer()),
      headers: { 'content-type': infoBody.headers.get('content-type')!, authorization: `Bearer ${app.token}` },
    });
    expect((await app.request('DELETE', `/api/upload/files/${file.id}`)).status).toBe(200);
    const events = heard(from, 3);
    expect(events.map(([name, p]) => `${name} ${p.media.name} ${p.media.caption}`)).toEqual(['media.create guide.pdf null', 'media.update guide.pdf A guide', 'media.delete guide.pdf A guide']);
    expect(events[0][1]).toEqual({ media: expect.objectContaining({ id: file.id, documentId: file.documentId, url: file.url, mime: 'application/pdf' }) });
    expect(events[0][1].media).not.toHaveProperty('isUrlSigned');
  });

  it('unsubscribed, a subscriber hears nothing more; with nothing listening, a write reads nothing for its events', async () => {
    const before = seen().heard.length;
    const { documentId } = (await app.request('POST', '/api/categories', { data: { name: 'quiet' } })).body.data;
    heard(before, 1);
    const statements = async () => {
      let count = 0;
      // The locales' recheck, sent by whichever request first finds its period over, is not the write's.
      const stop = app.cairn.db.onQuery((sql) => void (isLocalesRecheck(sql) || count++));
      await app.request('PUT', `/api/categories/${documentId}`, { data: { name: 'quieter' } });
      stop();
      return count;
    };
    const before2 = seen().heard.length;
    const listened = await statements();
    heard(before2, 1);
    const subscribedFrom = seen().subscribed.length;
    seen().stopSubscriber();
    app.cairn.strapi.eventHub.removeAllListeners();
    const heardFrom = seen().heard.length;
    const unheard = await statements();
    expect(seen().subscribed.length).toBe(subscribedFrom);
    expect(seen().heard.length).toBe(heardFrom);
    // The populated read of entry.update's entry is skipped.
    expect(unheard).toBeLessThan(listened);
  });
});

describe("the README's strapi.eventHub example", () => {
  it('works as written: it logs each publish and each upload', async () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    const example = /```js\n(\/\/ src\/index\.js\nmodule\.exports = \{\n {2}register\(\{ strapi \}\) \{\n {4}\/\/ Each version published[\s\S]*?)```/.exec(readme)?.[1];
    expect(example).toBeDefined();
    const app = await startTestApp('sqlite', { contentTypes: { article: model.contentTypes.article, category: model.contentTypes.category }, components: model.components, index: example });
    try {
      const created = await app.request('POST', '/api/articles', { data: { title: 'Logged' } });
      expect(created.status).toBe(201);
      const form = new FormData();
      form.append('files', new Blob([new Uint8Array(Buffer.from('%PDF-1.4\n%%EOF\n'))], { type: 'application/pdf' }), 'notes.pdf');
      const body = new Response(form);
      const uploaded = await app.cairn.fastify.inject({
        method: 'POST',
        url: '/api/upload',
        payload: Buffer.from(await body.arrayBuffer()),
        headers: { 'content-type': body.headers.get('content-type')!, authorization: `Bearer ${app.token}` },
      });
      expect(uploaded.statusCode).toBe(201);
      const messages = app.logs().map((line) => line.msg);
      expect(messages).toContain(`article ${created.body.data.documentId as string} published (api::article.article)`);
      expect(messages).toContain('uploaded notes.pdf');
    } finally {
      await app.close();
    }
  });
});
