import { afterAll, beforeAll, expect, it } from 'vitest';
import bcrypt from 'bcryptjs';
import { describeEachDialect } from '../helpers/databases.js';
import { startTestApp, type TestApp } from '../helpers/app.js';

// Strapi 5.54's Document Service hashes a content type's `password` attributes before it stores them (its
// attributes/transforms.js: bcrypt, `encryption.rounds` or 10); a component's are stored as given, as Strapi's are.
const model = {
  contentTypes: {
    vault: {
      kind: 'collectionType',
      collectionName: 'vaults',
      info: { singularName: 'vault', pluralName: 'vaults', displayName: 'Vault' },
      options: { draftAndPublish: true },
      attributes: {
        label: { type: 'string' },
        pin: { type: 'password' },
        quick: { type: 'password', encryption: { rounds: 4 } },
        note: { type: 'component', repeatable: false, component: 'parts.note' },
      },
    },
  },
  components: {
    'parts.note': { collectionName: 'components_parts_notes', info: { displayName: 'Note' }, attributes: { code: { type: 'password' } } },
  },
  config: { plugins: { 'users-permissions': { config: { jwtSecret: 'test-secret', ratelimit: { max: 1000 } } } } },
};

describeEachDialect('password attributes are stored as bcrypt hashes', (dialect) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(dialect, model);
  });
  afterAll(async () => app?.close());

  const stored = async (documentId: string) =>
    app.cairn.db.query<{ pin: string | null; quick: string | null; published_at: unknown }>('SELECT pin, quick, published_at FROM vaults WHERE document_id = ? ORDER BY id', [documentId]);

  it('REST create and update: every version row holds a hash of what was sent, never the password, never in the answer', async () => {
    const created = await app.request('POST', '/api/vaults', { data: { label: 'a', pin: 'hunter22', quick: 'open sesame', note: { code: 'c0mp' } } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.data).not.toHaveProperty('pin');
    const { documentId } = created.body.data;
    const rows = await stored(documentId);
    expect(rows).toHaveLength(2); // the draft and the published row
    for (const row of rows) {
      expect(row.pin).toMatch(/^\$2[aby]\$10\$/);
      expect(await bcrypt.compare('hunter22', row.pin!)).toBe(true);
      // The attribute's own rounds (Strapi's `encryption.rounds`).
      expect(row.quick).toMatch(/^\$2[aby]\$04\$/);
      expect(await bcrypt.compare('open sesame', row.quick!)).toBe(true);
    }
    // A component's password is stored as given, as Strapi 5.54 stores it (its transforms skip components).
    const [component] = await app.cairn.db.query<{ code: string }>('SELECT code FROM components_parts_notes');
    expect(component.code).toBe('c0mp');

    const updated = await app.request('PUT', `/api/vaults/${documentId}`, { data: { pin: 'correct horse' } });
    expect(updated.status).toBe(200);
    const after = await stored(documentId);
    for (const row of after) {
      expect(await bcrypt.compare('correct horse', row.pin!)).toBe(true);
      expect(await bcrypt.compare('open sesame', row.quick!)).toBe(true);
    }
    // An update without the password keeps the hash as it was (not hashed again).
    await app.request('PUT', `/api/vaults/${documentId}`, { data: { label: 'b' } });
    expect((await stored(documentId)).map((r) => r.pin)).toEqual(after.map((r) => r.pin));
    // null clears it, as Strapi stores null.
    await app.request('PUT', `/api/vaults/${documentId}`, { data: { pin: null } });
    expect((await stored(documentId)).map((r) => r.pin)).toEqual([null, null]);
  });

  it("app code's Document Service hashes too, a draft's included", async () => {
    const vaults = app.cairn.documents('api::vault.vault');
    const draft = await vaults.create({ data: { label: 'code', pin: 'from code' }, status: 'draft' });
    const [row] = await stored(draft!.documentId as string);
    expect(row.published_at).toBeNull();
    expect(await bcrypt.compare('from code', row.pin!)).toBe(true);
  });

  it('a password that is not a string is refused (400), nothing written', async () => {
    const before = await app.cairn.db.query('SELECT COUNT(*) AS n FROM vaults');
    const res = await app.request('POST', '/api/vaults', { data: { label: 'x', pin: 1234 } });
    expect(res.status).toBe(400);
    expect(res.body.error.name).toBe('ValidationError');
    expect(await app.cairn.db.query('SELECT COUNT(*) AS n FROM vaults')).toEqual(before);
  });

  it('a user made by app code (as Strapi\'s user service `add` makes it) logs in with its password', async () => {
    const roles = await app.cairn.db.query<{ id: number }>("SELECT id FROM up_roles WHERE type = 'authenticated'");
    const users = app.cairn.documents('plugin::users-permissions.user');
    await users.create({ data: { username: 'coder', email: 'coder@example.com', password: 'Test1234', provider: 'local', confirmed: true, role: Number(roles[0].id) } });
    const [user] = await app.cairn.db.query<{ password: string }>("SELECT password FROM up_users WHERE username = 'coder'");
    expect(user.password).not.toBe('Test1234');
    const login = await app.request('POST', '/api/auth/local', { identifier: 'coder@example.com', password: 'Test1234' }, { authorization: '' });
    expect(login.status, JSON.stringify(login.body)).toBe(200);
    expect(login.body.user.username).toBe('coder');
    // Registered through the API (hashed once, by the same path): logs in too.
    const registered = await app.request('POST', '/api/auth/local/register', { username: 'reg', email: 'reg@example.com', password: 'Secret123' }, { authorization: '' });
    expect(registered.status, JSON.stringify(registered.body)).toBe(200);
    expect((await app.request('POST', '/api/auth/local', { identifier: 'reg', password: 'Secret123' }, { authorization: '' })).status).toBe(200);
  });
});
