import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../helpers/databases.js';
import { startTestApp, type TestApp } from '../helpers/app.js';

// A relation item given by row id links what a documentId item for that row's document links (README, differences:
// Strapi links exactly that row, so a draft given a published row's id holds a link its draft reads never show).
const type = (singular: string, plural: string, draftAndPublish: boolean, attributes: Record<string, unknown>) => ({
  kind: 'collectionType',
  collectionName: plural,
  info: { singularName: singular, pluralName: plural, displayName: singular },
  options: { draftAndPublish },
  attributes,
});
const model = {
  contentTypes: {
    topic: type('topic', 'topics', true, { name: { type: 'string' } }),
    post: type('post', 'posts', true, { title: { type: 'string' }, topics: { type: 'relation', relation: 'manyToMany', target: 'api::topic.topic' } }),
    shelf: type('shelf', 'shelves', false, { label: { type: 'string' }, topics: { type: 'relation', relation: 'manyToMany', target: 'api::topic.topic' } }),
  },
};

describeEachDialect('relation items given by row id', (dialect) => {
  let app: TestApp;
  let topic: { documentId: string; draftId: number; publishedId: number };
  beforeAll(async () => {
    app = await startTestApp(dialect, model);
    const created = await app.request('POST', '/api/topics', { data: { name: 'Rivers' } });
    const draft = await app.request('GET', `/api/topics/${created.body.data.documentId}?status=draft`);
    topic = { documentId: created.body.data.documentId, draftId: draft.body.data.id, publishedId: created.body.data.id };
    expect(topic.draftId).not.toBe(topic.publishedId);
  });
  afterAll(async () => app?.close());

  const topicIds = (body: { data: { topics: Array<{ id: number }> } }) => body.data.topics.map((t) => t.id);

  it("a draft given the target's published row id links the target's draft: the draft read shows it, and so does the published read once published", async () => {
    for (const topics of [{ connect: [{ id: topic.publishedId }] }, [topic.publishedId], { set: [{ id: topic.publishedId }] }]) {
      const post = await app.request('POST', '/api/posts?status=draft', { data: { title: 'Draft', topics } });
      expect(post.status, JSON.stringify(post.body)).toBe(201);
      const id = post.body.data.documentId;
      expect(topicIds((await app.request('GET', `/api/posts/${id}?status=draft&populate=topics`)).body)).toEqual([topic.draftId]);
      await app.request('PUT', `/api/posts/${id}`, { data: {} });
      expect(topicIds((await app.request('GET', `/api/posts/${id}?populate=topics`)).body)).toEqual([topic.publishedId]);
      expect(topicIds((await app.request('GET', `/api/posts/${id}?status=draft&populate=topics`)).body)).toEqual([topic.draftId]);
    }
  });

  it('a type without Draft & Publish given either version\'s row id links the document: both statuses read it', async () => {
    for (const id of [topic.draftId, topic.publishedId]) {
      const shelf = await app.request('POST', '/api/shelves', { data: { label: `by ${id}`, topics: [{ id }] } });
      expect(shelf.status, JSON.stringify(shelf.body)).toBe(201);
      const doc = shelf.body.data.documentId;
      expect(topicIds((await app.request('GET', `/api/shelves/${doc}?populate=topics`)).body)).toEqual([topic.publishedId]);
      expect(topicIds((await app.request('GET', `/api/shelves/${doc}?status=draft&populate=topics`)).body)).toEqual([topic.draftId]);
    }
  });
});
