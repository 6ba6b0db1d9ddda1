import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../helpers/databases.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { readLayout } from '../../src/database/layout.js';

/**
 * Polymorphic relations held by components, in Strapi 5's tables (measured on Strapi 5.54.0, docs/strapi-5-layout.md
 * 5b): a component's morphToMany owns `<component table>_<attribute>_mph` (`relation_container_id`, `mtm_id`,
 * `mtm_type`, `field`, `order`), its morphToOne is `target_id` / `target_type` on the component's rows. Written over
 * REST and through the Document Service and the Query Engine (single, repeatable, dynamic-zone and nested
 * components), populated, published (the published entry's components link the targets' published rows, a
 * morphToMany dropping those without one, as Strapi's publish), discarded, unpublished, cloned and deleted.
 */
const ct = (singularName: string, pluralName: string, attributes: object, draftAndPublish = true) => ({
  kind: 'collectionType',
  collectionName: pluralName,
  info: { singularName, pluralName, displayName: singularName },
  options: { draftAndPublish },
  attributes,
});
const CONTAINER = 'default.relation-container';
const model = {
  contentTypes: {
    tag: ct('tag', 'tags', { name: { type: 'string' } }),
    note: ct('note', 'notes', { name: { type: 'string' } }, false),
    product: ct('product', 'products', {
      name: { type: 'string' },
      details: { type: 'component', component: CONTAINER },
      relatedItems: { type: 'component', repeatable: true, component: CONTAINER },
      sections: { type: 'dynamiczone', components: [CONTAINER] },
      wrap: { type: 'component', component: 'default.wrapper' },
    }),
  },
  components: {
    [CONTAINER]: {
      collectionName: 'components_default_relation_containers',
      info: { displayName: 'relation-container' },
      attributes: { label: { type: 'string' }, mto: { type: 'relation', relation: 'morphToOne' }, mtm: { type: 'relation', relation: 'morphToMany' } },
    },
    'default.wrapper': {
      collectionName: 'components_default_wrappers',
      info: { displayName: 'wrapper' },
      attributes: { title: { type: 'string' }, inner: { type: 'component', component: CONTAINER } },
    },
  },
};
const T = 'api::tag.tag';
const N = 'api::note.note';
const P = 'api::product.product';
const MPH = 'components_default_relation_containers_mtm_mph';
const CONTAINERS = 'components_default_relation_containers';
/**
 * The two tables as Strapi 5.54.0 makes them for this component (`scripts/db-layout.mjs` on databases it made for the
 * same model, the same on SQLite, PostgreSQL and MariaDB once normalized).
 */
const STRAPI_TABLES = [
  {
    name: CONTAINERS,
    columns: [
      { name: 'id', type: 'integer', nullable: false, default: null, autoIncrement: true },
      { name: 'label', type: 'varchar(255)', nullable: true, default: null, autoIncrement: false },
      { name: 'target_id', type: 'integer', nullable: true, default: null, autoIncrement: false },
      { name: 'target_type', type: 'varchar(255)', nullable: true, default: null, autoIncrement: false },
    ],
    primaryKey: ['id'],
    indexes: [],
    foreignKeys: [],
  },
  {
    name: MPH,
    columns: [
      { name: 'field', type: 'varchar(255)', nullable: true, default: null, autoIncrement: false },
      { name: 'id', type: 'integer', nullable: false, default: null, autoIncrement: true },
      { name: 'mtm_id', type: 'integer', nullable: true, default: null, autoIncrement: false },
      { name: 'mtm_type', type: 'varchar(255)', nullable: true, default: null, autoIncrement: false },
      { name: 'order', type: 'double', nullable: true, default: null, autoIncrement: false },
      { name: 'relation_container_id', type: 'integer', nullable: true, default: null, autoIncrement: false },
    ],
    primaryKey: ['id'],
    indexes: [
      { name: `${MPH}_fk`, columns: ['relation_container_id'], unique: false },
      { name: `${MPH}_idix`, columns: ['mtm_id'], unique: false },
      { name: `${MPH}_oidx`, columns: ['order'], unique: false },
    ],
    foreignKeys: [
      { name: `${MPH}_fk`, columns: ['relation_container_id'], referencedTable: CONTAINERS, referencedColumns: ['id'], onDelete: 'CASCADE', onUpdate: 'NO ACTION' },
    ],
  },
];
const containerPopulate = { populate: { mto: true, mtm: true } };
const populate = {
  details: containerPopulate,
  relatedItems: containerPopulate,
  sections: { on: { [CONTAINER]: containerPopulate } },
  wrap: { populate: { inner: containerPopulate } },
};
const restPopulate =
  'populate[details][populate][mto]=true&populate[details][populate][mtm]=true&populate[relatedItems][populate]=*' +
  `&populate[sections][on][${CONTAINER}][populate]=*&populate[wrap][populate][inner][populate]=*`;

/** The Document Service as untyped app code calls it (its answers are entries of any shape). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AppDocuments = Record<string, (params?: object) => Promise<any>>;
type Item = { id: number; documentId: string; __type: string; publishedAt?: string | null };
const linked = (items: Item[] | Item | null | undefined) => (items === null || items === undefined ? null : Array.isArray(items) ? items.map((i) => [i.__type, i.documentId]) : [items.__type, items.documentId]);

describeEachDialect('morph relations in components, in Strapi 5 tables', (dialect) => {
  let app: TestApp;
  const documents = (uid: string) => app.cairn.strapi.documents(uid) as unknown as AppDocuments;
  const query = (uid: string) => app.cairn.strapi.db.query(uid) as unknown as AppDocuments;
  const sql = <R = Record<string, unknown>>(text: string, params: unknown[] = []) => app.cairn.db.query<R>(text, params);
  const q = (name: string) => app.cairn.db.quote(name);
  /** A component row's morphToMany links, as stored: [type, row id, field, order]. */
  const mphRows = async (componentId: number) =>
    (await sql<{ t: string; r: number | string; f: string | null; o: number | string }>(`SELECT mtm_type AS t, mtm_id AS r, field AS f, ${q('order')} AS o FROM ${MPH} WHERE relation_container_id = ? ORDER BY ${q('order')}, id`, [componentId])).map(
      (row) => [row.t, Number(row.r), row.f, Number(row.o)],
    );
  const morphToOne = async (componentId: number) => {
    const [row] = await sql<{ r: number | string | null; t: string | null }>(`SELECT target_id AS r, target_type AS t FROM ${CONTAINERS} WHERE id = ?`, [componentId]);
    return row.r === null ? null : [row.t, Number(row.r)];
  };
  const rowOf = async (table: string, documentId: string, published: boolean) =>
    Number((await sql<{ id: number }>(`SELECT id FROM ${table} WHERE document_id = ? AND published_at IS ${published ? 'NOT ' : ''}NULL`, [documentId]))[0].id);
  let t1: { documentId: string };
  let t2: { documentId: string };
  let n1: { documentId: string; id: number };
  let t1Draft: number;
  let t1Published: number;
  let t2Draft: number;

  beforeAll(async () => {
    app = await startTestApp(dialect, model);
    t1 = await documents(T).create({ data: { name: 't1' }, status: 'published' });
    t2 = await documents(T).create({ data: { name: 't2' } });
    n1 = await documents(N).create({ data: { name: 'n1' } });
    t1Draft = await rowOf('tags', t1.documentId, false);
    t1Published = await rowOf('tags', t1.documentId, true);
    t2Draft = await rowOf('tags', t2.documentId, false);
  }, 120_000);
  afterAll(() => app?.close());

  it("lays a component's morph relations out as Strapi does: its own _mph table and target_id / target_type on its rows", async () => {
    const layout = await readLayout((text, params) => app.cairn.db.query(text, params), dialect);
    expect(layout.tables.filter((t) => t.name === CONTAINERS || t.name === MPH)).toEqual(STRAPI_TABLES);
  });

  it('creates over REST with { documentId, __type } and { id, __type } items in every kind of component, and populates them', async () => {
    const r = await app.request('POST', `/api/products?status=draft&${restPopulate}`, {
      data: {
        name: 'rest',
        details: { label: 'd', mto: { __type: T, documentId: t1.documentId }, mtm: [{ __type: T, documentId: t1.documentId }, { __type: N, id: n1.id }, { __type: T, id: String(t2Draft) }] },
        relatedItems: [{ label: 'r1', mto: { __type: N, documentId: n1.documentId } }, { label: 'r2', mtm: { connect: [{ __type: T, documentId: t2.documentId }, { __type: N, documentId: n1.documentId, position: { start: true } }] } }],
        sections: [{ __component: CONTAINER, label: 's1', mto: { __type: T, documentId: t2.documentId }, mtm: [{ __type: T, documentId: t2.documentId }] }],
        wrap: { title: 'w', inner: { label: 'i', mtm: [{ __type: N, documentId: n1.documentId }, { __type: T, documentId: t1.documentId }] } },
      },
    });
    expect(r.status, r.raw).toBe(201);
    const data = r.body.data;
    expect(linked(data.details.mto)).toEqual([T, t1.documentId]);
    expect(data.details.mto.id).toBe(t1Draft);
    expect(Object.keys(data.details.mto).at(-1)).toBe('__type');
    expect(linked(data.details.mtm)).toEqual([[T, t1.documentId], [N, n1.documentId], [T, t2.documentId]]);
    expect(linked(data.relatedItems[0].mto)).toEqual([N, n1.documentId]);
    expect(data.relatedItems[0].mtm).toEqual([]);
    expect(data.relatedItems[1].mto).toBeNull();
    expect(linked(data.relatedItems[1].mtm)).toEqual([[N, n1.documentId], [T, t2.documentId]]);
    expect(linked(data.sections[0].mto)).toEqual([T, t2.documentId]);
    expect(linked(data.sections[0].mtm)).toEqual([[T, t2.documentId]]);
    expect(linked(data.wrap.inner.mtm)).toEqual([[N, n1.documentId], [T, t1.documentId]]);

    // As Strapi stores them: the draft's rows linked (a type without Draft & Publish: its one row), `field` NULL
    // (written from the owner side on a create), `order` 1..n.
    expect(await mphRows(data.details.id)).toEqual([[T, t1Draft, null, 1], [N, n1.id, null, 2], [T, t2Draft, null, 3]]);
    expect(await morphToOne(data.details.id)).toEqual([T, t1Draft]);
    expect(await morphToOne(data.relatedItems[1].id)).toBeNull();
    expect(await mphRows(data.wrap.inner.id)).toEqual([[N, n1.id, null, 1], [T, t1Draft, null, 2]]);

    // The other populate forms Strapi takes for a component's morph relation: `populate[c][populate]=*`, a list, `on`
    // for one type, `count`; a morph relation's own `populate` may only be '*'.
    const get = (qs: string) => app.request('GET', `/api/products/${data.documentId}?status=draft&${qs}`);
    let g = await get('populate[details][populate]=*');
    expect(linked(g.body.data.details.mto)).toEqual([T, t1.documentId]);
    expect(linked(g.body.data.details.mtm)).toHaveLength(3);
    g = await get('populate[details][populate][0]=mto');
    expect(g.body.data.details).toEqual({ id: data.details.id, label: 'd', mto: expect.objectContaining({ documentId: t1.documentId, __type: T }) });
    g = await get(`populate[details][populate][mtm][on][${T}][fields][0]=name`);
    expect(g.body.data.details.mtm).toEqual([
      { id: t1Draft, documentId: t1.documentId, name: 't1', __type: T },
      { id: t2Draft, documentId: t2.documentId, name: 't2', __type: T },
    ]);
    g = await get('populate[details][populate][mtm][count]=true');
    expect(g.body.data.details.mtm).toEqual({ count: 3 });
    // A morphToOne counts 0 or 1 (Strapi 5.54, probed: `{ count: 0 }` without a link).
    g = await get(`populate[details][populate][mto][count]=true&populate[relatedItems][populate][mto][count]=true`);
    expect(g.body.data.details.mto).toEqual({ count: 1 });
    expect(g.body.data.relatedItems.map((item: { mto: unknown }) => item.mto)).toEqual([{ count: 1 }, { count: 0 }]);
    g = await get('populate[details][populate][mtm][populate][0]=name');
    expect(g.status).toBe(400);
    // Filters through a component's morph relation are refused, as on a content type's (Strapi: `Invalid key mto`).
    g = await app.request('GET', '/api/products?filters[details][mto][id][$notNull]=true');
    expect(g.status).toBe(400);
    expect(g.body.error.message).toMatch(/Invalid key mto/);
  });

  it('refuses bad morph items in a component with a 400 naming their path, writing nothing', async () => {
    const before = await sql<{ n: number | string }>(`SELECT COUNT(*) AS n FROM ${MPH}`);
    for (const mtm of [[{ documentId: t1.documentId }], [{ __type: 'api::nope.nope', documentId: t1.documentId }], [{ __type: T, documentId: 'missing-document' }], [{ __type: T, id: 999999 }], 'text']) {
      const r = await app.request('POST', '/api/products', { data: { name: 'bad', details: { mtm } } });
      expect(r.status, JSON.stringify(mtm)).toBe(400);
      expect(r.body.error.name).toBe('ValidationError');
    }
    expect(await sql(`SELECT COUNT(*) AS n FROM ${MPH}`)).toEqual(before);
  });

  it('updates: a component given again replaces its rows and their links; connect / disconnect apply to the new one', async () => {
    const created = await documents(P).create({
      data: { name: 'upd', details: { label: 'a', mto: { __type: T, documentId: t2.documentId }, mtm: [{ __type: T, documentId: t1.documentId }] } },
      populate,
    });
    const oldId = created.details.id as number;
    const r = await app.request('PUT', `/api/products/${created.documentId}?status=draft&${restPopulate}`, {
      data: { details: { label: 'b', mto: { connect: [{ __type: N, documentId: n1.documentId }] }, mtm: { connect: [{ __type: N, documentId: n1.documentId }], disconnect: [{ __type: T, documentId: t1.documentId }] } } },
    });
    expect(r.status, r.raw).toBe(200);
    expect(linked(r.body.data.details.mto)).toEqual([N, n1.documentId]);
    expect(linked(r.body.data.details.mtm)).toEqual([[N, n1.documentId]]);
    // The former component row and its links are gone.
    expect(await sql(`SELECT id FROM ${CONTAINERS} WHERE id = ?`, [oldId])).toEqual([]);
    expect(await mphRows(oldId)).toEqual([]);
    const emptied = await documents(P).update({ documentId: created.documentId, data: { details: { label: 'c', mto: null, mtm: [] } }, populate });
    expect(emptied.details).toMatchObject({ label: 'c', mto: null, mtm: [] });
  });

  it('publishes: the published components link the published rows (a morphToMany drops a target never published); discard and unpublish', async () => {
    const draft = await documents(P).create({
      data: {
        name: 'pub',
        details: { label: 'd', mto: { __type: T, documentId: t1.documentId }, mtm: [{ __type: T, documentId: t1.documentId }, { __type: T, documentId: t2.documentId }, { __type: N, documentId: n1.documentId }] },
        relatedItems: [{ label: 'r', mto: { __type: T, documentId: t2.documentId } }],
        wrap: { title: 'w', inner: { mtm: [{ __type: T, documentId: t1.documentId }] } },
      },
      populate,
    });
    await documents(P).publish({ documentId: draft.documentId });
    const published = await documents(P).findOne({ documentId: draft.documentId, status: 'published', populate });
    expect(published.details.id).not.toBe(draft.details.id);
    expect(published.details.mto).toMatchObject({ id: t1Published, documentId: t1.documentId, __type: T });
    expect(published.details.mtm.map((i: Item) => [i.__type, i.id])).toEqual([[T, t1Published], [N, n1.id]]);
    expect(published.relatedItems[0].mto).toBeNull();
    expect(published.wrap.inner.mtm.map((i: Item) => i.id)).toEqual([t1Published]);
    // Stored as Strapi's publish writes a morphToMany: the published rows, `order` 1..n of what is kept.
    expect(await mphRows(published.details.id)).toEqual([[T, t1Published, null, 1], [N, n1.id, null, 2]]);
    expect(await morphToOne(published.details.id)).toEqual([T, t1Published]);
    // The draft keeps its own links.
    expect(await mphRows(draft.details.id)).toEqual([[T, t1Draft, null, 1], [T, t2Draft, null, 2], [N, n1.id, null, 3]]);

    // Over REST the published entry reads the same.
    const r = await app.request('GET', `/api/products/${draft.documentId}?${restPopulate}`);
    expect(r.status, r.raw).toBe(200);
    expect(r.body.data.details.mtm.map((i: Item) => i.publishedAt !== null)).toEqual([true, true]);

    // A draft edit, then discarding it: the draft's components are the published ones again, linking drafts.
    await documents(P).update({ documentId: draft.documentId, data: { details: { label: 'edited', mto: null, mtm: [] } } });
    await documents(P).discardDraft({ documentId: draft.documentId });
    const restored = await documents(P).findOne({ documentId: draft.documentId, populate });
    expect(restored.details.label).toBe('d');
    expect(restored.details.mto).toMatchObject({ id: t1Draft, __type: T });
    expect(restored.details.mtm.map((i: Item) => [i.__type, i.id])).toEqual([[T, t1Draft], [N, n1.id]]);
    expect(await mphRows(restored.details.id)).toEqual([[T, t1Draft, null, 1], [N, n1.id, null, 2]]);

    // Unpublishing removes the published version's components and their links.
    const publishedComponents = [published.details.id, published.relatedItems[0].id, published.wrap.inner.id];
    await documents(P).unpublish({ documentId: draft.documentId });
    for (const id of publishedComponents) {
      expect(await sql(`SELECT id FROM ${CONTAINERS} WHERE id = ?`, [id])).toEqual([]);
      expect(await mphRows(id)).toEqual([]);
    }
    expect(await mphRows(restored.details.id)).toHaveLength(2);
  });

  it('an update of a published entry over REST publishes its components with their links mapped to published rows', async () => {
    // REST writes publish: the published version is the draft's copy, the write applies to both.
    const created = await app.request('POST', '/api/products', { data: { name: 'live', details: { mtm: [{ __type: T, documentId: t2.documentId }] } } });
    expect(created.status, created.raw).toBe(201);
    const documentId = created.body.data.documentId as string;
    let r = await app.request('GET', `/api/products/${documentId}?${restPopulate}`);
    expect(r.body.data.details.mtm).toEqual([]);
    r = await app.request('PUT', `/api/products/${documentId}?${restPopulate}`, {
      data: { details: { label: 'live', mto: { __type: T, documentId: t1.documentId }, mtm: [{ __type: N, documentId: n1.documentId }, { __type: T, documentId: t1.documentId }] } },
    });
    expect(r.status, r.raw).toBe(200);
    expect(r.body.data.details.mto).toMatchObject({ id: t1Published, __type: T });
    expect(r.body.data.details.mtm.map((i: Item) => [i.__type, i.id])).toEqual([[N, n1.id], [T, t1Published]]);
    const draft = await documents(P).findOne({ documentId, populate });
    expect(draft.details.mtm.map((i: Item) => [i.__type, i.id])).toEqual([[N, n1.id], [T, t1Draft]]);
  });

  it("clones: the clone's components get copies of the links; duplicate-form operations in data apply to the clone only", async () => {
    const source = await documents(P).create({
      data: {
        name: 'source',
        details: { label: 'd', mto: { __type: T, id: t1Draft }, mtm: [{ __type: N, id: n1.id }, { __type: T, id: t2Draft }] },
        sections: [{ __component: CONTAINER, label: 's', mtm: [{ __type: T, documentId: t1.documentId }] }],
      },
      populate,
    });
    // As Strapi's own clone test writes it: row ids in a morphToOne's connect / disconnect.
    const result = await documents(P).clone({
      documentId: source.documentId,
      data: { name: 'clone', details: { label: 'c', mto: { connect: [{ id: t2Draft, __type: T }], disconnect: [{ id: t1Draft, __type: T }] } } },
      populate,
    });
    const clone = result.entries[0];
    expect(clone.details.mto).toMatchObject({ id: t2Draft, documentId: t2.documentId, __type: T });
    // As Strapi 5.54's clone merges data over the source (lodash merge): the component keeps the links it is not given.
    expect(linked(clone.details.mtm)).toEqual([[N, n1.documentId], [T, t2.documentId]]);
    expect(linked(clone.sections[0].mtm)).toEqual([[T, t1.documentId]]);
    expect(clone.sections[0].id).not.toBe(source.sections[0].id);
    expect(await mphRows(clone.sections[0].id)).toEqual(await mphRows(source.sections[0].id));
    const original = await documents(P).findOne({ documentId: source.documentId, populate });
    expect(original.details.mto).toMatchObject({ id: t1Draft, __type: T });
    expect(linked(original.details.mtm)).toEqual([[N, n1.documentId], [T, t2.documentId]]);

    // By documentId over a link, Strapi 5.54's clone would keep the source's row id under the type given: refused.
    await expect(documents(P).clone({ documentId: source.documentId, data: { details: { mto: { __type: T, documentId: t2.documentId } } } })).rejects.toThrow(
      'details.mto: a clone merges a morphToOne with the source',
    );

    // A clone without data copies every link as it is.
    const plain = (await documents(P).clone({ documentId: source.documentId, populate })).entries[0];
    expect(plain.details.id).not.toBe(source.details.id);
    expect(await mphRows(plain.details.id)).toEqual(await mphRows(source.details.id));
    expect(await morphToOne(plain.details.id)).toEqual([T, t1Draft]);
  });

  it('deletes: an entry takes its components and their links with it; a deleted target leaves no link behind', async () => {
    const target = await documents(T).create({ data: { name: 'doomed' } });
    const entry = await documents(P).create({
      data: { name: 'del', details: { mto: { __type: T, documentId: target.documentId }, mtm: [{ __type: T, documentId: target.documentId }, { __type: N, documentId: n1.documentId }] } },
      populate,
    });
    const other = await documents(P).create({ data: { name: 'keeps', details: { mtm: [{ __type: T, documentId: target.documentId }, { __type: N, documentId: n1.documentId }] } }, populate });
    await documents(T).delete({ documentId: target.documentId });
    expect(await mphRows(other.details.id)).toEqual([[N, n1.id, null, 2]]);
    const read = await documents(P).findOne({ documentId: other.documentId, populate });
    expect(linked(read.details.mtm)).toEqual([[N, n1.documentId]]);

    await documents(P).delete({ documentId: entry.documentId });
    expect(await sql(`SELECT id FROM ${CONTAINERS} WHERE id = ?`, [entry.details.id])).toEqual([]);
    expect(await mphRows(entry.details.id)).toEqual([]);
  });

  it("writes a component row's morph relations through the Query Engine with { id, __type }", async () => {
    const row = await query(CONTAINER).create({ data: { label: 'qe', mto: { id: t1Draft, __type: T }, mtm: [{ id: n1.id, __type: N }, { id: t2Draft, __type: T }] } });
    expect(await morphToOne(row.id)).toEqual([T, t1Draft]);
    expect(await mphRows(row.id)).toEqual([[N, n1.id, null, 1], [T, t2Draft, null, 2]]);
    await query(CONTAINER).update({ where: { id: row.id }, data: { mto: null, mtm: { connect: [{ id: t1Draft, __type: T }], disconnect: [{ id: n1.id, __type: N }] } } });
    expect(await morphToOne(row.id)).toBeNull();
    expect(await mphRows(row.id)).toEqual([[T, t2Draft, null, 1], [T, t1Draft, null, 2]]);
    // Attached to an entry (Strapi's document service makes component rows first), it reads as the entry's.
    const entry = await query(P).create({ data: { name: 'qe entry', publishedAt: null, details: { id: row.id, __pivot: { component_type: CONTAINER } } } });
    const read = await documents(P).findOne({ documentId: entry.documentId, populate });
    expect(read.details.mtm.map((i: Item) => [i.__type, i.id])).toEqual([[T, t2Draft], [T, t1Draft]]);
    await query(CONTAINER).delete({ where: { id: row.id } });
    expect(await mphRows(row.id)).toEqual([]);
  });

  it("serves a component's morph relation in GraphQL as Strapi's GenericMorph union", async () => {
    const entry = await documents(P).create({ data: { name: 'gql', details: { mto: { __type: N, documentId: n1.documentId }, mtm: [{ __type: T, documentId: t2.documentId }, { __type: N, documentId: n1.documentId }] } } });
    const gql = `query($id: ID!) { product(documentId: $id, status: DRAFT) { details { mto { __typename ... on Note { name } } mtm { __typename ... on Tag { name } ... on Note { name } } } } }`;
    const r = await app.request('POST', '/graphql', { query: gql, variables: { id: entry.documentId } });
    expect(r.status, r.raw).toBe(200);
    expect(r.body.errors, r.raw).toBeUndefined();
    expect(r.body.data.product.details).toEqual({
      mto: { __typename: 'Note', name: 'n1' },
      mtm: [
        { __typename: 'Tag', name: 't2' },
        { __typename: 'Note', name: 'n1' },
      ],
    });
  });
});
