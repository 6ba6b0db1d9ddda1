import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../helpers/databases.js';
import { startTestApp, type TestApp } from '../helpers/app.js';

// A component nested in a component of a Draft & Publish entry links one version of its entry: publishing the
// targets it links does not add links to it (Strapi walks up to the entry), and publishing the entry afterwards maps
// its links to the published targets, each once. (From Strapi's document-service/relations/unidirectional-relations
// test; before, publishing the entry failed on a UNIQUE constraint of components_inner_tags_lnk.)
const ct = (name: string, attributes: object) => ({
  kind: 'collectionType',
  collectionName: `${name}s`,
  info: { singularName: name, pluralName: `${name}s`, displayName: name },
  options: { draftAndPublish: true },
  attributes,
});
const TAG = 'api::tag.tag';
const model = {
  contentTypes: {
    tag: ct('tag', { name: { type: 'string' } }),
    product: ct('product', {
      name: { type: 'string' },
      tags: { type: 'relation', relation: 'oneToMany', target: TAG },
      compo: { type: 'component', component: 'default.compo' },
    }),
  },
  components: {
    'default.inner': { collectionName: 'components_inner', info: { displayName: 'inner' }, attributes: { tags: { type: 'relation', relation: 'oneToMany', target: TAG } } },
    'default.compo': {
      collectionName: 'components_compo',
      info: { displayName: 'compo' },
      attributes: { tag: { type: 'relation', relation: 'oneToOne', target: TAG }, inner: { type: 'component', component: 'default.inner' } },
    },
  },
};
const populate = { tags: true, compo: { populate: { tag: true, inner: { populate: { tags: true } } } } };

/** The Document Service as untyped app code calls it (its answers are entries of any shape). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AppDocuments = Record<string, (params?: object) => Promise<any>>;

describeEachDialect('links of components nested in a Draft & Publish entry', (dialect) => {
  let app: TestApp;
  let productId: string;
  const documents = (uid: string) => app.cairn.strapi.documents(uid) as unknown as AppDocuments;
  beforeAll(async () => {
    app = await startTestApp(dialect, model);
    for (const name of ['Tag1', 'Tag2']) await documents(TAG).create({ data: { name } } as never);
    const tags = await documents(TAG).findMany({ sort: 'name' } as never);
    const [t1, t2] = tags.map((t: { documentId: string }) => ({ documentId: t.documentId }));
    const product = await documents('api::product.product').create({ data: { name: 'P', tags: [t1, t2], compo: { tag: t1, inner: { tags: [t1, t2] } } } } as never);
    productId = product.documentId as string;
    for (const t of [t1, t2]) await documents(TAG).publish(t as never);
  });
  afterAll(async () => app?.close());

  it('publishing the targets leaves the nested component of the draft linking the drafts only', async () => {
    const draft = await documents('api::product.product').findOne({ documentId: productId, populate } as never);
    const drafts = await documents(TAG).findMany({ sort: 'name' } as never);
    expect(draft.compo.inner.tags.map((t: { id: number }) => t.id)).toEqual(drafts.map((t: { id: number }) => t.id));
  });

  it('publishing the entry then links the published targets, each once, in order', async () => {
    const result = await documents('api::product.product').publish({ documentId: productId } as never);
    expect(result.entries).toHaveLength(1);
    const published = await documents('api::product.product').findOne({ documentId: productId, status: 'published', populate } as never);
    const tags = (await documents(TAG).findMany({ status: 'published', sort: 'name' } as never)).map((t: { id: number }) => t.id);
    expect(published.tags.map((t: { id: number }) => t.id)).toEqual(tags);
    expect(published.compo.tag.id).toBe(tags[0]);
    expect(published.compo.inner.tags.map((t: { id: number }) => t.id)).toEqual(tags);
  });
});
