import { beforeAll, expect, it } from 'vitest';
import type { Database } from '../../src/database/index.js';
import { createStrapiTables } from '../../src/database/strapi-layout/create.js';
import { withStrapiNames } from '../../src/database/strapi-layout/named-model.js';
import { planStrapiLayout } from '../../src/database/strapi-layout/plan.js';
import { writeStrapiRelations, type RowVersion } from '../../src/documents/strapi-relation-writes.js';
import { planRow } from '../../src/documents/write-plan.js';
import { buildModel, type ContentType, type Model } from '../../src/model/index.js';
import { describeEachDialect, useFreshDatabase } from '../helpers/databases.js';

/**
 * The relation kinds the conformance model lacks, on tables made as Strapi makes them: a type without Draft &
 * Publish (notes) owning relations to one with it (posts): to-many, one-way manyToOne (no order column at all) and a
 * bidirectional oneToOne (Strapi's "steal" both ways). docs/strapi-5-writes.md 3: a row without versions links both
 * versions of a D&P target, draft first, or the one an item's `status` names.
 */
const info = (name: string) => ({ singularName: name, pluralName: `${name}s`, displayName: name });
const MODEL = buildModel(
  {
    contentTypes: [
      {
        schema: {
          kind: 'collectionType',
          info: info('note'),
          options: { draftAndPublish: false },
          attributes: {
            title: { type: 'string' },
            posts: { type: 'relation', relation: 'manyToMany', target: 'api::post.post' },
            lead: { type: 'relation', relation: 'manyToOne', target: 'api::post.post' },
            feature: { type: 'relation', relation: 'oneToOne', target: 'api::post.post', inversedBy: 'featuredIn' },
          },
        },
      },
      {
        schema: {
          kind: 'collectionType',
          info: info('post'),
          options: { draftAndPublish: true },
          attributes: { title: { type: 'string' }, featuredIn: { type: 'relation', relation: 'oneToOne', target: 'api::note.note', mappedBy: 'feature' } },
        },
      },
    ],
  },
  { strapiLayout: true },
);

describeEachDialect('writeStrapiRelations: relation kinds on tables made as Strapi makes them', (dialect) => {
  const database = useFreshDatabase(dialect);
  let db: Database;
  let model: Model;
  const published = dialect === 'sqlite' ? 1795589584694 : '2026-11-25 06:51:22.650';
  const notes: Array<{ id: number; doc: string }> = [];
  const posts: Array<{ doc: string; draft: number; published: number }> = [];
  const schema = (uid: string) => model.contentTypes.get(uid) as ContentType;
  const write = (uid: string, rowId: number, version: RowVersion, body: Record<string, unknown>) =>
    writeStrapiRelations(db, model, schema(uid), rowId, planRow(model, schema(uid), body, 'update').relations, { defaultLocale: 'en', versioned: version !== 'single', version });
  /** A join table's links keyed on `key = row`: members in list order, with their order value. */
  const list = async (table: string, key: string, row: number, member: string, order?: string) =>
    (
      await db.query<{ m: number; o: number | null }>(
        `SELECT ${member} AS m, ${order ?? 'NULL'} AS o FROM ${table} WHERE ${key} = ? ORDER BY ${order ? `${order}, ` : ''}id`,
        [row],
      )
    ).map((r) => (order ? [Number(r.m), Number(r.o)] : Number(r.m)));
  /** A note's posts: [member, order value] in list order. */
  const postsOf = async (note: number) => (await list('notes_posts_lnk', 'note_id', note, 'post_id', 'post_ord')) as Array<[number, number]>;
  /** The order values are all above 0 and strictly increasing along the list (gaps allowed). */
  const expectIncreasing = (links: Array<[number, number]>) => {
    const orders = links.map(([, o]) => o);
    expect(orders.every((o, i) => Number.isFinite(o) && o > 0 && (i === 0 || o > orders[i - 1]!)), `order values above 0, strictly increasing: ${JSON.stringify(orders)}`).toBe(true);
  };
  const lastId = async (table: string) => Number((await db.query<{ id: number }>(`SELECT MAX(id) AS id FROM ${table}`))[0]!.id);

  beforeAll(async () => {
    db = database();
    model = withStrapiNames(MODEL);
    await createStrapiTables(db, planStrapiLayout(model, dialect));
    for (let i = 0; i < 3; i++) {
      const doc = `note${i}aaaaaaaaaaaaaaaaaaa`;
      await db.execute(`INSERT INTO notes (document_id, title, published_at) VALUES (?, ?, ?)`, [doc, `n${i}`, published]);
      notes.push({ id: await lastId('notes'), doc });
    }
    for (let i = 0; i < 4; i++) {
      const doc = `post${i}aaaaaaaaaaaaaaaaaaa`;
      await db.execute(`INSERT INTO posts (document_id, title, published_at) VALUES (?, ?, NULL)`, [doc, `p${i}`]);
      const draft = await lastId('posts');
      // The last post is a draft only.
      if (i === 3) {
        posts.push({ doc, draft, published: 0 });
        continue;
      }
      await db.execute(`INSERT INTO posts (document_id, title, published_at) VALUES (?, ?, ?)`, [doc, `p${i}`, published]);
      posts.push({ doc, draft, published: await lastId('posts') });
    }
  });

  it('links both versions of each post from a note, draft first, or the version an item names; anchors name the first', async () => {
    const [p0, p1, p2, p3] = posts;
    const note = notes[0]!;
    await write('api::note.note', note.id, 'single', {
      posts: { connect: [p0!.doc, { documentId: p1!.doc, status: 'published' }, { documentId: p2!.doc, position: { before: p0!.doc } }, p3!.doc] },
    });
    const connected = await postsOf(note.id);
    expect(connected.map(([m]) => m)).toEqual([p2!.draft, p2!.published, p0!.draft, p0!.published, p1!.published, p3!.draft]);
    expectIncreasing(connected);
    // A status the post does not have is an error, in Strapi's words.
    await expect(write('api::note.note', note.id, 'single', { posts: { connect: [{ documentId: p3!.doc, status: 'published' }] } })).rejects.toThrow(
      `Document with id "${p3!.doc}", locale "null", status "published" not found`,
    );
    await write('api::note.note', note.id, 'single', { posts: { disconnect: [{ documentId: p0!.doc, status: 'draft' }, p2!.doc] } });
    // The links left keep their values (gaps where the others were).
    const kept = await postsOf(note.id);
    expect(kept.map(([m]) => m)).toEqual([p0!.published, p1!.published, p3!.draft]);
    expect(kept).toEqual(connected.slice(3));
  });

  it('writes a created row\'s connect 0-based, as Strapi\'s create does; its set 1..n', async () => {
    const [p0, p1, p2] = posts;
    const doc = 'note9aaaaaaaaaaaaaaaaaaa';
    await db.execute(`INSERT INTO notes (document_id, title, published_at) VALUES (?, ?, ?)`, [doc, 'new', published]);
    const row = await lastId('notes');
    const relations = planRow(model, schema('api::note.note'), { posts: { connect: [p0!.doc, { documentId: p1!.doc, position: { start: true } }] } }, 'create').relations;
    await writeStrapiRelations(db, model, schema('api::note.note'), row, relations, { defaultLocale: 'en', versioned: false, version: 'single', created: true });
    // Both rows of p1 are placed at the start, one after the other, as Strapi's orderer places two `start` items:
    // the later first (a list read by status shows one of them only).
    expect(await list('notes_posts_lnk', 'note_id', row, 'post_id', 'post_ord')).toEqual([
      [p1!.published, 0],
      [p1!.draft, 1],
      [p0!.draft, 2],
      [p0!.published, 3],
    ]);
    const set = planRow(model, schema('api::note.note'), { posts: [p2!.doc, p0!.doc] }, 'create').relations;
    await writeStrapiRelations(db, model, schema('api::note.note'), row, set, { defaultLocale: 'en', versioned: false, version: 'single', created: true });
    expect(await list('notes_posts_lnk', 'note_id', row, 'post_id', 'post_ord')).toEqual([
      [p2!.draft, 1],
      [p2!.published, 2],
      [p0!.draft, 3],
      [p0!.published, 4],
    ]);
  });

  it('keeps one document on a one-way manyToOne (no order column): both rows, replaced on connect, narrowed by status', async () => {
    const [p0, p1] = posts;
    const note = notes[1]!;
    await write('api::note.note', note.id, 'single', { lead: p0!.doc });
    expect(await list('notes_lead_lnk', 'note_id', note.id, 'post_id')).toEqual([p0!.draft, p0!.published]);
    await write('api::note.note', note.id, 'single', { lead: { connect: [{ documentId: p1!.doc, status: 'draft' }] } });
    expect(await list('notes_lead_lnk', 'note_id', note.id, 'post_id')).toEqual([p1!.draft]);
    // Another note may lead with the same post (a one-way relation steals nothing).
    await write('api::note.note', notes[2]!.id, 'single', { lead: p1!.doc });
    expect(await list('notes_lead_lnk', 'note_id', note.id, 'post_id')).toEqual([p1!.draft]);
    await write('api::note.note', note.id, 'single', { lead: { disconnect: [p1!.doc] } });
    expect(await list('notes_lead_lnk', 'note_id', note.id, 'post_id')).toEqual([]);
  });

  it('steals on a bidirectional oneToOne from either side; the document\'s own other versions keep their links', async () => {
    const [p0, p1, p2] = posts;
    const [n0, n1] = notes;
    const feature = (note: number) => list('notes_feature_lnk', 'note_id', note, 'post_id');
    await write('api::note.note', n0!.id, 'single', { feature: p0!.doc });
    expect(await feature(n0!.id)).toEqual([p0!.draft, p0!.published]);
    // n1 takes p0: n0 loses both links.
    await write('api::note.note', n1!.id, 'single', { feature: { connect: [p0!.doc] } });
    expect(await feature(n1!.id)).toEqual([p0!.draft, p0!.published]);
    expect(await feature(n0!.id)).toEqual([]);
    await write('api::note.note', n0!.id, 'single', { feature: p2!.doc });
    // From the post's draft (inverse side): p1's draft is featured in n0. n0 loses p2 (a note features one post);
    // p1's published row keeps what it had.
    await write('api::note.note', n1!.id, 'single', { feature: p1!.doc });
    await write('api::post.post', p1!.draft, 'draft', { featuredIn: n0!.doc });
    expect(await feature(n0!.id)).toEqual([p1!.draft]);
    expect(await feature(n1!.id)).toEqual([p1!.published]);
    // From the published row: the note's one row, linked to the published post.
    await write('api::post.post', p1!.published, 'published', { featuredIn: { connect: [n0!.doc] } });
    expect(await feature(n0!.id)).toEqual([p1!.draft, p1!.published]);
    expect(await feature(n1!.id)).toEqual([]);
  });
});
