import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../helpers/databases.js';
import { startTestApp, type TestApp } from '../helpers/app.js';

// users-permissions' role routes, answered as Strapi 5.54 answers them (recorded from Strapi 5.54 run on the same model).
const model = {
  contentTypes: {
    note: {
      kind: 'collectionType',
      collectionName: 'notes',
      info: { singularName: 'note', pluralName: 'notes', displayName: 'Note' },
      options: { draftAndPublish: false },
      attributes: { title: { type: 'string' } },
    },
  },
  config: { plugins: { 'users-permissions': { config: { jwtSecret: 'role-routes-test', ratelimit: { max: 1000 } } } } },
};

const ROLES = '/api/users-permissions/roles';
type Role = { id: number; documentId: string; name: string; description: string | null; type: string; nb_users: number };

describeEachDialect('users-permissions role routes', (dialect) => {
  let app: TestApp;
  const none = { authorization: '' };
  const roles = async (): Promise<Role[]> => (await app.request('GET', ROLES)).body.roles;
  const roleOf = async (type: string) => (await roles()).find((r) => r.type === type)!;
  beforeAll(async () => {
    app = await startTestApp(dialect, model);
  });
  afterAll(async () => app?.close());

  it('GET /roles: every role by name, as its entry with nb_users; GET /permissions: every action, disabled', async () => {
    const listed = await app.request('GET', ROLES);
    expect(listed.status).toBe(200);
    expect(listed.body.roles.map((r: Role) => r.name)).toEqual(['Authenticated', 'Public']);
    expect(Object.keys(listed.body.roles[0]).sort()).toEqual(['createdAt', 'description', 'documentId', 'id', 'name', 'nb_users', 'publishedAt', 'type', 'updatedAt']);
    expect(listed.body.roles[0]).toMatchObject({ type: 'authenticated', description: 'Default role given to authenticated user.', nb_users: 0 });
    const permissions = await app.request('GET', '/api/users-permissions/permissions');
    expect(permissions.status).toBe(200);
    expect(permissions.body.permissions['api::note'].controllers.note).toEqual(
      Object.fromEntries(['find', 'findOne', 'create', 'update', 'delete'].map((a) => [a, { enabled: false, policy: '' }])),
    );
    expect(Object.keys(permissions.body.permissions['plugin::users-permissions'].controllers)).toEqual(['user', 'role', 'permissions', 'auth']);
    expect((await app.request('GET', `${ROLES}?sort=name`)).body.error).toMatchObject({ status: 400, message: 'Invalid key sort' });
  });

  it('POST creates a role from a name and a permissions tree; its users get those permissions at once', async () => {
    const created = await app.request('POST', ROLES, {
      name: 'Éditeur en chef',
      description: 'edits',
      permissions: { 'api::note': { controllers: { note: { find: { enabled: true }, create: { enabled: true }, delete: { enabled: false } } } } },
    });
    expect(created.status).toBe(200);
    expect(created.body).toEqual({ ok: true });
    const role = await roleOf('editeur_en_chef');
    expect(role).toMatchObject({ name: 'Éditeur en chef', description: 'edits', nb_users: 0 });
    const one = await app.request('GET', `${ROLES}/${role.id}`);
    expect(one.status).toBe(200);
    expect(one.body.role).toMatchObject({ id: role.id, documentId: role.documentId, name: 'Éditeur en chef', type: 'editeur_en_chef' });
    expect(one.body.role.permissions['api::note'].controllers.note).toEqual({
      find: { enabled: true, policy: '' },
      findOne: { enabled: false, policy: '' },
      create: { enabled: true, policy: '' },
      update: { enabled: false, policy: '' },
      delete: { enabled: false, policy: '' },
    });

    const user = await app.request('POST', '/api/users', { username: 'editor', email: 'editor@example.com', password: 'secret12', role: role.id, confirmed: true });
    expect(user.status, JSON.stringify(user.body)).toBe(201);
    const login = await app.request('POST', '/api/auth/local', { identifier: 'editor', password: 'secret12' }, none);
    const bearer = { authorization: `Bearer ${login.body.jwt}` };
    expect((await app.request('POST', '/api/notes', { data: { title: 'by the editor' } }, bearer)).status).toBe(201);
    expect((await app.request('GET', '/api/notes', undefined, bearer)).status).toBe(200);
    expect((await app.request('PUT', `/api/notes/x`, { data: { title: 'no' } }, bearer)).status).toBe(403);
    expect((await roleOf('editeur_en_chef')).nb_users).toBe(1);

    // The update's tree is the role's whole set (as in Strapi): the editor may now update, and no longer create.
    const updated = await app.request('PUT', `${ROLES}/${role.id}`, {
      name: 'Chef',
      permissions: { 'api::note': { controllers: { note: { find: { enabled: true }, update: { enabled: true } } } } },
    });
    expect(updated.body).toEqual({ ok: true });
    expect((await app.request('POST', '/api/notes', { data: { title: 'again' } }, bearer)).status).toBe(403);
    const chef = (await app.request('GET', `${ROLES}/${role.id}`)).body.role;
    expect(chef).toMatchObject({ name: 'Chef', description: 'edits', type: 'editeur_en_chef' });
    expect(chef.permissions['api::note'].controllers.note.update).toEqual({ enabled: true, policy: '' });
    // Without a tree, none.
    await app.request('PUT', `${ROLES}/${role.id}`, { description: 'none left' });
    const bare = (await app.request('GET', `${ROLES}/${role.id}`)).body.role;
    expect(Object.values(bare.permissions['api::note'].controllers.note).every((a) => !(a as { enabled: boolean }).enabled)).toBe(true);
    expect((await app.request('GET', '/api/notes', undefined, bearer)).status).toBe(403);

    // A role's users are never answered (Strapi's output sanitizer drops them), even when asked for.
    for (const populate of ['populate[role][populate][0]=users', 'populate[role]=*', 'populate[role][populate]=*']) {
      const populated = await app.request('GET', `/api/users/${user.body.id}?${populate}`);
      expect(populated.status, populate).toBe(200);
      expect(populated.body.role, populate).toMatchObject({ name: 'Chef' });
      expect(populated.body.role, populate).not.toHaveProperty('users');
    }
    expect((await app.request('GET', '/api/users?filters[role][users][username]=editor&fields[0]=username')).body).toEqual([
      { id: user.body.id, documentId: user.body.documentId, username: 'editor' },
    ]);

    // Deleting the role moves its users to the public role.
    expect((await app.request('DELETE', `${ROLES}/${role.id}`)).body).toEqual({ ok: true });
    expect((await roles()).map((r) => r.type)).toEqual(['authenticated', 'public']);
    const moved = await app.request('GET', `/api/users/${user.body.id}?populate=role`);
    expect(moved.body.role).toMatchObject({ type: 'public' });
    expect((await roleOf('public')).nb_users).toBe(1);
    await app.request('DELETE', `/api/users/${user.body.id}`);
  });

  it('bad input gets Strapi’s errors; a type already taken and a role without a name are refused', async () => {
    const empty = await app.request('POST', ROLES, {});
    expect(empty.status).toBe(400);
    expect(empty.body.error).toMatchObject({ name: 'ValidationError', message: 'Request body cannot be empty' });
    expect((await app.request('PUT', `${ROLES}/1`, {})).body.error).toMatchObject({ status: 400, message: 'Request body cannot be empty' });
    const noName = await app.request('POST', ROLES, { description: 'x' });
    expect(noName.body.error).toMatchObject({ status: 400, name: 'ValidationError', message: 'name is a required field' });
    const taken = await app.request('POST', ROLES, { name: 'Public' });
    expect(taken.body.error).toMatchObject({ status: 400, name: 'ValidationError', message: 'A role of type "public" already exists' });
    for (const [method, url, body] of [
      ['GET', `${ROLES}/99999`, undefined],
      ['GET', `${ROLES}/abc`, undefined],
      ['PUT', `${ROLES}/99999`, { name: 'x' }],
      ['DELETE', `${ROLES}/99999`, undefined],
    ] as const) {
      const res = await app.request(method, url, body);
      expect(res.status, `${method} ${url}`).toBe(404);
      expect(res.body.error).toMatchObject({ name: 'NotFoundError', message: 'Role not found' });
    }
    const publicRole = await roleOf('public');
    const protectedRole = await app.request('DELETE', `${ROLES}/${publicRole.id}`);
    expect(protectedRole.body.error).toMatchObject({ status: 400, name: 'ApplicationError', message: 'Cannot delete public role' });
    expect((await roles()).length).toBe(2);
  });

  it('each route is guarded by its own action', async () => {
    expect((await app.request('GET', ROLES, undefined, none)).status).toBe(403);
    expect((await app.request('POST', ROLES, { name: 'Sneaky' }, none)).status).toBe(403);
    expect((await app.request('GET', '/api/users-permissions/permissions', undefined, none)).status).toBe(403);
    const publicRole = await roleOf('public');
    const tree = { 'plugin::users-permissions': { controllers: { role: { find: { enabled: true } } } } };
    expect((await app.request('PUT', `${ROLES}/${publicRole.id}`, { permissions: tree })).body).toEqual({ ok: true });
    expect((await app.request('GET', ROLES, undefined, none)).status).toBe(200);
    expect((await app.request('GET', `${ROLES}/${publicRole.id}`, undefined, none)).status).toBe(403);
    expect((await app.request('POST', ROLES, { name: 'Sneaky' }, none)).status).toBe(403);
  });
});
