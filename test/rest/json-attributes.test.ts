import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../helpers/databases.js';
import { startTestApp, type TestApp, type TestSchemas } from '../helpers/app.js';
import { sqlDialect } from '../../src/database/sql/index.js';

type Entry = Record<string, any>;

/** A Draft & Publish type with a json attribute, and a repeatable component with one. */
const model: TestSchemas = {
  contentTypes: {
    note: {
      kind: 'collectionType',
      collectionName: 'notes',
      info: { singularName: 'note', pluralName: 'notes', displayName: 'Note' },
      options: { draftAndPublish: true },
      attributes: {
        title: { type: 'string' },
        payload: { type: 'json' },
        parts: { type: 'component', repeatable: true, component: 'parts.part' },
      },
    },
  },
  components: {
    'parts.part': { collectionName: 'components_parts_parts', info: { displayName: 'Part' }, attributes: { value: { type: 'json' } } },
  },
  // The GraphQL queries are in the seed's shape.
  config: { plugins: { graphql: { config: { shape: 'v4' } } } },
};

/** Every kind of JSON value, strings among them (one that looks like JSON, one that reads "null"). */
const VALUES: unknown[] = ['x', '', 'null', '{"looks":"like json"}', 'é "quoted" \\ ', 123, -1.5, 0, true, false, [], [1, 'a', null], {}, { a: { b: [null, 2] } }];

describeEachDialect('json attributes hold any JSON value; a write is all or nothing', (dialect) => {
  let app: TestApp;
  const d = sqlDialect(dialect);
  const q = (name: string) => d.quote(name);
  const gql = async (query: string) => (await app.request('POST', '/graphql', { query })).body as { data?: Entry; errors?: Entry[] };
  /** The text a json column holds, as the database prints it. */
  const storedTexts = async (documentId: string) =>
    (await app.cairn.db.query<{ t: string }>(`SELECT ${d.jsonText(q('payload'))} AS t FROM ${q('notes')} WHERE document_id = ? ORDER BY id`, [documentId])).map((r) => r.t);
  const rowCount = async () => Number((await app.cairn.db.query<{ n: number | string }>(`SELECT COUNT(*) AS n FROM ${q('notes')}`))[0].n);

  beforeAll(async () => {
    app = await startTestApp(dialect, model);
  });
  afterAll(async () => app?.close());

  it('the issue: a string in a json attribute is stored as the JSON string "x", and every read shows it', async () => {
    const created = await app.request('POST', '/api/notes', { data: { title: 'Tx1', payload: 'x' } });
    expect(created.status).toBe(201);
    expect(created.body.data.payload).toBe('x');
    const id = created.body.data.documentId;
    expect(await storedTexts(id)).toEqual(['"x"', '"x"']); // draft and published rows
    const listed = await app.request('GET', '/api/notes?fields[0]=payload&fields[1]=title');
    expect(listed.status).toBe(200);
    expect(listed.body.data.find((e: Entry) => e.documentId === id).payload).toBe('x');
    const graph = await gql('{ notes { data { id attributes { title payload } } } }');
    expect(graph.errors).toBeUndefined();
    expect(graph.data!.notes.data.find((e: Entry) => e.id === id).attributes.payload).toBe('x');
  });

  it('every JSON value round-trips: REST writes and reads (fields, draft, populate), GraphQL reads and writes', async () => {
    for (const value of VALUES) {
      const created = await app.request('POST', '/api/notes', { data: { title: 'v', payload: value, parts: [{ value }, { value: [value] }] } });
      expect(created.status, JSON.stringify(value)).toBe(201);
      expect(created.body.data.payload).toEqual(value);
      const id = created.body.data.documentId;
      const texts = await storedTexts(id);
      expect(texts.map((t) => JSON.parse(t)), JSON.stringify(value)).toEqual([value, value]);
      for (const status of ['published', 'draft']) {
        const read = await app.request('GET', `/api/notes/${id}?status=${status}&fields[0]=payload&populate[parts][fields][0]=value`);
        expect(read.status).toBe(200);
        expect(read.body.data.payload).toEqual(value);
        expect(read.body.data.parts.map((p: Entry) => p.value)).toEqual([value, [value]]);
      }
      const graph = await gql(`{ notes(filters: { id: { eq: "${id}" } }) { data { attributes { payload parts { value } } } } }`);
      expect(graph.errors).toBeUndefined();
      expect(graph.data!.notes.data[0].attributes).toEqual({ payload: value, parts: [{ value }, { value: [value] }] });
    }
    // GraphQL writes: the JSON scalar takes a string literal as that string.
    const created = await gql('mutation { createNote(data: { title: "g", payload: "y", publishedAt: "2024-01-01T00:00:00.000Z" }) { data { id attributes { payload } } } }');
    expect(created.errors).toBeUndefined();
    expect(created.data!.createNote.data.attributes.payload).toBe('y');
    const id = created.data!.createNote.data.id;
    expect(await storedTexts(id)).toEqual(['"y"', '"y"']);
    const updated = await gql(`mutation { updateNote(id: "${id}", data: { payload: "z" }) { data { attributes { payload } } } }`);
    expect(updated.data!.updateNote.data.attributes.payload).toBe('z');
    expect((await app.request('PUT', `/api/notes/${id}`, { data: { payload: '[1' } })).body.data.payload).toBe('[1');
    expect(await storedTexts(id)).toEqual(['"[1"', '"[1"']);
  });

  it('a stored value that is not JSON (written by another tool) reads as its text; where the column refuses it, it is refused', async () => {
    const created = await app.request('POST', '/api/notes', { data: { title: 'raw', payload: { ok: true }, parts: [{ value: 1 }] } });
    const id = created.body.data.documentId;
    const writeRaw = () => app.cairn.db.execute(`UPDATE ${q('notes')} SET ${q('payload')} = ? WHERE document_id = ?`, ['not json {', id]);
    const writeRawPart = () => app.cairn.db.execute(`UPDATE ${q('components_parts_parts')} SET ${q('value')} = ?`, ['[broken']);
    if (dialect === 'postgres') {
      // jsonb holds JSON only: such a value can't exist.
      await expect(writeRaw()).rejects.toThrow(/invalid input syntax for type json/);
      return;
    }
    if (dialect === 'mysql') {
      // MariaDB's JSON is LONGTEXT with a json_valid check; a table made by another tool may lack it.
      await expect(writeRaw()).rejects.toThrow(/CONSTRAINT|check/i);
      await app.cairn.db.execute(`ALTER TABLE ${q('notes')} MODIFY ${q('payload')} LONGTEXT`);
      await app.cairn.db.execute(`ALTER TABLE ${q('components_parts_parts')} MODIFY ${q('value')} LONGTEXT`);
    }
    await writeRaw();
    await writeRawPart();
    for (const status of ['published', 'draft']) {
      const read = await app.request('GET', `/api/notes/${id}?status=${status}&fields[0]=payload&populate[parts][fields][0]=value`);
      expect(read.status).toBe(200);
      expect(read.body.data.payload).toBe('not json {');
      expect(read.body.data.parts[0].value).toBe('[broken');
    }
    const list = await app.request('GET', '/api/notes?fields[0]=payload&populate=parts&pagination[pageSize]=100');
    expect(list.status).toBe(200);
    expect(list.body.data.find((e: Entry) => e.documentId === id).payload).toBe('not json {');
    const graph = await gql('{ notes(pagination: { limit: 100 }) { data { id attributes { payload parts { value } } } } }');
    expect(graph.errors).toBeUndefined();
    expect(graph.data!.notes.data.find((e: Entry) => e.id === id).attributes).toEqual({ payload: 'not json {', parts: [{ value: '[broken' }] });
    // Publishing copies the draft as it is stored.
    const published = await app.request('POST', `/api/notes/${id}/actions/publish`);
    expect(published.status).toBe(200);
    expect((await app.request('GET', `/api/notes/${id}?fields[0]=payload`)).body.data.payload).toBe('not json {');
  });

  it('a write whose answer fails leaves no row behind, and the retry makes one document', async () => {
    // The answer's read (the statement building the entry's JSON after the INSERT) fails once.
    const failAnswerOnce = () => {
      let wrote = false;
      let failed = false;
      const stop = app.cairn.db.onQuery((sql) => {
        if (/^\s*(INSERT|UPDATE)\b/i.test(sql)) wrote = true;
        else if (wrote && !failed && /json_object|row_to_json|json_build_object/i.test(sql)) {
          failed = true;
          throw new Error('the connection went away');
        }
      });
      return { stop, failed: () => failed };
    };
    const before = await rowCount();
    let fault = failAnswerOnce();
    const failing = await app.request('POST', '/api/notes', { data: { title: 'atomic', payload: { n: 1 } } });
    fault.stop();
    expect(fault.failed()).toBe(true);
    expect(failing.status).toBe(500);
    expect(await rowCount()).toBe(before);
    const retried = await app.request('POST', '/api/notes', { data: { title: 'atomic', payload: { n: 1 } } });
    expect(retried.status).toBe(201);
    expect(await rowCount()).toBe(before + 2); // one document: its draft and published rows
    const id = retried.body.data.documentId;

    fault = failAnswerOnce();
    const update = await app.request('PUT', `/api/notes/${id}`, { data: { title: 'changed' } });
    fault.stop();
    expect(update.status).toBe(500);
    expect((await app.request('GET', `/api/notes/${id}?status=draft`)).body.data.title).toBe('atomic');

    fault = failAnswerOnce();
    const mutation = await gql('mutation { createNote(data: { title: "atomic gql", payload: { n: 1 } }) { data { id } } }');
    fault.stop();
    expect(mutation.errors![0].extensions.code).toBe('INTERNAL_SERVER_ERROR');
    expect(await rowCount()).toBe(before + 2);

    fault = failAnswerOnce();
    const gqlUpdate = await gql(`mutation { updateNote(id: "${id}", data: { title: "changed" }) { data { id } } }`);
    fault.stop();
    expect(gqlUpdate.errors![0].extensions.code).toBe('INTERNAL_SERVER_ERROR');
    expect((await app.request('GET', `/api/notes/${id}?status=draft`)).body.data.title).toBe('atomic');
  });
});
