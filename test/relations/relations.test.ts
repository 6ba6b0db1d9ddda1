import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachDialect } from '../helpers/databases.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { kitchen } from '../fixtures/kitchen.js';

const relationModel = {
  ...kitchen,
  contentTypes: {
    ...kitchen.contentTypes,
    note: {
      kind: 'collectionType',
      collectionName: 'notes',
      info: { singularName: 'note', pluralName: 'notes', displayName: 'Note' },
      options: { draftAndPublish: false },
      attributes: {
        title: { type: 'string' },
        related: { type: 'relation', relation: 'manyToMany', target: 'api::note.note' },
        owner: { type: 'relation', relation: 'oneWay', target: 'api::chef.chef' },
        picture: { type: 'media', multiple: false, allowedTypes: ['images'] },
        gallery: { type: 'media', multiple: true },
      },
    },
  },
};

describeEachDialect('relation writes', (dialect) => {
  let app: TestApp;
  const notes: Record<string, string> = {};
  beforeAll(async () => {
    app = await startTestApp(dialect, relationModel);
    for (const name of ['A', 'B', 'C', 'D', 'E', 'F', 'G']) {
      notes[name] = (await app.request('POST', '/api/notes', { data: { title: name } })).body.data.documentId;
    }
  });
  afterAll(async () => app?.close());

  const ids = (...names: string[]) => names.map((n) => notes[n]);
  /** PUT on the list note X and answer the titles of its `related`, in order. */
  const put = async (data: unknown, on = 'A') => {
    const res = await app.request('PUT', `/api/notes/${notes[on]}?populate[related][fields][0]=title`, { data: { related: data } });
    return { status: res.status, body: res.body, titles: res.body.data?.related?.map((n: { title: string }) => n.title) };
  };
  const titles = async (on = 'A') =>
    (await app.request('GET', `/api/notes/${notes[on]}?populate[related][fields][0]=title`)).body.data.related.map((n: { title: string }) => n.title);

  it('a plain array is set, in the given order', async () => {
    expect((await put(ids('C', 'B'))).titles).toEqual(['C', 'B']);
  });

  it('set replaces the whole list (longhand and shorthand mixed)', async () => {
    expect((await put({ set: [{ documentId: notes.D }, notes.B, notes.C] })).titles).toEqual(['D', 'B', 'C']);
  });

  it('an object without operation keys means set', async () => {
    expect((await put({ documentId: notes.E })).titles).toEqual(['E']);
  });

  it('connect appends; disconnect removes; both in one request', async () => {
    await put(ids('B', 'C'));
    expect((await put({ connect: ids('D', 'E') })).titles).toEqual(['B', 'C', 'D', 'E']);
    expect((await put({ disconnect: [{ documentId: notes.C }] })).titles).toEqual(['B', 'D', 'E']);
    expect((await put({ connect: ids('F'), disconnect: ids('B') })).titles).toEqual(['D', 'E', 'F']);
  });

  it('positions: before, after, start, end, each against the list as already changed', async () => {
    await put(ids('B', 'C'));
    expect((await put({ connect: [{ documentId: notes.D, position: { before: notes.C } }] })).titles).toEqual(['B', 'D', 'C']);
    expect((await put({ connect: [{ documentId: notes.E, position: { after: notes.B } }] })).titles).toEqual(['B', 'E', 'D', 'C']);
    expect((await put({ connect: [{ documentId: notes.F, position: { start: true } }] })).titles).toEqual(['F', 'B', 'E', 'D', 'C']);
    expect((await put({ connect: [{ documentId: notes.G, position: { end: true } }] })).titles).toEqual(['F', 'B', 'E', 'D', 'C', 'G']);
    await put(ids('B'));
    const chained = await put({
      connect: [
        { documentId: notes.C, position: { before: notes.B } },
        { documentId: notes.D, position: { after: notes.C } },
        { documentId: notes.E, position: { start: true } },
      ],
    });
    expect(chained.titles).toEqual(['E', 'C', 'D', 'B']);
  });

  it('connecting an entry already in the list at a position moves it', async () => {
    await put(ids('B', 'C', 'D'));
    expect((await put({ connect: [{ documentId: notes.D, position: { start: true } }] })).titles).toEqual(['D', 'B', 'C']);
  });

  it('many inserts between the same two neighbours keep their order (midpoint keys, renumbered when exhausted)', async () => {
    await put(ids('B', 'C'));
    for (let i = 0; i < 60; i++) await put({ connect: [{ documentId: i % 2 ? notes.D : notes.E, position: { after: notes.B } }] });
    // The list still holds each entry once and keeps B first and C last.
    const list = await titles();
    expect(list[0]).toBe('B');
    expect(list[list.length - 1]).toBe('C');
    expect(new Set(list).size).toBe(list.length);
  });

  const bad = async (data: unknown, message: RegExp) => {
    const before = await titles();
    const res = await put(data);
    expect(res.status).toBe(400);
    expect(res.body.error.name).toBe('ValidationError');
    expect(res.body.error.message).toMatch(message);
    expect(await titles()).toEqual(before);
  };

  it('rejects set with connect, positions naming entries not in the list, two position keys', async () => {
    await put(ids('B'));
    await bad({ set: ids('C'), connect: ids('D') }, /cannot be combined/);
    await bad({ connect: [{ documentId: notes.C, position: { before: notes.G } }] }, /needs to be connected first/);
    await bad({ connect: [{ documentId: notes.C, position: { before: notes.B, start: true } }] }, /exactly one of/);
    await bad({ connect: [{ documentId: notes.C, position: { middle: true } }] }, /exactly one of|invalid position/);
  });

  it('rejects the same entry twice and unknown documents, writing nothing', async () => {
    await put(ids('B'));
    await bad({ connect: ids('C', 'C') }, /more than once/);
    await bad({ connect: [notes.C, 'doesnotexist0000000000000'] }, /doesnotexist0000000000000/);
    // A failing relation write leaves the other attributes untouched too (one transaction).
    const res = await app.request('PUT', `/api/notes/${notes.A}`, { data: { title: 'changed', related: { connect: ['nope00000000000000000000'] } } });
    expect(res.status).toBe(400);
    expect((await app.request('GET', `/api/notes/${notes.A}`)).body.data.title).toBe('A');
  });

  it('to-one relations: a single documentId, null to clear, and only the last item of a list kept', async () => {
    const chefA = (await app.request('POST', '/api/chefs', { data: { name: 'Ann' } })).body.data.documentId;
    const chefB = (await app.request('POST', '/api/chefs', { data: { name: 'Bob' } })).body.data.documentId;
    const owner = async (data: unknown) =>
      (await app.request('PUT', `/api/notes/${notes.B}?populate[owner][fields][0]=name`, { data: { owner: data } })).body.data.owner;
    expect((await owner(chefA)).name).toBe('Ann');
    expect((await owner({ connect: [chefA, chefB] })).name).toBe('Bob');
    expect((await owner([chefB, chefA])).name).toBe('Ann');
    expect(await owner(null)).toBeNull();
  });

  it('media: set by file id; connect of a file already there keeps one; a type not allowed is refused', async () => {
    const form = new FormData();
    form.append('files', new Blob([Buffer.from('%PDF-1.4\n%%EOF\n')], { type: 'application/pdf' }), 'doc.pdf');
    const response = new Response(form);
    const upload = await app.cairn.fastify.inject({
      method: 'POST',
      url: '/api/upload',
      payload: Buffer.from(await response.arrayBuffer()),
      headers: { 'content-type': response.headers.get('content-type')!, authorization: `Bearer ${app.token}` },
    });
    const file = JSON.parse(upload.body)[0];
    const set = await app.request('PUT', `/api/notes/${notes.C}?populate=gallery`, { data: { gallery: [file.id] } });
    expect(set.body.data.gallery.map((f: { name: string }) => f.name)).toEqual(['doc.pdf']);
    const connect = await app.request('PUT', `/api/notes/${notes.C}?populate=gallery`, { data: { gallery: { connect: [file.id] } } });
    expect(connect.status).toBe(200);
    expect(connect.body.data.gallery.map((f: { name: string }) => f.name)).toEqual(['doc.pdf']);
    const notAnImage = await app.request('PUT', `/api/notes/${notes.C}`, { data: { picture: file.id } });
    expect(notAnImage.status).toBe(400);
  });

  describe('both sides of a bidirectional relation', () => {
    it('connecting chef on restaurants lists them on the chef, in order; each side keeps its own order', async () => {
      const chef = (await app.request('POST', '/api/chefs', { data: { name: 'Zoe' } })).body.data.documentId;
      const r1 = (await app.request('POST', '/api/restaurants', { data: { name: 'R1', chef } })).body.data.documentId;
      const r2 = (await app.request('POST', '/api/restaurants', { data: { name: 'R2', chef } })).body.data.documentId;
      const listed = async () =>
        (await app.request('GET', `/api/chefs/${chef}?populate[restaurants][fields][0]=name`)).body.data.restaurants.map((r: { name: string }) => r.name);
      expect(await listed()).toEqual(['R1', 'R2']);
      // Reorder from the chef's side: the restaurants' own chef link is unchanged.
      await app.request('PUT', `/api/chefs/${chef}`, { data: { restaurants: { connect: [{ documentId: r2, position: { start: true } }] } } });
      expect(await listed()).toEqual(['R2', 'R1']);
      expect((await app.request('GET', `/api/restaurants/${r1}?populate=chef`)).body.data.chef.documentId).toBe(chef);
      // Deleting a restaurant removes it from the chef's list.
      await app.request('DELETE', `/api/restaurants/${r2}`);
      expect(await listed()).toEqual(['R1']);
    });
  });

  it('concurrent connects to one list keep every entry once', async () => {
    await put([]);
    await Promise.all(['B', 'C', 'D', 'E', 'F', 'G'].map((n) => put({ connect: [notes[n]] })));
    const list = await titles();
    expect([...list].sort()).toEqual(['B', 'C', 'D', 'E', 'F', 'G']);
  });
});
