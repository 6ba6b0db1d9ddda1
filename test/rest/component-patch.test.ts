import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../helpers/databases.js';
import { startTestApp, type TestApp, type TestSchemas } from '../helpers/app.js';

/**
 * A component given back on an update with its `id` patches that component row in place, as Strapi 5's
 * updateComponents does: the row keeps its id, the fields not given keep their values, ids inside it name its own
 * components. A component given without an `id` is a new row made of exactly what it gives. Components of the field
 * that are not given again are deleted, with what hangs off them.
 */
const schemas: TestSchemas = {
  contentTypes: {
    box: {
      kind: 'collectionType',
      collectionName: 'boxes',
      info: { singularName: 'box', pluralName: 'boxes', displayName: 'box' },
      options: { draftAndPublish: false },
      attributes: {
        title: { type: 'string' },
        card: { type: 'component', component: 'parts.card' },
        cards: { type: 'component', component: 'parts.card', repeatable: true },
        zone: { type: 'dynamiczone', components: ['parts.card', 'parts.note'] },
      },
    },
    page: {
      kind: 'collectionType',
      collectionName: 'pages',
      info: { singularName: 'page', pluralName: 'pages', displayName: 'page' },
      options: { draftAndPublish: true },
      attributes: { title: { type: 'string' }, card: { type: 'component', component: 'parts.card' } },
    },
    tag: {
      kind: 'collectionType',
      collectionName: 'tags',
      info: { singularName: 'tag', pluralName: 'tags', displayName: 'tag' },
      options: { draftAndPublish: false },
      attributes: { name: { type: 'string' } },
    },
  },
  components: {
    'parts.card': {
      collectionName: 'components_parts_cards',
      info: { displayName: 'card' },
      attributes: {
        text: { type: 'string', required: true },
        note: { type: 'string' },
        inner: { type: 'component', component: 'parts.note' },
        tags: { type: 'relation', relation: 'oneToMany', target: 'api::tag.tag' },
      },
    },
    'parts.note': { collectionName: 'components_parts_notes', info: { displayName: 'note' }, attributes: { body: { type: 'string' } } },
  },
};

type Entry = Record<string, any>;
const POPULATE = 'populate[card][populate]=*&populate[cards][populate]=*&populate[zone][populate]=*';

describeEachDialect('components patched by id on update', (dialect) => {
  let app: TestApp;
  let tags: Entry[];
  beforeAll(async () => {
    app = await startTestApp(dialect, schemas);
    tags = [];
    for (const name of ['red', 'blue']) tags.push((await app.request('POST', '/api/tags', { data: { name } })).body.data);
  });
  afterAll(async () => app?.close());

  const rows = async (table: string) => Number((await app.cairn.db.query<{ n: number }>(`SELECT COUNT(*) AS n FROM ${table}`))[0].n);
  const create = async (data: Entry) => {
    const res = await app.request('POST', `/api/boxes?${POPULATE}`, { data });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.data as Entry;
  };
  const update = (documentId: string, data: Entry) => app.request('PUT', `/api/boxes/${documentId}?${POPULATE}`, { data });

  it('a single component given with its id keeps its row and the fields not given; without one it is a new row', async () => {
    const box = await create({ card: { text: 'original', note: 'first', inner: { body: 'deep' }, tags: [tags[0].documentId] } });
    const before = await rows('components_parts_cards');
    const patched = await update(box.documentId, { card: { id: box.card.id, note: 'second' } });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    expect(patched.body.data.card).toMatchObject({ id: box.card.id, text: 'original', note: 'second', inner: { id: box.card.inner.id, body: 'deep' } });
    expect(patched.body.data.card.tags.map((t: Entry) => t.name)).toEqual(['red']);

    const replaced = await update(box.documentId, { card: { text: 'new' } });
    expect(replaced.status).toBe(200);
    expect(replaced.body.data.card).toMatchObject({ text: 'new', note: null, inner: null, tags: [] });
    expect(replaced.body.data.card.id).not.toBe(box.card.id);
    // The old row went with its nested component: as many rows as before.
    expect(await rows('components_parts_cards')).toBe(before);
  });

  it('a patched component takes ids of its own nested components, relation operations on its lists, and the checks of an update', async () => {
    const box = await create({ card: { text: 't', inner: { body: 'a' }, tags: [tags[0].documentId] } });
    const nested = await update(box.documentId, { card: { id: box.card.id, inner: { id: box.card.inner.id, body: 'b' }, tags: { connect: [tags[1].documentId] } } });
    expect(nested.status, JSON.stringify(nested.body)).toBe(200);
    expect(nested.body.data.card.inner).toEqual({ id: box.card.inner.id, body: 'b' });
    expect(nested.body.data.card.tags.map((t: Entry) => t.name)).toEqual(['red', 'blue']);

    // Another entry's nested component is not this one's.
    const other = await create({ card: { text: 'o', inner: { body: 'x' } } });
    const foreign = await update(box.documentId, { card: { id: box.card.id, inner: { id: other.card.inner.id, body: 'c' } } });
    expect(foreign.status).toBe(400);
    expect(foreign.body.error).toMatchObject({ name: 'ApplicationError', message: 'Some of the provided components in inner are not related to the entity' });

    // `text` is required: a patch may leave it out, not set it to null.
    const nulled = await update(box.documentId, { card: { id: box.card.id, text: null } });
    expect(nulled.status).toBe(400);
    expect(nulled.body.error.details.errors[0].path).toEqual(['card', 'text']);
    const read = (await app.request('GET', `/api/boxes/${box.documentId}?${POPULATE}`)).body.data;
    expect(read.card).toMatchObject({ id: box.card.id, text: 't', inner: { body: 'b' } });
  });

  it('a list: items given with ids are patched and reordered, new ones added, the others deleted', async () => {
    const box = await create({ cards: [{ text: 'a' }, { text: 'b', note: 'kept' }, { text: 'c' }] });
    const [a, b, c] = box.cards as Entry[];
    const before = await rows('components_parts_cards');
    const res = await update(box.documentId, { cards: [{ id: String(b.id), text: 'B' }, { text: 'd' }, { id: a.id }] });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const cards = res.body.data.cards as Entry[];
    expect(cards.map((card) => [card.text, card.note])).toEqual([['B', 'kept'], ['d', null], ['a', null]]);
    expect([cards[0].id, cards[2].id]).toEqual([b.id, a.id]);
    expect(cards[1].id).not.toBe(c.id);
    // c went, d came.
    expect(await rows('components_parts_cards')).toBe(before);
  });

  it('a dynamic zone: an item with an id is patched (of its component: the same id in another is not it), one without is new', async () => {
    const box = await create({ zone: [{ __component: 'parts.card', text: 'first' }, { __component: 'parts.note', body: 'second' }] });
    const [first, second] = box.zone as Entry[];
    const res = await update(box.documentId, { zone: [{ __component: 'parts.card', id: first.id }, { __component: 'parts.note', body: 'replaced' }] });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.zone).toMatchObject([{ __component: 'parts.card', id: first.id, text: 'first' }, { __component: 'parts.note', body: 'replaced' }]);
    expect(res.body.data.zone[1].id).not.toBe(second.id);
    const wrongType = await update(box.documentId, { zone: [{ __component: 'parts.note', id: first.id }] });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.error.message).toBe('Some of the provided components in zone are not related to the entity');
  });

  it('one component given twice is refused, and nothing is written', async () => {
    const box = await create({ title: 'twice', cards: [{ text: 'a' }, { text: 'b' }] });
    const [a] = box.cards as Entry[];
    const res = await update(box.documentId, { title: 'changed', cards: [{ id: a.id, text: 'x' }, { id: a.id, text: 'y' }] });
    expect(res.status).toBe(400);
    expect(res.body.error).toEqual({ status: 400, name: 'ValidationError', message: `The component ${a.id} is given more than once in cards`, details: {} });
    const read = (await app.request('GET', `/api/boxes/${box.documentId}?${POPULATE}`)).body.data;
    expect(read.title).toBe('twice');
    expect(read.cards.map((card: Entry) => card.text)).toEqual(['a', 'b']);
  });

  it('Draft & Publish: a published component sent back patches a copy of it in the draft; the published row keeps its own', async () => {
    const created = await app.request('POST', '/api/pages?populate[card][populate]=*', { data: { title: 'p', card: { text: 'pub', note: 'n', inner: { body: 'i' } } } });
    expect(created.status).toBe(201);
    const { documentId, card } = created.body.data as Entry;
    const draft = await app.request('PUT', `/api/pages/${documentId}?status=draft&populate[card][populate]=*`, { data: { card: { id: card.id, note: 'changed' } } });
    expect(draft.status, JSON.stringify(draft.body)).toBe(200);
    expect(draft.body.data.card).toMatchObject({ text: 'pub', note: 'changed', inner: { body: 'i' } });
    expect(draft.body.data.card.id).not.toBe(card.id);
    const published = (await app.request('GET', `/api/pages/${documentId}?populate[card][populate]=*`)).body.data;
    expect(published.card).toMatchObject({ id: card.id, text: 'pub', note: 'n', inner: { body: 'i' } });
    // A PUT that publishes: the published version is the patched draft's copy.
    const both = await app.request('PUT', `/api/pages/${documentId}?populate[card][populate]=*`, { data: { card: { id: card.id, text: 'again' } } });
    expect(both.status, JSON.stringify(both.body)).toBe(200);
    expect(both.body.data.card).toMatchObject({ text: 'again', note: 'n', inner: { body: 'i' } });
    const draftNow = (await app.request('GET', `/api/pages/${documentId}?status=draft&populate[card][populate]=*`)).body.data;
    expect(draftNow.card).toMatchObject({ text: 'again', note: 'n', inner: { body: 'i' } });
  });
});
