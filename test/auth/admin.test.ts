import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../helpers/databases.js';
import { startTestApp, writeApp, type TestApp } from '../helpers/app.js';

const root = join(import.meta.dirname, '..', '..');
const bin = join(root, 'bin', 'cairn.js');

const schemas = {
  contentTypes: {
    note: {
      kind: 'collectionType',
      collectionName: 'notes',
      info: { singularName: 'note', pluralName: 'notes', displayName: 'Note' },
      attributes: { title: { type: 'string' } },
    },
  },
  config: { plugins: { 'users-permissions': { config: { jwtSecret: 'admin-test' } } } },
  // Code in src/index.js reads and changes permissions through the plugin's service.
  index: `module.exports = { async bootstrap({ cairn }) {
    const permissions = cairn.plugin('users-permissions').service('permissions');
    await permissions.grant('public', ['api::note.note.find', 'plugin::users-permissions.user.find']);
    await permissions.grant('authenticated', ['plugin::users-permissions.user.update']);
  } };`,
};

it('cairn token create | list | revoke, against the app database', () => {
  const dir = writeApp(schemas);
  const run = (...args: string[]) => spawnSync(process.execPath, [bin, 'token', ...args, '--dir', dir], { encoding: 'utf8' });
  expect(spawnSync('npm', ['run', 'build'], { cwd: root }).status).toBe(0);
  const created = run('create', '--name', 'ci', '--type', 'custom', '--actions', 'api::note.note.find', '--lifespan', '7');
  expect(created.status, created.stderr).toBe(0);
  expect(created.stdout.trim()).toMatch(/^[0-9a-f]{128}$/);
  const list = run('list');
  expect(list.stdout).toMatch(/\tci\tcustom\texpires 20\d\d-/);
  expect(list.stdout).not.toContain(created.stdout.trim());
  expect(run('create', '--name', 'ci', '--type', 'read-only').status).toBe(1);
  expect(run('create', '--name', 'bad', '--type', 'superuser').status).toBe(1);
  expect(run('revoke', 'ci').status).toBe(0);
  expect(run('list').stdout).not.toContain('\tci\t');
  expect(run('revoke', 'ci').status).toBe(1);
}, 60_000);

describeEachDialect('users CRUD and permissions from code', (dialect) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(dialect, schemas);
  });
  afterAll(async () => app?.close());

  it('permissions granted by src/index.js apply', async () => {
    expect((await app.request('GET', '/api/notes', undefined, { authorization: '' })).status).toBe(200);
    expect((await app.request('POST', '/api/notes', { data: { title: 'x' } }, { authorization: '' })).status).toBe(403);
  });

  it('user create, update and delete follow their permissions; responses never carry the password', async () => {
    const roles = (await app.request('GET', '/api/users-permissions/roles')).body.roles as { id: number; documentId: string; type: string }[];
    const authenticated = roles.find((r) => r.type === 'authenticated')!;
    const publicRole = roles.find((r) => r.type === 'public')!;
    // As in Strapi 5: a role is required, by id or documentId; the answer has it; confirmed is false unless given.
    const noRole = await app.request('POST', '/api/users', { username: 'carol', email: 'Carol@Example.com', password: 'secret12' });
    expect(noRole.status).toBe(400);
    expect(noRole.body.error).toMatchObject({ name: 'ValidationError', message: 'role is a required field', details: { errors: [{ path: ['role'] }] } });
    const created = await app.request('POST', '/api/users', { username: 'carol', email: 'Carol@Example.com', password: 'secret12', role: authenticated.id });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ username: 'carol', email: 'carol@example.com', confirmed: false, role: { id: authenticated.id, type: 'authenticated' } });
    expect(created.body).not.toHaveProperty('password');
    const byDocumentId = await app.request('POST', '/api/users', { username: 'dave', email: 'dave@example.com', password: 'secret12', role: publicRole.documentId, confirmed: true });
    expect(byDocumentId.body).toMatchObject({ confirmed: true, role: { id: publicRole.id } });
    expect((await app.request('POST', '/api/users', { username: 'erin', email: 'erin@example.com', password: 'secret12', role: 99999 })).status).toBe(400);
    // A key the users administration does not write is named, on create as on update; nothing is made.
    const unknown = await app.request('POST', '/api/users', { username: 'erin', email: 'erin@example.com', password: 'secret12', role: authenticated.id, nickname: 'E' });
    expect(unknown.body.error).toMatchObject({ status: 400, name: 'ValidationError', message: 'Invalid key nickname' });
    expect((await app.request('PUT', `/api/users/${created.body.id}`, { nickname: 'C' })).body.error).toMatchObject({ status: 400, message: 'Invalid key nickname' });
    expect((await app.request('GET', '/api/users?filters[username][$eq]=erin')).body).toEqual([]);
    // Taken: Strapi's users controller names the email; the username is a unique attribute.
    const email = await app.request('POST', '/api/users', { username: 'other', email: 'carol@example.com', password: 'secret12', role: authenticated.id });
    expect(email.body.error).toMatchObject({ status: 400, name: 'ApplicationError', message: 'Email already taken' });
    const username = await app.request('POST', '/api/users', { username: 'carol', email: 'other@example.com', password: 'secret12', role: authenticated.id });
    expect(username.body.error).toMatchObject({ status: 400, name: 'ApplicationError', message: 'This attribute must be unique' });
    const listed = await app.request('GET', '/api/users', undefined, { authorization: '' });
    expect(listed.body.map((u: { username: string }) => u.username)).toContain('carol');
    const updated = await app.request('PUT', `/api/users/${created.body.id}`, { blocked: true, role: publicRole.id });
    expect(updated.body).toMatchObject({ blocked: true, role: { id: publicRole.id } });
    expect((await app.request('PUT', `/api/users/${created.body.id}`, { password: 'x' })).status).toBe(400);
    // The password the administration sets is the one that logs in (stored once hashed, as Strapi's user service edit).
    const login = (password: string) => app.request('POST', '/api/auth/local', { identifier: 'dave', password }, { authorization: '' });
    expect((await login('secret12')).status).toBe(200);
    expect((await app.request('PUT', `/api/users/${byDocumentId.body.id}`, { password: 'changed12' })).status).toBe(200);
    expect((await login('secret12')).status).toBe(400);
    expect((await login('changed12')).status).toBe(200);
    expect((await app.request('POST', '/api/users', { username: 'eve', email: 'e@example.com', password: 'secret12', role: authenticated.id }, { authorization: '' })).status).toBe(403);
    expect((await app.request('DELETE', `/api/users/${created.body.id}`, undefined, { authorization: '' })).status).toBe(403);
    expect((await app.request('DELETE', `/api/users/${created.body.id}`)).status).toBe(200);
    expect((await app.request('DELETE', `/api/users/${byDocumentId.body.id}`)).status).toBe(200);
    expect((await app.request('GET', `/api/users/${created.body.id}`)).status).toBe(404);
    // Updating a user that is not there: Strapi's NotFoundError names what is missing.
    const gone = await app.request('PUT', `/api/users/${created.body.id}`, { blocked: false });
    expect(gone.status).toBe(404);
    expect(gone.body).toMatchObject({ data: null, error: { status: 404, name: 'NotFoundError', message: 'User not found' } });
  });

  it("an update to another user's email or username is refused with Strapi's messages; the user's own values are fine", async () => {
    const roles = (await app.request('GET', '/api/users-permissions/roles')).body.roles as { id: number; type: string }[];
    const role = roles.find((r) => r.type === 'authenticated')!.id;
    const alice = (await app.request('POST', '/api/users', { username: 'alice', email: 'alice@example.com', password: 'secret12', role })).body;
    const bob = (await app.request('POST', '/api/users', { username: 'bob', email: 'bob@example.com', password: 'secret12', role })).body;
    // Strapi 5.54's users controller: the email compared lower-cased (advanced setting unique_email, true by default).
    const email = await app.request('PUT', `/api/users/${bob.id}`, { email: 'Alice@Example.com' });
    expect(email.status).toBe(400);
    expect(email.body.error).toMatchObject({ status: 400, name: 'ApplicationError', message: 'Email already taken' });
    const username = await app.request('PUT', `/api/users/${bob.id}`, { username: 'alice' });
    expect(username.status).toBe(400);
    expect(username.body.error).toMatchObject({ status: 400, name: 'ApplicationError', message: 'Username already taken' });
    expect((await app.request('GET', `/api/users/${bob.id}`)).body).toMatchObject({ username: 'bob', email: 'bob@example.com' });
    const own = await app.request('PUT', `/api/users/${alice.id}`, { username: 'alice', email: 'ALICE@example.com' });
    expect(own.status).toBe(200);
    expect(own.body).toMatchObject({ username: 'alice', email: 'alice@example.com' });
    for (const user of [alice, bob]) expect((await app.request('DELETE', `/api/users/${user.id}`)).status).toBe(200);
  });

  it("a user keeps a role: the users administration checks `role` as Strapi 5.54 does (answers probed on it)", async () => {
    const roles = (await app.request('GET', '/api/users-permissions/roles')).body.roles as { id: number; documentId: string; type: string }[];
    const [authenticated, publicRole] = ['authenticated', 'public'].map((type) => roles.find((r) => r.type === type)!);
    const user = { username: 'frank', email: 'frank@example.com', password: 'secret12' };
    const refused = async (method: string, url: string, body: unknown, message: string, errors: unknown[]) => {
      const answer = await app.request(method, url, body);
      expect(answer.status).toBe(400);
      expect(answer.body.error).toEqual({ status: 400, name: 'ValidationError', message, details: { errors } });
    };
    await refused('POST', '/api/users', { ...user, role: { connect: [] } }, 'Users must have a role', [{ path: ['role', 'connect'], message: 'Users must have a role', name: 'ValidationError', value: [] }]);
    await refused('POST', '/api/users', { ...user, role: {} }, 'role.connect is a required field', [{ path: ['role', 'connect'], message: 'role.connect is a required field', name: 'ValidationError' }]);
    const nameless = { path: ['role', 'connect', '0'], message: 'Relation entry must include an id or documentId', name: 'ValidationError', value: { name: 'x' } };
    await refused('POST', '/api/users', { ...user, role: { connect: [{ name: 'x' }] } }, nameless.message, [nameless]);
    expect((await app.request('GET', '/api/users?filters[username]=frank')).body).toEqual([]);

    const created = await app.request('POST', '/api/users', { ...user, role: { connect: [{ documentId: authenticated.documentId }] } });
    expect(created.status).toBe(201);
    expect(created.body.role).toMatchObject({ type: 'authenticated' });
    const url = `/api/users/${created.body.id}`;
    const disconnect = [{ documentId: authenticated.documentId }];
    await refused('PUT', url, { role: { connect: [], disconnect } }, 'Cannot remove role', [{ path: ['role', 'disconnect'], message: 'Cannot remove role', name: 'ValidationError', value: disconnect }]);
    await refused('PUT', url, { role: { disconnect: [1] } }, '2 errors occurred', [
      { path: ['role', 'disconnect', '0'], message: 'role.disconnect[0] must be a `object` type, but the final value was: `1`.', name: 'ValidationError', value: 1 },
      { path: ['role', 'disconnect'], message: 'Cannot remove role', name: 'ValidationError', value: [1] },
    ]);
    await refused('PUT', url, { role: null }, 'role must be a `object` type, but the final value was: `null`.', [
      { path: ['role'], message: 'role must be a `object` type, but the final value was: `null`.', name: 'ValidationError', value: null },
    ]);
    await refused('PUT', url, { role: true }, 'role must be a `strapiID` type, but the final value was: `true`.', [
      { path: ['role'], message: 'role must be a `strapiID` type, but the final value was: `true`.', name: 'ValidationError', value: true },
    ]);
    expect((await app.request('GET', `${url}?populate=role`)).body.role).toMatchObject({ type: 'authenticated' });
    // A replacement may go with the disconnect; a disconnect of nothing changes nothing.
    const replaced = await app.request('PUT', url, { role: { disconnect, connect: [{ id: publicRole.id }] } });
    expect(replaced.status).toBe(200);
    expect(replaced.body.role).toMatchObject({ type: 'public' });
    expect((await app.request('PUT', url, { role: { disconnect: [] } })).body.role).toMatchObject({ type: 'public' });
    expect((await app.request('DELETE', url)).status).toBe(200);
  });

  it('without a configured secret, development generates one in .tmp/ and reuses it on the next start', async () => {
    const { readFileSync } = await import('node:fs');
    const dir = writeApp({ ...schemas, config: {} });
    const first = await startTestApp(dialect, dir);
    const register = await first.request('POST', '/api/auth/local/register', { username: 'dev', email: 'dev@example.com', password: 'secret12' }, { authorization: '' });
    expect(register.body.jwt.split('.')).toHaveLength(3);
    const secret = readFileSync(join(dir, '.tmp', 'jwt-secret'), 'utf8');
    expect(secret.length).toBeGreaterThan(20);
    await first.close();
    const second = await startTestApp(dialect, dir);
    await second.close();
    expect(readFileSync(join(dir, '.tmp', 'jwt-secret'), 'utf8')).toBe(secret);
  });
});
