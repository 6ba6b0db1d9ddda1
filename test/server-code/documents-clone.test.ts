import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../helpers/databases.js';
import { startTestApp, type TestApp } from '../helpers/app.js';

// strapi.documents(uid).clone({ documentId, data }) merges data over the source as Strapi 5.54's clone does
// (repository.js `clone`, utils/clone-relations.js `prepareCloneData`): lodash's deep merge, relation operations put
// back over it.
const model = {
  contentTypes: {
    product: {
      kind: 'collectionType',
      collectionName: 'products',
      info: { singularName: 'product', pluralName: 'products', displayName: 'Product' },
      options: { draftAndPublish: true },
      attributes: {
        name: { type: 'string' },
        meta: { type: 'json' },
        cover: { type: 'media', multiple: false, allowedTypes: ['files'] },
        gallery: { type: 'media', multiple: true, allowedTypes: ['files'] },
        tags: { type: 'relation', relation: 'manyToMany', target: 'api::tag.tag' },
        main: { type: 'relation', relation: 'oneToOne', target: 'api::tag.tag' },
        details: { type: 'component', component: 'default.box' },
        items: { type: 'component', component: 'default.box', repeatable: true },
        sections: { type: 'dynamiczone', components: ['default.box', 'default.note'] },
      },
    },
    tag: {
      kind: 'collectionType',
      collectionName: 'tags',
      info: { singularName: 'tag', pluralName: 'tags', displayName: 'Tag' },
      options: { draftAndPublish: false },
      attributes: { name: { type: 'string' } },
    },
    owner: {
      kind: 'collectionType',
      collectionName: 'owners',
      info: { singularName: 'owner', pluralName: 'owners', displayName: 'Owner' },
      options: { draftAndPublish: false },
      attributes: {
        name: { type: 'string' },
        inverse: { type: 'relation', relation: 'oneToOne', target: 'api::held.held', inversedBy: 'owner', useJoinTable: false },
      },
    },
    shelf: {
      kind: 'collectionType',
      collectionName: 'shelves',
      info: { singularName: 'shelf', pluralName: 'shelves', displayName: 'Shelf' },
      options: { draftAndPublish: false },
      attributes: { name: { type: 'string' }, products: { type: 'relation', relation: 'manyToMany', target: 'api::product.product' } },
    },
    held: {
      kind: 'collectionType',
      collectionName: 'helds',
      info: { singularName: 'held', pluralName: 'helds', displayName: 'Held' },
      options: { draftAndPublish: false },
      attributes: {
        name: { type: 'string' },
        owner: { type: 'relation', relation: 'oneToOne', target: 'api::owner.owner', mappedBy: 'inverse', useJoinTable: false },
      },
    },
  },
  components: {
    'default.box': {
      collectionName: 'components_default_boxes',
      info: { displayName: 'box' },
      attributes: {
        label: { type: 'string' },
        size: { type: 'integer' },
        tag: { type: 'relation', relation: 'oneToOne', target: 'api::tag.tag' },
        inner: { type: 'component', component: 'default.note' },
      },
    },
    'default.note': { collectionName: 'components_default_notes', info: { displayName: 'note' }, attributes: { text: { type: 'string' }, stars: { type: 'integer' } } },
  },
};

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AppDocuments = Record<string, (params?: object) => Promise<any>>;
type Named = { name?: string; documentId?: string } | null;
type Box = { label?: string; size?: number; tag?: Named; inner?: { text?: string; stars?: number } | null; __component?: string; text?: string; stars?: number };

const populate = {
  tags: true,
  main: true,
  details: { populate: { tag: true, inner: true } },
  items: { populate: { tag: true, inner: true } },
  sections: { on: { 'default.box': { populate: { tag: true, inner: true } }, 'default.note': true } },
};

describeEachDialect("the Document Service's clone: data merged over the source as Strapi 5.54's", (dialect) => {
  let app: TestApp;
  const docs = (uid: string) => app.cairn.strapi.documents(uid) as unknown as AppDocuments;
  const products = () => docs('api::product.product');
  const tag = async (name: string) => (await docs('api::tag.tag').create({ data: { name } })) as { documentId: string; id: number };
  const names = (list: Named[] | undefined) => (list ?? []).map((t) => t?.name);
  const shape = (b: Box | null | undefined) =>
    b && { ...(b.__component ? { __component: b.__component } : {}), label: b.label, size: b.size, tag: b.tag?.name ?? null, inner: b.inner ? { text: b.inner.text, stars: b.inner.stars } : null };
  let red: { documentId: string }, blue: { documentId: string }, green: { documentId: string };
  beforeAll(async () => {
    app = await startTestApp(dialect, model);
    [red, blue, green] = [await tag('red'), await tag('blue'), await tag('green')];
  });
  afterAll(async () => app?.close());

  const source = () =>
    products().create({
      data: {
        name: 'Source',
        meta: { a: 1, list: [1, 2, 3] },
        tags: [red.documentId, blue.documentId],
        main: red.documentId,
        details: { label: 'L', size: 3, tag: red.documentId, inner: { text: 'T', stars: 5 } },
        items: [
          { label: 'one', size: 1, tag: red.documentId },
          { label: 'two', size: 2, tag: blue.documentId },
        ],
        sections: [
          { __component: 'default.box', label: 'S', size: 7, tag: blue.documentId },
          { __component: 'default.note', text: 'N', stars: 2 },
        ],
      },
    } as never);

  it('a component given in part keeps the source\'s other fields, nested components too; a JSON value merges deeply', async () => {
    const from = await source();
    const copy = (await products().clone({ documentId: from.documentId, data: { details: { label: 'Copy', inner: { stars: 1 } }, meta: { b: 2, list: [9] } }, populate } as never)).entries[0];
    expect(shape(copy.details)).toEqual({ label: 'Copy', size: 3, tag: 'red', inner: { text: 'T', stars: 1 } });
    expect(copy.meta).toEqual({ a: 1, b: 2, list: [9, 2, 3] });
    // The source keeps its own.
    const after = await products().findOne({ documentId: from.documentId, populate } as never);
    expect(shape(after.details)).toEqual({ label: 'L', size: 3, tag: 'red', inner: { text: 'T', stars: 5 } });
  });

  it('a repeatable component and a dynamic zone merge index by index, as lodash merges lists', async () => {
    const from = await source();
    const copy = (
      await products().clone({
        documentId: from.documentId,
        data: { items: [{ size: 10 }], sections: [{ label: 'S2' }, { __component: 'default.note', stars: 4 }, { __component: 'default.note', text: 'new' }] },
        populate,
      } as never)
    ).entries[0];
    expect(copy.items.map(shape)).toEqual([
      { label: 'one', size: 10, tag: 'red', inner: null },
      { label: 'two', size: 2, tag: 'blue', inner: null },
    ]);
    expect(copy.sections.map((s: Box) => (s.__component === 'default.note' ? { __component: s.__component, text: s.text, stars: s.stars } : shape(s)))).toEqual([
      { __component: 'default.box', label: 'S2', size: 7, tag: 'blue', inner: null },
      { __component: 'default.note', text: 'N', stars: 4 },
      { __component: 'default.note', text: 'new', stars: null },
    ]);
    // A block of another component at an index: refused (Strapi's merge would mix the two components' fields).
    await expect(products().clone({ documentId: from.documentId, data: { sections: [{ __component: 'default.note', text: 'x' }] } } as never)).rejects.toThrow(
      'sections.0.__component: a clone merges a dynamic zone with the source\'s block by block, and block 0 of the source is a default.box, not a default.note',
    );
  });

  it('relation operations replace the source\'s links, empty ones keep them; a list merges index by index', async () => {
    const from = await source();
    const clone = async (data: object) => (await products().clone({ documentId: from.documentId, data, populate } as never)).entries[0];
    // connect on a new entry: the connected ones only.
    expect(names((await clone({ tags: { connect: [green.documentId] } })).tags)).toEqual(['green']);
    expect(names((await clone({ tags: { disconnect: [red.documentId] } })).tags)).toEqual([]);
    expect(names((await clone({ tags: { set: [green.documentId] } })).tags)).toEqual(['green']);
    expect(names((await clone({ tags: { connect: [], disconnect: [] } })).tags)).toEqual(['red', 'blue']);
    expect(names((await clone({ tags: [green.documentId] })).tags)).toEqual(['green', 'blue']);
    expect((await clone({ main: { disconnect: [blue.documentId] } })).main).toBeNull();
    expect((await clone({ main: { connect: [], disconnect: [] } })).main).toMatchObject({ name: 'red' });
    await expect(clone({ tags: { documentId: green.documentId } })).rejects.toThrow('tags: a clone merges a list of relations with the source\'s index by index');
    // Inside a component and a dynamic zone block: the same.
    const inside = await clone({
      details: { tag: { connect: [], disconnect: [] } },
      items: [{ tag: { connect: [green.documentId] } }, { tag: { disconnect: [blue.documentId] } }],
      sections: [{ tag: { connect: [], disconnect: [] } }],
    });
    expect(shape(inside.details)).toMatchObject({ label: 'L', tag: 'red' });
    expect(inside.items.map((b: Box) => `${b.label}:${b.tag?.name ?? null}`)).toEqual(['one:green', 'two:null']);
    expect(shape(inside.sections[0])).toMatchObject({ label: 'S', tag: 'blue' });
    // The source's links are its own still.
    const after = await products().findOne({ documentId: from.documentId, populate } as never);
    expect(names(after.tags)).toEqual(['red', 'blue']);
    expect(after.items.map((b: Box) => b.tag?.name)).toEqual(['red', 'blue']);
  });

  it("a type without Draft & Publish: the clone answers its relations' drafts, as Strapi 5.54's clone (and findOne) read them", async () => {
    // Probed on Strapi 5.54: a category linking an article published then edited as a draft; clone's entry (and
    // findOne's, whose status defaults to draft) shows the draft, findOne with status published the published one.
    const product = await products().create({ data: { name: 'Shelved v1' } } as never);
    await products().publish({ documentId: product.documentId } as never);
    await products().update({ documentId: product.documentId, data: { name: 'Shelved v2 draft' } } as never);
    const shelf = await docs('api::shelf.shelf').create({ data: { name: 'Shelf', products: [product.documentId] } } as never);
    const copy = (await docs('api::shelf.shelf').clone({ documentId: shelf.documentId, populate: { products: true } } as never)).entries[0];
    expect([copy.name, names(copy.products)]).toEqual(['Shelf', ['Shelved v2 draft']]);
    const read = await docs('api::shelf.shelf').findOne({ documentId: copy.documentId, populate: { products: true } } as never);
    expect(names(read.products)).toEqual(['Shelved v2 draft']);
    const published = await docs('api::shelf.shelf').findOne({ documentId: copy.documentId, status: 'published', populate: { products: true } } as never);
    expect(names(published.products)).toEqual(['Shelved v1']);
  });

  it("an inverse oneToOne whose owner keeps the link in a column (useJoinTable: false) is not copied: the owner's link is its own", async () => {
    const held = await docs('api::held.held').create({ data: { name: 'Held' } });
    const owner = await docs('api::owner.owner').create({ data: { name: 'Owner', inverse: held.documentId } } as never);
    const copy = await docs('api::held.held').clone({ documentId: held.documentId, data: { name: 'Copy' }, populate: { owner: true } } as never);
    expect(copy.entries[0].owner).toBeNull();
    expect((await docs('api::held.held').findOne({ documentId: held.documentId, populate: { owner: true } } as never)).owner).toMatchObject({ documentId: owner.documentId });
    // The owner's clone keeps its target, as Strapi's copies the column.
    const ownerCopy = await docs('api::owner.owner').clone({ documentId: owner.documentId, populate: { inverse: true } } as never);
    expect(ownerCopy.entries[0].inverse).toMatchObject({ documentId: held.documentId });
  });

  it('files: a list merges index by index; operations the merge would drop, and a list of relations given as an object, are refused', async () => {
    const upload = async (name: string) => {
      const form = new FormData();
      form.append('files', new Blob([new Uint8Array(Buffer.from('%PDF-1.4\n%%EOF\n'))], { type: 'application/pdf' }), name);
      const body = new Response(form);
      const answer = await app.cairn.fastify.inject({
        method: 'POST',
        url: '/api/upload',
        payload: Buffer.from(await body.arrayBuffer()),
        headers: { 'content-type': body.headers.get('content-type')!, authorization: `Bearer ${app.token}` },
      });
      expect(answer.statusCode).toBe(201);
      return (JSON.parse(answer.body) as Array<{ id: number; name: string }>)[0];
    };
    const [f1, f2, f3] = [await upload('f1.pdf'), await upload('f2.pdf'), await upload('f3.pdf')];
    const from = await products().create({ data: { name: 'With files', gallery: [f1.id, f2.id] } } as never);
    const clone = (data: object) => products().clone({ documentId: from.documentId, data, populate: { gallery: true, cover: true } } as never);
    expect((await clone({ gallery: [f3.id] })).entries[0].gallery.map((f: { name: string }) => f.name)).toEqual(['f3.pdf', 'f2.pdf']);
    // A single file given over none: as on a new entry (nothing for the merge to keep).
    expect((await clone({ cover: { connect: [f3.id] } })).entries[0].cover).toMatchObject({ name: 'f3.pdf' });
    const before = await products().count({});
    await expect(clone({ gallery: { connect: [f3.id] } })).rejects.toThrow("gallery: a clone takes files as a list or a file id over the source's");
    await expect(clone({ gallery: { id: f3.id } })).rejects.toThrow("gallery: a clone merges a list of files with the source's index by index");
    expect(await products().count({})).toBe(before);
  });

  it("beforeCreate sees the source's values with data merged over them", async () => {
    const from = await source();
    const seen: unknown[] = [];
    const unsubscribe = app.cairn.strapi.db.lifecycles.subscribe({
      models: ['api::product.product'],
      beforeCreate: (event) => {
        const data = event.params.data as { details: Box };
        seen.push({ label: data.details.label, size: data.details.size, inner: data.details.inner });
        data.details.size = 42;
      },
    });
    try {
      const copy = (await products().clone({ documentId: from.documentId, data: { details: { label: 'Hooked' } }, populate } as never)).entries[0];
      expect(seen).toEqual([{ label: 'Hooked', size: 3, inner: { text: 'T', stars: 5 } }]);
      expect(shape(copy.details)).toEqual({ label: 'Hooked', size: 42, tag: 'red', inner: { text: 'T', stars: 5 } });
    } finally {
      unsubscribe();
    }
  });
});
